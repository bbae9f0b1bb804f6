//! The end of a run: the text after the tables, the documents (`--json`,
//! `--markdown-summary`, `--bulk-debug-python`), the gate and its
//! messages, and how a failure is reported.

use std::io::Write;

use crate::deciding::gate::{GATE_FAILED_EXIT, GateOutcome, Verdict};
use crate::deciding::report::Report;
use crate::failure::Failure;
use crate::matching::nothing_compared::{Offer, explain, unmatched_filters};
use crate::output::{Console, Document, Outputs};
use crate::pycompat::pprint::PyValue;
use crate::rendering::bulk_debug::bulk_debug_script;
use crate::rendering::summary::{render_missing, render_missing_counts, render_summary};
use crate::rendering::table::DisplayMode;
use crate::settings::Settings;

/// Counts printed before the summary in repetition mode.
#[derive(Debug, Default)]
pub(super) struct Notes {
    /// States that some runs of a side lack (they are merged from the others).
    pub(super) incomplete_states: usize,
}

/// The text after the tables: the notes, NEW/DROPPED, the summary, the
/// next steps.
pub(super) fn summary_text(s: &Settings, report: &Report, notes: &Notes) -> String {
    let mut text = String::new();
    if notes.incomplete_states > 0 {
        text.push_str(&format!(
            "Note: {} state(s) are missing from some runs and were merged from the runs that have them (see Reps).\n\n",
            notes.incomplete_states
        ));
    }
    if s.report_missing {
        text.push_str(&render_missing(&report.missing));
    }
    text.push_str(&render_summary(
        &report.tally,
        s.display == DisplayMode::Explain,
    ));
    if s.report_missing {
        text.push_str(&render_missing_counts(report));
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
pub(super) fn write_bulk_debug(
    s: &Settings,
    outputs: &Outputs,
    rows: Option<Vec<PyValue>>,
    console: &mut Console,
) -> Result<(), Failure> {
    let (Some(destination), Some(rows)) = (&s.outputs.bulk_debug, rows) else {
        return Ok(());
    };
    outputs.write_bulk_debug(destination, &bulk_debug_script(rows), console)
}

/// After the summary: warnings about filters, the documents, the gate's
/// messages; gives the exit status.
pub(super) fn finish(
    s: &Settings,
    report: &Report,
    offer: &Offer,
    outputs: &Outputs,
    console: &mut Console,
) -> Result<u8, Failure> {
    let nothing_compared = (report.tally.total == 0).then(|| explain(offer, &s.filters));
    if report.tally.total > 0 {
        console.flush();
        for warning in unmatched_filters(offer, &s.filters) {
            eprintln!("nvbench-compare: warning: {warning}");
        }
    }
    let gate = GateOutcome::decide(report, &s.fail_on, nothing_compared);
    if let Some(destination) = &s.outputs.json {
        let text = crate::rendering::json::render_json(report, &gate, &s.preset, &s.thresholds);
        let document = Document {
            destination,
            text: &text,
        };
        outputs.write_document(document, console)?;
    }
    if let Some(destination) = &s.outputs.markdown {
        let summary = crate::rendering::markdown::Summary {
            report,
            gate: &gate,
            reference: s.reference_label(),
            compare: s.compare_label(),
            preset: &s.preset,
            thresholds: &s.thresholds,
        };
        let text = crate::rendering::markdown::render_markdown(&summary, s.outputs.max_bytes)
            .map_err(Failure::Fatal)?;
        let document = Document {
            destination,
            text: &text,
        };
        outputs.write_document(document, console)?;
    }
    console.flush();
    for message in gate.messages() {
        eprintln!("nvbench-compare: {message}");
    }
    Ok(match gate.verdict() {
        Verdict::Failed => GATE_FAILED_EXIT,
        Verdict::Passed | Verdict::NotGated => 0,
    })
}

/// Prints a failure where the reference prints it (stdout, or stderr when
/// stdout carries another document) and gives the exit status.
pub fn report_failure(failure: Failure, out: &mut dyn Write) -> u8 {
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
        Failure::Fatal(message) | Failure::Conflict(message) => {
            let _ = out.flush();
            eprintln!("nvbench-compare: error: {message}");
        }
        Failure::AlreadyReported => {}
        Failure::Usage => {
            let _ = crate::cli::write_help(out);
        }
    }
    code
}
