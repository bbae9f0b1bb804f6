//! Owns the byte-exact rendering of `tabulate.tabulate(rows, headers=headers,
//! colalign=colalign, tablefmt="github")` (python-tabulate 0.10.0 without
//! `wcwidth`) for tables whose headers and cells are all strings.
//!
//! tabulate does much more than pad strings: it guesses a type for every
//! column from its cells, re-prints numbers in numeric columns, measures
//! widths without ANSI colour codes, and switches to a multi-line layout when
//! any cell holds a line break. Each step below mirrors one of those
//! behaviours, including the quirky ones, because the output has to match the
//! Python tool byte for byte.

use std::borrow::Cow;

mod cell_table;
mod cells;
mod numbers;
mod text;
mod two_pass;

pub use cell_table::{CellPart, CellTable};
pub use two_pass::{
    github_table_of, github_table_with_bare_columns, is_bare_cell, write_github_table_in_chunks,
};

use crate::parallel::map_in_parallel;

use cells::{CellType, column_type, format_cell};
use numbers::{is_number, matches_thousands_pattern, python_int_accepts};
use text::{
    contains_ansi_code, py_len, py_rstrip, py_splitlines, py_strip, split_on_cr_lf, strip_ansi,
    visible_len,
};

/// Alignment requested for a column (tabulate's `colalign` entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// Byte-identical to `tabulate(rows, headers=headers, colalign=aligns,
/// tablefmt="github")` (no trailing newline, like tabulate's return value).
///
/// Cells are any text (`String`, `&str`, `Cow<str>`), so that callers can
/// lend the cells they already hold instead of copying them.
pub fn github_table<C: AsRef<str> + Sync>(
    headers: &[String],
    aligns: &[Align],
    rows: &[Vec<C>],
) -> String {
    let headers = pad_headers_to_first_row(headers, rows);
    let (data_rows, separator_positions) = split_off_separator_rows(rows);
    let measure = Measure::of_table(&headers, &data_rows);
    let columns = transpose(&data_rows);
    let types: Vec<CellType> =
        map_in_parallel(&columns, columns_per_thread(data_rows.len()), |cells| {
            column_type(cells.iter().copied())
        });
    let column_aligns: Vec<ColumnAlign> = types
        .iter()
        .enumerate()
        .map(|(index, ty)| {
            aligns
                .get(index)
                .map_or(default_align(*ty), |a| (*a).into())
        })
        .collect();
    let padded_columns = pad_columns(&headers, &columns, &types, &column_aligns, measure);
    let (header_cells, widths) = align_headers(&headers, &column_aligns, &padded_columns, measure);
    let body = body_order(&padded_columns, data_rows.len(), &separator_positions);
    render(
        &header_cells,
        &widths,
        &padded_columns,
        &body,
        measure.multiline,
    )
}

// ---------------------------------------------------------------------------
// Table assembly
// ---------------------------------------------------------------------------

/// Large tables are typed, padded and rendered on all cores: by column
/// (each column is typed and padded on its own), then by row.
const ROWS_PER_THREAD: usize = 128;

fn columns_per_thread(rows: usize) -> usize {
    if rows >= ROWS_PER_THREAD {
        1
    } else {
        usize::MAX
    }
}

/// tabulate's `MIN_PADDING`: a column is at least this much wider than its header.
const MIN_PADDING: usize = 2;

/// tabulate's `SEPARATING_LINE` marker; a row carrying it becomes a rule line.
const SEPARATING_LINE: &str = "\x01";

/// Alignment applied to a column. Columns without a `colalign` entry get
/// tabulate's defaults: "decimal" for numeric columns, "left" otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ColumnAlign {
    Left,
    Center,
    Right,
    Decimal,
}

impl From<Align> for ColumnAlign {
    fn from(align: Align) -> Self {
        match align {
            Align::Left => ColumnAlign::Left,
            Align::Center => ColumnAlign::Center,
            Align::Right => ColumnAlign::Right,
        }
    }
}

fn default_align(ty: CellType) -> ColumnAlign {
    match ty {
        CellType::Int | CellType::Float => ColumnAlign::Decimal,
        _ => ColumnAlign::Left,
    }
}

/// When the first row is longer than the headers, tabulate prepends empty
/// headers so that the given headers label the *last* columns.
fn pad_headers_to_first_row<C>(headers: &[String], rows: &[Vec<C>]) -> Vec<String> {
    let missing = match rows.first() {
        Some(first) if !headers.is_empty() => first.len().saturating_sub(headers.len()),
        _ => 0,
    };
    std::iter::repeat_n(String::new(), missing)
        .chain(headers.iter().cloned())
        .collect()
}

