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
use super::text::{contains_ansi_code, is_printable_ascii, py_rstrip, py_strip, strip_ansi};
use super::{
    Align, ColumnAlign, MIN_PADDING, Measure, SEPARATING_LINE, align_header, columns_per_thread,
    default_align, digits_after_point, github_table, has_invisible_codes, push_spaces, rule_line,
    split_fill, write_row_line,
};

/// Byte-identical to [`github_table`] on the same cells.
pub fn github_table_of(headers: &[String], aligns: &[Align], table: &CellTable) -> String {
    github_table_with_bare_columns(headers, aligns, table, &[])
}

/// A cell that a bare column may hold (see
/// [`github_table_with_bare_columns`]).
pub fn is_bare_cell(cell: &str) -> bool {
    is_printable_ascii(cell.as_bytes()) && py_strip(cell) == cell
}

/// [`github_table_of`] told which columns hold bare cells only: printable
/// ASCII without spaces around it (as `py_strip` leaves it), which the
/// caller writes that way (timing cells, say). Such a column of text is
/// measured by its cells' lengths and written without stripping; a column
/// typed as numbers (whose cells formatting may change) is measured as any
/// other. Byte-identical to [`github_table_of`] when the cells are bare.
pub fn github_table_with_bare_columns(
    headers: &[String],
    aligns: &[Align],
    table: &CellTable,
    bare: &[bool],
) -> String {
    match first_pass(headers, aligns, table, bare) {
        Some((measure, layouts)) => write_table(headers, &layouts, table, measure),
        None => github_table(headers, aligns, &table.to_rows()),
    }
}

/// [`github_table_of`] of a table made chunk by chunk (`chunk(i)` gives the
/// cells of the `i`-th of `chunks` chunks of rows, in order), written in
/// pieces of about `piece` bytes: no chunk is kept past its use, so a huge
/// table is never held whole. Each chunk is made three times (types and
/// codes, widths, text). `Ok(false)`, with nothing written, when the table
/// takes tabulate's general path (a separator row, a line break, an escape
/// not within one cell): the caller then makes it whole.
pub fn write_github_table_in_chunks<E>(
    headers: &[String],
    aligns: &[Align],
    (chunks, chunk): (usize, &(dyn Fn(usize) -> CellTable + Sync)),
    piece: usize,
    mut write: impl FnMut(&str) -> Result<(), E>,
) -> Result<bool, E> {
    let Some((measure, types)) = first_pass_in_chunks(headers, chunks, chunk) else {
        return Ok(false);
    };
    let indices: Vec<usize> = (0..headers.len()).collect();
    let mut widths: Vec<ColumnWidths> = indices
        .iter()
        .map(|&column| ColumnWidths::new(types[column], aligns.get(column).copied()))
        .collect();
    for index in 0..chunks {
        let table = chunk(index);
        let per_thread = columns_per_thread(table.row_count());
        widths = map_in_parallel(&indices, per_thread, |&column| {
            let mut column_widths = widths[column].clone();
            column_widths.add(table.column(column), measure);
            column_widths
        });
    }
    let layouts: Vec<ColumnLayout> = widths
        .into_iter()
        .zip(headers)
        .map(|(column_widths, header)| column_widths.finish(header, measure))
        .collect();
    let mut out = String::new();
    let mut flush = |out: &mut String| {
        write(out)?;
        out.clear();
        Ok(())
    };
    write_head(headers, &layouts, measure, &mut out);
    for index in 0..chunks {
        let table = chunk(index);
        write_body(&layouts, &table, measure, (&mut out, piece), &mut flush)?;
    }
    flush(&mut out)?;
    Ok(true)
}

/// The measure and column types of a table made in chunks, or `None` when
/// it does not have the shape the second pass writes.
fn first_pass_in_chunks(
    headers: &[String],
    chunks: usize,
    chunk: &(dyn Fn(usize) -> CellTable + Sync),
) -> Option<(Measure, Vec<CellType>)> {
    let line_break = |text: &str| text.bytes().any(|b| b == b'\r' || b == b'\n');
    if chunks == 0 || headers.iter().any(|h| line_break(h)) {
        return None;
    }
    let mut any_escape = headers.iter().any(|h| h.contains('\x1b'));
    let mut has_invisible = headers.iter().any(|h| contains_ansi_code(h));
    let mut types = vec![CellType::Bool; headers.len()];
    let indices: Vec<usize> = (0..headers.len()).collect();
    for index in 0..chunks {
        let table = chunk(index);
        if !has_simple_shape(headers, &table) || table.part_texts().any(line_break) {
            return None;
        }
        if table.part_texts().any(|text| text.contains('\x1b')) {
            for cell in table.cells_by_row().filter(|cell| cell.contains('\x1b')) {
                any_escape = true;
                has_invisible |= contains_ansi_code(cell);
            }
        }
        let per_thread = columns_per_thread(table.row_count());
        let chunk_types = map_in_parallel(&indices, per_thread, |&column| {
            column_type(table.column(column).map(Some))
        });
        for (ty, chunk_ty) in types.iter_mut().zip(chunk_types) {
            *ty = (*ty).max(chunk_ty);
        }
    }
    // An escape outside any code may start one that reaches into the next
    // cell: only the whole table's joined text tells.
    if any_escape && !has_invisible {
        return None;
    }
    let measure = Measure {
        has_invisible,
        multiline: false,
    };
    Some((measure, types))
}

