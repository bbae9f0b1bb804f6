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

use crate::parallel::map_in_parallel;

use crate::pycompat::pyfmt::format_g;

/// Alignment requested for a column (tabulate's `colalign` entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// Byte-identical to `tabulate(rows, headers=headers, colalign=aligns,
/// tablefmt="github")` (no trailing newline, like tabulate's return value).
pub fn github_table(headers: &[String], aligns: &[Align], rows: &[Vec<String>]) -> String {
    let headers = pad_headers_to_first_row(headers, rows);
    let (data_rows, separator_positions) = split_off_separator_rows(rows);
    let measure = Measure::of_table(&headers, &data_rows);
    let columns = transpose(&data_rows);
    let types: Vec<CellType> =
        map_in_parallel(&columns, columns_per_thread(data_rows.len()), |cells| {
            column_type(cells)
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
    let body = assemble_body(&padded_columns, data_rows.len(), &separator_positions);
    render(&header_cells, &widths, &body, measure.multiline)
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

/// One line of the table body after separators are put back.
enum BodyRow {
    Cells(Vec<String>),
    Separator,
}

/// When the first row is longer than the headers, tabulate prepends empty
/// headers so that the given headers label the *last* columns.
fn pad_headers_to_first_row(headers: &[String], rows: &[Vec<String>]) -> Vec<String> {
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
fn is_separator_row(row: &[String]) -> bool {
    row.iter()
        .take(2)
        .any(|cell| py_strip(cell) == SEPARATING_LINE)
}

fn split_off_separator_rows(rows: &[Vec<String>]) -> (Vec<&Vec<String>>, Vec<usize>) {
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
fn transpose<'a>(rows: &[&'a Vec<String>]) -> Vec<Vec<Option<&'a str>>> {
    let column_count = rows.iter().map(|row| row.len()).max().unwrap_or(0);
    (0..column_count)
        .map(|column| {
            rows.iter()
                .map(|row| row.get(column).map(String::as_str))
                .collect()
        })
        .collect()
}

/// Formats and pads every column that survives. With headers, tabulate zips
/// columns with the header widths, so columns beyond the headers are dropped.
fn pad_columns(
    headers: &[String],
    columns: &[Vec<Option<&str>>],
    types: &[CellType],
    aligns: &[ColumnAlign],
    measure: Measure,
) -> Vec<Vec<String>> {
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
fn align_headers(
    headers: &[String],
    aligns: &[ColumnAlign],
    columns: &[Vec<String>],
    measure: Measure,
) -> (Vec<String>, Vec<usize>) {
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

fn widest(cells: &[String], measure: Measure) -> usize {
    cells
        .iter()
        .map(|cell| measure.width(cell))
        .max()
        .unwrap_or(0)
}

/// Data rows in order, with separators re-inserted at their original indices
/// (Python's `list.insert` appends when the index is past the end). Without
/// any data column tabulate has no data rows at all, only the separators.
fn assemble_body(columns: &[Vec<String>], row_count: usize, separators: &[usize]) -> Vec<BodyRow> {
    let row_count = if columns.is_empty() { 0 } else { row_count };
    let mut body: Vec<BodyRow> = (0..row_count)
        .map(|row| BodyRow::Cells(columns.iter().map(|column| column[row].clone()).collect()))
        .collect();
    for &position in separators {
        body.insert(position.min(body.len()), BodyRow::Separator);
    }
    body
}

// ---------------------------------------------------------------------------
// Output lines of the "github" format
// ---------------------------------------------------------------------------

/// The "github" format hides the line above the header only when there are
/// headers; separators reuse the line below the header.
fn render(headers: &[String], widths: &[usize], body: &[BodyRow], multiline: bool) -> String {
    if headers.is_empty() && body.is_empty() {
        return String::new();
    }
    let mut lines = Vec::new();
    if headers.is_empty() {
        lines.push(rule_line(widths));
    } else {
        push_row(&mut lines, headers, widths, multiline);
        lines.push(rule_line(widths));
    }
    let body_lines = map_in_parallel(body, ROWS_PER_THREAD, |row| {
        let mut lines = Vec::new();
        match row {
            BodyRow::Separator => lines.push(rule_line(widths)),
            BodyRow::Cells(cells) => push_row(&mut lines, cells, widths, multiline),
        }
        lines
    });
    lines.extend(body_lines.into_iter().flatten());
    lines.join("\n")
}

/// `|-----|---|`: each segment covers the column plus its padding of 1 on both sides.
fn rule_line(widths: &[usize]) -> String {
    let segments: Vec<String> = widths.iter().map(|width| "-".repeat(width + 2)).collect();
    py_rstrip(&format!("|{}|", segments.join("|"))).to_string()
}

/// `| a | b |`, right-stripped like tabulate's `_build_simple_row`.
fn row_line<'a>(cells: impl Iterator<Item = &'a str>) -> String {
    let mut line = String::from("|");
    let mut empty = true;
    for cell in cells {
        line.push(' ');
        line.push_str(cell);
        line.push_str(" |");
        empty = false;
    }
    if empty {
        line.push('|');
    }
    let kept = py_rstrip(&line).len();
    line.truncate(kept);
    line
}

/// In multi-line mode a row spans as many lines as its tallest cell
/// (`str.splitlines`); shorter cells are filled with blanks of the column
/// width. A row whose cells are all empty yields no line at all.
fn push_row(lines: &mut Vec<String>, cells: &[String], widths: &[usize], multiline: bool) {
    if !multiline {
        lines.push(row_line(cells.iter().map(String::as_str)));
        return;
    }
    let cell_lines: Vec<Vec<&str>> = cells.iter().map(|cell| py_splitlines(cell)).collect();
    let height = cell_lines.iter().map(Vec::len).max().unwrap_or(0);
    let blanks: Vec<String> = widths.iter().map(|width| " ".repeat(*width)).collect();
    for line in 0..height {
        let parts = cell_lines
            .iter()
            .zip(&blanks)
            .map(|(cell, blank)| cell.get(line).copied().unwrap_or(blank.as_str()));
        lines.push(row_line(parts));
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
    fn of_table(headers: &[String], rows: &[&Vec<String>]) -> Measure {
        let texts: Vec<&str> = headers
            .iter()
            .chain(rows.iter().flat_map(|row| row.iter()))
            .map(String::as_str)
            .collect();
        // Joined with tabs exactly like tabulate, because an OSC hyperlink may
        // only match across cell boundaries.
        let plain_text = texts.join("\t");
        Measure {
            has_invisible: contains_ansi_code(&plain_text),
            multiline: plain_text.contains(['\r', '\n']),
        }
    }

    fn line_width(self, line: &str) -> usize {
        if self.has_invisible {
            py_len(&strip_ansi(line))
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
            py_len(text).saturating_sub(py_len(&strip_ansi(text)))
        } else {
            0
        }
    }
}

/// `_align_column`: cells are stripped of surrounding whitespace (except for
/// "decimal", which pads to line up decimal points instead), then padded to
/// the column's widest cell or the header minimum.
fn align_column(
    cells: Vec<String>,
    align: ColumnAlign,
    min_width: usize,
    measure: Measure,
) -> Vec<String> {
    let cells = match align {
        ColumnAlign::Decimal => pad_decimal_places(cells, measure.has_invisible),
        _ => cells
            .iter()
            .map(|cell| py_strip(cell).to_string())
            .collect(),
    };
    let width = widest(&cells, measure).max(min_width);
    cells
        .iter()
        .map(|cell| pad_cell(cell, align, width, measure))
        .collect()
}

/// Pads a cell; in multi-line mode each `str.splitlines` line separately. With
/// ANSI codes, tabulate pairs those lines with the widths of the
/// `re.split("[\r\n]")` pieces, which differ when other line breaks occur.
fn pad_cell(cell: &str, align: ColumnAlign, width: usize, measure: Measure) -> String {
    if !measure.multiline {
        return pad(align, width + measure.invisible_len(cell), cell);
    }
    let lines = py_splitlines(cell);
    let padded: Vec<String> = if measure.has_invisible {
        lines
            .iter()
            .zip(split_on_cr_lf(cell))
            .map(|(line, piece)| pad(align, width + measure.invisible_len(piece), line))
            .collect()
    } else {
        lines.iter().map(|line| pad(align, width, line)).collect()
    };
    padded.join("\n")
}

/// "decimal" alignment: trailing spaces so that all decimal points line up.
fn pad_decimal_places(cells: Vec<String>, has_invisible: bool) -> Vec<String> {
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
        .map(|(cell, place)| cell + &" ".repeat((most - place).max(0) as usize))
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
fn align_header(header: &str, align: ColumnAlign, width: usize, measure: Measure) -> String {
    if !measure.multiline {
        return pad(align, width + measure.invisible_len(header), header);
    }
    let lines: Vec<String> = split_on_cr_lf(header)
        .map(|line| pad(align, width + measure.invisible_len(line), line))
        .collect();
    lines.join("\n")
}

fn pad(align: ColumnAlign, width: usize, text: &str) -> String {
    let fill = width.saturating_sub(py_len(text));
    let (left, right) = match align {
        ColumnAlign::Left => (0, fill),
        // `format(s, "^N")` puts the odd space on the right (unlike `str.center`).
        ColumnAlign::Center => (fill / 2, fill - fill / 2),
        ColumnAlign::Right | ColumnAlign::Decimal => (fill, 0),
    };
    format!("{}{}{}", " ".repeat(left), text, " ".repeat(right))
}

// ---------------------------------------------------------------------------
// Column types and number re-printing
// ---------------------------------------------------------------------------

/// Deduced cell type, ordered by generality as in tabulate's `_more_generic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum CellType {
    Missing,
    Bool,
    Int,
    Float,
    Text,
}

/// `_column_type`: the most generic cell type, starting from `bool` (so a
/// column of empty cells counts as bool, which prints like text).
fn column_type(cells: &[Option<&str>]) -> CellType {
    cells
        .iter()
        .map(|cell| cell.map_or(CellType::Missing, cell_type))
        .fold(CellType::Bool, Ord::max)
}

/// `_type` on a string, which always looks at the text without ANSI codes.
fn cell_type(cell: &str) -> CellType {
    let text = strip_ansi(cell);
    if text.is_empty() {
        CellType::Missing
    } else if text == "True" || text == "False" {
        CellType::Bool
    } else if python_int_accepts(&text) || (matches_thousands_pattern(&text) && !text.contains('.'))
    {
        CellType::Int
    } else if is_number(&text) || matches_thousands_pattern(&text) {
        CellType::Float
    } else {
        CellType::Text
    }
}

/// `_format`: only numeric columns change their cells.
fn format_cell(cell: Option<&str>, ty: CellType, has_invisible: bool) -> String {
    match (cell, ty) {
        (None, _) | (Some(""), _) => String::new(),
        (Some(text), CellType::Int) => normalize_colored_int(text),
        (Some(text), CellType::Float) => format_float_cell(text, has_invisible),
        (Some(text), _) => text.to_string(),
    }
}

/// Floats print with `format(x, "g")`. When the table has ANSI codes tabulate
/// replaces the plain number inside the coloured text (so thousands
/// separators are not understood there); otherwise it drops commas first.
/// Unparseable cells (e.g. "True" in a float column) stay as they are.
fn format_float_cell(text: &str, has_invisible: bool) -> String {
    if has_invisible {
        let plain = strip_ansi(text);
        match python_float(&plain) {
            Some(value) => text.replace(plain.as_ref(), &format_g(value, 6)),
            None => text.to_string(),
        }
    } else {
        let without_commas = text.replace(',', "");
        match python_float(&without_commas) {
            Some(value) => format_g(value, 6),
            None => without_commas,
        }
    }
}

/// Int columns keep their text (`format(str, "")`), except that tabulate
/// searches the `unicode_escape` form for a colour code directly followed by
/// digits and a backslash, and re-prints those digits via `int()`, which drops
/// leading zeros. It rebuilds the cell from the match alone, so whatever
/// precedes that colour code is lost: "\x1b[1m\x1b[31m05\x1b[0m" becomes
/// "\x1b[31m5\x1b[0m".
fn normalize_colored_int(cell: &str) -> String {
    let escaped = unicode_escape(cell);
    let Some(found) = find_colored_digits(escaped.as_bytes()) else {
        return cell.to_string();
    };
    let digits = &escaped[found.digits_start..found.digits_end];
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return cell.to_string();
    }
    let trimmed = digits.trim_start_matches('0');
    let canonical = if trimmed.is_empty() { "0" } else { trimmed };
    let rebuilt = format!(
        "{}{}{}",
        &escaped[found.match_start..found.digits_start],
        canonical,
        &escaped[found.digits_end..]
    );
    // Python raises on a malformed escape here; keeping the cell is the
    // closest non-crashing behaviour.
    unicode_unescape(&rebuilt).unwrap_or_else(|| cell.to_string())
}

/// Where tabulate's int-colour regex matched in the escaped text: the match
/// start and the byte range of its digits group.
struct ColoredDigits {
    match_start: usize,
    digits_start: usize,
    digits_end: usize,
}

/// Leftmost match of `(\\[xX]+[0-9a-fA-F]+\[\d+[mM]+)([0-9.]+)(\\.*)$` in
/// escaped (ASCII) text. Every quantifier there is followed by a disjoint
/// character class, so the greedy runs are the only possible match at a start.
fn find_colored_digits(escaped: &[u8]) -> Option<ColoredDigits> {
    (0..escaped.len()).find_map(|start| colored_digits_at(escaped, start))
}

fn colored_digits_at(escaped: &[u8], start: usize) -> Option<ColoredDigits> {
    if escaped.get(start) != Some(&b'\\') {
        return None;
    }
    let after_x = skip_run(escaped, start + 1, |b| matches!(b, b'x' | b'X'))?;
    let after_hex = skip_run(escaped, after_x, |b| b.is_ascii_hexdigit())?;
    if escaped.get(after_hex) != Some(&b'[') {
        return None;
    }
    let after_params = skip_run(escaped, after_hex + 1, |b| b.is_ascii_digit())?;
    let digits_start = skip_run(escaped, after_params, |b| matches!(b, b'm' | b'M'))?;
    let digits_end = skip_run(escaped, digits_start, |b| b.is_ascii_digit() || b == b'.')?;
    (escaped.get(digits_end) == Some(&b'\\')).then_some(ColoredDigits {
        match_start: start,
        digits_start,
        digits_end,
    })
}

/// End of a non-empty run of bytes satisfying `accept` starting at `from`.
fn skip_run(bytes: &[u8], from: usize, accept: impl Fn(u8) -> bool) -> Option<usize> {
    let run = bytes
        .get(from..)?
        .iter()
        .take_while(|b| accept(**b))
        .count();
    (run > 0).then_some(from + run)
}

/// Python's `str.encode("unicode_escape")` (as text).
fn unicode_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let code = c as u32;
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if code < 0x20 || (0x7f..0x100).contains(&code) => {
                out.push_str(&format!("\\x{code:02x}"))
            }
            _ if (0x100..0x10000).contains(&code) => out.push_str(&format!("\\u{code:04x}")),
            _ if code >= 0x10000 => out.push_str(&format!("\\U{code:08x}")),
            _ => out.push(c),
        }
    }
    out
}

