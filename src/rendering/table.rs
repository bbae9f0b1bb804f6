//! One device section's comparison table in the three display modes.

use crate::deciding::decision::Comparison;
use crate::parallel::map_in_parallel;
use crate::pycompat::tabulate::{Align, CellPart, CellTable, github_table_of};

use crate::rendering::axes::axis_headers;
use crate::rendering::push_status_cell;
use crate::rendering::units::{
    IntervalWidths, TimingText, explicit_widths, push_center_diff, push_change, push_duration,
    push_interval_span, push_percentage, push_positive_duration, timing_with_explicit_interval,
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

fn legacy_cells(part: &mut CellPart, c: &Comparison, no_color: bool) {
    part.write_cell(|text| push_positive_duration(text, c.ref_time));
    part.write_cell(|text| push_percentage(text, c.ref_noise));
    part.write_cell(|text| push_positive_duration(text, c.cmp_time));
    part.write_cell(|text| push_percentage(text, c.cmp_noise));
    part.write_cell(|text| push_duration(text, c.diff, true, true));
    part.write_cell(|text| push_percentage(text, c.frac_diff));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
}

fn simple_cells(part: &mut CellPart, c: &Comparison, no_color: bool) {
    part.write_cell(|text| push_positive_duration(text, c.ref_time));
    part.write_cell(|text| push_interval_span(text, c.ref_interval.as_ref()));
    part.write_cell(|text| push_positive_duration(text, c.cmp_time));
    part.write_cell(|text| push_interval_span(text, c.cmp_interval.as_ref()));
    part.write_cell(|text| push_center_diff(text, c.ref_time, c.cmp_time));
    part.write_cell(|text| push_change(text, c.status, c.frac_diff_interval));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
}

/// Cells of the intervals mode; timing columns are aligned over the whole
/// table, so their texts are made first.
fn interval_cells(rows: &[Row], columns: usize, no_color: bool) -> CellTable {
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
    table_cells(&rows_with_texts, columns, |part, (row, [r, c])| {
        push_axis_cells(part, &row.axis_cells);
        let comparison = row.comparison;
        part.write_cell(|text| r.push_cell(text, ref_widths));
        part.write_cell(|text| c.push_cell(text, cmp_widths));
        part.write_cell(|text| push_change(text, comparison.status, comparison.frac_diff_interval));
        part.write_cell(|text| push_status_cell(text, comparison.status, no_color));
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

fn explain_cells(rows: &[Row], columns: usize, no_color: bool) -> CellTable {
    let with_utest = has_utest(rows);
    let refs = || {
        rows.iter()
            .map(|r| (r.comparison.ref_time, r.comparison.ref_interval))
    };
    let cmps = || {
        rows.iter()
            .map(|r| (r.comparison.cmp_time, r.comparison.cmp_interval))
    };
    let (ref_explicit, cmp_explicit) = (explicit_widths(refs()), explicit_widths(cmps()));
    table_cells(rows, columns, |part, row| {
        push_axis_cells(part, &row.axis_cells);
        let c = row.comparison;
        let ref_timing =
            timing_with_explicit_interval(c.ref_time, c.ref_interval.as_ref(), ref_explicit);
        part.push_cell(&ref_timing);
        let cmp_timing =
            timing_with_explicit_interval(c.cmp_time, c.cmp_interval.as_ref(), cmp_explicit);
        part.push_cell(&cmp_timing);
        part.write_cell(|text| push_percentage(text, c.ref_noise));
        part.write_cell(|text| push_percentage(text, c.cmp_noise));
        if with_utest {
            match c.utest_p {
                Some(p) => part.push_cell(&crate::pycompat::pyfmt::format_g(p, 3)),
                None => part.push_cell("-"),
            }
        }
        part.push_cell(c.reason.code.display());
        part.write_cell(|text| push_change(text, c.status, c.frac_diff_interval));
        part.write_cell(|text| push_status_cell(text, c.status, no_color));
    })
}

/// Formatting a row costs a few microseconds: below this many rows per
/// thread, starting threads costs more than it saves.
const MIN_ROWS_PER_THREAD: usize = 64;

/// Rows whose cells are written by one thread into one part of the table.
const ROWS_PER_PART: usize = 256;

/// The table's cells, written row by row by `write_row` into parts of
/// [`ROWS_PER_PART`] rows, on all cores.
pub(crate) fn table_cells<T: Sync>(
    rows: &[T],
    columns: usize,
    write_row: impl Fn(&mut CellPart, &T) + Sync,
) -> CellTable {
    let chunks: Vec<&[T]> = rows.chunks(ROWS_PER_PART).collect();
    let parts = map_in_parallel(&chunks, 1, |chunk| {
        let mut part = CellPart::default();
        chunk.iter().for_each(|row| write_row(&mut part, row));
        part.shrink_to_fit();
        part
    });
    CellTable::new(columns, parts)
}

/// Axis values as the table shows them (control characters escaped).
pub(crate) fn push_axis_cells<S: AsRef<str>>(part: &mut CellPart, cells: &[S]) {
    cells
        .iter()
        .for_each(|cell| part.push_cell(&printable(cell.as_ref())));
}

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

    let count = headers.len();
    let cells = match mode {
        DisplayMode::Legacy => table_cells(rows, count, |part, row| {
            push_axis_cells(part, &row.axis_cells);
            legacy_cells(part, row.comparison, no_color);
        }),
        DisplayMode::Simple => table_cells(rows, count, |part, row| {
            push_axis_cells(part, &row.axis_cells);
            simple_cells(part, row.comparison, no_color);
        }),
        DisplayMode::Explain => explain_cells(rows, count, no_color),
        DisplayMode::Intervals => interval_cells(rows, count, no_color),
    };
    github_table_of(&headers, &aligns, &cells)
}