/// The measure and column layouts, when the table has the shape the
/// second pass writes.
fn first_pass(
    headers: &[String],
    aligns: &[Align],
    table: &CellTable,
    bare: &[bool],
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
        let bare = bare.get(column).copied().unwrap_or(false);
        ColumnLayout::measure(table, column, &headers[column], (align, bare), measure)
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
#[derive(Clone)]
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
    /// Every cell is plain and bare (nothing to strip, see
    /// [`github_table_with_bare_columns`]): written as it is.
    bare: bool,
}

impl ColumnLayout {
    /// The first pass: tabulate's `_column_type`, then `_format` and
    /// `_align_column`'s widths, cell by cell.
    fn measure(
        table: &CellTable,
        column: usize,
        header: &str,
        (align, bare): (Option<Align>, bool),
        measure: Measure,
    ) -> Self {
        let ty = column_type(table.column(column).map(Some));
        let mut widths = ColumnWidths::new(ty, align);
        // Formatting leaves cells of these types as they are: bare cells
        // stay bare, as wide as they are long.
        let unchanged = matches!(ty, CellType::Text | CellType::Bool | CellType::Missing);
        if bare && unchanged && widths.layout.align != ColumnAlign::Decimal {
            widths.add_bare(table.column_lengths(column));
        } else {
            widths.add(table.column(column), measure);
        }
        widths.finish(header, measure)
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
        if self.bare {
            return self.write_padded(line, cell, cell.len(), measure);
        }
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

/// A column's layout while its cells are measured, in one or more runs of
/// rows.
#[derive(Clone)]
struct ColumnWidths {
    layout: ColumnLayout,
    /// The widest cell before its decimal spaces, less its places: the
    /// widest padded cell is this plus the most places.
    widest_less_places: isize,
}

impl ColumnWidths {
    fn new(ty: CellType, align: Option<Align>) -> Self {
        ColumnWidths {
            layout: ColumnLayout {
                ty,
                align: align.map_or(default_align(ty), ColumnAlign::from),
                width: 0,
                most_places: -1,
                extra_bytes: 0,
                plain: true,
                bare: false,
            },
            widest_less_places: isize::MIN,
        }
    }

    /// Measures a column of bare cells (see [`ColumnLayout::measure`]) by
    /// their lengths alone.
    fn add_bare(&mut self, lengths: impl Iterator<Item = usize>) {
        let layout = &mut self.layout;
        layout.width = lengths.fold(layout.width, usize::max);
        layout.bare = true;
    }

    /// Measures the next cells of the column.
    fn add<'c>(&mut self, cells: impl Iterator<Item = &'c str>, measure: Measure) {
        let layout = &mut self.layout;
        // A cell like the one above it (columns repeat their values) is
        // measured alike: only its bytes beyond its width add up again.
        let mut previous: Option<(&str, usize)> = None;
        for cell in cells {
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
                self.widest_less_places = self.widest_less_places.max(visible as isize - places);
            } else {
                layout.width = layout.width.max(visible);
            }
        }
    }