/// A row whose first or second cell strips to `SEPARATING_LINE` is a separator
/// (`_is_separating_line`); tabulate removes those before typing the columns
/// and re-inserts them at their original indices afterwards.
fn is_separator_row<C: AsRef<str>>(row: &[C]) -> bool {
    row.iter()
        .take(2)
        .any(|cell| py_strip(cell.as_ref()) == SEPARATING_LINE)
}

fn split_off_separator_rows<C: AsRef<str>>(rows: &[Vec<C>]) -> (Vec<&Vec<C>>, Vec<usize>) {
    let mut data_rows = Vec::new();
    let mut separator_positions = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        if is_separator_row(row) {
            separator_positions.push(index);
        } else {
            data_rows.push(row);
        }
    }
    (data_rows, separator_positions)
}

/// Columns as `itertools.zip_longest` builds them: short rows yield `None`.
fn transpose<'a, C: AsRef<str>>(rows: &[&'a Vec<C>]) -> Vec<Vec<Option<&'a str>>> {
    let column_count = rows.iter().map(|row| row.len()).max().unwrap_or(0);
    (0..column_count)
        .map(|column| {
            rows.iter()
                .map(|row| row.get(column).map(AsRef::as_ref))
                .collect()
        })
        .collect()
}

/// Formats and pads every column that survives. With headers, tabulate zips
/// columns with the header widths, so columns beyond the headers are dropped.
fn pad_columns<'a>(
    headers: &[String],
    columns: &[Vec<Option<&'a str>>],
    types: &[CellType],
    aligns: &[ColumnAlign],
    measure: Measure,
) -> Vec<Vec<Padded<'a>>> {
    let kept = if headers.is_empty() {
        columns.len()
    } else {
        columns.len().min(headers.len())
    };
    let indices: Vec<usize> = (0..kept).collect();
    let rows = columns.first().map_or(0, Vec::len);
    map_in_parallel(&indices, columns_per_thread(rows), |&index| {
        let formatted = columns[index]
            .iter()
            .map(|cell| format_cell(*cell, types[index], measure.has_invisible))
            .collect();
        let min_width = headers
            .get(index)
            .map_or(0, |h| measure.width(h) + MIN_PADDING);
        align_column(formatted, aligns[index], min_width, measure)
    })
}

/// Aligned header cells and the final column widths.
fn align_headers<'h>(
    headers: &'h [String],
    aligns: &[ColumnAlign],
    columns: &[Vec<Padded>],
    measure: Measure,
) -> (Vec<Padded<'h>>, Vec<usize>) {
    if headers.is_empty() {
        let widths = columns
            .iter()
            .map(|column| widest(column, measure))
            .collect();
        return (Vec::new(), widths);
    }
    if columns.is_empty() {
        // No data columns: tabulate falls back to "left" for every header
        // (its `aligns` list is empty), and each keeps its own width.
        return headers
            .iter()
            .map(|header| {
                let width = measure.width(header) + MIN_PADDING;
                (
                    align_header(header, ColumnAlign::Left, width, measure),
                    width,
                )
            })
            .unzip();
    }
    // Zipping with the columns drops headers that have no column.
    headers
        .iter()
        .zip(aligns)
        .zip(columns)
        .map(|((header, align), column)| {
            let width = (measure.width(header) + MIN_PADDING).max(widest(column, measure));
            (align_header(header, *align, width, measure), width)
        })
        .unzip()
}

fn widest(cells: &[Padded], measure: Measure) -> usize {
    cells
        .iter()
        .map(|cell| cell.width(measure))
        .max()
        .unwrap_or(0)
}

/// The body in order: data rows by index, `None` for the separators put
/// back at their original indices (Python's `list.insert` appends when the
/// index is past the end). Without any data column tabulate has no data
/// rows at all, only the separators.
fn body_order(
    columns: &[Vec<Padded>],
    row_count: usize,
    separators: &[usize],
) -> Vec<Option<usize>> {
    let row_count = if columns.is_empty() { 0 } else { row_count };
    let mut body: Vec<Option<usize>> = (0..row_count).map(Some).collect();
    for &position in separators {
        body.insert(position.min(body.len()), None);
    }
    body
}

// ---------------------------------------------------------------------------
// Output lines of the "github" format
// ---------------------------------------------------------------------------

