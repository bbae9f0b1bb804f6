//! nvbench-compare: compare two NVBench JSON result files state by state.
//!
//! Data flows one way: [`inputs`] and [`model`] load, [`matching`] pairs
//! states, [`compare`] decides, [`render`] prints.

pub mod app;
pub mod cli;
pub mod compare;
pub mod config;
pub mod coverage;
pub mod device_diff;
pub mod failure;
pub mod filters;
pub mod inputs;
pub mod matching;
pub mod model;
pub mod pprint;
pub mod pyfmt;
pub mod render;
pub mod report;
pub mod sidecar;
pub mod tabulate;
pub mod timing;

use std::io::Write;

use failure::Failure;

/// Runs a parsed command line, writing the report to `out`; returns the exit code.
pub fn run(cli: cli::Cli, filter_args: &[filters::FilterArg], out: &mut dyn Write) -> u8 {
    let result = cli::into_command(cli, filter_args).and_then(|command| match command {
        cli::Command::DumpConfig(text) => out
            .write_all(text.as_bytes())
            .map_err(|e| Failure::fatal(format!("cannot write output: {e}"))),
        cli::Command::Compare(settings) => app::Run::new(&settings).execute(out),
    });
    match result {
        Ok(()) => 0,
        Err(failure) => report_failure(failure, out),
    }
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
    }
    1
}
