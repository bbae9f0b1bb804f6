//! `--markdown-summary`: a report for `$GITHUB_STEP_SUMMARY` and PR
//! comments. Counts come first, then SLOW/FAST/????/AMBG rows, then SAME rows
//! collapsed in `<details>`; the whole text stays under a byte budget by
//! dropping the least important rows, with a note saying what was cut.

use std::fmt::Write;

use crate::compare::Status;
use crate::render::advice::next_step;
use crate::render::units::{change, percentage, positive_duration};
use crate::report::{Presence, Report, StateRecord, geomeans};

/// GitHub's limit for a job summary.
pub const DEFAULT_MAX_BYTES: usize = 1024 * 1024;

/// Row sections in order of importance (the last is cut first).
const SECTIONS: [(Status, &str); 5] = [
    (Status::Slow, "SLOW"),
    (Status::Fast, "FAST"),
    (Status::Unknown, "????"),
    (Status::Undecided, "AMBG"),
    (Status::Same, "SAME"),
];

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

/// A name from an input as inert text: a code span, inside which nothing
/// renders (links, images, emphasis, HTML, entities) and GitHub notifies
/// no `@mention`. The delimiter is one backtick longer than the longest
/// run of backticks in the name; control characters are escaped (`\n`);
/// in a table cell a `|` is escaped, which GFM undoes inside code spans.
fn literal(name: &str, in_table: bool) -> String {
    let text = crate::render::printable::printable(name);
    if text.is_empty() {
        return String::new();
    }
    let text = if in_table {
        text.replace('|', "\\|")
    } else {
        text.into_owned()
    };
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    // A leading or trailing backtick would join the fence; a space on both
    // sides would be stripped: pad with one space (stripped again).
    let pad = text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' ') && text.trim() != "");
    let space = if pad { " " } else { "" };
    format!("{fence}{space}{text}{space}{fence}")
}

fn name_cell(name: &str) -> String {
    literal(name, true)
}

fn ratio_text(ratio: Option<f64>) -> String {
    match ratio {
        Some(r) => format!("{r:.4} ({:+.2}%)", (r - 1.0) * 100.0),
        None => "n/a".to_string(),
    }
}

fn header(report: &Report) -> String {
    let t = &report.tally;
    let mut out = String::from("## nvbench-compare\n\n");
    out.push_str("| Total | SAME | FAST | SLOW | AMBG | ???? | NEW | DROPPED |\n");
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
    let (overall, per_benchmark) = geomeans(&report.records);
    let _ = writeln!(
        out,
        "Geomean of compare/reference time (states that are not ????): {}\n",
        ratio_text(overall)
    );
    if per_benchmark.len() > 1 {
        out.push_str("| Benchmark | Geomean ratio |\n|---|---:|\n");
        for (name, ratio) in per_benchmark {
            let _ = writeln!(
                out,
                "| {} | {} |",
                name_cell(&name),
                ratio_text(Some(ratio))
            );
        }
        out.push('\n');
    }
    out
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
    out.push('\n');
    out
}

fn missing_section(report: &Report) -> String {
    if report.missing.is_empty() {
        return String::new();
    }
    let mut out = format!("### NEW / DROPPED ({})\n\n", report.missing.len());
    for item in &report.missing {
        let _ = writeln!(out, "- {}", literal(&item.describe(), false));
    }
    out.push('\n');
    out
}

const TABLE_HEAD: &str = "| Benchmark | Devices | Axes | Reference | Compare | Change | Reason |\n|---|---|---|---:|---:|---:|---|\n";

