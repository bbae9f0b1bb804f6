//! `--markdown-summary`: a report for `$GITHUB_STEP_SUMMARY` and PR
//! comments. What was decided comes first (the gate verdict, the inputs,
//! preset, thresholds and tool version), then the counts and geomeans,
//! then SLOW/FAST/????/NEW-DROPPED/AMBG rows, then SAME rows collapsed in
//! `<details>`; the whole text stays within a byte budget by dropping the
//! least important rows (see `markdown_budget`), with a note saying so.

use std::fmt::Write;

use crate::deciding::config::{KEYS, Thresholds};
use crate::deciding::gate::{GateOutcome, Verdict};
use crate::deciding::report::{
    BenchmarkGeomean, PairNames, Presence, Report, StateRecord, geomeans,
};
use crate::deciding::status::Status;
use crate::pycompat::pyfmt::format_f_signed;
use crate::rendering::advice::next_step;
use crate::rendering::markdown_budget::{Document, RowSection};
use crate::rendering::units::{change, percentage, positive_duration};
use crate::text::printable::printable;

/// GitHub's limit for a job summary.
pub const DEFAULT_MAX_BYTES: usize = 1024 * 1024;
/// GitHub's limit for a pull-request comment (65,536 characters; a byte
/// budget of as many keeps any text within it).
pub const COMMENT_MAX_BYTES: usize = 65_536;

/// Status sections and their importance (lower is cut later): the rows a
/// gate decides on (SLOW, FAST, ????, then NEW / DROPPED), then the
/// geomean of each benchmark, then AMBG and SAME rows. The geomeans come
/// first in the document, under the counts.
const MORE_IMPORTANT: [(Status, &str, usize); 3] = [
    (Status::Slow, "SLOW", 0),
    (Status::Fast, "FAST", 1),
    (Status::Unknown, "????", 2),
];
const MISSING_RANK: usize = 3;
const GEOMEAN_RANK: usize = 4;
const LESS_IMPORTANT: [(Status, &str, usize); 2] =
    [(Status::Undecided, "AMBG", 5), (Status::Same, "SAME", 6)];

/// What the summary is about.
pub struct Summary<'a> {
    /// N-way: which candidate the section is about (`pr-a vs main`).
    pub section: Option<String>,
    pub report: &'a Report,
    pub gate: &'a GateOutcome,
    pub reference: &'a str,
    pub compare: &'a str,
    pub preset: &'a str,
    pub thresholds: &'a Thresholds,
}

/// Text safe inside a table cell: no pipes, line breaks or HTML.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '`' => out.push('\''),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn ratio_text(ratio: Option<f64>) -> String {
    match ratio {
        Some(r) => format!("{r:.4} ({:+.2}%)", (r - 1.0) * 100.0),
        None => "n/a".to_string(),
    }
}

