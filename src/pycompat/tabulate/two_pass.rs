//! The "github" table of a [`CellTable`] written in two passes: the first
//! types and measures each column, the second writes every row straight
//! into the output. No padded or formatted copy of the cells is held, only
//! a few numbers a column.
//!
//! It covers the tables the comparison prints (headers over every column,
//! at least one row, no separator row, no line break in any cell); any
//! other table goes through [`github_table`], whose steps these are.

use std::borrow::Cow;

use crate::parallel::map_in_parallel;

use super::cell_table::{CellTable, RowCells};
use super::cells::{CellType, column_type, format_cell};
use super::text::{is_printable_ascii, py_rstrip, py_strip, strip_ansi};
use super::{
    Align, ColumnAlign, MIN_PADDING, Measure, SEPARATING_LINE, align_header, columns_per_thread,
    default_align, digits_after_point, github_table, has_invisible_codes, push_spaces, rule_line,
    split_fill, write_row_line,
};

/// Byte-identical to [`github_table`] on the same cells.
pub fn github_table_of(headers: &[String], aligns: &[Align], table: &CellTable) -> String {
    match first_pass(headers, aligns, table) {
        Some((measure, layouts)) => write_table(headers, &layouts, table, measure),
        None => github_table(headers, aligns, &table.to_rows()),
    }
}

/// A table whose first pass is done, written by the second on demand (in
/// pieces, so that a huge table is never held as one text).
pub struct MeasuredTable {
    headers: Vec<String>,
    layouts: Vec<ColumnLayout>,
    cells: CellTable,
    measure: Measure,
}

/// The first pass of [`github_table_of`], or the text itself when the
/// table takes tabulate's general path.
pub fn measured_github_table(
    headers: Vec<String>,
    aligns: &[Align],
    cells: CellTable,
) -> Result<MeasuredTable, String> {
    match first_pass(&headers, aligns, &cells) {
        Some((measure, layouts)) => Ok(MeasuredTable {
            headers,
            layouts,
            cells,
            measure,
        }),
        None => Err(github_table(&headers, aligns, &cells.to_rows())),
    }
}

/// The measure and column layouts, when the table has the shape the
/// second pass writes.
fn first_pass(
    headers: &[String],
    aligns: &[Align],
    table: &CellTable,
) -> Option<(Measure, Vec<ColumnLayout>)> {
    if !has_simple_shape(headers, table) {
        return None;
    }
    let measure = measure_of(headers, table);
    if measure.multiline {
        return None;
    }
    let indices: Vec<usize> = (0..table.columns()).collect();
    let per_thread = columns_per_thread(table.row_count());
    let layouts: Vec<ColumnLayout> = map_in_parallel(&indices, per_thread, |&column| {
        let align = aligns.get(column).copied();
        ColumnLayout::measure(table, column, &headers[column], align, measure)
    });
    Some((measure, layouts))
}

/// [`Measure::of_texts`] of the headers and cells. A part's text holds its
/// cells' bytes: one scan of it finds whether any of them has a line break
/// or an ESC, and only then are its cells looked at one by one.
fn measure_of(headers: &[String], table: &CellTable) -> Measure {
    let texts = || {
        headers
            .iter()
            .map(String::as_str)
            .chain(table.cells_by_row())
    };
    let blocks = || headers.iter().map(String::as_str).chain(table.part_texts());
    let multiline = blocks().any(|text| text.bytes().any(|b| b == b'\r' || b == b'\n'));
    let has_invisible = blocks().any(|text| text.contains('\x1b')) && has_invisible_codes(texts);
    Measure {
        has_invisible,
        multiline,
    }
}

/// Headers over every column and rows without separators: then tabulate
/// neither adds nor drops headers or columns, nor re-inserts rule lines.
fn has_simple_shape(headers: &[String], table: &CellTable) -> bool {
    let columns = table.columns();
    columns > 0
        && headers.len() == columns
        && table.row_count() > 0
        && !has_separator(table, columns)
}

