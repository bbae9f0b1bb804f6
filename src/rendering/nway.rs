//! The N-way table (a baseline and several candidates) and its summary:
//! the long layout, a row per state and side (WaterLily's `compare.jl`:
//! Config, Time, Noise, Speedup, Δ ± σ, Signif, Reps, Status; the baseline
//! row says `base`), or the wide layout, a row per state with a Time/Δ/
//! Status group per candidate (benchstat). Markdown-pasteable, colours and
//! `--no-color` markers as in the other tables.

use std::fmt::Write;

use crate::deciding::decision::Interval;
use crate::deciding::repetitions::{RepetitionStats, SideStats};
use crate::deciding::report::{Report, StateRecord, geomeans};
use crate::deciding::status::Status;
use crate::pycompat::pyfmt::push_f;
use crate::pycompat::tabulate::CellPart;
use crate::pycompat::tabulate::{Align, is_bare_cell};
use crate::rendering::axes::axis_headers;
use crate::rendering::push_status_cell;
use crate::rendering::repetitions::{push_delta_cell, push_reps_cell, push_significance_cell};
use crate::rendering::table::{DisplayMode, github_text, push_axis_cells, table_cells};
use crate::rendering::units::{IntervalWidths, push_percentage, push_timing_cell};
use crate::text::printable::printable;

/// A state of an N-way table: each candidate's record (`None` where the
/// candidate lacks the state) and which candidate rows are shown.
pub struct NWayState<'a> {
    pub records: Vec<Option<&'a StateRecord>>,
    pub shown: Vec<bool>,
}

impl<'a> NWayState<'a> {
    /// The first record: its axis cells, and its reference side (the
    /// baseline's merged runs, the same for every candidate).
    fn first(&self) -> &'a StateRecord {
        self.records
            .iter()
            .flatten()
            .next()
            .copied()
            .expect("a state of an N-way table has a record")
    }
}

/// How the table is printed.
pub struct NWayStyle<'a> {
    /// The labels, baseline first.
    pub labels: &'a [String],
    /// The side Speedup is relative to (0: the baseline).
    pub speedup_base: usize,
    pub mode: DisplayMode,
    pub no_color: bool,
}

/// One printed row: a side of a state.
struct Line<'a> {
    state: &'a NWayState<'a>,
    /// 0 for the baseline, else the candidate's index + 1.
    side: usize,
    /// The record the row shows: the candidate's, or for the baseline any.
    record: &'a StateRecord,
}

impl<'a> Line<'a> {
    fn new(state: &'a NWayState<'a>, side: usize) -> Self {
        let record = match side {
            0 => state.first(),
            side => state.records[side - 1].expect("a shown candidate row has a record"),
        };
        Line {
            state,
            side,
            record,
        }
    }

    fn record(&self) -> &'a StateRecord {
        self.record
    }

    fn stats(&self) -> Option<&'a RepetitionStats> {
        self.record.repetitions.as_deref()
    }

    fn side_stats(&self) -> Option<&'a SideStats> {
        let stats = self.stats()?;
        Some(if self.side == 0 {
            &stats.reference
        } else {
            &stats.compare
        })
    }

    /// The side's center and interval, as its Time cell shows them.
    fn timing(&self) -> (Option<f64>, Option<Interval>) {
        let c = &self.record().comparison;
        if self.side == 0 {
            (c.ref_time(), c.ref_interval())
        } else {
            (c.cmp_time(), c.cmp_interval())
        }
    }
}

/// The center of one side of a state: the baseline's from any record, a
/// candidate's from its own.
fn time_of(state: &NWayState, side: usize) -> Option<f64> {
    match side {
        0 => state.first().comparison.ref_time(),
        side => state.records.get(side - 1)?.as_ref()?.comparison.cmp_time(),
    }
}

