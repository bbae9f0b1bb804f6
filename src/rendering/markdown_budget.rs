//! Fitting a markdown document into a byte budget (`--max-bytes`) by
//! dropping whole rows, never part of a word, a row or a table: sections
//! are filled in order of importance, and once one section is cut every
//! less important one keeps no rows, so a less important row never
//! displaces a more important one. Within a section, rows are kept in the
//! section's own order of importance and shown in document order.

/// A part of the document made of rows that may be left out.
#[derive(Debug, Clone)]
pub struct RowSection {
    /// Text before the rows (a heading and a table head).
    pub open: String,
    pub rows: Vec<String>,
    /// The positions of the rows, most important first, when that is not
    /// their order in the document: the rows kept are the first of these.
    pub keep_first: Option<Vec<usize>>,
    /// Text after the rows.
    pub close: String,
    /// What replaces the whole section when no row is kept.
    pub collapsed: String,
    /// Says how many rows were left out, placed after the rows kept.
    pub omitted_note: fn(usize) -> String,
    /// The section's importance: lower is more important, cut later.
    pub rank: usize,
}

impl RowSection {
    /// The text with the `kept` most important rows.
    fn text(&self, kept: usize) -> String {
        if kept == 0 && !self.rows.is_empty() {
            return self.collapsed.clone();
        }
        let mut out = self.open.clone();
        for row in self.kept_rows(kept) {
            out.push_str(row);
        }
        if kept < self.rows.len() {
            out.push_str(&(self.omitted_note)(self.rows.len() - kept));
        }
        out.push_str(&self.close);
        out
    }

    /// The `kept` most important rows, in document order.
    fn kept_rows(&self, kept: usize) -> Vec<&String> {
        match &self.keep_first {
            None => self.rows[..kept].iter().collect(),
            Some(order) => {
                let mut is_kept = vec![false; self.rows.len()];
                for &index in &order[..kept] {
                    is_kept[index] = true;
                }
                self.rows
                    .iter()
                    .zip(is_kept)
                    .filter_map(|(row, kept)| kept.then_some(row))
                    .collect()
            }
        }
    }

    /// The rows, most important first.
    fn by_importance(&self) -> Box<dyn Iterator<Item = &String> + '_> {
        match &self.keep_first {
            None => Box::new(self.rows.iter()),
            Some(order) => Box::new(order.iter().map(|&index| &self.rows[index])),
        }
    }

    fn len_with(&self, kept: usize, kept_rows_len: usize) -> usize {
        if kept == 0 && !self.rows.is_empty() {
            return self.collapsed.len();
        }
        let note = if kept < self.rows.len() {
            (self.omitted_note)(self.rows.len() - kept).len()
        } else {
            0
        };
        self.open.len() + kept_rows_len + note + self.close.len()
    }

    /// The most rows whose text fits in `budget` bytes, and that text's length.
    fn most_rows_within(&self, budget: usize) -> (usize, usize) {
        let mut best = (0, self.len_with(0, 0));
        let mut rows_len = 0;
        for (index, row) in self.by_importance().enumerate() {
            rows_len += row.len();
            let len = self.len_with(index + 1, rows_len);
            if len <= budget {
                best = (index + 1, len);
            }
        }
        best
    }
}

/// A document: fixed text before and after sections of optional rows.
#[derive(Debug, Clone)]
pub struct Document {
    pub head: String,
    /// In document order; each says its importance.
    pub sections: Vec<RowSection>,
    pub tail: String,
}

impl Document {
    fn text(&self, kept: &[usize]) -> String {
        let mut out = self.head.clone();
        for (section, kept) in self.sections.iter().zip(kept) {
            out.push_str(&section.text(*kept));
        }
        out.push_str(&self.tail);
        out
    }

    /// The whole document, nothing left out.
    pub fn full(&self) -> String {
        let all: Vec<usize> = self.sections.iter().map(|s| s.rows.len()).collect();
        self.text(&all)
    }

    /// The length of the document with every row left out: the smallest
    /// budget that works.
    pub fn smallest(&self) -> usize {
        self.head.len()
            + self.tail.len()
            + self
                .sections
                .iter()
                .map(|s| s.len_with(0, 0))
                .sum::<usize>()
    }

    /// The document within `max_bytes`: whole when it fits, else without
    /// the tail (advice, which goes before any data row) and with the
    /// least important rows left out. `Err` gives the smallest budget that
    /// works.
    pub fn fit(&self, max_bytes: usize) -> Result<String, usize> {
        let full = self.full();
        if full.len() <= max_bytes {
            return Ok(full);
        }
        if self.tail.is_empty() {
            return self.fit_rows(max_bytes);
        }
        let without_tail = Document {
            tail: String::new(),
            ..self.clone()
        };
        without_tail.fit_rows(max_bytes)
    }

