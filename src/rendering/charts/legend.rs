//! The along chart's legend, laid out below the plot so that it never
//! covers a curve: one entry a colour (a combination of the other axes'
//! values), then a key of what the line styles mean (each side's dash and
//! marker) and, in repetition mode, the whiskers. Entries are
//! never cut: a long one wraps between its parts, and the chart grows
//! taller to hold every row of entries.

use plotters::element::{DashedPathElement, PathElement, Rectangle};
use plotters::prelude::DrawingBackend;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor, ShapeStyle};

use crate::rendering::charts::canvas::{Canvas, drawn, fit, line_pitch, text_width};
use crate::rendering::charts::labels::{words, wrap};
use crate::rendering::charts::style::{LineStyle, dash_pattern, draw_marker};

/// What the style key calls the sides of a pair.
pub const COMPARE_KEY: &str = "compare";
pub const REFERENCE_KEY: &str = "reference";
/// What the whiskers of repetition mode show.
pub const RANGE_KEY: &str = "range of the runs' intervals";
/// The style key's colour: neither side's, a neutral dark gray.
const KEY_COLOR: RGBColor = RGBColor(0x59, 0x59, 0x59);
/// Most rows of entries; beyond them a last entry says how many more.
const MAX_ROWS: usize = 40;

/// How an entry's handle is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Handle {
    /// A line in a side's style, with its marker in the middle.
    Line(LineStyle),
    /// A filled square: a colour, whatever the side.
    Patch,
    /// A vertical whisker with caps.
    Whisker,
    /// No handle (the "… and N more" line).
    None,
}

/// One legend entry: its text and how its handle looks.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    pub text: String,
    pub color: RGBColor,
    pub handle: Handle,
}

impl Entry {
    /// An entry naming a colour.
    pub fn patch(text: &str, color: RGBColor) -> Self {
        Entry {
            text: text.to_string(),
            color,
            handle: Handle::Patch,
        }
    }

    pub fn line(text: &str, color: RGBColor, style: LineStyle) -> Self {
        Entry {
            text: text.to_string(),
            color,
            handle: Handle::Line(style),
        }
    }
}

/// The style key: which side each line style is (`sides`, named), and
/// what the whiskers mean.
pub(super) fn style_key(sides: &[(&str, LineStyle)], whiskers: bool) -> Vec<Entry> {
    let mut entries: Vec<Entry> = sides
        .iter()
        .map(|(name, style)| Entry::line(name, KEY_COLOR, *style))
        .collect();
    if whiskers {
        entries.push(Entry {
            text: RANGE_KEY.to_string(),
            color: KEY_COLOR,
            handle: Handle::Whisker,
        });
    }
    entries
}

/// Sizes of the legend, in pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct Metrics {
    pub em: f64,
    /// Width of a handle (two ems, as matplotlib's).
    pub handle: f64,
    pub marker_radius: i32,
    pub line_width: u32,
}

impl Metrics {
    fn gap(&self) -> f64 {
        0.6 * self.em
    }
    fn spacing(&self) -> f64 {
        1.5 * self.em
    }
    fn pitch(&self) -> f64 {
        line_pitch(self.em)
    }
}

/// An entry with its text in lines.
type Placed = (Entry, Vec<String>);

/// A row of entries, its height and the width of its columns.
type Row = (Vec<Placed>, f64, f64);

/// Entries placed in rows and columns, with each entry's text in lines.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    rows: Vec<Row>,
    metrics: Metrics,
}

