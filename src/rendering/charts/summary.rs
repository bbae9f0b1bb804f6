//! The summary chart (`--plot`): one horizontal bar per displayed row with
//! the change of the GPU timing center, coloured by status, with a legend
//! of the status colours, like the reference's matplotlib `barh` figure.
//! It is 10 inches wide and `max(4, 0.3 * rows + 1.5)` inches high at
//! 150 dpi; a comparison of more than [`ROWS_PER_CHART`] rows is split into
//! several charts by the caller, so that every bar keeps a readable label.

use std::path::Path;

use plotters::chart::ChartBuilder;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::element::{PathElement, Rectangle};
use plotters::prelude::DrawingBackend;
use plotters::style::{Color, RGBColor};

use crate::rendering::charts::canvas::{
    Canvas, Chart, PixelRect, Theme, best_legend_position, drawn, pt, sample_polyline, status_color,
};
use crate::rendering::charts::output::{ChartFile, PlotKind, draw_chart};
use crate::rendering::charts::ticks::{Tick, label_at, percent_ticks};

/// Title of the summary chart before any device or filter suffix: the bars
/// show the change of the GPU time (upstream NVBench's `main` title).
pub const SUMMARY_TITLE: &str = "GPU timing change";
/// What the x axis shows, and which way is better.
pub const SUMMARY_X_LABEL: &str = "GPU time change, compare vs reference (negative = faster)";
/// Where the summary chart goes when no `--plot-output` is given (the
/// reference's file name in a session without a display).
pub const DEFAULT_SUMMARY_OUTPUT: &str = "nvbench_compare.png";
/// What the reference prints when `--plot` finds no row to draw.
pub const NO_SUMMARY_DATA: &str = "No comparison data to plot.";
/// Most rows in one summary chart: at matplotlib's 0.3 inch per row this is
/// a 9,225-pixel-high image whose every row label has its full size.
pub const ROWS_PER_CHART: usize = 200;

/// One bar of the summary chart, in display order (top to bottom).
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryEntry {
    /// Row label, e.g. `bench | Elements{io}=2^20`.
    pub label: String,
    /// Fractional change of the timing center (`-0.074` draws `-7.4%`).
    pub fraction: f64,
    /// Status label: `SLOW`, `FAST`, `SAME`, `AMBG` or `????`.
    pub status: &'static str,
    /// Benchmark name; a separator line is drawn where it changes.
    pub benchmark: String,
}

/// The summary chart's title as the reference builds it: [`SUMMARY_TITLE`],
/// then ` - DEVICE` when the plotted rows come from exactly one device name,
/// then ` (FILTERS)` with the display strings (e.g. `Elements{io}=2^20`) of
/// the global `-a` filters that select a single value, in command-line order.
/// Pass only those single-valued global filters.
pub fn summary_title(device_names: &[String], global_filter_displays: &[String]) -> String {
    let mut title = SUMMARY_TITLE.to_string();
    let mut distinct: Vec<&str> = device_names.iter().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if let [name] = distinct.as_slice() {
        title.push_str(" - ");
        title.push_str(name);
    }
    let filters = global_filter_displays.join(", ");
    if !filters.is_empty() {
        title.push_str(&format!(" ({filters})"));
    }
    title
}

/// Draws one part of a summary chart split into several files: the bars
/// of `part`, on the x scale of `all` the rows, so that the parts compare.
/// Zero entries give an empty chart; the caller prints [`NO_SUMMARY_DATA`]
/// instead, as upstream.
pub fn draw_summary_part(
    part: &[SummaryEntry],
    all: &[SummaryEntry],
    title: &str,
    dark: bool,
    path: &Path,
) -> Result<ChartFile, String> {
    let chart = SummaryChart {
        entries: part,
        limits: summary_x_limits(all),
        title,
        dark,
    };
    draw_chart(
        &chart,
        summary_canvas_size(part.len()),
        path,
        PlotKind::Summary,
    )
}

const SUMMARY_WIDTH: u32 = 1500;
/// Guards against a caller that does not split: a huge comparison cannot
/// ask for gigabytes of pixels.
const MAX_CANVAS_HEIGHT: u32 = 16_000;
/// A bar is at least this many pixels wide, so a SAME row at 0.0 % shows.
const MIN_BAR_PX: f64 = 4.0;

fn summary_canvas_size(rows: usize) -> (u32, u32) {
    let inches = (0.3 * rows as f64 + 1.5).max(4.0);
    let height = (inches * super::canvas::DPI)
        .round()
        .min(MAX_CANVAS_HEIGHT as f64) as u32;
    (SUMMARY_WIDTH, height)
}