/// `Time(speedup base) / Time`, two decimals and an `x` (`1.09x`), which
/// also keeps the table from reformatting it as a number.
fn push_speedup(text: &mut String, state: &NWayState, side: usize, base: usize) {
    let time = time_of(state, side);
    // The base's own row (a row a state): a positive finite time over
    // itself is exactly 1.
    if side == base && time.is_some_and(|t| t > 0.0 && t.is_finite()) {
        return text.push_str("1.00x");
    }
    let ratio = match (time_of(state, base), time) {
        (Some(base), Some(time)) if time > 0.0 => Some(base / time),
        _ => None,
    };
    push_ratio(text, ratio);
}

fn push_ratio(text: &mut String, ratio: Option<f64>) {
    match ratio.filter(|r| r.is_finite()) {
        Some(ratio) => {
            push_f(text, ratio, 2);
            text.push('x');
        }
        None => text.push_str("n/a"),
    }
}

/// The rows of the long layout: each shown state's baseline row, then its
/// shown candidates' rows.
fn lines<'a>(states: &'a [NWayState<'a>]) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for state in states {
        if !state.shown.iter().any(|shown| *shown) {
            continue;
        }
        lines.push(Line::new(state, 0));
        for (candidate, shown) in state.shown.iter().enumerate() {
            if *shown {
                lines.push(Line::new(state, candidate + 1));
            }
        }
    }
    lines
}

/// The long layout; `by_label` groups the rows of one side together.
pub fn render_long(
    axis_names: &[String],
    states: &[NWayState],
    style: &NWayStyle,
    by_label: bool,
) -> String {
    use Align::{Center, Left, Right};
    let mut lines = lines(states);
    if by_label {
        // Stable: within a side, the states keep their order.
        lines.sort_by(|a, b| style.labels[a.side].cmp(&style.labels[b.side]));
    }
    let timings: Vec<_> = lines.iter().map(Line::timing).collect();
    let mut widths = IntervalWidths::default();
    for (center, interval) in &timings {
        widths.fit_timing(*center, interval.as_ref());
    }
    let mut headers = axis_headers(axis_names);
    let mut aligns = vec![Center; axis_names.len()];
    let mut columns = vec![
        ("Config", Left),
        ("Time", Right),
        ("Noise", Right),
        ("Speedup", Right),
        ("Δ ± σ", Right),
        ("Signif", Right),
        ("Reps", Right),
        ("Status", Center),
    ];
    if style.mode == DisplayMode::Explain {
        columns.push(("Reason", Left));
    }
    headers.extend(columns.iter().map(|(name, _)| name.to_string()));
    aligns.extend(columns.iter().map(|(_, align)| *align));
    // A state's rows follow each other (unless sorted by label) and show
    // the same axis cells: copied from the row before.
    let repeats = |i: usize| i > 0 && std::ptr::eq(lines[i - 1].state, lines[i].state);
    let lines_with_timings: Vec<_> = (0..lines.len())
        .map(|i| (&lines[i], &timings[i], repeats(i)))
        .collect();
    // Every row of a side shows its label: escaped once, not once a row.
    let labels: Vec<_> = style.labels.iter().map(|label| printable(label)).collect();
    let columns = headers.len();
    let cells = table_cells(
        &lines_with_timings,
        columns,
        |part, (line, timing, repeats)| {
            let record = line.record();
            if !(*repeats && part.repeat_previous_row(columns, axis_names.len())) {
                push_axis_cells(part, record.axis_values.displays());
            }
            part.push_cell(&labels[line.side]);
            let (center, interval) = timing;
            part.write_cell(|t| push_timing_cell(t, *center, interval.as_ref(), widths));
            let side_stats = line.side_stats();
            part.write_cell(|t| push_percentage(t, side_stats.and_then(|s| s.noise)));
            part.write_cell(|t| push_speedup(t, line.state, line.side, style.speedup_base));
            let candidate = line.side > 0;
            let stats = line.stats().filter(|_| candidate);
            part.write_cell(|t| push_or(t, stats, "-", push_delta_cell));
            part.write_cell(|t| push_or(t, stats, "-", push_significance_cell));
            part.write_cell(|t| push_or(t, side_stats, "1", push_reps_cell));
            part.write_cell(|t| {
                if candidate {
                    push_status_cell(t, record.comparison.status, style.no_color);
                } else {
                    t.push_str("base");
                }
            });
            if style.mode == DisplayMode::Explain {
                part.write_cell(|t| {
                    if candidate {
                        t.push_str(record.comparison.reason.code.display());
                    }
                });
            }
        },
    );
    // Time, Noise, Speedup and Signif: see `long_layout_cells_are_bare`;
    // Config when every label is.
    let mut bare = vec![false; headers.len()];
    bare[axis_names.len()] = labels.iter().all(|label| is_bare_cell(label));
    for column in [1, 2, 3, 5] {
        bare[axis_names.len() + column] = true;
    }
    github_text(&headers, &aligns, &cells, &bare)
}

