//! One device section's comparison table in the three display modes.

use crate::deciding::decision::Comparison;
use crate::parallel::map_in_parallel;
use crate::pycompat::tabulate::{Align, github_table};
use std::borrow::Cow;

use crate::rendering::axes::axis_headers;
use crate::rendering::status_cell;
use crate::rendering::units::{
    IntervalWidths, TimingText, center_diff, change, duration, explicit_widths, interval_span,
    percentage, positive_duration, timing_with_explicit_interval,
};
use crate::text::printable::printable;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DisplayMode {
    #[default]
    Intervals,
    Legacy,
    Explain,
    /// Upstream `main`'s `--display simple`: centers, interval spans and
    /// the change of the centers.
    Simple,
}

/// A displayed row: its formatted axis values and its comparison.
pub struct Row<'a> {
    pub axis_cells: Vec<&'a str>,
    pub comparison: &'a Comparison,
}

fn mode_columns(mode: DisplayMode) -> Vec<(&'static str, Align)> {
    use Align::{Center, Left, Right};
    match mode {
        DisplayMode::Legacy => vec![
            ("Ref Time", Right),
            ("Ref Noise", Right),
            ("Cmp Time", Right),
            ("Cmp Noise", Right),
            ("Diff", Right),
            ("%Diff", Right),
            ("Status", Center),
        ],
        DisplayMode::Explain => vec![
            ("Ref [Lo | Ce | Hi]", Right),
            ("Cmp [Lo | Ce | Hi]", Right),
            ("Ref Noise", Right),
            ("Cmp Noise", Right),
            ("Reason", Left),
            ("Change", Right),
            ("Status", Center),
        ],
        DisplayMode::Simple => vec![
            ("Ref", Right),
            ("Ref Span", Right),
            ("Cmp", Right),
            ("Cmp Span", Right),
            ("%C Diff", Right),
            ("Change", Right),
            ("Status", Center),
        ],
        DisplayMode::Intervals => vec![
            ("Ref", Right),
            ("Cmp", Right),
            ("Change", Right),
            ("Status", Center),
        ],
    }
}

fn legacy_cells(c: &Comparison, no_color: bool) -> Vec<String> {
    vec![
        positive_duration(c.ref_time),
        percentage(c.ref_noise),
        positive_duration(c.cmp_time),
        percentage(c.cmp_noise),
        duration(c.diff, true, true),
        percentage(c.frac_diff),
        status_cell(c.status, no_color),
    ]
}

fn simple_cells(c: &Comparison, no_color: bool) -> Vec<String> {
    vec![
        positive_duration(c.ref_time),
        interval_span(c.ref_interval.as_ref()),
        positive_duration(c.cmp_time),
        interval_span(c.cmp_interval.as_ref()),
        center_diff(c.ref_time, c.cmp_time),
        change(c.status, c.frac_diff_interval),
        status_cell(c.status, no_color),
    ]
}

/// Cells of the explain and intervals modes; timing columns are aligned
/// over the whole table.
fn interval_cells(rows: &[Row], mode: DisplayMode, no_color: bool) -> Vec<Vec<String>> {
    if mode == DisplayMode::Explain {
        return explain_cells(rows, no_color, has_utest(rows));
    }
    let texts = map_in_parallel(rows, MIN_ROWS_PER_THREAD, |row| {
        let c = row.comparison;
        [
            TimingText::new(c.ref_time, c.ref_interval.as_ref()),
            TimingText::new(c.cmp_time, c.cmp_interval.as_ref()),
        ]
    });
    let ref_widths = IntervalWidths::of(texts.iter().map(|[r, _]| r));
    let cmp_widths = IntervalWidths::of(texts.iter().map(|[_, c]| c));
    let rows_with_texts: Vec<_> = rows.iter().zip(&texts).collect();
    map_in_parallel(&rows_with_texts, MIN_ROWS_PER_THREAD, |(row, [r, c])| {
        let comparison = row.comparison;
        vec![
            r.cell(ref_widths),
            c.cell(cmp_widths),
            change(comparison.status, comparison.frac_diff_interval),
            status_cell(comparison.status, no_color),
        ]
    })
}

/// Rows of Google Benchmark repetitions carry a U test p-value: the
/// explain view shows it (NVBench rows have none, and no such column).
fn has_utest(rows: &[Row]) -> bool {
    rows.iter().any(|r| r.comparison.utest_p.is_some())
}

/// The header of the U test column, after the noise columns.
const UTEST_HEADER: &str = "U-test p";
const UTEST_AT: usize = 4;

fn explain_cells(rows: &[Row], no_color: bool, with_utest: bool) -> Vec<Vec<String>> {
    let refs = || {
        rows.iter()
            .map(|r| (r.comparison.ref_time, r.comparison.ref_interval))
    };
    let cmps = || {
        rows.iter()
            .map(|r| (r.comparison.cmp_time, r.comparison.cmp_interval))
    };
    let (ref_explicit, cmp_explicit) = (explicit_widths(refs()), explicit_widths(cmps()));
    map_in_parallel(rows, MIN_ROWS_PER_THREAD, |row| {
        let c = row.comparison;
        let mut cells = vec![
            timing_with_explicit_interval(c.ref_time, c.ref_interval.as_ref(), ref_explicit),
            timing_with_explicit_interval(c.cmp_time, c.cmp_interval.as_ref(), cmp_explicit),
            percentage(c.ref_noise),
            percentage(c.cmp_noise),
            c.reason.code.display().to_string(),
            change(c.status, c.frac_diff_interval),
            status_cell(c.status, no_color),
        ];
        if with_utest {
            let p = c.utest_p.map_or_else(
                || "-".to_string(),
                |p| crate::pycompat::pyfmt::format_g(p, 3),
            );
            cells.insert(UTEST_AT, p);
        }
        cells
    })
}

/// Formatting a row costs a few microseconds: below this many rows per
/// thread, starting threads costs more than it saves.
const MIN_ROWS_PER_THREAD: usize = 64;

/// The table text (without a trailing newline).
pub fn render_table(
    axis_names: &[String],
    rows: &[Row],
    mode: DisplayMode,
    no_color: bool,
) -> String {
    let mut columns = mode_columns(mode);
    if mode == DisplayMode::Explain && has_utest(rows) {
        columns.insert(UTEST_AT, (UTEST_HEADER, Align::Right));
    }
    let mut headers = axis_headers(axis_names);
    let mut aligns = vec![Align::Center; axis_names.len()];
    headers.extend(columns.iter().map(|(name, _)| name.to_string()));
    aligns.extend(columns.iter().map(|(_, align)| *align));

    let value_cells = match mode {
        DisplayMode::Legacy => map_in_parallel(rows, MIN_ROWS_PER_THREAD, |r| {
            legacy_cells(r.comparison, no_color)
        }),
        DisplayMode::Simple => map_in_parallel(rows, MIN_ROWS_PER_THREAD, |r| {
            simple_cells(r.comparison, no_color)
        }),
        _ => interval_cells(rows, mode, no_color),
    };
    // Axis cells are lent to the table, not copied.
    let cells: Vec<Vec<Cow<str>>> = rows
        .iter()
        .zip(value_cells)
        .map(|(row, values)| {
            let mut cells = Vec::with_capacity(row.axis_cells.len() + values.len());
            cells.extend(row.axis_cells.iter().map(|cell| printable(cell)));
            cells.extend(values.into_iter().map(Cow::Owned));
            cells
        })
        .collect();
    github_table(&headers, &aligns, &cells)
}