impl Layout {
    /// Lays the entries of `sections` out in the most columns that fit
    /// `width` pixels, filling rows left to right; each section starts a
    /// row of its own (the colours, then the style key).
    pub fn new(sections: Vec<Vec<Entry>>, width: f64, metrics: Metrics) -> Self {
        let em = metrics.em;
        let text_room = (width - metrics.handle - metrics.gap()).max(em);
        let measure = |t: &str| text_width(t, em);
        let place = |entry: Entry| -> Placed {
            // An entry breaks after the `, ` between axis values.
            let lines = wrap(&words(&entry.text, ", "), text_room, &measure)
                .into_iter()
                .map(|line| fit(&line, em, text_room))
                .collect();
            (entry, lines)
        };
        let sections: Vec<Vec<Placed>> = sections
            .into_iter()
            .map(|entries| entries.into_iter().map(place).collect())
            .filter(|entries: &Vec<Placed>| !entries.is_empty())
            .collect();
        // Columns are as wide as the widest entry of the colours (the
        // first section); a later section lays out in them, or in one
        // column a row when its entries are wider.
        let widest = |section: &[Placed]| {
            section
                .iter()
                .flat_map(|(_, lines)| lines.iter().map(|l| measure(l)))
                .fold(0.0, f64::max)
        };
        let fit_columns = |column_width: f64, entries: usize| {
            (((width + metrics.spacing()) / column_width).floor() as usize).clamp(1, entries.max(1))
        };
        let column_of = |text: f64| metrics.handle + metrics.gap() + text + metrics.spacing();
        let column_width = column_of(sections.first().map_or(0.0, |s| widest(s)));
        let columns = fit_columns(
            column_width,
            sections.iter().map(Vec::len).max().unwrap_or(1),
        );
        let mut rows: Vec<(Vec<Placed>, f64)> = Vec::new();
        for section in &sections {
            let (own, own_width) = if column_of(widest(section)) <= column_width {
                (columns, column_width)
            } else {
                let wider = column_of(widest(section));
                (fit_columns(wider, section.len()), wider)
            };
            rows.extend(section.chunks(own).map(|row| (row.to_vec(), own_width)));
        }
        if rows.len() > MAX_ROWS {
            let kept: usize = rows[..MAX_ROWS].iter().map(|r| r.0.len()).sum::<usize>() - 1;
            let total: usize = rows.iter().map(|r| r.0.len()).sum();
            rows.truncate(MAX_ROWS);
            let last = &mut rows.last_mut().expect("MAX_ROWS > 0").0;
            last.pop();
            let text = format!("\u{2026} and {} more", total - kept);
            let entry = Entry {
                text: text.clone(),
                color: KEY_COLOR,
                handle: Handle::None,
            };
            last.push((entry, vec![text]));
        }
        let rows = rows
            .into_iter()
            .map(|(row, column_width)| {
                let lines = row.iter().map(|(_, l)| l.len()).max().unwrap_or(1);
                (row, lines as f64 * metrics.pitch(), column_width)
            })
            .collect();
        Layout { rows, metrics }
    }

    /// Height of the legend.
    pub fn height(&self) -> f64 {
        if self.rows.is_empty() {
            0.0
        } else {
            self.rows.iter().map(|(_, h, _)| h).sum::<f64>() + self.metrics.em
        }
    }

    /// Entries in the widest row.
    #[cfg(test)]
    fn columns(&self) -> usize {
        self.rows.iter().map(|(r, _, _)| r.len()).max().unwrap_or(0)
    }

    /// The lines of every entry, in order.
    #[cfg(test)]
    pub fn lines(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .flat_map(|(row, _, _)| row.iter().map(|(_, l)| l.clone()))
            .collect()
    }

    /// Draws the legend with its top left at `(left, top)`, the block
    /// centred in `width` pixels.
    pub fn draw<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        (left, top): (f64, f64),
        width: f64,
        text_color: RGBColor,
    ) -> Result<(), String> {
        let m = self.metrics;
        let block = self
            .rows
            .iter()
            .map(|(row, _, column)| row.len() as f64 * column - m.spacing())
            .fold(0.0, f64::max);
        let left = left + ((width - block) / 2.0).max(0.0);
        let mut y = top + m.em / 2.0;
        for (row, height, column_width) in &self.rows {
            for (column, (entry, lines)) in row.iter().enumerate() {
                let x = left + column as f64 * column_width;
                let middle = y + m.pitch() / 2.0;
                draw_handle(c, entry, (x, middle), m)?;
                let text_x = x + m.handle + m.gap();
                for (index, line) in lines.iter().enumerate() {
                    let at = (text_x, middle + index as f64 * m.pitch());
                    c.text(line, at, (m.em, text_color), (HPos::Left, VPos::Center))?;
                }
            }
            y += height;
        }
        Ok(())
    }
}

