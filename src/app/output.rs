//! Where a run's text goes besides the tables: warnings printed among them
//! (or on stderr when stdout carries another document), the text after the
//! tables, and the `--bulk-debug-python` script.

use std::io::Write;

use crate::deciding::report::Report;
use crate::failure::Failure;
use crate::pycompat::oserror::os_error_text;
use crate::pycompat::pprint::PyValue;
use crate::rendering::bulk_debug::bulk_debug_script;
use crate::rendering::summary::{render_missing, render_summary};
use crate::rendering::table::DisplayMode;

use super::Settings;

/// Where warnings printed among the tables go: with the tables, or to
/// stderr when the tables are not printed (see `notes_to_stderr`).
pub(crate) fn notes<'o>(
    settings: &Settings,
    out: &'o mut dyn Write,
    stderr: &'o mut std::io::Stderr,
) -> &'o mut dyn Write {
    if settings.notes_to_stderr {
        stderr
    } else {
        out
    }
}

/// The text after the tables: NEW/DROPPED, the summary, the next steps.
pub(crate) fn summary_text(s: &Settings, report: &Report) -> String {
    let missing = s.report_missing.then_some(report.missing.as_slice());
    let mut text = missing.map(render_missing).unwrap_or_default();
    text.push_str(&render_summary(
        &report.tally,
        s.display == DisplayMode::Explain,
    ));
    if s.report_missing {
        text.push_str(&crate::rendering::summary::render_missing_counts(report));
    }
    if s.explain_ambg {
        let steps = crate::rendering::advice::render_next_steps(&report.tally);
        if !steps.is_empty() {
            text.push('\n');
            text.push_str(&steps);
        }
    }
    text
}

/// Writes the `--bulk-debug-python` script of the rows, when asked for.
pub(crate) fn write_bulk_debug(
    s: &Settings,
    rows: Option<Vec<PyValue>>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let (Some(destination), Some(rows)) = (&s.bulk_debug, rows) else {
        return Ok(());
    };
    let script = bulk_debug_script(rows);
    if destination.eq_ignore_ascii_case("stdout") {
        return out.write_all(script.as_bytes()).map_err(Failure::write);
    }
    crate::output::atomic::write_file(destination, script.as_bytes()).map_err(|e| {
        Failure::reported(format!(
            "failed to write bulk debug Python output: {}",
            os_error_text(&e, destination)
        ))
    })
}
