//! The summary chart (`--plot`): one horizontal bar per displayed row with
//! the change of the GPU timing center, coloured by status, like the
//! reference's matplotlib `barh` figure (10 inches wide, 0.3 inch a row,
//! 150 dpi), with a legend of the status colours below the axis. Row labels
//! keep what tells the rows apart: the parts every row shares are said once
//! under the title, long labels wrap (rows grow taller) and the chart
//! widens before anything is shortened. In repetition mode a whisker on
//! each bar shows the change the runs' interval hulls allow. A comparison
//! of more rows than one chart holds ([`SummaryPlan::rows_per_chart`]) is
//! split into several charts by the caller.

use std::ops::Range;
use std::path::Path;

use plotters::chart::ChartBuilder;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::element::{PathElement, Rectangle};
use plotters::prelude::DrawingBackend;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};

use crate::rendering::charts::canvas::{
    Canvas, Chart, DPI, Theme, drawn, fit, line_pitch, pt, status_color, text_width,
};
use crate::rendering::charts::labels::{
    NamePart, Wrapped, fit_labels, split_common, words, wrap_lines,
};
use crate::rendering::charts::output::{ChartFile, PlotKind, draw_chart};
use crate::rendering::charts::ticks::{Tick, label_at, percent_ticks};

/// Title of the summary chart before any device or filter suffix: the bars
/// show the change of the GPU time (upstream NVBench's `main` title).
pub const SUMMARY_TITLE: &str = "GPU timing change";
/// What the x axis shows, and which way is better.
pub const SUMMARY_X_LABEL: &str = "GPU time change, compare vs reference (negative = faster)";
/// The x axis in repetition mode, where a bar is the change of the merged centers.
pub const REPETITION_X_LABEL: &str =
    "GPU time change of the merged centers, compare vs reference (negative = faster)";
/// The legend entry of the whiskers drawn in repetition mode.
pub const RANGE_LEGEND: &str = "change the runs' intervals allow";
/// Where the summary chart goes when no `--plot-output` is given (the
/// reference's file name in a session without a display).
pub const DEFAULT_SUMMARY_OUTPUT: &str = "nvbench_compare.png";
/// What the reference prints when `--plot` finds no row to draw.
pub const NO_SUMMARY_DATA: &str = "No comparison data to plot.";
/// Written where the bar of a row without a change would be, so that the
/// row reads as a gap rather than as a missing state.
pub const NO_CHANGE_MARK: &str = "n/a";
/// Most rows of one-line labels in one summary chart: at matplotlib's 0.3
/// inch per row this is a 9,267-pixel-high image whose every row label has
/// its full size. Rows of wrapped labels are taller, so fewer fit.
pub const ROWS_PER_CHART: usize = 200;