/// Text from an input as markdown prose in the middle of a line: markup
/// characters escaped, no line breaks or control characters.
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in printable(text).chars() {
        // Mid-line, only these can start markup (line-start ones cannot occur).
        if "\\`*_[]<>|~&@#".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text from an input as an inline code span, inside which nothing renders
/// (links, images, emphasis, HTML, entities) and GitHub notifies no
/// `@mention`: fenced by one backtick more than its longest run of them,
/// control characters escaped.
fn code_span(text: &str) -> String {
    let text = printable(text);
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    // A leading or trailing backtick would join the fence, and a space at
    // both ends would be stripped: pad with one space (stripped again).
    let pad = text.is_empty()
        || text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' '));
    let pad = if pad { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A name from an input in a table cell: a code span whose `|` is escaped
/// (GFM undoes that inside code spans).
fn name_cell(text: &str) -> String {
    code_span(&text.replace('|', "\\|"))
}

/// `**Gate: failed** (`--fail-on slow`): 2 slow`, or passed, or not gated.
fn verdict_line(gate: &GateOutcome) -> String {
    let verdict = gate.verdict();
    let option = match verdict {
        Verdict::NotGated => "no `--fail-on`".to_string(),
        _ => format!("`{}`", gate.option_text()),
    };
    let mut line = format!("**Gate: {}** ({option})", verdict.name());
    let mut tripped: Vec<String> = gate
        .tripped
        .iter()
        .map(|(category, count)| format!("{count} {}", category.name()))
        .collect();
    if gate.nothing_compared.is_some() {
        tripped.insert(0, "nothing was compared".to_string());
    }
    if verdict == Verdict::Failed && !tripped.is_empty() {
        let _ = write!(line, ": {}", tripped.join(", "));
    }
    line.push_str("\n\n");
    if let Some(why) = &gate.nothing_compared {
        let _ = write!(line, "Nothing was compared: {}.\n\n", prose(why));
    }
    line
}

fn thresholds_text(preset: &str, t: &Thresholds) -> String {
    let listed: Vec<String> = KEYS
        .iter()
        .map(|key| format!("`{} = {}`", key.full_name(), key.toml_text(t)))
        .collect();
    format!(
        "- Preset: {}; rules: {}; thresholds: {}\n",
        code_span(preset),
        code_span(t.rules.name()),
        listed.join(", ")
    )
}

/// What was decided and on what: verdict, inputs, preset, thresholds, version.
fn decision(summary: &Summary) -> String {
    let mut out = verdict_line(summary.gate);
    let _ = writeln!(out, "- Reference: {}", code_span(summary.reference));
    let _ = writeln!(out, "- Compare: {}", code_span(summary.compare));
    out.push_str(&thresholds_text(summary.preset, summary.thresholds));
    let _ = writeln!(
        out,
        "- Tool: nvbench-compare {}\n",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// The counts and the geomean of every state.
fn counts(report: &Report, overall: Option<f64>) -> String {
    let t = &report.tally;
    let mut out = String::from("| Total | SAME | FAST | SLOW | AMBG | ???? | NEW | DROPPED |\n");
    out.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
        t.total,
        t.same,
        t.fast,
        t.slow,
        t.undecided,
        t.unknown,
        report.count_missing(Presence::New),
        report.count_missing(Presence::Dropped)
    );
    let _ = writeln!(
        out,
        "Geomean of compare/reference time (states that are not ????): {}\n",
        ratio_text(overall)
    );
    out
}

/// The geomean of each benchmark, when there are several: a table whose
/// most regressed rows are kept first.
fn geomean_section(per_benchmark: &[BenchmarkGeomean], files: bool) -> Option<RowSection> {
    if per_benchmark.len() < 2 {
        return None;
    }
    let count = per_benchmark.len();
    let mut most_regressed_first: Vec<usize> = (0..count).collect();
    // Stable: equal ratios keep the order of the table.
    most_regressed_first
        .sort_by(|&a, &b| per_benchmark[b].ratio.total_cmp(&per_benchmark[a].ratio));
    let open = if files {
        "| File | Benchmark | Geomean ratio |\n|---|---|---:|\n"
    } else {
        "| Benchmark | Geomean ratio |\n|---|---:|\n"
    }
    .to_string();
    let close = "\n".to_string();
    Some(RowSection {
        collapsed: format!("{open}{}{close}", omitted_geomeans(count)),
        open,
        rows: per_benchmark
            .iter()
            .map(|g| {
                let file = file_cell(&g.reference_json, files);
                let (name, ratio) = (name_cell(&g.benchmark), ratio_text(Some(g.ratio)));
                format!("| {file}{name} | {ratio} |\n")
            })
            .collect(),
        keep_first: Some(most_regressed_first),
        close,
        omitted_note: omitted_geomeans,
        rank: GEOMEAN_RANK,
    })
}

fn next_steps(report: &Report) -> String {
    let reasons = report.tally.undecided_reasons();
    if reasons.is_empty() {
        return String::new();
    }
    let mut out = String::from("### What would settle the AMBG rows\n\n");
    for (code, count, _) in reasons {
        let _ = writeln!(
            out,
            "- `{}` ({count}): {}",
            code.canonical(),
            next_step(code)
        );
    }
    if !report.used_repetitions() {
        let _ = writeln!(out, "\n{}", crate::rendering::advice::REPETITIONS_ADVICE);
    }
    out.push('\n');
    out
}

/// The rows' table head: a File column first when the rows come from
/// several files (directory mode), a Runs column before the reason when
/// states are merged from runs (`--vs`).
fn table_head(files: bool, merged: bool) -> String {
    let mut columns: Vec<(&str, &str)> = Vec::new();
    if files {
        columns.push(("File", "---"));
    }
    columns.extend([
        ("Benchmark", "---"),
        ("Devices", "---"),
        ("Axes", "---"),
        ("Reference", "---:"),
        ("Compare", "---:"),
        ("Change", "---:"),
    ]);
    if merged {
        columns.push(("Runs", "---:"));
    }
    columns.push(("Reason", "---"));
    let line = |cells: Vec<&str>| format!("| {} |\n", cells.join(" | "));
    let head = line(columns.iter().map(|(name, _)| *name).collect());
    let rule = format!(
        "|{}|\n",
        columns
            .iter()
            .map(|(_, rule)| *rule)
            .collect::<Vec<_>>()
            .join("|")
    );
    format!("{head}{rule}")
}

/// The File cell and its separator, when rows come from several files.
fn file_cell(reference_json: &str, files: bool) -> String {
    if files {
        format!("{} | ", name_cell(reference_json))
    } else {
        String::new()
    }
}

/// Whether the records come from more than one pair of files (directory
/// mode), where one benchmark name can stand for several benchmarks.
fn several_files(report: &Report) -> bool {
    let mut files = report.records.iter().map(|r| &r.pair.reference_json);
    let first = files.next();
    files.any(|file| Some(file) != first)
}

/// `[0] NVIDIA H100` for one device on both sides, else both.
fn devices_cell(pair: &PairNames) -> String {
    let device = |id: i64, name: &Option<String>| match name {
        Some(name) => format!("[{id}] {name}"),
        None => format!("[{id}]"),
    };
    let reference = device(pair.devices.0, &pair.device_names.0);
    let compare = device(pair.devices.1, &pair.device_names.1);
    // Device names come from the inputs: escaped as prose, so that no
    // markup, link or table cell can start inside them.
    if reference == compare {
        prose(&reference)
    } else {
        format!("{} vs {}", prose(&reference), prose(&compare))
    }
}

/// The Runs cell of a state merged from runs (`--vs`): `3 / 3`,
/// `1 of 3 / 1 of 3`.
fn runs_cell(record: &StateRecord) -> Option<String> {
    let stats = record.repetitions.as_ref()?;
    let mut text = String::with_capacity(16);
    crate::rendering::repetitions::push_reps_cell(&mut text, &stats.reference);
    text.push_str(" / ");
    crate::rendering::repetitions::push_reps_cell(&mut text, &stats.compare);
    Some(text)
}

fn row(record: &StateRecord, files: bool) -> String {
    let c = &record.comparison;
    let axes: Vec<String> = record
        .axis_values
        .iter()
        .map(|a| format!("{}={}", a.name, a.display))
        .collect();
    // Every row shows the change of the centers; FAST and SLOW add the
    // bound the decision rests on (as ≥ / ≤, not HTML entities).
    let centers = match c.frac_diff().filter(|f| f.is_finite()) {
        Some(f) => format!("{}%", format_f_signed(f * 100.0, 2)),
        None => percentage(c.frac_diff()),
    };
    let bound = change(c.status, c.frac_diff_interval())
        .replace(">=", "≥")
        .replace("<=", "≤");
    let change_text = if bound.is_empty() {
        centers
    } else {
        format!("{centers} ({bound})")
    };
    let runs = runs_cell(record).map_or(String::new(), |runs| format!("{runs} | "));
    format!(
        "| {}{} | {} | {} | {} | {} | {} | {runs}{} |\n",
        file_cell(&record.pair.reference_json, files),
        name_cell(&record.pair.benchmark),
        devices_cell(&record.pair),
        name_cell(&axes.join(" ")),
        positive_duration(c.ref_time()),
        positive_duration(c.cmp_time()),
        cell(&change_text),
        cell(c.reason.code.canonical())
    )
}

fn omitted_rows(omitted: usize) -> String {
    format!("\n_{omitted} row(s) omitted to keep this summary within --max-bytes._\n")
}

fn omitted_geomeans(omitted: usize) -> String {
    format!(
        "\n_{omitted} row(s) omitted to keep this summary within --max-bytes; the most regressed benchmarks are kept._\n"
    )
}

fn omitted_items(omitted: usize) -> String {
    format!("\n_{omitted} item(s) omitted to keep this summary within --max-bytes._\n")
}

/// A status section: a table, collapsed in `<details>` for SAME.
fn status_section(
    report: &Report,
    (status, label, rank): (Status, &str, usize),
) -> Option<RowSection> {
    let files = several_files(report);
    let rows: Vec<String> = report
        .records
        .iter()
        .filter(|r| r.comparison.status == status)
        .map(|r| row(r, files))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let count = rows.len();
    let merged = report.records.iter().any(|r| r.repetitions.is_some());
    let head = table_head(files, merged);
    let (open, close) = if status == Status::Same {
        (
            format!("<details><summary>SAME ({count})</summary>\n\n{head}"),
            "\n</details>\n\n".to_string(),
        )
    } else {
        (format!("### {label} ({count})\n\n{head}"), "\n".to_string())
    };
    Some(RowSection {
        open,
        rows,
        keep_first: None,
        close,
        collapsed: format!("### {label} ({count})\n{}\n", omitted_rows(count)),
        omitted_note: omitted_rows,
        rank,
    })
}

fn missing_section(report: &Report) -> Option<RowSection> {
    if report.missing.is_empty() {
        return None;
    }
    let count = report.missing.len();
    Some(RowSection {
        open: format!("### NEW / DROPPED ({count})\n\n"),
        rows: report
            .missing
            .iter()
            .map(|item| format!("- {}\n", code_span(&item.describe())))
            .collect(),
        keep_first: None,
        close: "\n".to_string(),
        collapsed: format!("### NEW / DROPPED ({count})\n{}\n", omitted_items(count)),
        omitted_note: omitted_items,
        rank: MISSING_RANK,
    })
}

fn document(summary: &Summary) -> Document {
    let report = summary.report;
    let (overall, per_benchmark) = geomeans(&report.records);
    let status = |section: &(Status, &str, usize)| status_section(report, *section);
    // In document order.
    let sections = std::iter::once(geomean_section(&per_benchmark, several_files(report)))
        .chain(MORE_IMPORTANT.iter().map(status))
        .chain(std::iter::once(missing_section(report)))
        .chain(LESS_IMPORTANT.iter().map(status))
        .flatten()
        .collect();
    Document {
        head: format!(
            "## nvbench-compare{}\n\n{}{}",
            summary
                .section
                .as_deref()
                .map_or_else(String::new, |s| format!(": {}", prose(s))),
            decision(summary),
            counts(report, overall)
        ),
        sections,
        tail: next_steps(report),
    }
}

/// The markdown summary, at most `max_bytes` long: whole when it fits,
/// else without the least important rows. `Err` gives the smallest budget
/// that works, when even the summary without any row is too long.
pub fn render_markdown(summary: &Summary, max_bytes: usize) -> Result<String, usize> {
    document(summary).fit(max_bytes)
}

/// The error of a `--max-bytes` below `smallest`, the smallest that works.
pub fn budget_too_small(max_bytes: usize, smallest: usize) -> String {
    format!(
        "--max-bytes {max_bytes} is too small for this markdown summary: the smallest that works is {smallest} bytes"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::gate::GateCategory;

    #[test]
    fn names_are_code_spans() {
        assert_eq!(name_cell("bench"), "`bench`");
        assert_eq!(name_cell("a`b"), "``a`b``");
        assert_eq!(name_cell("``x"), "``` ``x ```");
        assert_eq!(name_cell(" x "), "`  x  `");
        assert_eq!(name_cell("a|b\nc"), "`a\\|b\\nc`");
        assert_eq!(code_span("a|b"), "`a|b`");
        assert_eq!(
            name_cell("![x](http://t/p.png) @octocat"),
            "`![x](http://t/p.png) @octocat`"
        );
        assert_eq!(prose("@team #12"), "\\@team \\#12");
    }

    #[test]
    fn cells_cannot_break_the_table() {
        assert_eq!(cell("a|b\nc<script>`x`"), "a\\|b c&lt;script&gt;'x'");
        assert_eq!(cell("\x1b[31mred"), "[31mred");
    }

    #[test]
    fn inputs_cannot_break_out_of_their_markup() {
        assert_eq!(code_span("dir/ref.json"), "`dir/ref.json`");
        assert_eq!(code_span("a``b"), "```a``b```");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_span("a\nb"), "`a\\nb`");
        assert_eq!(prose("'*x*' <b>"), "'\\*x\\*' \\<b\\>");
    }

    fn summary_of<'a>(report: &'a Report, gate: &'a GateOutcome, t: &'a Thresholds) -> Summary<'a> {
        Summary {
            section: None,
            report,
            gate,
            reference: "base/ref.json",
            compare: "pr/cmp.json",
            preset: "strict",
            thresholds: t,
        }
    }

    #[test]
    fn empty_report_has_decision_and_counts() {
        let report = Report::default();
        let gate = GateOutcome::decide(
            &report,
            &[GateCategory::Slow],
            Some("both directories are empty".to_string()),
        );
        let t = crate::deciding::config::resolve(
            Some("strict"),
            None,
            crate::personality::Personality::Compare.dialect(),
        )
        .unwrap()
        .1;
        let text = render_markdown(&summary_of(&report, &gate, &t), DEFAULT_MAX_BYTES).unwrap();
        assert!(text.starts_with(
            "## nvbench-compare\n\n**Gate: failed** (`--fail-on slow`): nothing was compared\n\nNothing was compared: both directories are empty.\n\n- Reference: `base/ref.json`\n- Compare: `pr/cmp.json`\n- Preset: `strict`; rules: `nvbench_compare.py@4fabe3f`; thresholds: `clear_gap.relative = "
        ), "{text}");
        assert!(text.contains(&format!(
            "- Tool: nvbench-compare {}\n",
            env!("CARGO_PKG_VERSION")
        )));
        assert!(text.contains("| 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |"));
        assert!(text.contains("Geomean of compare/reference time (states that are not ????): n/a"));
        let ungated = GateOutcome::decide(&report, &[], None);
        let text = render_markdown(&summary_of(&report, &ungated, &t), DEFAULT_MAX_BYTES).unwrap();
        assert!(
            text.contains("**Gate: not gated** (no `--fail-on`)\n\n- Reference"),
            "{text}"
        );
    }

    #[test]
    fn thresholds_line_lists_every_key_in_table_order() {
        let t = crate::deciding::config::preset("permissive").unwrap();
        assert_eq!(
            thresholds_text("permissive", &t),
            "- Preset: `permissive`; rules: `nvbench_compare.py@4fabe3f`; thresholds: `clear_gap.relative = 0.0025`, \
             `clear_gap.without_clock = \"confirm\"`, \
             `same.center_relative = 0.01`, `same.overlap_fraction = 0.25`, \
             `same.relative_dispersion_ceiling = 0.05`, `bulk.sample_coverage = 0.98`, \
             `bulk.support_coverage = 0.6`, `bulk.rare_support.sample_fraction = 0.001`, \
             `bulk.rare_support.max_removed_sample_fraction = 0.02`\n"
        );
    }

    #[test]
    fn too_small_a_budget_says_the_smallest() {
        let report = Report::default();
        let gate = GateOutcome::decide(&report, &[], None);
        let t = crate::deciding::config::resolve(
            None,
            None,
            crate::personality::Personality::Compare.dialect(),
        )
        .unwrap()
        .1;
        let summary = summary_of(&report, &gate, &t);
        let full = render_markdown(&summary, DEFAULT_MAX_BYTES).unwrap();
        assert_eq!(render_markdown(&summary, 10), Err(full.len()));
        assert_eq!(
            budget_too_small(10, full.len()),
            format!(
                "--max-bytes 10 is too small for this markdown summary: the smallest that works is {} bytes",
                full.len()
            )
        );
    }
}