/// Body lines rendered per thread in big tables.
const LINES_PER_PART: usize = ROWS_PER_THREAD / 2;

/// The "github" format hides the line above the header only when there are
/// headers; separators reuse the line below the header.
fn render(
    headers: &[Padded],
    widths: &[usize],
    columns: &[Vec<Padded>],
    body: &[Option<usize>],
    multiline: bool,
) -> String {
    if headers.is_empty() && body.is_empty() {
        return String::new();
    }
    let rule = rule_line(widths);
    let mut lines = Lines::default();
    if !headers.is_empty() {
        push_row(&mut lines, headers.iter(), widths, multiline);
    }
    lines.push_line().push_str(&rule);
    let parts: Vec<&[Option<usize>]> = body.chunks(LINES_PER_PART).collect();
    let rendered = map_in_parallel(&parts, 2, |part| {
        let mut lines = Lines::default();
        for row in part.iter() {
            match row {
                None => lines.push_line().push_str(&rule),
                Some(row) => {
                    let cells = columns.iter().map(|column| &column[*row]);
                    push_row(&mut lines, cells, widths, multiline);
                }
            }
        }
        lines
    });
    for part in rendered {
        lines.append(part);
    }
    lines.text
}

/// Lines joined with `\n`, written into one string.
#[derive(Default)]
struct Lines {
    text: String,
    any: bool,
}

impl Lines {
    /// The text, ready for the next line to be written at its end.
    fn push_line(&mut self) -> &mut String {
        if self.any {
            self.text.push('\n');
        }
        self.any = true;
        &mut self.text
    }

    fn append(&mut self, other: Lines) {
        if other.any {
            self.push_line().push_str(&other.text);
        }
    }
}

/// `|-----|---|`: each segment covers the column plus its padding of 1 on both sides.
fn rule_line(widths: &[usize]) -> String {
    let segments: Vec<String> = widths.iter().map(|width| "-".repeat(width + 2)).collect();
    py_rstrip(&format!("|{}|", segments.join("|"))).to_string()
}

/// `| a | b |`, right-stripped like tabulate's `_build_simple_row`.
fn write_row_line<'p, 'a: 'p>(line: &mut String, cells: impl Iterator<Item = &'p Padded<'a>>) {
    let start = line.len();
    line.push('|');
    let mut empty = true;
    for cell in cells {
        line.push(' ');
        cell.write_to(line);
        line.push_str(" |");
        empty = false;
    }
    if empty {
        line.push('|');
    }
    let kept = start + py_rstrip(&line[start..]).len();
    line.truncate(kept);
}

/// In multi-line mode a row spans as many lines as its tallest cell
/// (`str.splitlines`); shorter cells are filled with blanks of the column
/// width. A row whose cells are all empty yields no line at all.
fn push_row<'p, 'a: 'p>(
    lines: &mut Lines,
    cells: impl Iterator<Item = &'p Padded<'a>>,
    widths: &[usize],
    multiline: bool,
) {
    if !multiline {
        write_row_line(lines.push_line(), cells);
        return;
    }
    let texts: Vec<Cow<str>> = cells.map(Padded::text).collect();
    let cell_lines: Vec<Vec<&str>> = texts.iter().map(|cell| py_splitlines(cell)).collect();
    let height = cell_lines.iter().map(Vec::len).max().unwrap_or(0);
    let blanks: Vec<String> = widths.iter().map(|width| " ".repeat(*width)).collect();
    for line in 0..height {
        let parts: Vec<Padded> = cell_lines
            .iter()
            .zip(&blanks)
            .map(|(cell, blank)| Padded::plain(cell.get(line).copied().unwrap_or(blank.as_str())))
            .collect();
        write_row_line(lines.push_line(), parts.iter());
    }
}

// ---------------------------------------------------------------------------
// Measuring and padding
// ---------------------------------------------------------------------------

/// How tabulate measures this table; both flags are decided once from the
/// tab-joined text of headers and data cells.
#[derive(Clone, Copy, Debug)]
struct Measure {
    /// Some ANSI code occurs: widths then ignore codes and pads compensate.
    has_invisible: bool,
    /// Some `\r` or `\n` occurs: cells are then laid out line by line.
    multiline: bool,
}

impl Measure {
    fn of_table<C: AsRef<str>>(headers: &[String], rows: &[&Vec<C>]) -> Measure {
        Measure::of_texts(|| {
            headers
                .iter()
                .map(String::as_str)
                .chain(rows.iter().flat_map(|row| row.iter().map(AsRef::as_ref)))
        })
    }