/// A handle of width `m.handle` with its left end at `x`, centred on `y`.
fn draw_handle<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    entry: &Entry,
    (x, y): (f64, f64),
    m: Metrics,
) -> Result<(), String> {
    let style = ShapeStyle::from(&entry.color).stroke_width(m.line_width);
    let (x0, x1, y) = (
        x.round() as i32,
        (x + m.handle).round() as i32,
        y.round() as i32,
    );
    let middle = (x0 + x1) / 2;
    match entry.handle {
        Handle::Line(line_style) => {
            let line = vec![(x0, y), (x1, y)];
            if let Some((size, gap)) = dash_pattern(line_style.dash) {
                drawn(c.area.draw(&DashedPathElement::new(line, size, gap, style)))?;
            } else {
                drawn(c.area.draw(&PathElement::new(line, style)))?;
            }
            let marker = line_style.marker;
            draw_marker(c.area, marker, (middle, y), m.marker_radius, entry.color)
        }
        Handle::Whisker => {
            let half = (0.5 * m.em).round() as i32;
            let cap = m.marker_radius;
            drawn(c.area.draw(&PathElement::new(
                vec![(middle, y - half), (middle, y + half)],
                style,
            )))?;
            for end in [y - half, y + half] {
                let line = vec![(middle - cap, end), (middle + cap, end)];
                drawn(c.area.draw(&PathElement::new(line, style)))?;
            }
            Ok(())
        }
        Handle::Patch => {
            let half = (0.4 * m.em).round() as i32;
            let square = [(middle - half, y - half), (middle + half, y + half)];
            drawn(c.area.draw(&Rectangle::new(square, entry.color.filled())))
        }
        Handle::None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rendering::charts::style::{REFERENCE_STYLE, side_style};

    fn pair_key(whiskers: bool) -> Vec<Entry> {
        let sides = [
            (COMPARE_KEY, side_style(1)),
            (REFERENCE_KEY, REFERENCE_STYLE),
        ];
        style_key(&sides, whiskers)
    }

    fn metrics() -> Metrics {
        Metrics {
            em: 20.0,
            handle: 40.0,
            marker_radius: 6,
            line_width: 3,
        }
    }

    fn entries(texts: &[&str]) -> Vec<Entry> {
        texts
            .iter()
            .map(|t| Entry::line(t, RGBColor(0, 0, 0), side_style(1)))
            .collect()
    }

    #[test]
    fn entries_fill_rows_of_as_many_columns_as_fit() {
        let colours = entries(&["T = I8", "T = I16", "T = F32", "T = F64"]);
        let layout = Layout::new(vec![colours.clone()], 900.0, metrics());
        assert_eq!((layout.columns(), layout.rows.len()), (4, 1));
        let with_key = Layout::new(vec![colours, pair_key(false)], 900.0, metrics());
        assert_eq!(with_key.rows.len(), 2, "the style key has a row of its own");
        assert_eq!(with_key.rows[1].0.len(), 2);
        let wide_key = Layout::new(
            vec![entries(&["a", "b", "c", "d"]), pair_key(true)],
            900.0,
            metrics(),
        );
        assert_eq!(
            wide_key.rows[0].0.len(),
            4,
            "short colours keep their columns"
        );
        assert!(
            wide_key.rows[1].2 > wide_key.rows[0].2,
            "the key's own columns"
        );
        let narrow = Layout::new(
            vec![entries(&["T = I8", "T = I16", "T = F32"])],
            200.0,
            metrics(),
        );
        assert_eq!((narrow.columns(), narrow.rows.len()), (1, 3));
        assert!(narrow.height() > layout.height());
    }

    #[test]
    fn a_long_entry_wraps_between_its_parts_and_stays_whole() {
        let text = "ItemsPerThread = 16, BlockThreads = 256, Algorithm = warp_scans";
        let layout = Layout::new(vec![entries(&[text])], 500.0, metrics());
        let lines = &layout.lines()[0];
        assert!(lines.len() > 1, "{lines:?}");
        assert_eq!(lines.join(" "), text);
        assert!(lines.iter().all(|l| !l.contains('…')));
    }

    #[test]
    fn too_many_entries_end_with_how_many_more() {
        let texts: Vec<String> = (0..500).map(|i| format!("S{i}")).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let layout = Layout::new(vec![entries(&refs)], 300.0, metrics());
        let lines = layout.lines();
        assert_eq!(lines.len(), MAX_ROWS * layout.columns());
        assert_eq!(layout.rows.len(), MAX_ROWS);
        let last = &lines.last().unwrap()[0];
        assert!(
            last.starts_with("\u{2026} and ") && last.ends_with(" more"),
            "{last}"
        );
    }

    #[test]
    fn the_style_key_names_both_sides() {
        let texts: Vec<String> = pair_key(true).into_iter().map(|e| e.text).collect();
        assert_eq!(texts, vec![COMPARE_KEY, REFERENCE_KEY, RANGE_KEY]);
        assert_eq!(pair_key(false)[1].handle, Handle::Line(REFERENCE_STYLE));
    }
}
