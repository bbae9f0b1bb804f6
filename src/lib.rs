//! nvbench-compare: compare two NVBench JSON result files state by state.
//!
//! Data flows one way, one folder a stage: [`loading`] reads the files,
//! [`matching`] pairs devices and states, [`deciding`] gives each pair a
//! status, [`rendering`] prints. [`pycompat`] is the Python-compatibility
//! wing the renderers use for the reference's exact text. [`app`] runs the
//! stages in order; [`cli`] turns the command line into validated settings.

pub mod app;
pub mod cli;
pub mod deciding;
pub mod failure;
pub mod loading;
pub mod matching;
pub mod memory;
pub mod output;
pub mod parallel;
pub mod pycompat;
pub mod rendering;
pub mod suggest;
pub mod text;

use std::io::Write;

use failure::Failure;

/// Runs a parsed command line, writing the report to `out`; returns the exit code.
pub fn run(cli: cli::Cli, filter_args: &[matching::filters::FilterArg], out: &mut dyn Write) -> u8 {
    let command = match cli::into_command(cli, filter_args) {
        Ok(command) => command,
        Err(failure) => return report_failure(failure, out),
    };
    match command {
        cli::Command::Print(text) => match out.write_all(text.as_bytes()) {
            Ok(()) => 0,
            Err(e) => report_failure(Failure::write(e), out),
        },
        cli::Command::Compare(settings, extras) => compare(&settings, &extras, out),
    }
}

/// A comparison run, its extra outputs, and the gate.
fn compare(settings: &app::Settings, extras: &cli::Extras, out: &mut dyn Write) -> u8 {
    let mut run = Runner::new(settings);
    match output::collisions::OutputGuard::new(output::collisions::file_outputs(settings, extras)) {
        Ok(guard) => run.set_outputs(guard),
        Err(failure) => return report_failure(failure, out),
    }
    // With `--json -` the JSON document is all that goes to stdout; the
    // messages the reference prints on stdout go to stderr instead.
    let json_to_stdout = extras.json_to_stdout();
    let fail = |failure: Failure, out: &mut dyn Write| {
        if json_to_stdout {
            report_failure(failure, &mut std::io::stderr())
        } else {
            report_failure(failure, out)
        }
    };
    let executed = if json_to_stdout {
        run.execute(&mut std::io::sink())
    } else {
        run.execute(out)
    };
    if let Err(failure) = executed {
        return fail(failure, out);
    }
    let report = run.report();
    let no_offer = matching::nothing_compared::Offer::default();
    let offer = run.offer().unwrap_or(&no_offer);
    let nothing_compared = (report.tally.total == 0)
        .then(|| matching::nothing_compared::explain(offer, &settings.filters));
    if report.tally.total > 0 {
        let _ = out.flush();
        for warning in matching::nothing_compared::unmatched_filters(offer, &settings.filters) {
            eprintln!("nvbench-compare: warning: {warning}");
        }
    }
    let gate = deciding::gate::GateOutcome::decide(report, &extras.fail_on, nothing_compared);
    let documents = [
        extras.json.as_ref().map(|destination| {
            let text =
                rendering::json::render_json(report, &gate, &settings.preset, &settings.thresholds);
            (destination, Ok(text), false)
        }),
        extras.markdown.as_ref().map(|destination| {
            let summary = rendering::markdown::Summary {
                report,
                gate: &gate,
                reference: &settings.reference,
                compare: &settings.compare,
                preset: &settings.preset,
                thresholds: &settings.thresholds,
            };
            let text = rendering::markdown::render_markdown(&summary, extras.max_bytes)
                .map_err(Failure::Fatal);
            (destination, text, is_step_summary(destination))
        }),
    ];
    for (destination, text, append) in documents.into_iter().flatten() {
        let written = text.and_then(|text| write_destination(destination, &text, append, out));
        if let Err(failure) = written {
            return fail(failure, out);
        }
    }
    let _ = out.flush();
    for message in gate.messages() {
        eprintln!("nvbench-compare: {message}");
    }
    match gate.verdict() {
        deciding::gate::Verdict::Failed => deciding::gate::GATE_FAILED_EXIT,
        deciding::gate::Verdict::Passed | deciding::gate::Verdict::NotGated => 0,
    }
}

/// `path` is GitHub's job summary file, `$GITHUB_STEP_SUMMARY`, which
/// earlier steps may have written to.
fn is_step_summary(path: &str) -> bool {
    let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()) else {
        return false;
    };
    let (path, summary) = (std::path::Path::new(path), std::path::Path::new(&summary));
    path == summary
        || matches!((path.canonicalize(), summary.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// Writes an extra output to a file, or to stdout for `-`. With `append`,
/// the file keeps what it had (as GitHub does with step summaries) and the
/// document is added in one write.
fn write_destination(
    destination: &str,
    text: &str,
    append: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let result = if destination == "-" {
        out.write_all(text.as_bytes())
    } else if append {
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(destination)
            .and_then(|mut file| file.write_all(text.as_bytes()))
    } else {
        output::atomic::write_file(destination, text.as_bytes())
    };
    result.map_err(|e| Failure::fatal(format!("cannot write {destination}: {e}")))
}

fn report_failure(failure: Failure, out: &mut dyn Write) -> u8 {
    let code = failure.exit_code();
    match failure {
        Failure::Reported(message) => {
            let _ = writeln!(out, "{message}");
        }
        Failure::ReportedWithNotes(message, notes) => {
            let _ = writeln!(out, "{message}");
            let _ = out.flush();
            for note in notes {
                eprintln!("nvbench-compare: {note}");
            }
        }
        Failure::Fatal(message) => {
            let _ = out.flush();
            eprintln!("nvbench-compare: error: {message}");
        }
        Failure::AlreadyReported => {}
        Failure::Usage => {
            let _ = cli::write_help(out);
        }
        Failure::Conflict(message) => {
            let _ = out.flush();
            eprintln!("nvbench-compare: error: {message}");
        }
    }
    code
}

/// The usual run of a pair, or a repetition-mode run (`--vs`).
enum Runner<'s> {
    Pair(Box<app::Run<'s>>),
    Repeated(Box<app::repeated::RepeatRun<'s>>),
}

impl<'s> Runner<'s> {
    fn new(settings: &'s app::Settings) -> Self {
        match &settings.repetitions {
            Some(sides) => {
                Runner::Repeated(Box::new(app::repeated::RepeatRun::new(settings, sides)))
            }
            None => Runner::Pair(Box::new(app::Run::new(settings))),
        }
    }

    fn execute(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        match self {
            Runner::Pair(run) => run.execute(out),
            Runner::Repeated(run) => run.execute(out),
        }
    }

    /// The file outputs, which no input may be.
    fn set_outputs(&mut self, guard: output::collisions::OutputGuard) {
        match self {
            Runner::Pair(run) => run.outputs = guard,
            Runner::Repeated(run) => run.outputs = guard,
        }
    }

    fn report(&self) -> &deciding::report::Report {
        match self {
            Runner::Pair(run) => &run.report,
            Runner::Repeated(run) => &run.report,
        }
    }

    /// What the inputs offered, for explaining filters that matched nothing
    /// (pair mode only).
    fn offer(&self) -> Option<&matching::nothing_compared::Offer> {
        match self {
            Runner::Pair(run) => Some(&run.offer),
            Runner::Repeated(_) => None,
        }
    }
}