/// `write` of the value, or `absent` without one.
fn push_or<T: ?Sized>(
    text: &mut String,
    value: Option<&T>,
    absent: &str,
    write: impl FnOnce(&mut String, &T),
) {
    match value {
        Some(value) => write(text, value),
        None => text.push_str(absent),
    }
}

/// The wide layout: a row per shown state, the baseline's Time, then
/// Time, Δ ± σ and Status per candidate.
pub fn render_wide(axis_names: &[String], states: &[NWayState], style: &NWayStyle) -> String {
    use Align::{Center, Right};
    let shown: Vec<&NWayState> = states
        .iter()
        .filter(|s| s.shown.iter().any(|shown| *shown))
        .collect();
    let sides = style.labels.len();
    let timing = |state: &NWayState, side: usize| -> Option<(Option<f64>, Option<Interval>)> {
        let record = if side == 0 {
            Some(state.first())
        } else {
            state.records[side - 1].filter(|_| state.shown[side - 1])
        }?;
        let c = &record.comparison;
        Some(if side == 0 {
            (c.ref_time(), c.ref_interval())
        } else {
            (c.cmp_time(), c.cmp_interval())
        })
    };
    let widths: Vec<IntervalWidths> = (0..sides)
        .map(|side| {
            let mut widths = IntervalWidths::default();
            for (center, interval) in shown.iter().filter_map(|s| timing(s, side)) {
                widths.fit_timing(center, interval.as_ref());
            }
            widths
        })
        .collect();
    let mut headers = axis_headers(axis_names);
    let mut aligns = vec![Center; axis_names.len()];
    headers.push(format!("{} Time", printable(&style.labels[0])));
    aligns.push(Right);
    for label in &style.labels[1..] {
        let label = printable(label);
        headers.extend([
            format!("{label} Time"),
            format!("{label} Δ ± σ"),
            format!("{label} Status"),
        ]);
        aligns.extend([Right, Right, Center]);
    }
    let cells = table_cells(&shown, headers.len(), |part, state| {
        push_axis_cells(part, state.first().axis_values.displays());
        let time = |part: &mut CellPart, side: usize| {
            part.write_cell(|t| {
                if let Some((center, interval)) = timing(state, side) {
                    push_timing_cell(t, center, interval.as_ref(), widths[side]);
                }
            })
        };
        time(part, 0);
        for candidate in 0..sides - 1 {
            time(part, candidate + 1);
            match state.records[candidate].filter(|_| state.shown[candidate]) {
                Some(record) => {
                    let stats = record.repetitions.as_deref();
                    part.write_cell(|t| push_or(t, stats, "n/a", push_delta_cell));
                    part.write_cell(|t| {
                        push_status_cell(t, record.comparison.status, style.no_color)
                    });
                }
                None => {
                    part.push_cell("");
                    part.push_cell("");
                }
            }
        }
    });
    // The Time columns: see `units::bare_cells_are_bare` (an absent
    // candidate's cell is empty, as bare as it gets).
    let mut bare = vec![false; headers.len()];
    bare[axis_names.len()] = true;
    for candidate in 0..sides - 1 {
        bare[axis_names.len() + 1 + 3 * candidate] = true;
    }
    github_text(&headers, &aligns, &cells, &bare)
}

