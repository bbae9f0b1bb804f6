//! nvbench-compare: compare two NVBench JSON result files state by state.
//!
//! Data flows one way: [`inputs`] and [`model`] load, [`matching`] pairs
//! states, [`compare`] decides, [`render`] prints.

pub mod app;
pub mod atomic;
pub mod charts;
pub mod cli;
pub mod collisions;
pub mod compare;
pub mod config;
pub mod coverage;
pub mod device_diff;
pub mod failure;
pub mod fastjson;
pub mod filters;
pub mod gate;
pub mod inputs;
pub mod mapped;
pub mod matching;
pub mod memory;
pub mod model;
pub mod parallel;
pub mod pprint;
pub mod pyfmt;
pub mod pyjson;
pub mod render;
pub mod report;
pub mod sidecar;
pub mod sigbus;
pub mod stdout;
pub mod tabulate;
pub mod timing;

use std::io::Write;

use failure::Failure;

/// Runs a parsed command line, writing the report to `out`; returns the exit code.
pub fn run(cli: cli::Cli, filter_args: &[filters::FilterArg], out: &mut dyn Write) -> u8 {
    let command = match cli::into_command(cli, filter_args) {
        Ok(command) => command,
        Err(failure) => return report_failure(failure, out),
    };
    match command {
        cli::Command::DumpConfig(text) => match out.write_all(text.as_bytes()) {
            Ok(()) => 0,
            Err(e) => report_failure(Failure::write(e), out),
        },
        cli::Command::Compare(settings, extras) => compare(&settings, &extras, out),
    }
}

/// A comparison run, its extra outputs, and the gate.
fn compare(settings: &app::Settings, extras: &cli::Extras, out: &mut dyn Write) -> u8 {
    let mut run = app::Run::new(settings);
    match collisions::OutputGuard::new(collisions::file_outputs(settings, extras)) {
        Ok(guard) => run.outputs = guard,
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
    let report = &run.report;
    let documents = [
        extras.json.as_ref().map(|destination| {
            let text = render::json::render_json(report, &settings.preset, &settings.thresholds);
            (destination, text)
        }),
        extras.markdown.as_ref().map(|destination| {
            (
                destination,
                render::markdown::render_markdown(report, extras.max_bytes),
            )
        }),
    ];
    for (destination, text) in documents.into_iter().flatten() {
        if let Err(failure) = write_destination(destination, &text, out) {
            return fail(failure, out);
        }
    }
    let failures = gate::gate_failures(report, &extras.fail_on);
    if failures.is_empty() {
        return 0;
    }
    let _ = out.flush();
    eprintln!(
        "nvbench-compare: {}",
        gate::describe_failures(&failures, &extras.fail_on)
    );
    gate::GATE_FAILED_EXIT
}

/// Writes an extra output to a file, or to stdout for `-`.
fn write_destination(destination: &str, text: &str, out: &mut dyn Write) -> Result<(), Failure> {
    let result = if destination == "-" {
        out.write_all(text.as_bytes())
    } else {
        atomic::write_file(destination, text.as_bytes())
    };
    result.map_err(|e| Failure::fatal(format!("cannot write {destination}: {e}")))
}

fn report_failure(failure: Failure, out: &mut dyn Write) -> u8 {
    match failure {
        Failure::Reported(message) => {
            let _ = writeln!(out, "{message}");
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
            return collisions::CONFLICT_EXIT;
        }
    }
    1
}
