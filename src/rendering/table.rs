//! One device section's comparison table in the three display modes.

use crate::deciding::decision::Comparison;
use crate::deciding::report::AxisCells;
use crate::fast_paths::simple_paths;
use crate::parallel::map_in_parallel;
use crate::pycompat::tabulate::{
    Align, CellPart, CellTable, github_table, github_table_with_bare_columns,
    write_github_table_in_chunks,
};

use crate::rendering::axes::axis_headers;
use crate::rendering::push_status_cell;
use crate::rendering::units::{
    IntervalWidths, explicit_widths, push_center_diff, push_change, push_duration,
    push_interval_span, push_percentage, push_positive_duration, push_timing_cell,
    push_timing_with_explicit_interval,
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
    pub axis_cells: AxisCells<'a>,
    pub comparison: &'a Comparison,
}

/// `separator` parts the explain view's interval values (and its headers').
fn mode_columns(mode: DisplayMode, separator: &str) -> Vec<(String, Align)> {
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
        DisplayMode::Explain => {
            let interval = |side: &str| format!("{side} [Lo{separator}Ce{separator}Hi]");
            return [(interval("Ref"), Right), (interval("Cmp"), Right)]
                .into_iter()
                .chain(
                    [
                        ("Ref Noise", Right),
                        ("Cmp Noise", Right),
                        ("Reason", Left),
                        ("Change", Right),
                        ("Status", Center),
                    ]
                    .map(|(name, align)| (name.to_string(), align)),
                )
                .collect();
        }
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
    .into_iter()
    .map(|(name, align)| (name.to_string(), align))
    .collect()
}

fn legacy_cells(part: &mut CellPart, c: &Comparison, no_color: bool) {
    part.write_cell(|text| push_positive_duration(text, c.ref_time()));
    part.write_cell(|text| push_percentage(text, c.ref_noise()));
    part.write_cell(|text| push_positive_duration(text, c.cmp_time()));
    part.write_cell(|text| push_percentage(text, c.cmp_noise()));
    part.write_cell(|text| push_duration(text, c.diff(), true, true));
    part.write_cell(|text| push_percentage(text, c.frac_diff()));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
}

fn simple_cells(part: &mut CellPart, c: &Comparison, no_color: bool) {
    part.write_cell(|text| push_positive_duration(text, c.ref_time()));
    part.write_cell(|text| push_interval_span(text, c.ref_interval().as_ref()));
    part.write_cell(|text| push_positive_duration(text, c.cmp_time()));
    part.write_cell(|text| push_interval_span(text, c.cmp_interval().as_ref()));
    part.write_cell(|text| push_center_diff(text, c.ref_time(), c.cmp_time()));
    part.write_cell(|text| push_change(text, c.status, c.frac_diff_interval()));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
}

/// Cells of the intervals mode, with the timing columns' widths over the
/// whole table.
fn interval_cells(
    part: &mut CellPart,
    c: &Comparison,
    widths: [IntervalWidths; 2],
    no_color: bool,
) {
    push_timing_cells(part, c, widths);
    part.write_cell(|text| push_change(text, c.status, c.frac_diff_interval()));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
}

/// The widths of the Ref and Cmp timing columns, measured on all cores
/// without keeping a cell (each is formatted again when written).
pub(crate) fn timing_widths<T: Sync>(
    rows: &[T],
    comparison: impl Fn(&T) -> &Comparison + Sync,
) -> [IntervalWidths; 2] {
    let chunks: Vec<&[T]> = rows.chunks(ROWS_PER_PART).collect();
    let widths = map_in_parallel(&chunks, 1, |chunk| {
        let mut widths = [IntervalWidths::default(); 2];
        for c in chunk.iter().map(&comparison) {
            widths[0].fit_timing(c.ref_time(), c.ref_interval().as_ref());
            widths[1].fit_timing(c.cmp_time(), c.cmp_interval().as_ref());
        }
        widths
    });
    let none = [IntervalWidths::default(); 2];
    widths.into_iter().fold(none, |[r, c], [chunk_r, chunk_c]| {
        [r.max(chunk_r), c.max(chunk_c)]
    })
}

