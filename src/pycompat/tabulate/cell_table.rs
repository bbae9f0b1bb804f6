//! A table's cells held as text without a `String` or `Vec` per cell or
//! row: a huge table (200,000 rows) is held at about the size of its text.

/// Cells in row order, a row being `columns` cells, kept in parts that are
/// built apart (on several threads) and never copied together.
pub struct CellTable {
    columns: usize,
    parts: Vec<CellPart>,
}

/// Some rows of a table: the cells written one after the other into one
/// string, and where each cell ends in it.
#[derive(Default)]
pub struct CellPart {
    text: String,
    ends: Vec<u32>,
}

impl CellPart {
    /// The string the next cell is written at the end of; [`end_cell`](Self::end_cell) closes it.
    pub fn text(&mut self) -> &mut String {
        &mut self.text
    }

    /// The cell written since the previous one ends here.
    pub fn end_cell(&mut self) {
        let end = u32::try_from(self.text.len()).expect("a part of a table holds under 4 GiB");
        self.ends.push(end);
    }

    /// A cell written by `write` at the end of the part's text.
    pub fn write_cell(&mut self, write: impl FnOnce(&mut String)) {
        write(&mut self.text);
        self.end_cell();
    }

    pub fn push_cell(&mut self, cell: &str) {
        self.text.push_str(cell);
        self.end_cell();
    }

    /// Writes again the first `count` cells of the previous row (rows of
    /// `columns` cells), at the start of a row: a copy of their text. False,
    /// with nothing written, when this part holds no previous row.
    pub fn repeat_previous_row(&mut self, columns: usize, count: usize) -> bool {
        let cells = self.ends.len();
        if columns == 0 || count > columns || cells < columns || !cells.is_multiple_of(columns) {
            return false;
        }
        let first = cells - columns;
        let start = first.checked_sub(1).map_or(0, |last| self.ends[last]);
        let Some(&end) = count.checked_sub(1).map(|last| &self.ends[first + last]) else {
            return true;
        };
        // SAFETY: cells end where a `str` pushed whole ended, on character
        // boundaries, so the copied bytes are whole UTF-8 characters and
        // the text stays UTF-8. (`String::extend_from_within` needs Rust
        // 1.87; the crate builds with 1.85.)
        unsafe { self.text.as_mut_vec() }.extend_from_within(start as usize..end as usize);
        let new_end = u32::try_from(self.text.len()).expect("a part of a table holds under 4 GiB");
        let shift = new_end - end;
        for cell in first..first + count {
            self.ends.push(self.ends[cell] + shift);
        }
        true
    }

    /// Gives back the room the strings grew beyond their cells: parts live
    /// as long as the table, and growth by doubling leaves up to half spare.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl CellTable {
    /// # Panics
    /// When a part ends inside a row.
    pub fn new(columns: usize, parts: Vec<CellPart>) -> Self {
        for part in &parts {
            let whole_rows = match columns {
                0 => part.ends.is_empty(),
                _ => part.ends.len() % columns == 0,
            };
            assert!(whole_rows, "a part of a table holds whole rows");
        }
        CellTable { columns, parts }
    }

    /// Rows of the same length, as one part.
    pub fn of_rows<C: AsRef<str>>(columns: usize, rows: &[Vec<C>]) -> Self {
        let mut part = CellPart::default();
        for row in rows {
            assert_eq!(row.len(), columns, "the rows of a cell table are as long");
            row.iter().for_each(|cell| part.push_cell(cell.as_ref()));
        }
        CellTable::new(columns, vec![part])
    }

    pub fn columns(&self) -> usize {
        self.columns
    }

    pub fn row_count(&self) -> usize {
        if self.columns == 0 {
            return 0;
        }
        self.parts.iter().map(|p| p.ends.len()).sum::<usize>() / self.columns
    }