/// Whether a row is a separator. Its cell holds the marker's byte: a table
/// whose parts hold none (a scan of each part's text) has no such row.
fn has_separator(table: &CellTable, columns: usize) -> bool {
    let marker = SEPARATING_LINE.as_bytes()[0];
    table
        .part_texts()
        .any(|text| text.as_bytes().contains(&marker))
        && table.rows().any(|row| is_separator(row, columns))
}

/// tabulate's `_is_separating_line` on the first two cells.
fn is_separator(row: RowCells, columns: usize) -> bool {
    (0..columns.min(2)).any(|column| py_strip(row.cell(column)) == SEPARATING_LINE)
}

/// What the second pass needs to know of a column.
struct ColumnLayout {
    ty: CellType,
    align: ColumnAlign,
    /// Visible width of every padded cell.
    width: usize,
    /// "decimal" alignment: the most digits after a point in the column;
    /// each cell gets trailing spaces up to it.
    most_places: isize,
    /// Bytes the column's cells take beyond their visible width (ANSI
    /// codes, multi-byte characters), to size the output once.
    extra_bytes: usize,
    /// Every cell is printable ASCII that formatting leaves as it is: the
    /// second pass only strips it, and its width is its length.
    plain: bool,
}

impl ColumnLayout {
    /// The first pass: tabulate's `_column_type`, then `_format` and
    /// `_align_column`'s widths, cell by cell.
    fn measure(
        table: &CellTable,
        column: usize,
        header: &str,
        align: Option<Align>,
        measure: Measure,
    ) -> Self {
        let ty = column_type(table.column(column).map(Some));
        let mut layout = ColumnLayout {
            ty,
            align: align.map_or(default_align(ty), ColumnAlign::from),
            width: 0,
            most_places: -1,
            extra_bytes: 0,
            plain: true,
        };
        // The widest cell before its decimal spaces, less its places: the
        // widest padded cell is this plus the most places.
        let mut widest_less_places = isize::MIN;
        // A cell like the one above it (columns repeat their values) is
        // measured alike: only its bytes beyond its width add up again.
        let mut previous: Option<(&str, usize)> = None;
        for cell in table.column(column) {
            if let Some((_, extra)) = previous.filter(|(text, _)| *text == cell) {
                layout.extra_bytes += extra;
                continue;
            }
            let formatted = layout.format(cell, measure);
            let text = layout.shaped(&formatted);
            let plain = is_plain(cell, &formatted, text);
            layout.plain &= plain;
            let visible = if plain {
                text.len()
            } else {
                measure.width(text)
            };
            layout.extra_bytes += text.len() - visible;
            previous = Some((cell, text.len() - visible));
            if layout.align == ColumnAlign::Decimal {
                let places = places(text, measure);
                layout.most_places = layout.most_places.max(places);
                widest_less_places = widest_less_places.max(visible as isize - places);
            } else {
                layout.width = layout.width.max(visible);
            }
        }
        if layout.align == ColumnAlign::Decimal {
            layout.width = (widest_less_places + layout.most_places) as usize;
        }
        layout.width = layout.width.max(measure.width(header) + MIN_PADDING);
        layout
    }