/// Inverse of [`unicode_escape`] (Python's `decode("unicode_escape")` for
/// the escapes that encoding produces).
fn unicode_unescape(escaped: &str) -> Option<String> {
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped;
    while let Some(position) = rest.find('\\') {
        out.push_str(&rest[..position]);
        let sequence = &rest[position + 1..];
        let (decoded, used) = match sequence.as_bytes().first()? {
            b'\\' => ('\\', 1),
            b't' => ('\t', 1),
            b'n' => ('\n', 1),
            b'r' => ('\r', 1),
            b'x' => (hex_char(sequence.get(1..3)?)?, 3),
            b'u' => (hex_char(sequence.get(1..5)?)?, 5),
            b'U' => (hex_char(sequence.get(1..9)?)?, 9),
            // Python keeps an unknown escape such as `\X` as it is.
            _ => ('\\', 0),
        };
        out.push(decoded);
        rest = &sequence[used..];
    }
    out.push_str(rest);
    Some(out)
}

fn hex_char(hex: &str) -> Option<char> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
}

// ---------------------------------------------------------------------------
// Python number recognition (`int()`, `float()`, tabulate's regexes)
// ---------------------------------------------------------------------------

/// Python 3.11's default `sys.get_int_max_str_digits()`: longer digit strings
/// make `int()` raise, so tabulate does not treat them as integers.
const INT_MAX_STR_DIGITS: usize = 4300;

