//! `--display gbench`: the two files read as compare.py reads them and its
//! report printed (`rendering::gbench`), with its messages where it has
//! its own (a file that is not JSON, an unsupported schema version) and a
//! clear error of this tool's where it dies with a traceback.

use crate::failure::Failure;
use crate::loading::gbench::{
    GbenchFile, ReadError, check_schema_version, read_failure, read_file,
};
use crate::loading::opening::{self, cannot_read};
use crate::output::Console;
use crate::rendering::gbench::{CompareOptions, render_compare_py};
use crate::settings::Settings;

/// Prints compare.py's report of each pair of files; gives the exit status.
pub(super) fn run(s: &Settings, o: CompareOptions, console: &mut Console) -> Result<u8, Failure> {
    let groups = super::groups_of_runs(s)?;
    for group in &groups.groups {
        let paths = [
            group.sides[0][0].path.as_str(),
            group.sides[1][0].path.as_str(),
        ];
        let [lhs, rhs] = read_pair(paths)?;
        let text =
            render_compare_py((paths[0], paths[1]), (&lhs, &rhs), o).map_err(Failure::Fatal)?;
        console
            .tables()
            .write_all(text.as_bytes())
            .map_err(Failure::write)?;
    }
    Ok(0)
}

/// compare.py's order of checks: both files exist (its argument parser,
/// exit 2), both are JSON (its message, exit 1), then each is loaded and
/// its schema version checked, the baseline first.
fn read_pair(paths: [&str; 2]) -> Result<[GbenchFile; 2], Failure> {
    for path in paths {
        // Opened without blocking: a FIFO is refused here, not waited on.
        if let Err(e) = opening::open_input(crate::text::path_text::to_path(path)) {
            return Err(Failure::Conflict(cannot_read(&e, path)));
        }
    }
    // Both files are parsed at once (the second on the run's helper thread).
    let second = paths[1].to_string();
    let pending = crate::parallel::run_on_helper(move || read_file(&second));
    let read = [read_file(paths[0]), pending.join()];
    for (path, result) in paths.iter().zip(&read) {
        if let Err(ReadError::Json(_)) = result {
            return Err(Failure::reported(format!(
                "Invalid input file: '{path}' does not name a valid benchmark executable or JSON file"
            )));
        }
    }
    let mut files = Vec::with_capacity(2);
    for (path, result) in paths.iter().zip(read) {
        let file = result.map_err(|e| match e {
            ReadError::Io(e) => Failure::Conflict(cannot_read(&e, path)),
            other => read_failure(path, other),
        })?;
        check_schema_version(path, &file)?;
        files.push(file);
    }
    let rhs = files.pop();
    let lhs = files.pop();
    match (lhs, rhs) {
        (Some(lhs), Some(rhs)) => Ok([lhs, rhs]),
        _ => Err(Failure::fatal("two files are compared")),
    }
}
