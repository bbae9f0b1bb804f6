//! The `nvbench-compare` executable: parse the command line, run, exit.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    nvbench_compare::output::report_oversized_writes();
    let (cli, filter_args) = match nvbench_compare::cli::parse(std::env::args_os()) {
        Ok(parsed) => parsed,
        Err(code) => return ExitCode::from(u8::try_from(code).unwrap_or(2)),
    };
    nvbench_compare::parallel::exit_after_run();
    nvbench_compare::memory::keep_freed_memory();
    let stdout = nvbench_compare::output::stdout::ClosedPipeTolerant::new(std::io::stdout().lock());
    let mut out = BufWriter::new(stdout);
    let code = nvbench_compare::run(cli, &filter_args, &mut out);
    let _ = out.flush();
    ExitCode::from(code)
}
