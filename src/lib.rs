//! nvbench-compare: compare two NVBench JSON result files state by state.
//!
//! Data flows one way, one folder a stage: [`loading`] reads the files,
//! [`matching`] pairs devices and states, [`deciding`] gives each pair a
//! status, [`rendering`] prints, [`output`] owns every destination.
//! [`pycompat`] is the Python-compatibility wing the renderers use for the
//! reference's exact text. [`cli`] turns the command line into validated
//! [`settings`]; [`app`] is the pipeline that runs the stages in order.

// Public: what the executable, the integration tests and the fuzz targets
// use. The rest is the crate's own.
pub mod cli;
mod cpu;
pub mod deciding;
pub mod loading;
pub mod pycompat;

mod app;
mod failure;
mod fast_paths;
mod matching;
mod memory;
mod messages;
mod output;
mod parallel;
pub mod personality;
mod rendering;
mod settings;
mod suggest;
mod text;

pub use fast_paths::SIMPLE_PATHS_VARIABLE;

/// The executable `nvbench-compare`: see [`main_as`].
pub fn main() -> std::process::ExitCode {
    main_as(personality::Personality::Compare)
}

/// An executable whose own personality is `own` (the one it keeps when
/// neither its name nor its first argument chooses another): picks the
/// personality, parses, runs, and gives the exit status, with the
/// process-wide settings only the executable may make (tests and fuzzers
/// run many comparisons in one process).
pub fn main_as(own: personality::Personality) -> std::process::ExitCode {
    use std::io::Write;
    output::report_oversized_writes();
    let invocation = match cli::personality::select(std::env::args_os().collect(), own) {
        Ok(invocation) => invocation,
        Err(message) => {
            messages::error(message);
            return std::process::ExitCode::from(2);
        }
    };
    messages::set_program(invocation.personality.profile().command);
    if invocation.personality == personality::Personality::Legacy {
        let settings = match cli::legacy::parse(invocation.args) {
            Ok(settings) => settings,
            Err(code) => return std::process::ExitCode::from(code),
        };
        let stdout = output::stdout::ClosedPipeTolerant::new(std::io::stdout().lock());
        let mut out = std::io::BufWriter::new(stdout);
        return std::process::ExitCode::from(app::legacy::run(&settings, &mut out));
    }
    let (mut cli, filter_args) = match cli::parse(invocation.args) {
        Ok(parsed) => parsed,
        Err(code) => return std::process::ExitCode::from(u8::try_from(code).unwrap_or(2)),
    };
    cli.personality = invocation.personality;
    parallel::exit_after_run();
    memory::keep_freed_memory();
    let stdout = output::stdout::ClosedPipeTolerant::new(std::io::stdout().lock());
    let mut out = std::io::BufWriter::new(stdout);
    let code = run(cli, &filter_args, &mut out);
    let _ = out.flush();
    std::process::ExitCode::from(code)
}

#[cfg(test)]
mod layering;
#[cfg(test)]
mod testing;

/// Runs a parsed command line, writing the report to `out`; gives the exit
/// code. Everything written is flushed here, so that a write error on
/// stdout, even of a small output held in a buffer, fails the run.
pub fn run(
    cli: cli::Cli,
    filter_args: &[matching::filters::FilterArg],
    out: &mut dyn std::io::Write,
) -> u8 {
    let code = match cli::into_command(cli, filter_args) {
        Ok(cli::Command::Print(text)) => match out.write_all(text.as_bytes()) {
            Ok(()) => 0,
            Err(e) => app::report_failure(failure::Failure::write(e), out),
        },
        Ok(cli::Command::Compare(settings)) => app::run(&settings, out),
        Err(failure) => app::report_failure(failure, out),
    };
    match out.flush() {
        // A run that failed already said why (or could not: its message
        // was for stdout); its status stands.
        Err(e) if code != 1 => {
            app::report_failure(failure::Failure::write(e), &mut std::io::sink())
        }
        _ => code,
    }
}
