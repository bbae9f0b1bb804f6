//! nvbench-compare: compare two NVBench JSON result files state by state.
//!
//! Data flows one way, one folder a stage: [`loading`] reads the files,
//! [`matching`] pairs devices and states, [`deciding`] gives each pair a
//! status, [`rendering`] prints, [`output`] owns every destination.
//! [`pycompat`] is the Python-compatibility wing the renderers use for the
//! reference's exact text. [`cli`] turns the command line into validated
//! [`settings`]; [`app`] is the pipeline that runs the stages in order.

pub mod app;
pub mod cli;
mod cpu;
pub mod deciding;
pub mod failure;
pub mod fast_paths;
pub mod loading;
pub mod matching;
pub mod memory;
pub mod output;
pub mod parallel;
pub mod pycompat;
pub mod rendering;
pub mod settings;
pub mod suggest;
pub mod text;

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