    /// `_format` of a cell in this column.
    #[inline]
    fn format<'c>(&self, cell: &'c str, measure: Measure) -> Cow<'c, str> {
        match self.ty {
            // Only numeric columns change their cells.
            CellType::Int | CellType::Float => {
                format_cell(Some(cell), self.ty, measure.has_invisible)
            }
            _ => Cow::Borrowed(cell),
        }
    }

    /// The formatted cell as `_align_column` pads it: stripped, except for
    /// "decimal", which keeps its spaces (and adds some, see [`Self::decimal_spaces`]).
    fn shaped<'t>(&self, formatted: &'t str) -> &'t str {
        match self.align {
            ColumnAlign::Decimal => formatted,
            _ => py_strip(formatted),
        }
    }

    /// The spaces "decimal" alignment puts after a cell to line up its point.
    fn decimal_spaces(&self, text: &str, measure: Measure) -> usize {
        match self.align {
            ColumnAlign::Decimal => (self.most_places - places(text, measure)).max(0) as usize,
            _ => 0,
        }
    }

    /// Writes the padded cell between the column's separators: the space
    /// after the previous `|`, the cell, and ` |`. `previous` is the last
    /// cell of the column that was not plain, and its visible width: a
    /// like cell has the same.
    fn write_cell<'c>(
        &self,
        line: &mut String,
        cell: &'c str,
        previous: &mut Option<(&'c str, usize)>,
        measure: Measure,
    ) {
        if self.plain {
            let text = self.shaped(cell);
            return self.write_padded(line, text, text.len(), measure);
        }
        if let Some((_, visible)) = previous.filter(|(text, _)| *text == cell) {
            // Formatting leaves a cell of a text column as it is.
            if matches!(self.ty, CellType::Text | CellType::Bool | CellType::Missing) {
                return self.write_padded(line, self.shaped(cell), visible, measure);
            }
        }
        let formatted = self.format(cell, measure);
        let text = self.shaped(&formatted);
        let visible = measure.width(text);
        *previous = Some((cell, visible));
        self.write_padded(line, text, visible, measure);
    }

    /// Writes a shaped cell of the given visible width with its padding,
    /// and the separators around it.
    fn write_padded(&self, line: &mut String, text: &str, visible: usize, measure: Measure) {
        let trailing = self.decimal_spaces(text, measure);
        let fill = self.width.saturating_sub(visible + trailing);
        let (left, right) = split_fill(self.align, fill);
        push_spaces(line, 1 + left);
        line.push_str(text);
        push_spaces_and_bar(line, trailing + right);
    }
}

/// A cell that formatting leaves as it is (`formatted` is the very text of
/// the cell, not a copy), so that the second pass can shape the cell itself,
/// and whose shaped text is printable ASCII, as wide as it is long.
fn is_plain(cell: &str, formatted: &str, shaped: &str) -> bool {
    let unchanged = std::ptr::eq(cell, formatted) || cell.is_empty();
    unchanged && is_printable_ascii(shaped.as_bytes())
}

/// `_afterpoint` as "decimal" alignment applies it (on the text without ANSI codes).
fn places(text: &str, measure: Measure) -> isize {
    if measure.has_invisible {
        digits_after_point(&strip_ansi(text))
    } else {
        digits_after_point(text)
    }
}

/// The second pass: the header line, the rule, then each row as
/// `_build_simple_row` writes it, into one string sized once.
fn write_table(
    headers: &[String],
    layouts: &[ColumnLayout],
    table: &CellTable,
    measure: Measure,
) -> String {
    let mut out = String::new();
    let never = |_: &mut String| -> Result<(), std::convert::Infallible> { Ok(()) };
    let Ok(()) = write_rows(
        headers,
        layouts,
        table,
        measure,
        (&mut out, usize::MAX),
        never,
    );
    out
}

impl MeasuredTable {
    /// The text of [`github_table_of`], handed to `write` in pieces of
    /// about `piece` bytes (whole lines).
    pub fn write_in_pieces<E>(
        &self,
        piece: usize,
        mut write: impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut out = String::new();
        let flush = |out: &mut String| {
            write(out)?;
            out.clear();
            Ok(())
        };
        let (headers, layouts) = (&self.headers, &self.layouts);
        write_rows(
            headers,
            layouts,
            &self.cells,
            self.measure,
            (&mut out, piece),
            flush,
        )?;
        write(&out)
    }
}