    /// The layout once every cell is measured.
    fn finish(self, header: &str, measure: Measure) -> ColumnLayout {
        let mut layout = self.layout;
        if layout.align == ColumnAlign::Decimal {
            layout.width = (self.widest_less_places + layout.most_places) as usize;
        }
        layout.width = layout.width.max(measure.width(header) + MIN_PADDING);
        layout
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
    let mut head = String::new();
    write_head(headers, layouts, measure, &mut head);
    let rule_len = head.len() - head.rfind('\n').map_or(0, |at| at + 1);
    let mut out =
        String::with_capacity(head.len() + body_capacity(layouts, table.row_count(), rule_len));
    out.push_str(&head);
    let never = |_: &mut String| -> Result<(), std::convert::Infallible> { Ok(()) };
    let Ok(()) = write_body(layouts, table, measure, (&mut out, usize::MAX), never);
    out
}

/// The header line and the rule, into `out`.
fn write_head(headers: &[String], layouts: &[ColumnLayout], measure: Measure, out: &mut String) {
    let widths: Vec<usize> = layouts.iter().map(|layout| layout.width).collect();
    let header_cells: Vec<_> = headers
        .iter()
        .zip(layouts)
        .map(|(header, layout)| align_header(header, layout.align, layout.width, measure))
        .collect();
    write_row_line(out, header_cells.iter());
    out.push('\n');
    out.push_str(&rule_line(&widths));
}

/// The rows of `table`, each after a line break, into `out`, handed to
/// `flush` (which empties it) each time it holds at least `piece` bytes.
fn write_body<E>(
    layouts: &[ColumnLayout],
    table: &CellTable,
    measure: Measure,
    (out, piece): (&mut String, usize),
    mut flush: impl FnMut(&mut String) -> Result<(), E>,
) -> Result<(), E> {
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
fn body_capacity(layouts: &[ColumnLayout], rows: usize, rule_len: usize) -> usize {
    let extra: usize = layouts.iter().map(|layout| layout.extra_bytes).sum();
    (rows + 1) * (rule_len + 1) + extra
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
    /// Bare cells (printable ASCII, nothing to strip): texts, and numbers,
    /// whose columns are measured as any other.
    const BARE: &[&str] = &[
        "3.881 [-0.024, +0.005] us",
        "1.468 ms [-15, +3] us",
        "n/a",
        "<= -11.9%",
        ">= +3.3%",
        "",
        "x",
        "True",
        "1.5",
        "inf",
        "12",
    ];

    /// A cell of a column of numbers (`kind` 0), texts (1) or both; a few
    /// are coloured, and with `rare` a few make a separator or line break.
    fn random_cell(random: &mut Random, kind: usize, rare: bool) -> &'static str {
        match (kind, random.below(40)) {
            (_, 0) if rare => random.pick(RARE),
            (_, 1..=3) => random.pick(COLORED),
            (0, _) => random.pick(NUMBERS),
            (1, _) => random.pick(TEXTS),
            (3, _) => random.pick(BARE),
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
        let (mut chunked, mut bare_columns) = (0, 0);
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
            let kinds: Vec<usize> = (0..columns).map(|_| random.below(4)).collect();
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
            // Columns whose cells are all bare, measured by their lengths.
            let bare: Vec<bool> = (0..columns)
                .map(|column| cells.iter().all(|row| is_bare_cell(row[column])))
                .collect();
            bare_columns += bare.iter().filter(|b| **b).count();
            assert_eq!(
                github_table_with_bare_columns(&headers, &aligns, &table, &bare),
                expected,
                "case {case}, bare {bare:?}: {headers:?} {aligns:?} {cells:?}"
            );
            let piece = [1, 7, 100, 1 << 20][random.below(4)];
            let rows_a_chunk = 1 + random.below(rows.max(1) + 2);
            if let Some(text) = in_chunks(&headers, &aligns, &cells, rows_a_chunk, piece) {
                chunked += 1;
                assert_eq!(
                    text, expected,
                    "case {case}, chunks of {rows_a_chunk} rows, pieces of {piece}: {aligns:?} {cells:?}"
                );
            }
        }
        assert!(
            chunked > 2000 && bare_columns > 1500,
            "only {chunked} tables were written in chunks, {bare_columns} bare columns"
        );
    }

    /// The text of [`write_github_table_in_chunks`] on chunks of
    /// `rows_a_chunk` rows, checking its pieces: each at least `piece`
    /// bytes but the last, each but the first starting a line.
    fn in_chunks(
        headers: &[String],
        aligns: &[Align],
        cells: &[Vec<&str>],
        rows_a_chunk: usize,
        piece: usize,
    ) -> Option<String> {
        let columns = cells.first().map_or(headers.len(), Vec::len);
        let chunks: Vec<&[Vec<&str>]> = cells.chunks(rows_a_chunk).collect();
        let chunk = |index: usize| CellTable::of_rows(columns, chunks[index]);
        let mut pieces: Vec<String> = Vec::new();
        let written =
            write_github_table_in_chunks(headers, aligns, (chunks.len(), &chunk), piece, |text| {
                pieces.push(text.to_string());
                Ok::<(), std::convert::Infallible>(())
            });
        let Ok(true) = written else {
            assert!(pieces.is_empty(), "a table not written wrote {pieces:?}");
            return None;
        };
        let (_, whole) = pieces.split_last().expect("at least one piece");
        assert!(whole.iter().all(|text| text.len() >= piece));
        assert!(pieces[1..].iter().all(|text| text.starts_with('\n')));
        Some(pieces.concat())
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