fn row(record: &StateRecord) -> String {
    let c = &record.comparison;
    let axes: Vec<String> = record
        .axis_values
        .iter()
        .map(|a| format!("{}={}", a.name, a.display))
        .collect();
    let change_text = match change(c.status, c.frac_diff_interval) {
        text if text.is_empty() => percentage(c.frac_diff),
        text => text,
    };
    format!(
        "| {} | {} vs {} | {} | {} | {} | {} | {} |\n",
        name_cell(&record.benchmark),
        record.devices.0,
        record.devices.1,
        name_cell(&axes.join(" ")),
        positive_duration(c.ref_time),
        positive_duration(c.cmp_time),
        cell(&change_text),
        cell(c.reason.code.canonical())
    )
}

/// A status section's opening and closing text.
fn section_frame(status: Status, label: &str, count: usize) -> (String, String) {
    if status == Status::Same {
        (
            format!("<details><summary>SAME ({count})</summary>\n\n{TABLE_HEAD}"),
            "\n</details>\n\n".to_string(),
        )
    } else {
        (
            format!("### {label} ({count})\n\n{TABLE_HEAD}"),
            "\n".to_string(),
        )
    }
}

fn omitted_note(omitted: usize, label: &str, max_bytes: usize) -> String {
    format!("\n_{omitted} {label} row(s) omitted to keep this summary under {max_bytes} bytes._\n")
}

/// The markdown summary, at most `max_bytes` long (the counts, geomean and
/// next steps are always kept; rows are cut from the least important section).
pub fn render_markdown(report: &Report, max_bytes: usize) -> String {
    let mut out = header(report);
    let tail = format!("{}{}", missing_section(report), next_steps(report));
    // Room for the frames and truncation notes of every section.
    let reserve = 400 * SECTIONS.len();
    let mut budget = max_bytes.saturating_sub(out.len() + tail.len() + reserve);
    for (status, label) in SECTIONS {
        let rows: Vec<&StateRecord> = report
            .records
            .iter()
            .filter(|r| r.comparison.status == status)
            .collect();
        if rows.is_empty() {
            continue;
        }
        let (open, close) = section_frame(status, label, rows.len());
        let mut body = String::new();
        let mut kept = 0;
        for record in &rows {
            let line = row(record);
            if line.len() > budget {
                break;
            }
            budget -= line.len();
            body.push_str(&line);
            kept += 1;
        }
        if kept == 0 {
            out.push_str(&format!("### {label} ({})\n", rows.len()));
            out.push_str(&omitted_note(rows.len(), label, max_bytes));
            out.push('\n');
            continue;
        }
        out.push_str(&open);
        out.push_str(&body);
        if kept < rows.len() {
            out.push_str(&omitted_note(rows.len() - kept, label, max_bytes));
        }
        out.push_str(&close);
    }
    out.push_str(&tail);
    if out.len() > max_bytes {
        // Only a budget smaller than the fixed parts gets here.
        let mut end = max_bytes;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cannot_break_the_table() {
        assert_eq!(cell("a|b\nc<script>`x`"), "a\\|b c&lt;script&gt;'x'");
        assert_eq!(cell("\x1b[31mred"), "[31mred");
    }

    #[test]
    fn names_are_code_spans() {
        assert_eq!(name_cell("bench"), "`bench`");
        assert_eq!(name_cell(""), "");
        assert_eq!(name_cell("a`b"), "``a`b``");
        assert_eq!(name_cell("``x"), "``` ``x ```");
        assert_eq!(name_cell(" x "), "`  x  `");
        assert_eq!(name_cell("a|b\nc"), "`a\\|b\\nc`");
        assert_eq!(literal("a|b", false), "`a|b`");
        assert_eq!(
            name_cell("![x](http://t/p.png) @octocat"),
            "`![x](http://t/p.png) @octocat`"
        );
    }

    #[test]
    fn empty_report_has_counts() {
        let text = render_markdown(&Report::default(), DEFAULT_MAX_BYTES);
        assert!(text.starts_with("## nvbench-compare\n\n| Total |"));
        assert!(text.contains("| 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |"));
        assert!(text.contains("Geomean of compare/reference time (states that are not ????): n/a"));
    }
}