/// The second pass into `out`, handed to `flush` (which empties it) each
/// time it holds at least `piece` bytes.
fn write_rows<E>(
    headers: &[String],
    layouts: &[ColumnLayout],
    table: &CellTable,
    measure: Measure,
    (out, piece): (&mut String, usize),
    mut flush: impl FnMut(&mut String) -> Result<(), E>,
) -> Result<(), E> {
    let widths: Vec<usize> = layouts.iter().map(|layout| layout.width).collect();
    let header_cells: Vec<_> = headers
        .iter()
        .zip(layouts)
        .map(|(header, layout)| align_header(header, layout.align, layout.width, measure))
        .collect();
    let rule = rule_line(&widths);
    let mut header_line = String::new();
    write_row_line(&mut header_line, header_cells.iter());
    let capacity = header_line.len() + body_capacity(layouts, table.row_count(), &rule);
    out.reserve(capacity.min(piece.saturating_add(2 * rule.len() + 2)));
    out.push_str(&header_line);
    out.push('\n');
    out.push_str(&rule);
    let mut previous = vec![None; layouts.len()];
    for row in table.rows() {
        if out.len() >= piece {
            flush(out)?;
        }
        out.push('\n');
        let start = out.len();
        out.push('|');
        for (column, (layout, previous)) in layouts.iter().zip(&mut previous).enumerate() {
            layout.write_cell(out, row.cell(column), previous, measure);
        }
        let kept = start + py_rstrip(&out[start..]).len();
        out.truncate(kept);
    }
    Ok(())
}

/// `count` spaces, then ` |`, in one copy when few.
fn push_spaces_and_bar(line: &mut String, count: usize) {
    const SPACES_AND_BAR: &str = "                                                               |";
    match SPACES_AND_BAR.len().checked_sub(count + 2) {
        Some(start) => line.push_str(&SPACES_AND_BAR[start..]),
        None => {
            push_spaces(line, count);
            line.push_str(" |");
        }
    }
}

/// At most the bytes of the rule and the rows: every row as wide as the
/// rule (`|`, and for each column a space, the cell, a space and `|`), plus
/// what the cells take beyond their width, and a line break each.
fn body_capacity(layouts: &[ColumnLayout], rows: usize, rule: &str) -> usize {
    let extra: usize = layouts.iter().map(|layout| layout.extra_bytes).sum();
    (rows + 1) * (rule.len() + 1) + extra
}

#[cfg(test)]
mod tests {
    use super::super::CellPart;
    use super::*;

