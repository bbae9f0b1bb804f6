//! The end of a run: the text after the tables, the documents (`--json`,
//! `--markdown-summary`, `--bulk-debug-python`), the gate and its
//! messages, and how a failure is reported.

use std::io::Write;

use super::rerun::RerunCollector;
use crate::deciding::gate::{GATE_FAILED_EXIT, GateOutcome, Verdict};
use crate::deciding::report::Report;
use crate::failure::Failure;
use crate::matching::nothing_compared::{Offer, explain, unmatched_filters};
use crate::output::{Console, Document, Outputs};
use crate::pycompat::pprint::PyValue;
use crate::rendering::bulk_debug::{Reader, bulk_debug_script};
use crate::rendering::nway::render_nway_summary;
use crate::rendering::summary::{render_missing, render_missing_counts, render_summary};
use crate::rendering::table::DisplayMode;
use crate::settings::{Layout, Settings};
use crate::text::path_text::to_text;
use crate::text::printable::printable;

/// Counts printed before the summary in repetition mode.
#[derive(Debug, Default)]
pub(super) struct Notes {
    /// States that some runs of a side lack (they are merged from the others).
    pub(super) incomplete_states: usize,
    /// Directory mode: files only one side has, not compared.
    pub(super) one_sided_files: Vec<String>,
}

/// The text after the tables: the notes, NEW/DROPPED, the summary, the
/// next steps; in an N-way run a summary line per candidate.
pub(super) fn summary_text(s: &Settings, reports: &[Report], notes: &Notes) -> String {
    let mut text = String::new();
    if notes.incomplete_states > 0 {
        text.push_str(&format!(
            "Note: {} state(s) are missing from some runs and were merged from the runs that have them (see Reps).\n\n",
            notes.incomplete_states
        ));
    }
    if s.inputs.layout.joins_candidates() {
        if s.report_missing {
            for (side, report) in s.inputs.candidates.iter().zip(reports) {
                if !report.missing.is_empty() {
                    text.push_str(&format!("{}:\n", printable(&side.label)));
                    text.push_str(&render_missing(&report.missing));
                }
            }
        }
        let labels: Vec<String> = s.inputs.sides().map(|side| side.label.clone()).collect();
        text.push_str(&render_nway_summary(&labels, reports, s.report_missing));
        if s.explain_ambg {
            for (label, report) in labels[1..].iter().zip(reports) {
                let advise = !report.used_repetitions();
                let steps = crate::rendering::advice::render_next_steps(
                    &report.tally,
                    advise,
                    s.outputs.rerun_plan.is_none(),
                );
                if !steps.is_empty() {
                    text.push_str(&format!("\n{}:\n{steps}", printable(label)));
                }
            }
        }
        return text;
    }
    let report = &reports[0];
    if s.report_missing {
        text.push_str(&render_missing(&report.missing));
    }
    text.push_str(&render_summary(
        &report.tally,
        s.display == DisplayMode::Explain,
        s.personality.dialect().same_label,
    ));
    if s.report_missing {
        text.push_str(&render_missing_counts(report));
    }
    if s.inputs.layout.merges_runs() {
        text.push('\n');
        text.push_str(crate::rendering::repetitions::COLUMNS_LEGEND);
    }
    if s.explain_ambg {
        let advise = !report.used_repetitions();
        let plan = s.outputs.rerun_plan.is_none();
        let steps = crate::rendering::advice::render_next_steps(&report.tally, advise, plan);
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
    let command = s.personality.profile().command;
    let script = bulk_debug_script(rows, &sample_reader(s.inputs.layout), command);
    outputs.write_bulk_debug(destination, &script, console)
}

/// The reference's sample reader where its output is matched (two files),
/// ours where it has none to match (`--vs`, N-way). Without a working
/// directory (removed while running) ours reads from Python's.
fn sample_reader(layout: Layout) -> Reader {
    match layout.merges_runs() {
        false => Reader::Reference,
        true => Reader::Guarded {
            base_directory: std::env::current_dir()
                .map(|dir| to_text(dir.as_os_str()))
                .unwrap_or_default(),
        },
    }
}

/// Up to three paths, and how many more there are.
fn first_few(paths: &[String]) -> String {
    const SHOWN: usize = 3;
    let shown: Vec<String> = paths
        .iter()
        .take(SHOWN)
        .map(|p| printable(p).into_owned())
        .collect();
    match paths.len().saturating_sub(SHOWN) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// After the summary: warnings about filters, the documents, the gate's
/// messages; gives the exit status.
pub(super) fn finish(
    s: &Settings,
    reports: &[Report],
    (offer, notes): (&Offer, &Notes),
    (outputs, rerun): (&Outputs, Option<&RerunCollector>),
    console: &mut Console,
) -> Result<u8, Failure> {
    let compared: usize = reports.iter().map(|r| r.tally.total).sum();
    let nothing_compared = (compared == 0).then(|| explain(offer, &s.filters));
    if compared > 0 {
        console.flush();
        for warning in unmatched_filters(offer, &s.filters) {
            crate::messages::warning(warning);
        }
    }
    if !notes.one_sided_files.is_empty() && !s.report_missing && compared > 0 {
        console.flush();
        crate::messages::hint(format_args!(
            "{} file(s) are in one directory only and were not compared ({}); --report-missing lists them as NEW / DROPPED",
            notes.one_sided_files.len(),
            first_few(&notes.one_sided_files)
        ));
    }
    let gates: Vec<GateOutcome> = reports
        .iter()
        .enumerate()
        .map(|(candidate, report)| {
            let gated = s.fail_on_label.is_none_or(|only| only == candidate);
            let fail_on = if gated { &s.fail_on[..] } else { &[] };
            GateOutcome::decide(report, fail_on, nothing_compared.clone())
        })
        .collect();
    write_documents(s, reports, &gates, outputs, console)?;
    if let Some(rerun) = rerun {
        rerun.write(s, outputs, console)?;
    }
    if compared > 0 {
        super::rerun::hint_without_plan(s, reports, console);
    }
    console.flush();
    let failed = gates.iter().any(|g| g.verdict() == Verdict::Failed);
    for (candidate, gate) in gates.iter().enumerate() {
        // Nothing compared is said once; the gate's own lines per candidate.
        if candidate > 0 && nothing_compared.is_some() {
            continue;
        }
        for message in gate.messages() {
            match s.inputs.layout {
                Layout::NWay if gate.nothing_compared.is_none() => {
                    crate::messages::note(format_args!(
                        "{}: {message}",
                        printable(&s.inputs.candidates[candidate].label)
                    ))
                }
                _ => crate::messages::note(message),
            }
        }
    }
    Ok(if failed { GATE_FAILED_EXIT } else { 0 })
}

/// `--json`, `--markdown-summary` and `--csv`.
fn write_documents(
    s: &Settings,
    reports: &[Report],
    gates: &[GateOutcome],
    outputs: &Outputs,
    console: &mut Console,
) -> Result<(), Failure> {
    let nway = s.inputs.layout.joins_candidates();
    if let Some(destination) = &s.outputs.json {
        let text = if nway {
            let sides = nway_sides(s, reports, gates);
            crate::rendering::json::render_json_nway(&sides, &s.preset, &s.thresholds)
        } else {
            crate::rendering::json::render_json(&reports[0], &gates[0], &s.preset, &s.thresholds)
        };
        let document = Document {
            destination,
            text: &text,
        };
        outputs.write_document(document, console)?;
    }
    if let Some(destination) = &s.outputs.markdown {
        let text = markdown(s, reports, gates)?;
        let document = Document {
            destination,
            text: &text,
        };
        outputs.write_document(document, console)?;
    }
    if let Some(destination) = &s.outputs.csv {
        let labels: Vec<String> = s.inputs.sides().map(|side| side.label.clone()).collect();
        let text = crate::rendering::csv::render_csv(&labels, reports);
        let document = Document {
            destination,
            text: &text,
        };
        outputs.write_document(document, console)?;
    }
    Ok(())
}

/// Each candidate of an N-way run with what its part of the JSON report holds.
fn nway_sides<'a>(
    s: &'a Settings,
    reports: &'a [Report],
    gates: &'a [GateOutcome],
) -> crate::rendering::json::NWaySides<'a> {
    crate::rendering::json::NWaySides {
        baseline: (&s.inputs.baseline.label, &s.inputs.baseline.paths),
        candidates: s
            .inputs
            .candidates
            .iter()
            .zip(reports)
            .zip(gates)
            .map(|((side, report), gate)| (side.label.as_str(), &side.paths[..], report, gate))
            .collect(),
    }
}

