//! Fitting a markdown document into a byte budget (`--max-bytes`) by
//! dropping whole rows, never part of a word, a row or a table: sections
//! are filled in order of importance, and once one section is cut every
//! later one keeps no rows, so a less important row never displaces a more
//! important one.

/// A part of the document made of rows that may be left out.
#[derive(Debug, Clone)]
pub struct RowSection {
    /// Text before the rows (a heading and a table head).
    pub open: String,
    pub rows: Vec<String>,
    /// Text after the rows.
    pub close: String,
    /// What replaces the whole section when no row is kept.
    pub collapsed: String,
    /// Says how many rows were left out, placed after the rows kept.
    pub omitted_note: fn(usize) -> String,
}

impl RowSection {
    /// The text with the first `kept` rows.
    fn text(&self, kept: usize) -> String {
        if kept == 0 && !self.rows.is_empty() {
            return self.collapsed.clone();
        }
        let mut out = self.open.clone();
        for row in &self.rows[..kept] {
            out.push_str(row);
        }
        if kept < self.rows.len() {
            out.push_str(&(self.omitted_note)(self.rows.len() - kept));
        }
        out.push_str(&self.close);
        out
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
        for (index, row) in self.rows.iter().enumerate() {
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
    /// In order of importance, which is also their order in the document.
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

    /// The document within `max_bytes`: whole when it fits, else with the
    /// least important rows left out. `Err` gives the smallest budget that works.
    pub fn fit(&self, max_bytes: usize) -> Result<String, usize> {
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
        for (section, kept) in self.sections.iter().zip(kept.iter_mut()) {
            let collapsed = section.len_with(0, 0);
            let (rows, len) = section.most_rows_within(collapsed + spare);
            *kept = rows;
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

    fn section(name: &str, rows: usize) -> RowSection {
        RowSection {
            open: format!("[{name}\n"),
            rows: (0..rows)
                .map(|i| format!("{name}{name}{name}{i}\n"))
                .collect(),
            close: "]\n".to_string(),
            collapsed: format!("[{name}: {rows}]\n"),
            omitted_note: note,
        }
    }

    fn document() -> Document {
        Document {
            head: "H\n".to_string(),
            sections: vec![section("a", 3), section("b", 3)],
            tail: "T\n".to_string(),
        }
    }

    #[test]
    fn whole_when_it_fits() {
        let doc = document();
        let full = doc.full();
        assert_eq!(
            full,
            "H\n[a\naaa0\naaa1\naaa2\n]\n[b\nbbb0\nbbb1\nbbb2\n]\nT\n"
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
            "H\n[a\naaa0\naaa1\naaa2\n]\n[b\nbbb0\nbbb1\n-1\n]\nT\n"
        );
    }

    #[test]
    fn a_cut_section_leaves_no_rows_to_later_ones() {
        let doc = document();
        // Room for section a with one row kept, and more than a row of b.
        let budget = "H\n[a\naaa0\n-2\n]\n[b: 3]\nT\n".len() + 2;
        let fitted = doc.fit(budget).unwrap();
        assert_eq!(fitted, "H\n[a\naaa0\n-2\n]\n[b: 3]\nT\n");
    }

    #[test]
    fn too_small_says_the_smallest() {
        let doc = document();
        let smallest = doc.smallest();
        assert_eq!(smallest, "H\n[a: 3]\n[b: 3]\nT\n".len());
        assert_eq!(doc.fit(smallest - 1), Err(smallest));
        assert_eq!(doc.fit(smallest), Ok("H\n[a: 3]\n[b: 3]\nT\n".to_string()));
    }
}