/// `_isnumber`: `float()` accepts it and it is finite, or it is spelled
/// exactly "inf", "-inf" or "nan" in any case (so "1e999" or " inf" are text).
fn is_number(text: &str) -> bool {
    match python_float(text) {
        Some(value) if value.is_finite() => true,
        Some(_) => ["inf", "-inf", "nan"]
            .iter()
            .any(|word| text.eq_ignore_ascii_case(word)),
        None => false,
    }
}

/// Whether Python's `int(text)` succeeds: surrounding whitespace, a sign,
/// and decimal digits (any script) with single underscores between digits.
fn python_int_accepts(text: &str) -> bool {
    let Some(ascii) = python_number_text(text) else {
        return false;
    };
    let body = ascii.strip_prefix(['+', '-']).unwrap_or(&ascii);
    digit_count_with_underscores(body).is_some_and(|digits| digits <= INT_MAX_STR_DIGITS)
}

/// Number of digits in `1_000`-style text; `None` unless it is digits with
/// single underscores strictly between them.
fn digit_count_with_underscores(text: &str) -> Option<usize> {
    let well_formed = !text.is_empty()
        && !text.starts_with('_')
        && !text.ends_with('_')
        && !text.contains("__")
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    well_formed.then(|| text.bytes().filter(u8::is_ascii_digit).count())
}