/// The markdown summary; N-way: a section per candidate, each within an
/// equal share of `--max-bytes`.
fn markdown(s: &Settings, reports: &[Report], gates: &[GateOutcome]) -> Result<String, Failure> {
    let parts = reports.len().max(1);
    let share = s.outputs.max_bytes / parts;
    let mut text = String::new();
    // The largest of the smallest shares that work, over the sections
    // that do not fit in theirs.
    let mut smallest_share = None;
    for (candidate, (report, gate)) in reports.iter().zip(gates).enumerate() {
        let side = &s.inputs.candidates[candidate];
        let compare = if s.inputs.layout.joins_candidates() {
            side.label.as_str()
        } else {
            side.first()
        };
        let reference = if s.inputs.layout.joins_candidates() {
            s.inputs.baseline.label.as_str()
        } else {
            s.reference_label()
        };
        let section =
            (s.inputs.layout.joins_candidates()).then(|| format!("{compare} vs {reference}"));
        let summary = crate::rendering::markdown::Summary {
            section,
            report,
            gate,
            reference,
            compare,
            preset: &s.preset,
            thresholds: &s.thresholds,
        };
        match crate::rendering::markdown::render_markdown(&summary, share) {
            Ok(part) => text.push_str(&part),
            Err(smallest) => smallest_share = smallest_share.max(Some(smallest)),
        }
    }
    match smallest_share {
        // Every section gets the same share: the budget that works gives
        // each the share the largest of them needs.
        Some(smallest) => Err(Failure::Fatal(
            crate::rendering::markdown::budget_too_small(s.outputs.max_bytes, smallest * parts),
        )),
        None => Ok(text),
    }
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
                crate::messages::note(note);
            }
        }
        Failure::Fatal(message) | Failure::Conflict(message) => {
            let _ = out.flush();
            crate::messages::error(message);
        }
        Failure::AlreadyReported => {}
        Failure::Usage { problem, help } => {
            let _ = match help {
                Some(help) => write!(out, "{help}"),
                None => crate::cli::write_help(out),
            };
            let _ = out.flush();
            crate::messages::error(problem);
        }
    }
    code
}