struct SummaryChart<'a> {
    entries: &'a [SummaryEntry],
    /// The x view.
    limits: (f64, f64),
    title: &'a str,
    dark: bool,
}

/// The x view: the data range widened to hold 0, so every bar starts at
/// the zero line and its length is the change, padded by 5 % of its width
/// (the reference's limits left 0 out when all changes had one sign, which
/// made a uniform 7 % slowdown look like large differences). Non-finite
/// values are ignored.
fn summary_x_limits(entries: &[SummaryEntry]) -> (f64, f64) {
    let finite = entries.iter().map(|e| e.fraction).filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi == lo {
        return (-0.05, 0.05);
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    // Values so large that the padding overflows still need a usable range.
    if lo.is_finite() && hi.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (-0.05, 0.05)
    }
}

/// Most x ticks: a few round values are easier to read than many.
const MAX_X_BINS: usize = 6;

/// The x ticks: the most (up to [`MAX_X_BINS`] intervals) whose labels fit
/// side by side in `plot_width` pixels with room between them.
fn x_ticks<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    (lo, hi): (f64, f64),
    plot_width: f64,
    em: f64,
) -> Vec<Tick> {
    (1..=MAX_X_BINS)
        .rev()
        .map(|bins| percent_ticks(lo, hi, bins))
        .find(|ticks| {
            let widest = ticks
                .iter()
                .map(|(_, text)| c.text_width(text, em))
                .fold(0.0, f64::max);
            (widest + em) * ticks.len() as f64 <= plot_width
        })
        .unwrap_or_else(|| percent_ticks(lo, hi, 1))
}

/// The x axis: linear over the view, its key points the chosen ticks
/// (plotters' own f64 axis picks its ticks itself).
#[derive(Debug, Clone)]
struct ChangeAxis {
    range: (f64, f64),
    ticks: Vec<f64>,
}

impl Ranged for ChangeAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let (lo, hi) = self.range;
        let share = (value - lo) / (hi - lo);
        (limit.0 as f64 + share * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        self.ticks.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.0..self.range.1
    }
}

/// The labels come from the chart's formatter; nothing is formatted here.
impl ValueFormatter<f64> for ChangeAxis {
    fn format_ext(&self, value: &f64) -> String {
        value.to_string()
    }
}

/// The row axis: row `i` (counted from the top) spans `i..i + 1`, its
/// label at `i + 0.5`. plotters' categorical axes (`into_segmented`, slices)
/// misplace a single category, so a one-row chart needs this mapping.
#[derive(Debug, Clone)]
struct RowAxis {
    rows: usize,
}

impl Ranged for RowAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    /// plotters maps y from the bottom (`limit.0`) to the top (`limit.1`).
    fn map(&self, row: &f64, limit: (i32, i32)) -> i32 {
        let from_top = row / self.rows.max(1) as f64;
        let span = (limit.0 - limit.1) as f64;
        (limit.1 as f64 + from_top * span).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        (0..self.rows).map(|row| row as f64 + 0.5).collect()
    }

    fn range(&self) -> std::ops::Range<f64> {
        0.0..self.rows as f64
    }
}

/// The labels come from the chart's formatter; nothing is formatted here.
impl ValueFormatter<f64> for RowAxis {
    fn format_ext(&self, row: &f64) -> String {
        row.to_string()
    }
}

/// One legend entry: a status colour and the rows drawn in it.
struct StatusGroup {
    label: String,
    color: RGBColor,
    rows: Vec<usize>,
}

/// The statuses present, in the tables' order of concern; AMBG and `????`
/// share the gray, so they share an entry.
fn status_groups(entries: &[SummaryEntry]) -> Vec<StatusGroup> {
    let present = |status: &str| entries.iter().any(|e| e.status == status);
    let gray: Vec<&str> = ["AMBG", "????"]
        .into_iter()
        .filter(|s| present(s))
        .collect();
    let mut groups: Vec<StatusGroup> = ["SLOW", "FAST", "SAME"]
        .into_iter()
        .filter(|s| present(s))
        .map(|s| StatusGroup {
            label: s.to_string(),
            color: status_color(s),
            rows: Vec::new(),
        })
        .collect();
    if !gray.is_empty() {
        groups.push(StatusGroup {
            label: gray.join(" / "),
            color: status_color("????"),
            rows: Vec::new(),
        });
    }
    for (row, entry) in entries.iter().enumerate() {
        let color = status_color(entry.status);
        if let Some(group) = groups.iter_mut().find(|g| g.color == color) {
            group.rows.push(row);
        }
    }
    groups
}