/// The Ref and Cmp timing cells, aligned with the widths of [`timing_widths`],
/// for right-aligned columns (see [`push_timing_cell`]: the table pads them
/// on the left).
pub(crate) fn push_timing_cells(part: &mut CellPart, c: &Comparison, widths: [IntervalWidths; 2]) {
    let [ref_widths, cmp_widths] = widths;
    part.write_cell(|text| {
        push_timing_cell(text, c.ref_time(), c.ref_interval().as_ref(), ref_widths)
    });
    part.write_cell(|text| {
        push_timing_cell(text, c.cmp_time(), c.cmp_interval().as_ref(), cmp_widths)
    });
}

/// Rows of Google Benchmark repetitions carry a U test p-value: the
/// explain view shows it (NVBench rows have none, and no such column).
fn has_utest(rows: &[Row]) -> bool {
    rows.iter().any(|r| r.comparison.utest_p().is_some())
}

/// The header of the U test column, after the noise columns.
const UTEST_HEADER: &str = "U-test p";
const UTEST_AT: usize = 4;

/// The explicit interval widths of the Ref and Cmp columns of the explain
/// mode, over the whole table.
fn explain_widths(rows: &[Row]) -> [[usize; 3]; 2] {
    let refs = rows
        .iter()
        .map(|r| (r.comparison.ref_time(), r.comparison.ref_interval()));
    let cmps = rows
        .iter()
        .map(|r| (r.comparison.cmp_time(), r.comparison.cmp_interval()));
    [explicit_widths(refs), explicit_widths(cmps)]
}

fn explain_cells(
    part: &mut CellPart,
    c: &Comparison,
    (explicit, with_utest): ([[usize; 3]; 2], bool),
    (no_color, separator): (bool, &str),
) {
    let sides = [
        (c.ref_time(), c.ref_interval(), explicit[0]),
        (c.cmp_time(), c.cmp_interval(), explicit[1]),
    ];
    for (time, interval, widths) in sides {
        part.write_cell(|text| {
            push_timing_with_explicit_interval(text, time, interval.as_ref(), widths, separator)
        });
    }
    part.write_cell(|text| push_percentage(text, c.ref_noise()));
    part.write_cell(|text| push_percentage(text, c.cmp_noise()));
    if with_utest {
        match c.utest_p() {
            Some(p) => part.push_cell(&crate::pycompat::pyfmt::format_g(p, 3)),
            None => part.push_cell("-"),
        }
    }
    part.push_cell(c.reason.code.display());
    part.write_cell(|text| push_change(text, c.status, c.frac_diff_interval()));
    part.write_cell(|text| push_status_cell(text, c.status, no_color));
}

/// Rows whose cells are written by one thread into one part of the table.
/// Formatting a row costs a few microseconds: a table of one part is
/// written without starting threads, which would cost more than they save.
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
pub(crate) fn push_axis_cells<S: AsRef<str>>(
    part: &mut CellPart,
    cells: impl IntoIterator<Item = S>,
) {
    for cell in cells {
        let cell = cell.as_ref();
        // Printable ASCII (nearly every value) has nothing to escape.
        if cell.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            part.push_cell(cell);
        } else {
            part.push_cell(&printable(cell));
        }
    }
}

/// The table text (without a trailing newline).
pub fn render_table(
    axis_names: &[String],
    rows: &[Row],
    (mode, no_color): (DisplayMode, bool),
    separator: &'static str,
) -> String {
    let layout = TableLayout::of(axis_names, rows, (mode, no_color), separator);
    let cells = layout.cells(rows);
    github_text(&layout.headers, &layout.aligns, &cells, &layout.bare)
}