    /// xorshift64: the same random tables on every run.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: usize) -> usize {
            crate::testing::xorshift_step(&mut self.0);
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len())]
        }
    }

    const NUMBERS: &[&str] = &[
        "1", "12", "007", "-3", "1.5", "12.25", "0.125", "-2e3", "1e-7", "1,234.5", "1,234", "inf",
        "nan", "1_000", " 42 ", "3.0", "",
    ];
    const COLORED: &[&str] = &[
        "\x1b[31mSLOW\x1b[39m",
        "\x1b[32m05\x1b[0m",
        "\x1b[34m1.25\x1b[39m",
        "\x1b[90mAMBG\x1b[39m",
        "\x1b[1m\x1b[31m12\x1b[0m",
        "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
    ];
    const TEXTS: &[&str] = &[
        "1.234 us",
        "n/a",
        "<= -7.4%",
        "",
        "x",
        "  padded  ",
        "日本語",
        "🔴 SLOW",
        "é",
        "2^20",
        "True",
        "False",
        "I32",
        "a\tb",
        "\x1b",
        "\\x1b",
        "\x1c",
    ];
    const RARE: &[&str] = &["\x01", " \x01 ", "two\nlines", "cr\rlf"];

    /// A cell of a column of numbers (`kind` 0), texts (1) or both; a few
    /// are coloured, and with `rare` a few make a separator or line break.
    fn random_cell(random: &mut Random, kind: usize, rare: bool) -> &'static str {
        match (kind, random.below(40)) {
            (_, 0) if rare => random.pick(RARE),
            (_, 1..=3) => random.pick(COLORED),
            (0, _) => random.pick(NUMBERS),
            (1, _) => random.pick(TEXTS),
            _ => {
                let pool = if random.below(2) == 0 { NUMBERS } else { TEXTS };
                random.pick(pool)
            }
        }
    }

    fn random_aligns(random: &mut Random, columns: usize) -> Vec<Align> {
        let count = match random.below(3) {
            0 => random.below(columns + 1),
            _ => columns,
        };
        (0..count)
            .map(|_| [Align::Left, Align::Center, Align::Right][random.below(3)])
            .collect()
    }

    #[test]
    fn two_passes_write_what_the_general_path_writes() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        for case in 0..4000 {
            let columns = 1 + random.below(6);
            let rows = match random.below(10) {
                0 => 0,
                1 => 300 + random.below(200),
                _ => 1 + random.below(12),
            };
            let header_count = match random.below(8) {
                0 => random.below(columns + 2),
                _ => columns,
            };
            // Most tables have no separator or line break: the two passes' own tables.
            let rare = random.below(4) == 0;
            let headers: Vec<String> = (0..header_count)
                .map(|_| random_cell(&mut random, 1, rare).to_string())
                .collect();
            let kinds: Vec<usize> = (0..columns).map(|_| random.below(3)).collect();
            // Columns often repeat the cell above, which both passes
            // measure once.
            let repeats = random.below(2) == 0;
            let mut cells: Vec<Vec<&str>> = Vec::with_capacity(rows);
            for row in 0..rows {
                let cells_of_row = kinds
                    .iter()
                    .enumerate()
                    .map(|(column, k)| match row {
                        1.. if repeats && random.below(3) != 0 => cells[row - 1][column],
                        _ => random_cell(&mut random, *k, rare),
                    })
                    .collect();
                cells.push(cells_of_row);
            }
            let aligns = random_aligns(&mut random, columns);
            let table = CellTable::of_rows(columns, &cells);
            let expected = github_table(&headers, &aligns, &cells);
            assert_eq!(
                github_table_of(&headers, &aligns, &table),
                expected,
                "case {case}: {headers:?} {aligns:?} {cells:?}"
            );
            let piece = [1, 7, 100, 1 << 20][random.below(4)];
            assert_eq!(
                in_pieces(headers, &aligns, table, piece),
                expected,
                "case {case}, pieces of {piece}: {aligns:?} {cells:?}"
            );
        }
    }

    /// The text of [`measured_github_table`] written in pieces of `piece`
    /// bytes, each piece ending a line (or the table).
    fn in_pieces(headers: Vec<String>, aligns: &[Align], cells: CellTable, piece: usize) -> String {
        let measured = match measured_github_table(headers, aligns, cells) {
            Ok(measured) => measured,
            Err(text) => return text,
        };
        let mut pieces: Vec<String> = Vec::new();
        let Ok(()) = measured.write_in_pieces(piece, |text| {
            pieces.push(text.to_string());
            Ok::<(), std::convert::Infallible>(())
        });
        let (_, whole) = pieces.split_last().expect("at least one piece");
        for text in whole {
            assert!(text.len() >= piece, "a piece of {} bytes", text.len());
        }
        // Every piece but the first starts a line.
        assert!(pieces[1..].iter().all(|text| text.starts_with('\n')));
        pieces.concat()
    }

    #[test]
    fn parts_hold_whole_rows_in_order() {
        let mut first = CellPart::default();
        ["a", "b", "c", "d"].iter().for_each(|c| first.push_cell(c));
        let mut second = CellPart::default();
        second.text().push('e');
        second.end_cell();
        second.push_cell("");
        let table = CellTable::new(2, vec![first, CellPart::default(), second]);
        assert_eq!(table.row_count(), 3);
        assert_eq!(table.to_rows(), [["a", "b"], ["c", "d"], ["e", ""]]);
        assert_eq!(table.column(1).collect::<Vec<_>>(), ["b", "d", ""]);
    }
}