/// Python's `float(text)`.
fn python_float(text: &str) -> Option<f64> {
    let ascii = python_number_text(text)?;
    let literal = remove_digit_underscores(&ascii)?;
    parse_float_literal(&literal)
}

/// CPython first maps non-ASCII whitespace to ' ' and non-ASCII decimal
/// digits to ASCII (`_PyUnicode_TransformDecimalAndSpaceToASCII`; any other
/// non-ASCII character fails), then trims C whitespace (" \t\n\v\f\r").
fn python_number_text(text: &str) -> Option<String> {
    let ascii: String = text
        .chars()
        .map(ascii_equivalent)
        .collect::<Option<String>>()?;
    Some(ascii.trim_matches(is_c_space).to_string())
}

fn ascii_equivalent(c: char) -> Option<char> {
    if (c as u32) < 127 {
        Some(c)
    } else if is_py_space(c) {
        Some(' ')
    } else {
        unicode_decimal_value(c).map(|digit| char::from(b'0' + digit))
    }
}

fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `float()` allows an underscore only between two digits, then ignores it.
fn remove_digit_underscores(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let well_placed = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'_')
        .all(|(index, _)| {
            let digit_before = index > 0 && bytes[index - 1].is_ascii_digit();
            let digit_after = bytes.get(index + 1).is_some_and(u8::is_ascii_digit);
            digit_before && digit_after
        });
    well_placed.then(|| text.replace('_', ""))
}