/// The "github" table of `cells`, whose `bare` columns hold bare cells
/// (see [`github_table_with_bare_columns`]). Written in two passes, which
/// hold no padded copy of a cell; under the simple paths by tabulate's
/// direct port, which gives the same bytes from rows of cells.
pub(crate) fn github_text(
    headers: &[String],
    aligns: &[Align],
    cells: &CellTable,
    bare: &[bool],
) -> String {
    if simple_paths() {
        return github_table(headers, aligns, &cells.to_rows());
    }
    github_table_with_bare_columns(headers, aligns, cells, bare)
}

/// Rows a huge table is made of at a time, when it is written in pieces.
const ROWS_A_CHUNK: usize = 16 * 1024;

/// Pieces a huge table is written in.
const TABLE_PIECE: usize = 1 << 20;

/// A table's head and how its rows' cells are made, for
/// [`write_in_pieces`].
pub(crate) trait PiecewiseTable<T> {
    fn headers(&self) -> &[String];
    fn aligns(&self) -> &[Align];
    /// The cells of these rows.
    fn cells(&self, rows: &[T]) -> CellTable;
}

/// The text of [`render_table`] written to `out` in pieces, its cells made
/// a chunk of rows at a time: a huge table is never held whole (its cells
/// are made three times instead of once).
pub fn write_table_in_pieces(
    axis_names: &[String],
    rows: &[Row],
    (mode, no_color): (DisplayMode, bool),
    separator: &'static str,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let layout = TableLayout::of(axis_names, rows, (mode, no_color), separator);
    write_in_pieces(&layout, rows, out)
}