/// One bar of the summary chart, in display order (top to bottom).
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryEntry {
    /// What names the row: benchmark, axis values, device, candidate.
    pub name: Vec<NamePart>,
    /// Fractional change of the timing center (`-0.074` draws `-7.4%`);
    /// not finite when a side has no usable time (a `????` row): the row
    /// is drawn without a bar and marked [`NO_CHANGE_MARK`].
    pub fraction: f64,
    /// Repetition mode: the lowest and highest change the runs' interval
    /// hulls allow, drawn as a whisker.
    pub range: Option<(f64, f64)>,
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

/// Font sizes in pixels (matplotlib's defaults: 10 pt text, 12 pt title).
fn label_em() -> f64 {
    pt(10.0)
}
fn title_em() -> f64 {
    pt(12.0)
}

/// The narrowest chart, and the room its plot keeps beside the labels.
const SUMMARY_WIDTH: u32 = 1500;
const PLOT_ROOM: f64 = 830.0;
/// Label layouts tried in order, (most lines, label column width in
/// pixels): one line in the reference's 45 % of the width, then a wider
/// chart (so that rows keep one look: a greedy wrap of labels that are
/// just too long would break some and not others), then wrapped labels
/// in ever wider charts.
const LABEL_STEPS: [(usize, f64); 7] = [
    (1, 675.0),
    (1, 1000.0),
    (2, 675.0),
    (2, 1000.0),
    (3, 1000.0),
    (3, 1500.0),
    (3, 2200.0),
];
/// Most lines of the title, and of the subtitle (the parts every row shares).
const TITLE_LINES: usize = 2;
const SUBTITLE_LINES: usize = 3;
/// Guards against a caller that does not split: a huge comparison cannot
/// ask for gigabytes of pixels.
const MAX_CANVAS_HEIGHT: u32 = 16_000;
/// A bar is at least this many pixels wide, so a SAME row at 0.0 % shows.
const MIN_BAR_PX: f64 = 4.0;

/// Height of a row in inches: matplotlib's 0.3 for a one-line label, more
/// for wrapped ones.
fn row_inches(lines: usize) -> f64 {
    0.3 + 0.15 * (lines.max(1) - 1) as f64
}

/// A comparison's bars with their labels laid out once for all its charts,
/// so that every part of a split chart has the same labels, size and x scale.
#[derive(Debug, Clone)]
pub struct SummaryPlan {
    entries: Vec<SummaryEntry>,
    labels: Wrapped,
    /// The parts every row shares, said under the title.
    common: Vec<NamePart>,
    limits: (f64, f64),
    width: u32,
}

impl SummaryPlan {
    pub fn new(entries: Vec<SummaryEntry>) -> Self {
        let names: Vec<Vec<NamePart>> = entries.iter().map(|e| e.name.clone()).collect();
        let (common, names) = split_common(&names);
        let em = label_em();
        let measure = |text: &str| text_width(text, em);
        let shorten = |text: &str, width: f64| fit(text, em, width);
        let labels = fit_labels(&names, &LABEL_STEPS, &measure, &shorten);
        let width = (labels.width + PLOT_ROOM).ceil().max(SUMMARY_WIDTH as f64) as u32;
        SummaryPlan {
            limits: summary_x_limits(&entries),
            entries,
            labels,
            common,
            width,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Most rows one chart holds: [`ROWS_PER_CHART`] of one-line labels,
    /// fewer of wrapped ones, so the image stays under 10,000 pixels high.
    pub fn rows_per_chart(&self) -> usize {
        let share = row_inches(1) / row_inches(self.labels.most_lines);
        ((ROWS_PER_CHART as f64 * share).floor() as usize).max(1)
    }

    /// The row ranges of the charts this comparison is split into.
    pub fn parts(&self) -> Vec<Range<usize>> {
        let step = self.rows_per_chart();
        (0..self.entries.len())
            .step_by(step)
            .map(|start| start..(start + step).min(self.entries.len()))
            .collect()
    }

    /// Draws the chart of the rows `rows` for the file `path`. Zero
    /// entries give an empty chart; the caller prints [`NO_SUMMARY_DATA`]
    /// instead, as upstream.
    pub fn draw_part(
        &self,
        rows: Range<usize>,
        title: &str,
        dark: bool,
        path: &Path,
    ) -> Result<ChartFile, String> {
        let rows = rows.start.min(self.entries.len())..rows.end.min(self.entries.len());
        let chart = SummaryChart {
            entries: &self.entries[rows.clone()],
            labels: &self.labels.lines[rows.clone()],
            label_width: self.labels.width,
            lines: self.labels.most_lines,
            header: self.header(title),
            limits: self.limits,
            dark,
        };
        let size = (self.width, chart.canvas_height());
        draw_chart(&chart, size, path, PlotKind::Summary)
    }

    /// The title and subtitle lines, each with its font size.
    fn header(&self, title: &str) -> Vec<(String, f64)> {
        let room = self.width as f64 - 2.0 * pad();
        let lines = |parts: &[NamePart], em: f64, most: usize| -> Vec<(String, f64)> {
            let measure = |t: &str| text_width(t, em);
            let shorten = |t: &str, width: f64| fit(t, em, width);
            wrap_lines(parts, (most, room), &measure, &shorten)
                .into_iter()
                .map(|line| (line, em))
                .collect()
        };
        let mut header = lines(&words(title, " "), title_em(), TITLE_LINES);
        header.extend(lines(&self.common, label_em(), SUBTITLE_LINES));
        header
    }
}

/// Draws the bars of `entries` in one chart (a convenience for a chart
/// that is not split).
#[cfg(test)]
pub fn draw_summary(
    entries: &[SummaryEntry],
    title: &str,
    dark: bool,
    path: &Path,
) -> Result<ChartFile, String> {
    let plan = SummaryPlan::new(entries.to_vec());
    plan.draw_part(0..entries.len(), title, dark, path)
}

fn pad() -> f64 {
    pt(10.8)
}
fn tick_len() -> f64 {
    pt(3.5)
}

struct SummaryChart<'a> {
    entries: &'a [SummaryEntry],
    /// The lines of each entry's label.
    labels: &'a [Vec<String>],
    label_width: f64,
    /// Lines of the longest label of the whole comparison (sets the row height).
    lines: usize,
    header: Vec<(String, f64)>,
    /// The x view.
    limits: (f64, f64),
    dark: bool,
}

impl SummaryChart<'_> {
    /// matplotlib's `max(4, 0.3 * rows + 1.5)` inches, with taller rows for
    /// wrapped labels and room for the subtitle and the legend row.
    fn canvas_height(&self) -> u32 {
        let rows = self.entries.len() as f64;
        let inches = (row_inches(self.lines) * rows + 1.5).max(4.0);
        let extra = self.header_height() - line_pitch(title_em()) + self.legend_height();
        ((inches * DPI + extra).round()).min(MAX_CANVAS_HEIGHT as f64) as u32
    }

    fn header_height(&self) -> f64 {
        self.header
            .iter()
            .map(|(_, em)| line_pitch(*em))
            .sum::<f64>()
    }

    fn legend_height(&self) -> f64 {
        2.0 * label_em()
    }

    fn has_ranges(&self) -> bool {
        self.entries.iter().any(|e| e.range.is_some())
    }
}

/// The x view: the data range widened to hold 0, so every bar starts at
/// the zero line and its length is the change, padded by 5 % of its width
/// (the reference's limits left 0 out when all changes had one sign, which
/// made a uniform 7 % slowdown look like large differences), and the
/// whiskers of repetition mode. Non-finite values are ignored.
fn summary_x_limits(entries: &[SummaryEntry]) -> (f64, f64) {
    let ends = entries
        .iter()
        .flat_map(|e| e.range.map_or([e.fraction; 2], |(a, b)| [a, b]));
    let finite = entries
        .iter()
        .map(|e| e.fraction)
        .chain(ends)
        .filter(|v| v.is_finite());
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
fn x_ticks((lo, hi): (f64, f64), plot_width: f64, em: f64) -> Vec<Tick> {
    (1..=MAX_X_BINS)
        .rev()
        .map(|bins| percent_ticks(lo, hi, bins))
        .find(|ticks| {
            let widest = ticks
                .iter()
                .map(|(_, text)| text_width(text, em))
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
        if hint.weight().allow_light_points() || hint.max_num_points() == 0 {
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
fn status_groups(entries: &[SummaryEntry], dark: bool) -> Vec<StatusGroup> {
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
            color: status_color(s, dark),
            rows: Vec::new(),
        })
        .collect();
    if !gray.is_empty() {
        groups.push(StatusGroup {
            label: gray.join(" / "),
            color: status_color("????", dark),
            rows: Vec::new(),
        });
    }
    for (row, entry) in entries.iter().enumerate() {
        let color = status_color(entry.status, dark);
        if let Some(group) = groups.iter_mut().find(|g| g.color == color) {
            group.rows.push(row);
        }
    }
    groups
}

/// The x extent of a bar from zero to `fraction`, at least `min_width`
/// wide (away from zero, or centred on it), clipped to the view.
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

        let (pad, tick_len, em) = (pad(), tick_len(), label_em());
        let rows = self.entries.len().max(1);
        let header = c.header(&self.header, pad, fg)?;
        let (_, body) = c.area.split_vertically((pad + header).round() as i32);
        let (height, legend) = (body.dim_in_pixel().1 as f64, self.legend_height());
        let (body, _) = body.split_vertically((height - legend).round().max(0.0) as i32);
        let (lo, hi) = self.limits;
        let y_label_area = self.label_width + 2.0 * tick_len + pt(2.0);
        let plot_width = c.width - 2.0 * pad - y_label_area;
        let ticks = x_ticks((lo, hi), plot_width, em);

        let mut builder = ChartBuilder::on(&body);
        builder
            .margin(pad as u32)
            .margin_top(0)
            .x_label_area_size((tick_len + 3.2 * em + pt(6.0)) as u32)
            .y_label_area_size(y_label_area as u32);
        let x_axis = ChangeAxis {
            range: (lo, hi),
            ticks: ticks.iter().map(|t| t.0).collect(),
        };
        let mut chart = drawn(builder.build_cartesian_2d(x_axis, RowAxis { rows }))?;
        let percent = |x: &f64| label_at(&ticks, *x);
        let x_desc = if self.has_ranges() {
            REPETITION_X_LABEL
        } else {
            SUMMARY_X_LABEL
        };
        drawn(
            chart
                .configure_mesh()
                .disable_mesh()
                .axis_style(fg.stroke_width(2))
                .set_all_tick_mark_size(tick_len as i32)
                .x_labels(ticks.len())
                // Row labels may take several lines: they and their ticks
                // are drawn below.
                .y_labels(0)
                .x_label_formatter(&percent)
                .label_style(c.font(em, fg))
                .x_desc(x_desc)
                .axis_desc_style(c.font(em, fg))
                .draw(),
        )?;

        // The zero line goes below the bars, so a bar near 0 % stays visible.
        let zero = PathElement::new(
            vec![(0.0, 0.0), (0.0, rows as f64)],
            theme.guide.mix(0.6).stroke_width(2),
        );
        drawn(chart.draw_series(std::iter::once(zero)))?;
        let (plot_x, _) = chart.plotting_area().get_pixel_range();
        let min_width = MIN_BAR_PX * (hi - lo) / (plot_x.end - plot_x.start).max(1) as f64;
        let groups = status_groups(self.entries, self.dark);
        for group in &groups {
            // Bars fill 80 % of their row, as matplotlib's `barh` does.
            let bars = group.rows.iter().filter_map(|&row| {
                let (x0, x1) = bar_extent(self.entries[row].fraction, (lo, hi), min_width)?;
                let top = row as f64;
                Some(Rectangle::new(
                    [(x0, top + 0.1), (x1, top + 0.9)],
                    group.color.filled(),
                ))
            });
            drawn(chart.draw_series(bars))?;
        }
        let pixel = |x: f64, row: f64| chart.backend_coord(&(x, row));
        let middle = (plot_x.start + plot_x.end) / 2;
        self.mark_rows_without_change(c, (&pixel, middle), em)?;
        let whiskers = self.entries.iter().enumerate().filter_map(|(row, e)| {
            let (a, b) = e.range?;
            whisker(a, b, row as f64 + 0.5, (lo, hi))
        });
        for points in whiskers {
            for line in points {
                drawn(
                    chart.draw_series(std::iter::once(PathElement::new(line, fg.stroke_width(2)))),
                )?;
            }
        }
        self.draw_separators(&mut chart, (lo, hi), &theme)?;
        let frame = Rectangle::new([(lo, 0.0), (hi, rows as f64)], fg.stroke_width(2));
        drawn(chart.draw_series(std::iter::once(frame)))?;

        // Row labels, right-aligned beside their tick, lines centred on the row.
        let right = plot_x.start as f64 - tick_len - pt(3.5);
        for (row, lines) in self.labels.iter().enumerate() {
            let (left, center) = chart.backend_coord(&(lo, row as f64 + 0.5));
            let tick = vec![(left - tick_len.round() as i32, center), (left, center)];
            drawn(c.area.draw(&PathElement::new(tick, fg.stroke_width(2))))?;
            let first = center as f64 - (lines.len() - 1) as f64 * line_pitch(em) / 2.0;
            for (index, line) in lines.iter().enumerate() {
                let y = first + index as f64 * line_pitch(em);
                c.text(line, (right, y), (em, fg), (HPos::Right, VPos::Center))?;
            }
        }
        let legend_y = c.area.dim_in_pixel().1 as f64 - legend / 2.0 - pad / 2.0;
        let plot_center = (plot_x.start + plot_x.end) as f64 / 2.0;
        self.draw_legend(c, &groups, (plot_center, legend_y), fg)
    }
}

/// The lines of a whisker from `a` to `b` at row centre `y`, with caps,
/// clipped to the view; a cap outside the view is left off.
fn whisker(a: f64, b: f64, y: f64, (lo, hi): (f64, f64)) -> Option<Vec<Vec<(f64, f64)>>> {
    if !(a.is_finite() && b.is_finite()) {
        return None;
    }
    let (a, b) = (a.min(b), a.max(b));
    let (x0, x1) = (a.max(lo), b.min(hi));
    if x1 < x0 {
        return None;
    }
    let mut lines = vec![vec![(x0, y), (x1, y)]];
    for (end, x) in [(a, x0), (b, x1)] {
        if end == x {
            lines.push(vec![(x, y - 0.25), (x, y + 0.25)]);
        }
    }
    Some(lines)
}

impl SummaryChart<'_> {
    /// The legend, one row centred under the axis title at `center`,
    /// outside the plot so that it never covers a bar: the status colours
    /// present, and the whisker in repetition mode.
    fn draw_legend<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        groups: &[StatusGroup],
        (center, y): (f64, f64),
        fg: RGBColor,
    ) -> Result<(), String> {
        let em = label_em();
        let mut entries: Vec<(Option<RGBColor>, &str)> = groups
            .iter()
            .map(|g| (Some(g.color), g.label.as_str()))
            .collect();
        if self.has_ranges() {
            entries.push((None, RANGE_LEGEND));
        }
        let (key, gap, spacing) = (em, 0.5 * em, 1.5 * em);
        let widths: Vec<f64> = entries
            .iter()
            .map(|(_, text)| key + gap + text_width(text, em))
            .collect();
        let total = widths.iter().sum::<f64>() + spacing * (widths.len().max(1) - 1) as f64;
        let mut x = (center - total / 2.0).clamp(pad(), (c.width - total - pad()).max(pad()));
        for ((color, text), width) in entries.iter().zip(&widths) {
            let (x0, x1) = (x.round() as i32, (x + key).round() as i32);
            let (y0, y1) = (
                (y - key / 2.0).round() as i32,
                (y + key / 2.0).round() as i32,
            );
            match color {
                Some(color) => drawn(
                    c.area
                        .draw(&Rectangle::new([(x0, y0), (x1, y1)], color.filled())),
                )?,
                None => {
                    let style = fg.stroke_width(2);
                    let mid = y.round() as i32;
                    drawn(
                        c.area
                            .draw(&PathElement::new(vec![(x0, mid), (x1, mid)], style)),
                    )?;
                    for end in [x0, x1] {
                        let cap = vec![(end, y0 + 3), (end, y1 - 3)];
                        drawn(c.area.draw(&PathElement::new(cap, style)))?;
                    }
                }
            }
            c.text(
                text,
                (x + key + gap, y),
                (em, fg),
                (HPos::Left, VPos::Center),
            )?;
            x += width + spacing;
        }
        Ok(())
    }
}