/// Sign, then "inf"/"infinity"/"nan" in any case or a decimal literal.
fn parse_float_literal(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if body.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else if is_decimal_literal(body) {
        // Rust's parser rounds correctly like CPython's dtoa and saturates
        // out-of-range values to infinity or zero the same way.
        body.parse::<f64>().ok()?
    } else {
        return None;
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `digits [. digits] [e [sign] digits]` with at least one mantissa digit.
fn is_decimal_literal(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(position) => (&text[..position], Some(&text[position + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok =
        !(whole.is_empty() && fraction.is_empty()) && all_digits(whole) && all_digits(fraction);
    let exponent_ok = exponent.is_none_or(|exp| {
        let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        !digits.is_empty() && all_digits(digits)
    });
    mantissa_ok && exponent_ok
}

/// tabulate's `_float_with_thousands_separators` regex
/// `^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$`; its `$`
/// also matches before a final newline, and it accepts the empty string.
fn matches_thousands_pattern(text: &str) -> bool {
    fully_matches_thousands(text) || text.strip_suffix('\n').is_some_and(fully_matches_thousands)
}

fn fully_matches_thousands(text: &str) -> bool {
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if text.is_empty() {
        return true;
    }
    match text.split_once('.') {
        Some(("", fraction)) => !fraction.is_empty() && all_digits(fraction),
        Some((whole, fraction)) => is_grouped_integer(whole) && all_digits(fraction),
        None => is_grouped_integer(text),
    }
}

/// `[+-]?[0-9]{1,3}(,[0-9]{3})*`
fn is_grouped_integer(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let mut groups = unsigned.split(',');
    let first_ok = groups
        .next()
        .is_some_and(|g| (1..=3).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()));
    first_ok && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

/// First code points of the runs of ten Unicode decimal digits (Python 3.11 /
/// Unicode 14 `unicodedata.decimal`), which `int()` and `float()` accept.
const DECIMAL_DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
    0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
    0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
    0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

fn unicode_decimal_value(c: char) -> Option<u8> {
    let code = c as u32;
    DECIMAL_DIGIT_ZEROS
        .iter()
        .find(|zero| (**zero..**zero + 10).contains(&code))
        .map(|zero| (code - zero) as u8)
}

// ---------------------------------------------------------------------------
// ANSI codes (tabulate's `_ansi_codes` regex)
// ---------------------------------------------------------------------------

const ESC: char = '\x1b';

/// `_strip_ansi`: CSI codes vanish, OSC 8 hyperlinks leave their link text.
fn strip_ansi(text: &str) -> Cow<'_, str> {
    if !text.contains(ESC) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut position = 0;
    while let Some(c) = text[position..].chars().next() {
        match ansi_code_at(text, position) {
            Some((end, visible)) => {
                out.push_str(visible);
                position = end;
            }
            None => {
                out.push(c);
                position += c.len_utf8();
            }
        }
    }
    Cow::Owned(out)
}

fn contains_ansi_code(text: &str) -> bool {
    text.match_indices(ESC)
        .any(|(position, _)| ansi_code_at(text, position).is_some())
}

/// A code starting at byte `start`: where it ends and the text it displays.
fn ansi_code_at(text: &str, start: usize) -> Option<(usize, &str)> {
    let rest = text.get(start..)?;
    if let Some(length) = csi_code_len(rest) {
        return Some((start + length, ""));
    }
    osc_hyperlink(rest).map(|(length, visible)| (start + length, visible))
}

/// `ESC [` parameter bytes 0x30-0x3f, intermediate bytes 0x20-0x2f, one
/// final byte 0x40-0x7e. The three ranges are disjoint, so greedy runs decide.
fn csi_code_len(text: &str) -> Option<usize> {
    let bytes = text.strip_prefix("\x1b[")?.as_bytes();
    let params = bytes
        .iter()
        .take_while(|b| (0x30..=0x3f).contains(*b))
        .count();
    let intermediates = bytes[params..]
        .iter()
        .take_while(|b| (0x20..=0x2f).contains(*b))
        .count();
    let final_byte = *bytes.get(params + intermediates)?;
    (0x40..=0x7e)
        .contains(&final_byte)
        .then_some(2 + params + intermediates + 1)
}

/// `ESC ]8;` params `;` URI `ESC \` link-text `ESC ]8;; ESC \`, where params
/// is `(\w+=\w+:?)*` and URI and text are non-empty runs without ESC.
fn osc_hyperlink(text: &str) -> Option<(usize, &str)> {
    const OPEN: &str = "\x1b]8;";
    const TERMINATOR: &str = "\x1b\\";
    const CLOSE: &str = "\x1b]8;;\x1b\\";
    let after_open = text.strip_prefix(OPEN)?;
    let params_len = after_open
        .find(|c: char| !(is_regex_word_char(c) || c == '=' || c == ':'))
        .unwrap_or(after_open.len());
    let (params, rest) = after_open.split_at(params_len);
    if !is_link_params(params) {
        return None;
    }
    let rest = rest.strip_prefix(';')?;
    let uri_len = non_empty_run_before_esc(rest)?;
    let rest = rest[uri_len..].strip_prefix(TERMINATOR)?;
    let link_len = non_empty_run_before_esc(rest)?;
    let (link_text, rest) = rest.split_at(link_len);
    let rest = rest.strip_prefix(CLOSE)?;
    Some((text.len() - rest.len(), link_text))
}

fn non_empty_run_before_esc(text: &str) -> Option<usize> {
    let run = text.find(ESC)?;
    (run > 0).then_some(run)
}

/// Whether `text` matches `(\w+=\w+:?)*`, run as a small NFA because the
/// regex may split "a=bc=d" as "a=b" + "c=d".
fn is_link_params(text: &str) -> bool {
    const GROUP_START: u8 = 1;
    const IN_KEY: u8 = 2;
    const AFTER_EQUALS: u8 = 4;
    const IN_VALUE: u8 = 8;
    let mut states = GROUP_START;
    for c in text.chars() {
        let mut next = 0;
        if is_regex_word_char(c) {
            if states & (GROUP_START | IN_KEY | IN_VALUE) != 0 {
                next |= IN_KEY;
            }
            if states & (AFTER_EQUALS | IN_VALUE) != 0 {
                next |= IN_VALUE;
            }
        } else if c == '=' && states & IN_KEY != 0 {
            next = AFTER_EQUALS;
        } else if c == ':' && states & IN_VALUE != 0 {
            next = GROUP_START;
        }
        states = next;
        if states == 0 {
            return false;
        }
    }
    states & (GROUP_START | IN_VALUE) != 0
}

/// Python's Unicode `\w`, approximated with Rust's alphanumeric property.
fn is_regex_word_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

// ---------------------------------------------------------------------------
// Python string primitives
// ---------------------------------------------------------------------------

/// Python's `str.isspace()` (used by `strip`/`rstrip`).
fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\x1c'..='\x20'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

fn py_rstrip(text: &str) -> &str {
    text.trim_end_matches(is_py_space)
}

/// Python's `len()`: code points.
fn py_len(text: &str) -> usize {
    text.chars().count()
}

/// `re.split("[\r\n]", text)`: every `\r` and `\n` splits, empty pieces kept.
fn split_on_cr_lf(text: &str) -> std::str::Split<'_, [char; 2]> {
    text.split(['\r', '\n'])
}

/// Python's `str.splitlines()`: more line breaks, `\r\n` counts once, and no
/// empty last line after a final break.
fn py_splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut line_start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((position, c)) = chars.next() {
        if !is_line_boundary(c) {
            continue;
        }
        lines.push(&text[line_start..position]);
        line_start = position + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|(_, next)| *next == '\n') {
            chars.next();
            line_start += 1;
        }
    }
    if line_start < text.len() {
        lines.push(&text[line_start..]);
    }
    lines
}

fn is_line_boundary(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}
#[cfg(test)]
mod tests {
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