    /// From every header and cell in tabulate's order (headers, then the
    /// rows' cells row by row), as often as needed.
    fn of_texts<'t, I: Iterator<Item = &'t str>>(texts: impl Fn() -> I) -> Measure {
        // Bytes, not chars: no other character's UTF-8 holds these bytes.
        let multiline = texts().any(|text| text.bytes().any(|b| b == b'\r' || b == b'\n'));
        Measure {
            has_invisible: has_invisible_codes(texts),
            multiline,
        }
    }

    fn line_width(self, line: &str) -> usize {
        if self.has_invisible {
            visible_len(line)
        } else {
            py_len(line)
        }
    }

    /// Width of a cell: the widest of its `\r`/`\n`-separated lines in multi-line mode.
    fn width(self, cell: &str) -> usize {
        if self.multiline {
            split_on_cr_lf(cell)
                .map(|line| self.line_width(line))
                .max()
                .unwrap_or(0)
        } else {
            self.line_width(cell)
        }
    }

    /// Characters that take no room on screen; pad widths grow by this much.
    fn invisible_len(self, text: &str) -> usize {
        if self.has_invisible {
            py_len(text).saturating_sub(visible_len(text))
        } else {
            0
        }
    }
}

/// Whether tabulate finds an ANSI code in the tab-joined texts.
fn has_invisible_codes<'t, I: Iterator<Item = &'t str>>(texts: impl Fn() -> I) -> bool {
    // A CSI code cannot reach past a cell (a tab is none of its bytes), so
    // one inside a cell decides; without any ESC there is no code at all.
    let mut any_escape = false;
    for text in texts() {
        if text.contains('\x1b') {
            if contains_ansi_code(text) {
                return true;
            }
            any_escape = true;
        }
    }
    // Joined with tabs exactly like tabulate, because an OSC hyperlink may
    // only match across cell boundaries.
    any_escape && contains_ansi_code(&texts().collect::<Vec<&str>>().join("\t"))
}

/// `_align_column`: cells are stripped of surrounding whitespace (except for
/// "decimal", which pads to line up decimal points instead), then padded to
/// the column's widest cell or the header minimum.
fn align_column<'a>(
    cells: Vec<Cow<'a, str>>,
    align: ColumnAlign,
    min_width: usize,
    measure: Measure,
) -> Vec<Padded<'a>> {
    let cells: Vec<Cow<'a, str>> = match align {
        ColumnAlign::Decimal => pad_decimal_places(cells, measure.has_invisible),
        _ => cells.into_iter().map(stripped).collect(),
    };
    if !measure.multiline {
        // Each cell is measured once: its fill is what its visible width
        // lacks (`width + invisible_len - len`), and its padded width is
        // then the column's.
        let visible: Vec<usize> = cells.iter().map(|cell| measure.width(cell)).collect();
        let width = visible.iter().copied().max().unwrap_or(0).max(min_width);
        return cells
            .into_iter()
            .zip(visible)
            .map(|(cell, visible)| pad_fill(align, width.saturating_sub(visible), cell, width))
            .collect();
    }
    let width = cells
        .iter()
        .map(|cell| measure.width(cell))
        .max()
        .unwrap_or(0)
        .max(min_width);
    cells
        .into_iter()
        .map(|cell| pad_cell(cell, align, width, measure))
        .collect()
}