    /// [`Document::fit`] once the tail is settled: rows left out by
    /// importance.
    fn fit_rows(&self, max_bytes: usize) -> Result<String, usize> {
        let full = self.full();
        if full.len() <= max_bytes {
            return Ok(full);
        }
        let smallest = self.smallest();
        if smallest > max_bytes {
            return Err(smallest);
        }
        let mut spare = max_bytes - smallest;
        let mut kept = vec![0; self.sections.len()];
        let mut by_importance: Vec<usize> = (0..self.sections.len()).collect();
        by_importance.sort_by_key(|&index| self.sections[index].rank);
        for index in by_importance {
            let section = &self.sections[index];
            let collapsed = section.len_with(0, 0);
            let (rows, len) = section.most_rows_within(collapsed + spare);
            kept[index] = rows;
            spare -= len - collapsed;
            if rows < section.rows.len() {
                break;
            }
        }
        Ok(self.text(&kept))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(n: usize) -> String {
        format!("-{n}\n")
    }

    fn section(name: &str, rows: usize, rank: usize) -> RowSection {
        RowSection {
            open: format!("[{name}\n"),
            rows: (0..rows)
                .map(|i| format!("{name}{name}{name}{i}\n"))
                .collect(),
            keep_first: None,
            close: "]\n".to_string(),
            collapsed: format!("[{name}: {rows}]\n"),
            omitted_note: note,
            rank,
        }
    }

    fn document() -> Document {
        Document {
            head: "H\n".to_string(),
            sections: vec![section("a", 3, 0), section("b", 3, 1)],
            tail: String::new(),
        }
    }

    #[test]
    fn whole_when_it_fits() {
        let doc = document();
        let full = doc.full();
        assert_eq!(
            full,
            "H\n[a\naaa0\naaa1\naaa2\n]\n[b\nbbb0\nbbb1\nbbb2\n]\n"
        );
        assert_eq!(doc.fit(full.len()), Ok(full.clone()));
    }

    #[test]
    fn one_byte_short_cuts_a_whole_row_of_the_last_section() {
        let doc = document();
        let full = doc.full();
        let fitted = doc.fit(full.len() - 1).unwrap();
        assert!(fitted.len() < full.len());
        assert_eq!(
            fitted,
            "H\n[a\naaa0\naaa1\naaa2\n]\n[b\nbbb0\nbbb1\n-1\n]\n"
        );
    }

    #[test]
    fn a_cut_section_leaves_no_rows_to_later_ones() {
        let doc = document();
        // Room for section a with one row kept, and more than a row of b.
        let budget = "H\n[a\naaa0\n-2\n]\n[b: 3]\n".len() + 2;
        let fitted = doc.fit(budget).unwrap();
        assert_eq!(fitted, "H\n[a\naaa0\n-2\n]\n[b: 3]\n");
    }

    #[test]
    fn too_small_says_the_smallest() {
        let doc = document();
        let smallest = doc.smallest();
        assert_eq!(smallest, "H\n[a: 3]\n[b: 3]\n".len());
        assert_eq!(doc.fit(smallest - 1), Err(smallest));
        assert_eq!(doc.fit(smallest), Ok("H\n[a: 3]\n[b: 3]\n".to_string()));
    }

    #[test]
    fn a_less_important_section_first_in_the_document_is_cut_first() {
        let doc = Document {
            head: "H\n".to_string(),
            sections: vec![section("a", 3, 1), section("b", 3, 0)],
            tail: String::new(),
        };
        let full = doc.full();
        assert_eq!(
            doc.fit(full.len() - 1).unwrap(),
            "H\n[a\naaa0\naaa1\n-1\n]\n[b\nbbb0\nbbb1\nbbb2\n]\n"
        );
        // Room for b whole and a collapsed only.
        let budget = "H\n[a: 3]\n[b\nbbb0\nbbb1\nbbb2\n]\n".len();
        assert_eq!(
            doc.fit(budget).unwrap(),
            "H\n[a: 3]\n[b\nbbb0\nbbb1\nbbb2\n]\n"
        );
    }

    #[test]
    fn rows_are_kept_in_their_order_of_importance_and_shown_in_place() {
        let mut doc = document();
        doc.sections[0].keep_first = Some(vec![2, 0, 1]);
        let kept_two = "H\n[a\naaa0\naaa2\n-1\n]\n[b: 3]\n";
        assert_eq!(doc.fit(kept_two.len()).unwrap(), kept_two);
        let kept_one = "H\n[a\naaa2\n-2\n]\n[b: 3]\n";
        assert_eq!(doc.fit(kept_two.len() - 1).unwrap(), kept_one);
        // Whole, the rows are in document order.
        assert!(doc.full().starts_with("H\n[a\naaa0\naaa1\naaa2\n]"));
    }

    /// Advice after the rows goes before any row does.
    #[test]
    fn the_tail_goes_before_any_row() {
        let doc = Document {
            tail: "advice\n".to_string(),
            ..document()
        };
        let full = doc.full();
        assert!(full.ends_with("]\nadvice\n"));
        assert_eq!(doc.fit(full.len()), Ok(full.clone()));
        let without = doc.fit(full.len() - 1).unwrap();
        assert_eq!(without, document().full());
        let smallest = document().smallest();
        assert_eq!(doc.fit(smallest - 1), Err(smallest));
    }
}