    pub(super) fn rows(&self) -> impl Iterator<Item = RowCells<'_>> {
        let columns = self.columns.max(1);
        self.parts.iter().flat_map(move |part| {
            // A row starts where the previous one's last cell ends.
            let starts = std::iter::once(0).chain(
                part.ends
                    .chunks_exact(columns)
                    .map(move |row| row[columns - 1]),
            );
            part.ends
                .chunks_exact(columns)
                .zip(starts)
                .map(|(ends, start)| RowCells {
                    text: &part.text,
                    start,
                    ends,
                })
        })
    }

    /// The cells of one column, top to bottom.
    pub(super) fn column(&self, column: usize) -> impl Iterator<Item = &str> {
        self.column_bounds(column)
            .map(|(part, start, end)| &part.text[start..end])
    }

    /// The lengths in bytes of the cells of one column, top to bottom.
    pub(super) fn column_lengths(&self, column: usize) -> impl Iterator<Item = usize> + '_ {
        self.column_bounds(column)
            .map(|(_, start, end)| end - start)
    }

    /// The part, start and end of each cell of one column, top to bottom.
    #[inline]
    fn column_bounds(&self, column: usize) -> impl Iterator<Item = (&CellPart, usize, usize)> {
        let columns = self.columns.max(1);
        self.parts.iter().flat_map(move |part| {
            let ends = &part.ends;
            (column..ends.len()).step_by(columns).map(move |index| {
                let start = match index {
                    0 => 0,
                    _ => ends[index - 1],
                };
                (part, start as usize, ends[index] as usize)
            })
        })
    }

    /// The text of each part: every cell's bytes, one after the other.
    pub(super) fn part_texts(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().map(|part| part.text.as_str())
    }

    /// Every cell, row after row.
    pub(super) fn cells_by_row(&self) -> impl Iterator<Item = &str> {
        self.rows().flat_map(|row| row.cells())
    }

    /// The rows as lists of cells, for tabulate's direct port.
    pub fn to_rows(&self) -> Vec<Vec<&str>> {
        self.rows().map(|row| row.cells().collect()).collect()
    }
}

/// One row's cells in its part.
#[derive(Clone, Copy)]
pub(super) struct RowCells<'a> {
    text: &'a str,
    start: u32,
    ends: &'a [u32],
}

impl<'a> RowCells<'a> {
    #[inline]
    pub(super) fn cell(self, column: usize) -> &'a str {
        let start = match column {
            0 => self.start,
            _ => self.ends[column - 1],
        };
        &self.text[start as usize..self.ends[column] as usize]
    }

    pub(super) fn cells(self) -> impl Iterator<Item = &'a str> {
        (0..self.ends.len()).map(move |column| self.cell(column))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(part: &CellPart) -> Vec<&str> {
        let mut start = 0;
        part.ends
            .iter()
            .map(|&end| {
                let cell = &part.text[start..end as usize];
                start = end as usize;
                cell
            })
            .collect()
    }

    #[test]
    fn a_row_repeats_the_first_cells_of_the_previous_one() {
        let mut part = CellPart::default();
        assert!(!part.repeat_previous_row(3, 2), "no previous row");
        for cell in ["a", "", "ccc"] {
            part.push_cell(cell);
        }
        part.push_cell("x");
        assert!(!part.repeat_previous_row(3, 2), "not at a row start");
        part.push_cell("y");
        part.push_cell("z");
        assert!(part.repeat_previous_row(3, 2));
        part.push_cell("w");
        assert!(part.repeat_previous_row(3, 0));
        assert!(!part.repeat_previous_row(3, 4), "more cells than a row");
        for cell in ["1", "2", "3"] {
            part.push_cell(cell);
        }
        assert!(part.repeat_previous_row(3, 3));
        assert_eq!(
            cells(&part),
            [
                "a", "", "ccc", "x", "y", "z", "x", "y", "w", "1", "2", "3", "1", "2", "3"
            ]
        );
    }
}