/// `str.strip()`, without a copy when the cell is borrowed or has nothing to strip.
fn stripped(cell: Cow<'_, str>) -> Cow<'_, str> {
    match cell {
        Cow::Borrowed(text) => Cow::Borrowed(py_strip(text)),
        Cow::Owned(text) if py_strip(&text).len() == text.len() => Cow::Owned(text),
        Cow::Owned(text) => Cow::Owned(py_strip(&text).to_string()),
    }
}

/// Pads a cell; in multi-line mode each `str.splitlines` line separately. With
/// ANSI codes, tabulate pairs those lines with the widths of the
/// `re.split("[\r\n]")` pieces, which differ when other line breaks occur.
fn pad_cell(cell: Cow<'_, str>, align: ColumnAlign, width: usize, measure: Measure) -> Padded<'_> {
    if !measure.multiline {
        let width = width + measure.invisible_len(&cell);
        return pad(align, width, cell);
    }
    let lines = py_splitlines(&cell);
    let padded: Vec<String> = if measure.has_invisible {
        lines
            .iter()
            .zip(split_on_cr_lf(&cell))
            .map(|(line, piece)| {
                pad(
                    align,
                    width + measure.invisible_len(piece),
                    Cow::Borrowed(*line),
                )
                .into_string()
            })
            .collect()
    } else {
        lines
            .iter()
            .map(|line| pad(align, width, Cow::Borrowed(*line)).into_string())
            .collect()
    };
    Padded::owned(padded.join("\n"))
}

/// "decimal" alignment: trailing spaces so that all decimal points line up.
fn pad_decimal_places(cells: Vec<Cow<'_, str>>, has_invisible: bool) -> Vec<Cow<'_, str>> {
    let places: Vec<isize> = cells
        .iter()
        .map(|cell| {
            if has_invisible {
                digits_after_point(&strip_ansi(cell))
            } else {
                digits_after_point(cell)
            }
        })
        .collect();
    let most = places.iter().copied().max().unwrap_or(-1);
    cells
        .into_iter()
        .zip(places)
        .map(|(cell, place)| match (most - place).max(0) as usize {
            0 => cell,
            spaces => {
                let mut text = cell.into_owned();
                push_spaces(&mut text, spaces);
                Cow::Owned(text)
            }
        })
        .collect()
}

/// `_afterpoint`: characters after the last '.' (or else the last 'e') of a
/// non-integer number; -1 for integers and non-numbers.
fn digits_after_point(text: &str) -> isize {
    if !(is_number(text) || matches_thousands_pattern(text)) || python_int_accepts(text) {
        return -1;
    }
    let chars: Vec<char> = text.chars().collect();
    let point = chars
        .iter()
        .rposition(|c| *c == '.')
        .or_else(|| chars.iter().rposition(|c| matches!(c, 'e' | 'E')));
    point.map_or(-1, |position| (chars.len() - position - 1) as isize)
}

/// `_align_header`: headers are not stripped; each line of a multi-line
/// header is padded on its own.
fn align_header(header: &str, align: ColumnAlign, width: usize, measure: Measure) -> Padded<'_> {
    if !measure.multiline {
        return pad(
            align,
            width + measure.invisible_len(header),
            Cow::Borrowed(header),
        );
    }
    let lines: Vec<String> = split_on_cr_lf(header)
        .map(|line| {
            pad(
                align,
                width + measure.invisible_len(line),
                Cow::Borrowed(line),
            )
            .into_string()
        })
        .collect();
    Padded::owned(lines.join("\n"))
}

fn pad(align: ColumnAlign, width: usize, text: Cow<'_, str>) -> Padded<'_> {
    let fill = width.saturating_sub(py_len(&text));
    let (left, right) = split_fill(align, fill);
    Padded {
        left,
        text,
        right,
        width: None,
    }
}

/// A single-line cell padded with `fill` spaces to the visible `width`.
fn pad_fill(align: ColumnAlign, fill: usize, text: Cow<'_, str>, width: usize) -> Padded<'_> {
    let (left, right) = split_fill(align, fill);
    Padded {
        left,
        text,
        right,
        width: Some(width),
    }
}

fn split_fill(align: ColumnAlign, fill: usize) -> (usize, usize) {
    match align {
        ColumnAlign::Left => (0, fill),
        // `format(s, "^N")` puts the odd space on the right (unlike `str.center`).
        ColumnAlign::Center => (fill / 2, fill - fill / 2),
        ColumnAlign::Right | ColumnAlign::Decimal => (fill, 0),
    }
}

/// A cell and the spaces that pad it. The spaces are written with the line,
/// so that single-line tables never build a padded copy of every cell.
struct Padded<'a> {
    left: usize,
    text: Cow<'a, str>,
    right: usize,
    /// The visible width, spaces included, when known.
    width: Option<usize>,
}

impl<'a> Padded<'a> {
    fn plain(text: &'a str) -> Self {
        Padded {
            left: 0,
            text: Cow::Borrowed(text),
            right: 0,
            width: None,
        }
    }

    fn owned(text: String) -> Self {
        Padded {
            left: 0,
            text: Cow::Owned(text),
            right: 0,
            width: None,
        }
    }

    /// Visible width, spaces included.
    fn width(&self, measure: Measure) -> usize {
        if let Some(width) = self.width {
            return width;
        }
        self.left + measure.width(&self.text) + self.right
    }

    fn write_to(&self, line: &mut String) {
        push_spaces(line, self.left);
        line.push_str(&self.text);
        push_spaces(line, self.right);
    }

    /// The padded text itself.
    fn text(&self) -> Cow<'_, str> {
        if self.left == 0 && self.right == 0 {
            return Cow::Borrowed(&self.text);
        }
        let mut text = String::with_capacity(self.left + self.text.len() + self.right);
        self.write_to(&mut text);
        Cow::Owned(text)
    }

    fn into_string(self) -> String {
        self.text().into_owned()
    }
}

/// Appends `count` spaces.
pub(crate) fn push_spaces(text: &mut String, count: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = count;
    while left > 0 {
        let run = left.min(SPACES.len());
        text.push_str(&SPACES[..run]);
        left -= run;
    }
}

#[cfg(test)]
mod tests {
    use super::numbers::python_float;
    use super::*;

    fn table(headers: &[&str], aligns: &[Align], rows: &[&[&str]]) -> String {
        let headers: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
        let rows: Vec<Vec<String>> = rows
            .iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect();
        github_table(&headers, aligns, &rows)
    }

    /// The shape of the nvbench comparison table: numbers right-aligned, ANSI-coloured status centred.
    #[test]
    fn nvbench_table_with_colored_status() {
        let actual = table(
            &["Ref", "Cmp", "Change", "Status"],
            &[Align::Right, Align::Right, Align::Right, Align::Center],
            &[
                &["12.34 us", "12.10 us", "-1.98%", "\u{1b}[90mAMBG\u{1b}[39m"],
                &[
                    "1.500 ms",
                    "1.200 ms",
                    "-20.00%",
                    "\u{1b}[32mFAST\u{1b}[39m",
                ],
                &[
                    "3.000 ms",
                    "3.600 ms",
                    "+20.00%",
                    "\u{1b}[31mSLOW\u{1b}[39m",
                ],
            ],
        );
        let expected = [
            "|      Ref |      Cmp |   Change |  Status  |",
            "|----------|----------|----------|----------|",
            "| 12.34 us | 12.10 us |   -1.98% |   \u{1b}[90mAMBG\u{1b}[39m   |",
            "| 1.500 ms | 1.200 ms |  -20.00% |   \u{1b}[32mFAST\u{1b}[39m   |",
            "| 3.000 ms | 3.600 ms |  +20.00% |   \u{1b}[31mSLOW\u{1b}[39m   |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// A column of float-looking axis values is re-printed with format(x, 'g').
    #[test]
    fn float_axis_column_is_reprinted_with_g() {
        let actual = table(
            &["Elements", "Time"],
            &[Align::Right, Align::Right],
            &[
                &["0", "1.0"],
                &["0.0001", "2.50"],
                &["1e+05", "3"],
                &["16777216", "1e-05"],
            ],
        );
        let expected = [
            "|    Elements |   Time |",
            "|-------------|--------|",
            "|           0 |      1 |",
            "|      0.0001 |    2.5 |",
            "|      100000 |      3 |",
            "| 1.67772e+07 |  1e-05 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Int columns are printed as given (format(str, '')), only stripped.
    #[test]
    fn int_column_keeps_its_text() {
        let actual = table(
            &["N", "Count"],
            &[Align::Center, Align::Right],
            &[&["007", " 42 "], &["+4", "1_000"], &["-3", "1,000"]],
        );
        let expected = [
            "|  N  |   Count |",
            "|-----|---------|",
            "| 007 |      42 |",
            "| +4  |   1_000 |",
            "| -3  |   1,000 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// One float makes the whole column float: ints are re-printed too.
    #[test]
    fn mixed_int_and_float_column_becomes_float() {
        let actual = table(
            &["Value"],
            &[Align::Right],
            &[&["1"], &["2.5"], &["16777216"], &["1,000.5"], &[""]],
        );
        let expected = [
            "|       Value |",
            "|-------------|",
            "|           1 |",
            "|         2.5 |",
            "| 1.67772e+07 |",
            "|      1000.5 |",
            "|             |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Exact 'inf'/'-inf'/'nan' spellings are numbers; overflow like 1e400 makes the column text.
    #[test]
    fn inf_and_nan_cells() {
        let actual = table(
            &["A", "B"],
            &[Align::Right, Align::Left],
            &[
                &["inf", "1e400"],
                &["-inf", "2"],
                &["NaN", "3"],
                &["1.5", "+inf"],
            ],
        );
        let expected = [
            "|    A | B     |",
            "|------|-------|",
            "|  inf | 1e400 |",
            "| -inf | 2     |",
            "|  nan | 3     |",
            "|  1.5 | +inf  |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Bool columns print as text; with ints they form an int column.
    #[test]
    fn true_false_cells() {
        let actual = table(
            &["Flag", "Mixed"],
            &[Align::Center, Align::Right],
            &[&["True", "True"], &["False", "10"], &["True", "7"]],
        );
        let expected = [
            "|  Flag  |   Mixed |",
            "|--------|---------|",
            "|  True  |    True |",
            "| False  |      10 |",
            "|  True  |       7 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Without wcwidth an emoji is one character wide.
    #[test]
    fn emoji_cells_count_one_column() {
        let actual = table(
            &["Status", "Ref"],
            &[Align::Center, Align::Right],
            &[
                &["\u{1f7e2} FAST", "1.5"],
                &["\u{1f534} SLOW", "2"],
                &["\u{1b}[32m\u{1f7e2} FAST\u{1b}[0m", "3"],
            ],
        );
        let expected = [
            "|  Status  |   Ref |",
            "|----------|-------|",
            "|  \u{1f7e2} FAST  |   1.5 |",
            "|  \u{1f534} SLOW  |     2 |",
            "|  \u{1b}[32m\u{1f7e2} FAST\u{1b}[0m  |     3 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Cells are stripped before alignment; headers are not.
    #[test]
    fn surrounding_spaces_are_stripped() {
        let actual = table(
            &["  left  ", "right", "mid"],
            &[Align::Left, Align::Right, Align::Center],
            &[&["  a  ", " 1 ", "\tx\t"], &["bb", "2 ", " yy"]],
        );
        let expected = [
            "|   left     |   right |  mid  |",
            "|------------|---------|-------|",
            "| a          |       1 |   x   |",
            "| bb         |       2 |  yy   |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// A column of empty strings keeps the header width plus padding.
    #[test]
    fn empty_string_column() {
        let actual = table(
            &["Empty", "X"],
            &[Align::Right, Align::Center],
            &[&["", "a"], &["", "b"]],
        );
        let expected = [
            "|   Empty |  X  |",
            "|---------|-----|",
            "|         |  a  |",
            "|         |  b  |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// format(s, '^N') puts the odd space on the right.
    #[test]
    fn odd_and_even_centering() {
        let actual = table(
            &["c"],
            &[Align::Center],
            &[&["a"], &["ab"], &["abc"], &["abcd"], &["abcde"]],
        );
        let expected = [
            "|   c   |",
            "|-------|",
            "|   a   |",
            "|  ab   |",
            "|  abc  |",
            "| abcd  |",
            "| abcde |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// tabulate's coloured-int rewrite drops leading zeros and anything before the colour code.
    #[test]
    fn colored_int_loses_leading_zeros_and_prefix() {
        let actual = table(
            &["N"],
            &[Align::Right],
            &[
                &["\u{1b}[32m007\u{1b}[39m"],
                &["\u{1b}[1m\u{1b}[31m05\u{1b}[0m"],
                &["12"],
            ],
        );
        let expected = [
            "|   N |",
            "|-----|",
            "|   \u{1b}[32m7\u{1b}[39m |",
            "|   \u{1b}[31m5\u{1b}[0m |",
            "|  12 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// '1,000' is an int; in a float column the commas are dropped before re-printing.
    #[test]
    fn thousands_separators() {
        let actual = table(
            &["Int", "Float"],
            &[Align::Right, Align::Right],
            &[&["1,000", "1,000"], &["12,345,678", "0.5"]],
        );
        let expected = [
            "|        Int |   Float |",
            "|------------|---------|",
            "|      1,000 |    1000 |",
            "| 12,345,678 |     0.5 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Without data rows every header is left-aligned at its own width plus 2.
    #[test]
    fn zero_rows_left_align_headers() {
        let actual = table(&["Ref", "Status"], &[Align::Right, Align::Center], &[]);
        let expected = ["| Ref   | Status   |", "|-------|----------|"].join("\n");
        assert_eq!(actual, expected);
    }

    /// Empty headers are prepended; colalign applies from the first column; numbers default to decimal.
    #[test]
    fn first_row_longer_than_headers() {
        let actual = table(
            &["H"],
            &[Align::Right],
            &[&["a", "1.5", "x"], &["bb", "10", "yy"], &["c", "2.25", "z"]],
        );
        let expected = [
            "|    |       | H   |",
            "|----|-------|-----|",
            "|  a |  1.5  | x   |",
            "| bb | 10    | yy  |",
            "|  c |  2.25 | z   |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Columns come from the rows, so headers without a column are dropped; short rows are padded.
    #[test]
    fn rows_shorter_than_headers_drop_headers() {
        let actual = table(
            &["A", "B", "C"],
            &[Align::Left, Align::Center, Align::Right],
            &[&["x", "1"], &["y"]],
        );
        let expected = [
            "| A   |  B  |",
            "|-----|-----|",
            "| x   |  1  |",
            "| y   |     |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Without headers the rule line goes on top and numeric columns align on the decimal point.
    #[test]
    fn no_headers_uses_line_above_and_decimal_alignment() {
        let actual = table(
            &[],
            &[],
            &[
                &["a", "1.5", "10"],
                &["bb", "22.25", "3"],
                &["c", "3", "-4"],
            ],
        );
        let expected = [
            "|----|-------|----|",
            "| a  |  1.5  | 10 |",
            "| bb | 22.25 |  3 |",
            "| c  |  3    | -4 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// A row whose first or second cell is '\x01' becomes a rule line.
    #[test]
    fn separator_rows() {
        let actual = table(
            &["K", "V"],
            &[Align::Left, Align::Right],
            &[&["a", "1"], &["\u{1}"], &["b", " \u{1} "], &["c", "3"]],
        );
        let expected = [
            "| K   |   V |",
            "|-----|-----|",
            "| a   |   1 |",
            "|-----|-----|",
            "|-----|-----|",
            "| c   |   3 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// A line break anywhere switches tabulate to its multi-line layout.
    #[test]
    fn multiline_cells() {
        let actual = table(
            &["Name", "Lines"],
            &[Align::Left, Align::Center],
            &[&["one", "a\nbb"], &["two", "c"], &["", ""]],
        );
        let expected = [
            "| Name   |  Lines  |",
            "|--------|---------|",
            "| one    |    a    |",
            "|        |   bb    |",
            "| two    |    c    |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Python's float() accepts other scripts' digits and Unicode spaces.
    #[test]
    fn unicode_digits_and_spaces_parse_as_numbers() {
        let actual = table(
            &["V"],
            &[Align::Right],
            &[&["\u{663}.5"], &["\u{a0}7"], &["\u{ff11}\u{ff12}"]],
        );
        let expected = ["|   V |", "|-----|", "| 3.5 |", "|   7 |", "|  12 |"].join("\n");
        assert_eq!(actual, expected);
    }

    /// OSC 8 hyperlinks count only their link text.
    #[test]
    fn hyperlink_shows_its_text_width() {
        let actual = table(
            &["Link", "N"],
            &[Align::Center, Align::Right],
            &[
                &["\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\", "1"],
                &["plain", "22"],
            ],
        );
        let expected = [
            "|  Link  |   N |",
            "|--------|-----|",
            "|  \u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\  |   1 |",
            "| plain  |  22 |",
        ]
        .join("\n");
        assert_eq!(actual, expected);
    }

    /// Python's int()/float() acceptance rules behind the column types.
    #[test]
    fn python_number_rules() {
        assert!(python_int_accepts(" +1_000 "));
        assert!(python_int_accepts("\u{a0}5"));
        assert!(!python_int_accepts("1__0"));
        assert!(!python_int_accepts("\u{1c}5"));
        assert!(!python_int_accepts(&"0".repeat(4301)));
        assert_eq!(python_float(&"0".repeat(4301)), Some(0.0));
        assert_eq!(python_float("1e1_0"), Some(1e10));
        assert_eq!(python_float("1_e5"), None);
        assert_eq!(python_float("1.e5"), Some(100000.0));
        assert_eq!(python_float("1e400"), Some(f64::INFINITY));
        assert!(!is_number("1e400") && is_number("-inf") && !is_number("+inf"));
        assert!(matches_thousands_pattern("1,000\n") && matches_thousands_pattern(""));
        assert!(!matches_thousands_pattern("1,0000"));
    }

    /// Python's str.splitlines() versus re.split("[\r\n]").
    #[test]
    fn python_line_splitting() {
        assert_eq!(py_splitlines("a\r\nb\x0bc\n"), vec!["a", "b", "c"]);
        assert_eq!(py_splitlines(""), Vec::<&str>::new());
        assert_eq!(
            split_on_cr_lf("a\r\nb\n").collect::<Vec<_>>(),
            vec!["a", "", "b", ""]
        );
    }
}