/// The x extent of a bar from zero to `fraction`, at least `min_width`
/// wide (away from zero, or centred on it), clipped to the view: the
/// reference's limits may leave zero outside the visible range.
fn bar_extent(fraction: f64, (lo, hi): (f64, f64), min_width: f64) -> Option<(f64, f64)> {
    if !fraction.is_finite() {
        return None;
    }
    let (mut a, mut b) = (fraction.min(0.0), fraction.max(0.0));
    if b - a < min_width {
        if fraction > 0.0 {
            b = a + min_width;
        } else if fraction < 0.0 {
            a = b - min_width;
        } else {
            (a, b) = (-min_width / 2.0, min_width / 2.0);
        }
    }
    let (a, b) = (a.max(lo), b.min(hi));
    (b > a).then_some((a, b))
}

impl Chart for SummaryChart<'_> {
    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Result<(), String> {
        let theme = Theme::summary(self.dark);
        let fg = theme.foreground;
        drawn(c.area.fill(&theme.background))?;

        let (pad, tick_len) = (pt(10.8), pt(3.5));
        let (label_em, title_em) = (pt(10.0), pt(12.0));
        let rows = self.entries.len().max(1);
        let labels: Vec<String> = self
            .entries
            .iter()
            .map(|e| c.fit(&e.label, label_em, 0.45 * c.width))
            .collect();
        let label_width = labels
            .iter()
            .map(|t| c.text_width(t, label_em))
            .fold(0.0, f64::max);
        let (lo, hi) = self.limits;
        let plot_width = c.width - 2.0 * pad - label_width;
        let ticks = x_ticks(c, (lo, hi), plot_width, label_em);
        let keys: Vec<f64> = ticks.iter().map(|t| t.0).collect();

        let mut builder = ChartBuilder::on(c.area);
        builder
            .margin(pad as u32)
            .x_label_area_size((tick_len + 3.2 * label_em + pt(6.0)) as u32)
            .y_label_area_size((label_width + 2.0 * tick_len + pt(2.0)) as u32);
        let title = c.fit(self.title, title_em, c.width - 2.0 * pad);
        if !title.is_empty() {
            builder.caption(&title, c.font(title_em, fg));
        }
        let x_axis = ChangeAxis {
            range: (lo, hi),
            ticks: keys,
        };
        let mut chart = drawn(builder.build_cartesian_2d(x_axis, RowAxis { rows }))?;
        let row_label = |y: &f64| labels.get(y.floor() as usize).cloned().unwrap_or_default();
        let percent = |x: &f64| label_at(&ticks, *x);
        drawn(
            chart
                .configure_mesh()
                .disable_mesh()
                .axis_style(fg.stroke_width(2))
                .set_all_tick_mark_size(tick_len as i32)
                .x_labels(ticks.len())
                .y_labels(rows + 1)
                .x_label_formatter(&percent)
                .y_label_formatter(&row_label)
                .label_style(c.font(label_em, fg))
                .x_desc(SUMMARY_X_LABEL)
                .axis_desc_style(c.font(label_em, fg))
                .draw(),
        )?;

        // The zero line goes below the bars, so a bar near 0 % stays visible.
        if lo <= 0.0 && hi >= 0.0 {
            let zero = PathElement::new(
                vec![(0.0, 0.0), (0.0, rows as f64)],
                theme.guide.mix(0.6).stroke_width(2),
            );
            drawn(chart.draw_series(std::iter::once(zero)))?;
        }
        let (plot_x, _) = chart.plotting_area().get_pixel_range();
        let min_width = MIN_BAR_PX * (hi - lo) / (plot_x.end - plot_x.start).max(1) as f64;
        let mut drawn_points = Vec::new();
        for group in status_groups(self.entries) {
            let extents: Vec<(f64, f64, f64)> = group
                .rows
                .iter()
                .filter_map(|&row| {
                    let (x0, x1) = bar_extent(self.entries[row].fraction, (lo, hi), min_width)?;
                    Some((x0, x1, row as f64))
                })
                .collect();
            for &(x0, x1, top) in &extents {
                let ends = [(x0, top + 0.5), (x1, top + 0.5)].map(|p| chart.backend_coord(&p));
                drawn_points.extend(sample_polyline(&ends.map(|(x, y)| (x as f64, y as f64))));
            }
            // Bars fill 80 % of their row, as matplotlib's `barh` does.
            let bars = extents.iter().map(|&(x0, x1, top)| {
                Rectangle::new([(x0, top + 0.1), (x1, top + 0.9)], group.color.filled())
            });
            let color = group.color;
            let em = label_em as i32;
            drawn(chart.draw_series(bars))?
                .label(group.label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - em / 2), (x + em, y + em / 2)], color.filled())
                });
        }
        self.draw_separators(&mut chart, (lo, hi), &theme)?;
        let frame = Rectangle::new([(lo, 0.0), (hi, rows as f64)], fg.stroke_width(2));
        drawn(chart.draw_series(std::iter::once(frame)))?;

        let plot = chart.plotting_area().get_pixel_range();
        let plot =
            PixelRect::from_corners(((plot.0.start, plot.1.start), (plot.0.end, plot.1.end)));
        let legend_rows = status_groups(self.entries).len() as f64;
        let legend_width = ["SLOW", "FAST", "SAME", "AMBG / ????"]
            .iter()
            .map(|t| c.text_width(t, label_em))
            .fold(0.0, f64::max);
        let size = (
            legend_width + 3.0 * label_em,
            legend_rows * 1.5 * label_em + label_em,
        );
        let position = best_legend_position(plot, size, pt(5.0), &drawn_points);
        drawn(
            chart
                .configure_series_labels()
                .position(position)
                .margin(pt(5.0) as u32)
                .legend_area_size((1.6 * label_em) as u32)
                .background_style(theme.legend_background())
                .border_style(theme.legend_border)
                .label_font(c.font(label_em, fg))
                .draw(),
        )
    }
}