/// The whole table of `layout` and `rows`, as `github_table_of` makes it,
/// written to `out` a chunk of rows and a piece of text at a time.
pub(crate) fn write_in_pieces<T: Sync>(
    layout: &(impl PiecewiseTable<T> + Sync),
    rows: &[T],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let chunks: Vec<&[T]> = rows.chunks(ROWS_A_CHUNK).collect();
    let chunk = |index: usize| layout.cells(chunks[index]);
    let written = write_github_table_in_chunks(
        layout.headers(),
        layout.aligns(),
        (chunks.len(), &chunk),
        TABLE_PIECE,
        |piece| out.write_all(piece.as_bytes()),
    )?;
    if !written {
        let text = github_text(layout.headers(), layout.aligns(), &layout.cells(rows), &[]);
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// What every row's cells need from the whole table.
#[derive(Clone, Copy)]
enum ColumnsOf {
    Legacy,
    Simple,
    Explain([[usize; 3]; 2], bool),
    Intervals([IntervalWidths; 2]),
}

/// A table's headers, alignments, and what its rows' cells need.
struct TableLayout {
    headers: Vec<String>,
    aligns: Vec<Align>,
    columns: ColumnsOf,
    no_color: bool,
    /// Between an explicit interval's values (the explain view).
    separator: &'static str,
    /// The columns whose cells are bare (see [`github_table_with_bare_columns`]):
    /// the intervals mode's Ref, Cmp and Change.
    bare: Vec<bool>,
}

impl TableLayout {
    fn of(
        axis_names: &[String],
        rows: &[Row],
        (mode, no_color): (DisplayMode, bool),
        separator: &'static str,
    ) -> Self {
        let with_utest = mode == DisplayMode::Explain && has_utest(rows);
        let mut columns = mode_columns(mode, separator);
        if with_utest {
            columns.insert(UTEST_AT, (UTEST_HEADER.to_string(), Align::Right));
        }
        let mut headers = axis_headers(axis_names);
        let mut aligns = vec![Align::Center; axis_names.len()];
        headers.extend(columns.iter().map(|(name, _)| name.clone()));
        aligns.extend(columns.iter().map(|(_, align)| *align));
        let columns = match mode {
            DisplayMode::Legacy => ColumnsOf::Legacy,
            DisplayMode::Simple => ColumnsOf::Simple,
            DisplayMode::Explain => ColumnsOf::Explain(explain_widths(rows), with_utest),
            DisplayMode::Intervals => {
                ColumnsOf::Intervals(timing_widths(rows, |row| row.comparison))
            }
        };
        let mut bare = vec![false; headers.len()];
        if let ColumnsOf::Intervals(_) = columns {
            // Ref, Cmp and Change: see `bare_cells_are_bare`.
            for column in axis_names.len()..axis_names.len() + 3 {
                if let Some(bare) = bare.get_mut(column) {
                    *bare = true;
                }
            }
        }
        TableLayout {
            headers,
            aligns,
            columns,
            no_color,
            separator,
            bare,
        }
    }
}

impl<'r> PiecewiseTable<Row<'r>> for TableLayout {
    fn headers(&self) -> &[String] {
        &self.headers
    }

    fn aligns(&self) -> &[Align] {
        &self.aligns
    }

    fn cells(&self, rows: &[Row]) -> CellTable {
        let (no_color, separator) = (self.no_color, self.separator);
        table_cells(rows, self.headers.len(), |part, row| {
            push_axis_cells(part, row.axis_cells);
            let c = row.comparison;
            match self.columns {
                ColumnsOf::Legacy => legacy_cells(part, c, no_color),
                ColumnsOf::Simple => simple_cells(part, c, no_color),
                ColumnsOf::Explain(explicit, utest) => {
                    explain_cells(part, c, (explicit, utest), (no_color, separator))
                }
                ColumnsOf::Intervals(widths) => interval_cells(part, c, widths, no_color),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pycompat::tabulate::github_table_of;

    /// A layout of plain text rows, for [`write_in_pieces`].
    struct TextRows {
        headers: Vec<String>,
        aligns: Vec<Align>,
    }

    impl PiecewiseTable<Vec<String>> for TextRows {
        fn headers(&self) -> &[String] {
            &self.headers
        }

        fn aligns(&self) -> &[Align] {
            &self.aligns
        }

        fn cells(&self, rows: &[Vec<String>]) -> CellTable {
            CellTable::of_rows(self.headers.len(), rows)
        }
    }

    /// Over several chunks of rows, with numbers whose widths and decimal
    /// points vary and a column that turns from numbers to text late, the
    /// pieces make the whole table's text.
    #[test]
    fn a_table_written_in_pieces_is_the_whole_table() {
        let layout = TextRows {
            headers: ["name", "n", "x", "late"].map(String::from).to_vec(),
            aligns: vec![Align::Center, Align::Right, Align::Right, Align::Left],
        };
        let count = 2 * ROWS_A_CHUNK + 3;
        let rows: Vec<Vec<String>> = (0..count)
            .map(|i| {
                let late = if i == count - 2 {
                    "text".to_string()
                } else {
                    i.to_string()
                };
                vec![
                    format!("s{}", i % 97),
                    (i * 7919 % 100_003).to_string(),
                    format!("{:.*}", i % 4, i as f64 / 3.0),
                    late,
                ]
            })
            .collect();
        let mut written = Vec::new();
        write_in_pieces(&layout, &rows, &mut written).unwrap();
        let whole = github_table_of(&layout.headers, &layout.aligns, &layout.cells(&rows));
        assert_eq!(String::from_utf8(written).unwrap(), whole);
    }

    /// The shortcut for printable ASCII cells: `printable` leaves them as they are.
    #[test]
    fn printable_ascii_axis_cells_need_no_escaping() {
        let printable_ascii: String = (0x20u8..0x7f).map(char::from).collect();
        assert_eq!(printable(&printable_ascii), printable_ascii);
        let cells = ["I8", "2^20", "0.5", "", "\u{1b}[31m", "é", "a\u{7f}"];
        let mut part = CellPart::default();
        push_axis_cells(&mut part, cells);
        let table = CellTable::new(cells.len(), vec![part]);
        let escaped: Vec<String> = cells.iter().map(|c| printable(c).into_owned()).collect();
        let expected = CellTable::of_rows(cells.len(), &[escaped]);
        let headers: Vec<String> = (0..cells.len()).map(|i| format!("h{i}")).collect();
        let aligns = vec![Align::Left; cells.len()];
        assert_eq!(
            github_table_of(&headers, &aligns, &table),
            github_table_of(&headers, &aligns, &expected)
        );
    }
}