impl SummaryChart<'_> {
    /// Writes [`NO_CHANGE_MARK`] beside the zero line of each row without a
    /// finite change, on the side with more room.
    /// `pixel` maps a chart coordinate to the canvas, `middle` is the
    /// plot's middle in pixels.
    fn mark_rows_without_change<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        (pixel, middle): (&dyn Fn(f64, f64) -> (i32, i32), i32),
        em: f64,
    ) -> Result<(), String> {
        let color = status_color("????", self.dark);
        for (row, _) in self.rows_without_change() {
            let (x, y) = pixel(0.0, row as f64 + 0.5);
            let gap = pt(3.0).round() as i32;
            let (at, anchor) = if x > middle {
                (x - gap, HPos::Right)
            } else {
                (x + gap, HPos::Left)
            };
            let at = (at as f64, y as f64);
            c.text(NO_CHANGE_MARK, at, (em, color), (anchor, VPos::Center))?;
        }
        Ok(())
    }

    /// The rows (index and entry) that have no finite change to draw.
    fn rows_without_change(&self) -> impl Iterator<Item = (usize, &SummaryEntry)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.fraction.is_finite())
    }

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
            name: vec![NamePart::new("label", status, 0)],
            fraction,
            range: None,
            status,
            benchmark: "b".into(),
        }
    }

    fn height(rows: usize, lines: usize) -> u32 {
        let entries = vec![entry("SAME", 0.0); rows];
        let labels = vec![vec![String::new(); lines]; rows];
        SummaryChart {
            entries: &entries,
            labels: &labels,
            label_width: 100.0,
            lines,
            header: vec![("title".into(), title_em())],
            limits: (-0.05, 0.05),
            dark: false,
        }
        .canvas_height()
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
        // 0.3 inch a row and 1.5 inches, at least 4 inches, at 150 dpi, and
        // a legend row of 2 em (42 px).
        assert_eq!(height(3, 1), 600 + 42);
        assert_eq!(height(40, 1), 2025 + 42);
        assert_eq!(height(ROWS_PER_CHART, 1), 9225 + 42);
        assert_eq!(height(40, 2), 2925 + 42, "wrapped labels: taller rows");
        assert_eq!(height(100_000, 1), MAX_CANVAS_HEIGHT);
    }

    #[test]
    fn split_charts_stay_under_ten_thousand_pixels() {
        for lines in 1..=3 {
            let per_chart = (ROWS_PER_CHART as f64 * row_inches(1) / row_inches(lines)) as usize;
            assert!(height(per_chart, lines) < 10_000, "{lines} lines");
        }
    }

    #[test]
    fn the_view_holds_zero_and_the_whiskers() {
        let (lo, hi) = summary_x_limits(&[entry("SLOW", 0.07)]);
        assert!((lo + 0.0035).abs() < 1e-12 && (hi - 0.0735).abs() < 1e-12);
        let (lo, hi) = summary_x_limits(&[entry("FAST", -0.2), entry("SLOW", 0.1)]);
        assert!((lo + 0.215).abs() < 1e-12 && (hi - 0.115).abs() < 1e-12);
        assert_eq!(summary_x_limits(&[entry("SAME", 0.0)]), (-0.05, 0.05));
        let mut wide = entry("AMBG", 0.01);
        wide.range = Some((-0.1, 0.3));
        let (lo, hi) = summary_x_limits(&[wide]);
        assert!(lo < -0.1 && hi > 0.3, "{lo} {hi}");
        assert_eq!(
            summary_x_limits(&[entry("SLOW", f64::INFINITY)]),
            (-0.05, 0.05)
        );
    }

    #[test]
    fn whiskers_have_caps_inside_the_view() {
        let lines = whisker(0.3, -0.1, 0.5, (-0.2, 0.2)).unwrap();
        assert_eq!(lines[0], vec![(-0.1, 0.5), (0.2, 0.5)]);
        assert_eq!(lines.len(), 2, "the cap beyond the view is left off");
        assert_eq!(whisker(0.3, 0.4, 0.5, (-0.2, 0.2)), None);
        assert_eq!(whisker(f64::NAN, 0.1, 0.5, (-0.2, 0.2)), None);
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
    fn every_status_colour_stands_out_on_both_themes() {
        use crate::rendering::charts::canvas::contrast_ratio;
        for dark in [false, true] {
            let background = Theme::summary(dark).face;
            for status in ["SLOW", "FAST", "SAME", "AMBG", "????"] {
                let ratio = contrast_ratio(status_color(status, dark), background);
                assert!(ratio >= 3.0, "{status} dark={dark}: contrast {ratio:.2}");
            }
        }
        let dark_same = status_color("SAME", true);
        assert_ne!(dark_same, status_color("SAME", false));
        assert!(contrast_ratio(dark_same, Theme::summary(true).face) > 6.0);
    }

    #[test]
    fn legend_groups_follow_the_statuses_present() {
        let entries = [entry("SAME", 0.0), entry("SLOW", 0.1), entry("????", 0.2)];
        let groups = status_groups(&entries, false);
        let labels: Vec<&str> = groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, vec!["SLOW", "SAME", "????"]);
        assert_eq!(groups[1].rows, vec![0]);
        let both = status_groups(&[entry("AMBG", 0.0), entry("????", 0.1)], false);
        assert_eq!(both.len(), 1);
        assert_eq!(both[0].label, "AMBG / ????");
        assert_eq!(both[0].rows, vec![0, 1]);
    }
}