impl SummaryChart<'_> {
    /// Thin lines between the rows of different benchmarks.
    fn draw_separators<DB: DrawingBackend, C>(
        &self,
        chart: &mut plotters::chart::ChartContext<'_, DB, C>,
        (lo, hi): (f64, f64),
        theme: &Theme,
    ) -> Result<(), String>
    where
        C: plotters::coord::CoordTranslate<From = (f64, f64)>,
    {
        let lines: Vec<PathElement<(f64, f64)>> = self
            .entries
            .windows(2)
            .enumerate()
            .filter(|(_, pair)| pair[0].benchmark != pair[1].benchmark)
            .map(|(row, _)| {
                // Between row `row` and the row below it.
                let y = (row + 1) as f64;
                PathElement::new(vec![(lo, y), (hi, y)], theme.guide.mix(0.4).stroke_width(1))
            })
            .collect();
        drawn(chart.draw_series(lines)).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(status: &'static str, fraction: f64) -> SummaryEntry {
        SummaryEntry {
            label: status.to_string(),
            fraction,
            status,
            benchmark: "b".into(),
        }
    }

    #[test]
    fn titles() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(summary_title(&[], &[]), "GPU timing change");
        assert_eq!(
            summary_title(&names(&["GPU", "GPU"]), &[]),
            "GPU timing change - GPU"
        );
        assert_eq!(
            summary_title(&names(&["A", "B"]), &names(&["T=F32", "N=2^20"])),
            "GPU timing change (T=F32, N=2^20)"
        );
    }

    #[test]
    fn canvas_follows_matplotlib_and_is_capped() {
        assert_eq!(summary_canvas_size(3), (1500, 600));
        assert_eq!(summary_canvas_size(40), (1500, 2025));
        assert_eq!(summary_canvas_size(ROWS_PER_CHART), (1500, 9225));
        assert_eq!(summary_canvas_size(100_000), (1500, MAX_CANVAS_HEIGHT));
    }

    #[test]
    fn bars_near_zero_keep_a_minimum_width() {
        let view = (-0.1, 0.1);
        assert_eq!(bar_extent(0.05, view, 0.01), Some((0.0, 0.05)));
        assert_eq!(bar_extent(0.001, view, 0.01), Some((0.0, 0.01)));
        assert_eq!(bar_extent(-0.001, view, 0.01), Some((-0.01, 0.0)));
        assert_eq!(bar_extent(0.0, view, 0.01), Some((-0.005, 0.005)));
        assert_eq!(bar_extent(0.5, view, 0.01), Some((0.0, 0.1)), "clipped");
        assert_eq!(bar_extent(f64::NAN, view, 0.01), None);
        assert_eq!(bar_extent(0.5, (0.2, 0.6), 0.01), Some((0.2, 0.5)));
    }

    #[test]
    fn legend_groups_follow_the_statuses_present() {
        let entries = [entry("SAME", 0.0), entry("SLOW", 0.1), entry("????", 0.2)];
        let groups = status_groups(&entries);
        let labels: Vec<&str> = groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, vec!["SLOW", "SAME", "????"]);
        assert_eq!(groups[1].rows, vec![0]);
        let both = status_groups(&[entry("AMBG", 0.0), entry("????", 0.1)]);
        assert_eq!(both.len(), 1);
        assert_eq!(both[0].label, "AMBG / ????");
        assert_eq!(both[0].rows, vec![0, 1]);
    }
}