/// The worst status of a state's candidates first: SLOW, ????, AMBG,
/// FAST, SAME.
pub fn status_rank(state: &NWayState) -> usize {
    let rank = |status: Status| match status {
        Status::Slow => 0,
        Status::Unknown => 1,
        Status::Undecided => 2,
        Status::Fast => 3,
        Status::Same => 4,
    };
    state
        .records
        .iter()
        .flatten()
        .map(|r| rank(r.comparison.status))
        .min()
        .unwrap_or(5)
}

/// The summary of an N-way run: a line per candidate (counts and the
/// geomean speedup over its states, as the Speedup column has it, against
/// the baseline), its AMBG reasons, and what it lacks or
/// adds (`--report-missing`).
pub fn render_nway_summary(labels: &[String], reports: &[Report], report_missing: bool) -> String {
    let mut out = String::from("# Summary\n\n");
    let base = printable(&labels[0]);
    for (label, report) in labels[1..].iter().zip(reports) {
        let tally = &report.tally;
        // As the Speedup column: baseline time / candidate time.
        let (time_ratio, _) = geomeans(&report.records);
        let mut speedup = String::new();
        push_ratio(&mut speedup, time_ratio.map(f64::recip));
        let _ = writeln!(
            out,
            "- {} vs {base}: {} SAME, {} FAST, {} SLOW, {} AMBG, {} ????; geomean speedup {speedup}",
            printable(label),
            tally.same,
            tally.fast,
            tally.slow,
            tally.undecided,
            tally.unknown
        );
        for (code, count, message) in tally.undecided_reasons() {
            let _ = writeln!(out, "  - AMBG {}: {count} ({message})", code.canonical());
        }
        if report_missing {
            let new = report.count_missing(crate::deciding::report::Presence::New);
            let dropped = report.count_missing(crate::deciding::report::Presence::Dropped);
            let _ = writeln!(out, "  - New: {new}, Dropped: {dropped}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::repetitions::side_of_three;

    /// The long layout's Noise, Speedup and Signif cells are printable
    /// ASCII with nothing around them for the table to strip, as its bare
    /// columns need (the Time cells: `units::bare_cells_are_bare`).
    #[test]
    fn long_layout_cells_are_bare() {
        let is_bare = |cell: &str| is_bare_cell(cell) && !cell.is_empty();
        let side = |runs: usize| side_of_three(runs, None);
        let mut values = vec![
            None,
            Some(0.0),
            Some(-0.0),
            Some(f64::NAN),
            Some(f64::INFINITY),
            Some(f64::NEG_INFINITY),
            Some(f64::MAX),
            Some(f64::MIN_POSITIVE),
            Some(-1e300),
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5000 {
            crate::testing::xorshift_step(&mut seed);
            let magnitude = 10f64.powi((seed % 40) as i32 - 20);
            values.push(Some((seed >> 12) as f64 / (1u64 << 52) as f64 * magnitude));
        }
        for value in values {
            let mut cells = [String::new(), String::new()];
            push_percentage(&mut cells[0], value);
            push_ratio(&mut cells[1], value);
            for runs in [1, 3] {
                let mut stats = RepetitionStats::new(side(runs), side(runs), value, None);
                stats.significance = value;
                let mut cell = String::new();
                push_significance_cell(&mut cell, &stats);
                assert!(is_bare(&cell), "{cell:?}");
            }
            for cell in cells {
                assert!(is_bare(&cell), "{cell:?}");
            }
        }
    }
}
