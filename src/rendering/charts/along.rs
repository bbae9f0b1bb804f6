//! The along chart (`--plot-along AXIS`): time against a positive numeric
//! axis on log-log scales for one benchmark and device pair, like the
//! reference's seaborn-styled `plt.plot` figure (6.4 x 4.8 inches at
//! 150 dpi). Each combination of the other axes' values is a colour: its
//! compare series is solid, its reference series dashed, both with round
//! markers and translucent noise bands. pow2 axes are labelled `2^N`.

use std::path::Path;

use plotters::chart::{ChartBuilder, ChartContext, SeriesAnno};
use plotters::coord::Shift;
use plotters::coord::combinators::{BindKeyPoints, IntoLogRange};
use plotters::element::{Circle, DashedPathElement, EmptyElement, Polygon};
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::series::{DashedLineSeries, LineSeries};
use plotters::style::{Color, RGBColor, ShapeStyle, TRANSPARENT};

use crate::pycompat::pyfmt::{parse_py_float, str_repr};
use crate::rendering::charts::canvas::{
    Canvas, Chart, DEEP, PixelRect, Theme, best_legend_position, drawn, pt, sample_polyline,
};
use crate::rendering::charts::output::{ChartFile, PlotKind, draw_chart};
use crate::rendering::charts::ticks::{Tick, label_at, log_ticks, pow2_ticks};

/// One line of an along chart.
#[derive(Debug, Clone, PartialEq)]
pub struct AlongSeries {
    /// Legend text, shown verbatim (upstream appends ` ref` to reference series).
    pub label: String,
    /// Reference series are dashed, compare series solid.
    pub reference: bool,
    /// Series of one group (a compare series and its reference) share a colour.
    pub group: usize,
    /// Points in any order; they are sorted by `x`, and a repeated `x` keeps
    /// the last point (the reference stores them in a dict keyed by `x`).
    pub points: Vec<AlongPoint>,
}

/// One point of an along series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlongPoint {
    /// Axis value; points whose value cannot be placed on a log axis are skipped.
    pub x: f64,
    /// Time in seconds; points without a positive finite time are skipped.
    pub time: f64,
    /// Relative noise (0.02 = 2 %); a band is drawn over runs of two or more
    /// consecutive points with a finite, non-negative noise.
    pub noise: Option<f64>,
}

/// The plotted axis: its name (the x-axis title) and whether NVBench marks
/// it pow2 (its ticks are then powers of two, labelled `2^N`).
#[derive(Debug, Clone, Copy)]
pub struct AlongAxis<'a> {
    pub name: &'a str,
    pub pow2: bool,
}

/// The `--plot-along` axis value of one state as a number, or upstream's
/// error. `value` is the value as the JSON stores it (NVBench writes axis
/// values as strings); it is parsed the way Python's `float()` parses text.
pub fn along_axis_value(axis_name: &str, value: &str) -> Result<f64, String> {
    let Some(number) = parse_py_float(value) else {
        return Err(format!(
            "--plot-along requires numeric axis values; axis {} has value {}",
            str_repr(axis_name),
            str_repr(value)
        ));
    };
    if !(number.is_finite() && number > 0.0) {
        return Err(format!(
            "--plot-along requires positive finite axis values; axis {} has value {}",
            str_repr(axis_name),
            str_repr(value)
        ));
    }
    Ok(number)
}

/// Upstream's error for a compared state that lacks the `--plot-along` axis.
/// `state` is the state name without its leading `Device=N ` part.
pub fn missing_along_axis(axis_name: &str, benchmark: &str, state: &str) -> String {
    format!(
        "--plot-along axis {} is not present in benchmark {} state {}",
        str_repr(axis_name),
        str_repr(benchmark),
        str_repr(state)
    )
}

/// Draws one along chart (log-log, time [s] against the axis, `title` on
/// top) for the file `path`.
pub fn draw_along_chart(
    title: &str,
    axis: AlongAxis<'_>,
    series: &[AlongSeries],
    path: &Path,
) -> Result<ChartFile, String> {
    let chart = AlongChart {
        title,
        axis,
        series,
    };
    draw_chart(&chart, ALONG_CANVAS, path, PlotKind::Along)
}

const ALONG_CANVAS: (u32, u32) = (960, 720);
/// Font sizes of the along chart (seaborn's notebook context).
const TICK_PT: f64 = 11.0;
const LABEL_PT: f64 = 12.0;
const LEGEND_PT: f64 = 11.0;
/// plotters puts a legend this many pixels inside the plot.
const LEGEND_INSET: f64 = 5.0;

struct AlongChart<'a> {
    title: &'a str,
    axis: AlongAxis<'a>,
    series: &'a [AlongSeries],
}

/// A series ready to draw: usable points sorted by axis value, with the
/// colour of its group.
struct PreparedSeries<'a> {
    label: &'a str,
    dashed: bool,
    color: RGBColor,
    points: Vec<AlongPoint>,
}

fn usable_noise(noise: Option<f64>) -> Option<f64> {
    noise.filter(|n| n.is_finite() && *n >= 0.0)
}

/// The points of a series that fit a log-log chart, sorted by `x`, keeping
/// the last of equal `x` values.
fn usable_points(points: &[AlongPoint]) -> Vec<AlongPoint> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let mut points: Vec<AlongPoint> = points
        .iter()
        .copied()
        .filter(|p| positive(p.x) && positive(p.time))
        .collect();
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut unique: Vec<AlongPoint> = Vec::with_capacity(points.len());
    for p in points {
        match unique.last_mut() {
            Some(last) if last.x == p.x => *last = p,
            _ => unique.push(p),
        }
    }
    unique
}

/// Series with usable points; colours go round the palette by group, in
/// the order groups first appear (groups without points take none, as
/// series without points take none in matplotlib).
fn prepare_series(series: &[AlongSeries]) -> Vec<PreparedSeries<'_>> {
    let mut groups: Vec<usize> = Vec::new();
    let mut prepared = Vec::new();
    for s in series {
        let points = usable_points(&s.points);
        if points.is_empty() {
            continue;
        }
        let index = groups
            .iter()
            .position(|g| *g == s.group)
            .unwrap_or_else(|| {
                groups.push(s.group);
                groups.len() - 1
            });
        prepared.push(PreparedSeries {
            label: &s.label,
            dashed: s.reference,
            color: DEEP[index % DEEP.len()],
            points,
        });
    }
    prepared
}

/// Noise bands of a series: one polygon outline (time space) per run of two
/// or more consecutive points with usable noise; the lower edge stays above
/// a thousandth of the time so that it remains on the log axis.
fn noise_bands(points: &[AlongPoint]) -> Vec<Vec<(f64, f64)>> {
    let mut bands = Vec::new();
    for run in points.split(|p| usable_noise(p.noise).is_none()) {
        if run.len() < 2 {
            continue;
        }
        let noise = |p: &AlongPoint| usable_noise(p.noise).unwrap_or(0.0);
        let mut outline: Vec<(f64, f64)> = run
            .iter()
            .map(|p| (p.x, p.time + p.time * noise(p)))
            .collect();
        outline.extend(
            run.iter()
                .rev()
                .map(|p| (p.x, (p.time - p.time * noise(p)).max(p.time * 0.001))),
        );
        bands.push(outline);
    }
    bands
}

/// Log10 view limits over positive finite values: 5 % margins, or one
/// decade either side of a single value (matplotlib's log autoscaling).
fn log_limits(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let logs = values.filter(|v| v.is_finite() && *v > 0.0).map(f64::log10);
    let (lo, hi) = logs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        let below = if lo.fract() == 0.0 {
            lo - 1.0
        } else {
            lo.floor()
        };
        let above = if hi.fract() == 0.0 {
            hi + 1.0
        } else {
            hi.ceil()
        };
        return (below, above);
    }
    let margin = (hi - lo) * 0.05;
    // Keep the limits inside what f64 can hold on either side.
    ((lo - margin).max(-300.0), (hi + margin).min(300.0))
}

/// Line width, marker radius and dash pattern of matplotlib's defaults in
/// seaborn's notebook context (1.5 pt lines, 6 pt markers, `--` dashes).
fn line_style(color: RGBColor) -> ShapeStyle {
    color.stroke_width(pt(1.5).round() as u32)
}
fn marker_radius() -> i32 {
    pt(3.0).round() as i32
}
fn dash() -> (i32, i32) {
    (pt(3.7 * 1.5).round() as i32, pt(1.6 * 1.5).round() as i32)
}

impl Chart for AlongChart<'_> {
    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Result<(), String> {
        let theme = Theme::darkgrid();
        drawn(c.area.fill(&theme.background))?;
        let series = prepare_series(self.series);
        let bands: Vec<Vec<Vec<(f64, f64)>>> =
            series.iter().map(|s| noise_bands(&s.points)).collect();
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
        let times = series.iter().flat_map(|s| s.points.iter().map(|p| p.time));
        let band_edges = bands.iter().flatten().flatten().map(|&(_, t)| t);
        let x_range = log_limits(xs);
        let y_range = log_limits(times.chain(band_edges));
        let x_ticks = if self.axis.pow2 {
            pow2_ticks(x_range.0, x_range.1)
        } else {
            log_ticks(x_range.0, x_range.1)
        };
        let y_ticks = log_ticks(y_range.0, y_range.1);

        let mut chart = self.build(c, &theme, (x_range, &x_ticks), (y_range, &y_ticks))?;
        // Bands first: matplotlib draws filled areas below all lines.
        for (s, runs) in series.iter().zip(&bands) {
            let polygons = runs
                .iter()
                .map(|band| Polygon::new(band.clone(), s.color.mix(0.1)));
            drawn(chart.draw_series(polygons))?;
        }
        let shown = legend_rows(&chart, series.len());
        let mut legend_labels = Vec::new();
        let mut drawn_points = Vec::new();
        for (index, s) in series.iter().enumerate() {
            let anno = draw_series(&mut chart, s)?;
            // Like matplotlib, series without a label (or with a `_` label)
            // stay out of the legend.
            if index < shown && !s.label.is_empty() && !s.label.starts_with('_') {
                let (color, dashed) = (s.color, s.dashed);
                let label = c.fit(s.label, pt(LEGEND_PT), 0.6 * c.width);
                // matplotlib's legend handle: the line (dashed for a
                // reference series; a solid line is one dash as long as the
                // handle) with one marker in its middle.
                let width = pt(2.0 * LEGEND_PT) as i32;
                let (size, gap) = if dashed { dash() } else { (width, 0) };
                anno.label(label.clone()).legend(move |(x, y)| {
                    let line = vec![(0, 0), (width, 0)];
                    EmptyElement::at((x, y))
                        + DashedPathElement::new(line, size, gap, line_style(color))
                        + Circle::new((width / 2, 0), marker_radius(), color.filled())
                });
                legend_labels.push(label);
            }
            let pixels: Vec<(f64, f64)> = s
                .points
                .iter()
                .map(|p| chart.backend_coord(&(p.x, p.time)))
                .map(|(x, y)| (x as f64, y as f64))
                .collect();
            drawn_points.extend(sample_polyline(&pixels));
        }
        if shown < series.len() {
            let rest = format!("\u{2026} and {} more", series.len() - shown);
            drawn(chart.draw_series(std::iter::empty::<Circle<(f64, f64), i32>>()))?
                .label(rest.clone());
            legend_labels.push(rest);
        }
        draw_legend(c, &mut chart, &theme, &legend_labels, &drawn_points)
    }
}

/// The log-log coordinates of the chart.
type LogLog = plotters::coord::cartesian::Cartesian2d<
    plotters::coord::combinators::WithKeyPoints<plotters::coord::combinators::LogCoord<f64>>,
    plotters::coord::combinators::WithKeyPoints<plotters::coord::combinators::LogCoord<f64>>,
>;

impl AlongChart<'_> {
    /// The frame: title, log coordinates with our ticks, seaborn's darkgrid
    /// face with white grid lines at the ticks, and the axis titles.
    fn build<'a, DB: DrawingBackend>(
        &self,
        c: &Canvas<'a, DB>,
        theme: &Theme,
        (x_range, x_ticks): ((f64, f64), &[Tick]),
        (y_range, y_ticks): ((f64, f64), &[Tick]),
    ) -> Result<ChartContext<'a, DB, LogLog>, String> {
        let (tick_em, label_em) = (pt(TICK_PT), pt(LABEL_PT));
        let widest_y_label = y_ticks
            .iter()
            .map(|(_, label)| c.text_width(label, tick_em))
            .fold(0.0, f64::max);
        // seaborn's 6 pt ticks are hidden in darkgrid but still push the
        // labels out, plus matplotlib's 3.5 pt label pad.
        let tick_gap = pt(6.0 + 3.5);
        let area: &'a DrawingArea<DB, Shift> = c.area;
        let mut builder = ChartBuilder::on(area);
        builder
            .margin(pt(8.0) as u32)
            .x_label_area_size((tick_gap + 1.4 * tick_em + 1.6 * label_em) as u32)
            .y_label_area_size((tick_gap + widest_y_label + 1.8 * label_em) as u32);
        let title = c.fit(self.title, label_em, c.width - pt(16.0));
        if !title.is_empty() {
            builder.caption(&title, c.font(label_em, theme.foreground));
        }
        let keys = |ticks: &[Tick]| ticks.iter().map(|t| t.0).collect::<Vec<f64>>();
        let exp = |(lo, hi): (f64, f64)| 10f64.powf(lo)..10f64.powf(hi);
        let mut chart = drawn(builder.build_cartesian_2d(
            exp(x_range).log_scale().with_key_points(keys(x_ticks)),
            exp(y_range).log_scale().with_key_points(keys(y_ticks)),
        ))?;
        drawn(chart.plotting_area().fill(&theme.face))?;
        drawn(
            chart
                .configure_mesh()
                .bold_line_style(theme.guide.stroke_width(2))
                .light_line_style(TRANSPARENT)
                .axis_style(TRANSPARENT)
                .set_all_tick_mark_size(tick_gap as i32)
                .x_label_formatter(&|v| label_at(x_ticks, *v))
                .y_label_formatter(&|v| label_at(y_ticks, *v))
                .label_style(c.font(tick_em, theme.foreground))
                .x_desc(c.fit(self.axis.name, label_em, c.width - pt(16.0)))
                .y_desc("time [s]")
                .axis_desc_style(c.font(label_em, theme.foreground))
                .draw(),
        )?;
        Ok(chart)
    }
}

/// A series' line (solid, or dashed for a reference series) and its markers;
/// the returned annotation takes the legend entry.
fn draw_series<'c, 'a, DB: DrawingBackend>(
    chart: &'c mut ChartContext<'a, DB, LogLog>,
    s: &PreparedSeries<'_>,
) -> Result<&'c mut SeriesAnno<'a, DB>, String> {
    let points: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.time)).collect();
    let markers = points
        .iter()
        .map(|&p| Circle::new(p, marker_radius(), s.color.filled()));
    drawn(chart.draw_series(markers))?;
    let style = line_style(s.color);
    if s.dashed {
        let (size, gap) = dash();
        drawn(chart.draw_series(DashedLineSeries::new(points, size, gap, style)))
    } else {
        drawn(chart.draw_series(LineSeries::new(points, style)))
    }
}

/// How many series the legend can list in the plot's height, keeping a row
/// for the "… and N more" line when they do not all fit.
fn legend_rows<DB: DrawingBackend>(chart: &ChartContext<'_, DB, LogLog>, series: usize) -> usize {
    let (_, plot_y) = chart.plotting_area().get_pixel_range();
    let pitch = legend_pitch();
    let room = (plot_y.end - plot_y.start) as f64 - 2.0 * (LEGEND_INSET + pt(4.0));
    let rows = (room / pitch).floor().max(1.0) as usize;
    if series > rows { rows - 1 } else { series }
}

/// Height of one legend row: plotters spaces lines 1.25 font sizes apart,
/// and a font size is 1.164 em of DejaVu Sans.
fn legend_pitch() -> f64 {
    1.25 * 1.164 * pt(LEGEND_PT)
}

/// The legend in the emptiest corner or edge of the plot.
fn draw_legend<'a, DB: DrawingBackend + 'a>(
    c: &Canvas<'_, DB>,
    chart: &mut ChartContext<'a, DB, LogLog>,
    theme: &Theme,
    labels: &[String],
    drawn_points: &[(f64, f64)],
) -> Result<(), String> {
    let em = pt(LEGEND_PT);
    if labels.is_empty() {
        return Ok(());
    }
    let (plot_x, plot_y) = chart.plotting_area().get_pixel_range();
    let plot = PixelRect::from_corners(((plot_x.start, plot_y.start), (plot_x.end, plot_y.end)));
    let text_width = labels
        .iter()
        .map(|l| c.text_width(l, em))
        .fold(0.0, f64::max);
    let padding = pt(4.0);
    let handle_area = pt(2.0 * LEGEND_PT) + 0.8 * em;
    let size = (
        text_width + handle_area + 2.0 * padding,
        labels.len() as f64 * legend_pitch() + 2.0 * padding,
    );
    let position = best_legend_position(plot, size, LEGEND_INSET, drawn_points);
    drawn(
        chart
            .configure_series_labels()
            .position(position)
            .margin(padding as u32)
            .legend_area_size(handle_area as u32)
            .background_style(theme.legend_background())
            .border_style(theme.legend_border)
            .label_font(c.font(em, theme.foreground))
            .draw(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, noise: Option<f64>) -> AlongPoint {
        AlongPoint {
            x,
            time: 1e-3 * x,
            noise,
        }
    }

    #[test]
    fn bands_only_where_noise_is_usable() {
        let points = vec![
            p(1.0, Some(0.1)),
            p(2.0, Some(0.1)),
            p(3.0, None),
            p(4.0, Some(f64::NAN)),
            p(5.0, Some(0.2)),
            p(6.0, Some(0.2)),
            p(7.0, Some(0.2)),
        ];
        let bands = noise_bands(&points);
        assert_eq!(bands.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 6]);
        let wide = noise_bands(&[p(1.0, Some(5.0)), p(2.0, Some(5.0))]);
        assert!(
            wide[0].iter().all(|&(_, t)| t > 0.0),
            "lower edge stays positive"
        );
    }

    #[test]
    fn series_of_a_group_share_a_colour() {
        let series = |label: &str, reference, group, points: Vec<AlongPoint>| AlongSeries {
            label: label.into(),
            reference,
            group,
            points,
        };
        let input = vec![
            series("empty", false, 0, vec![]),
            series("empty ref", true, 0, vec![]),
            series(
                "a",
                false,
                1,
                vec![p(2.0, None), p(1.0, None), p(2.0, Some(0.5))],
            ),
            series("a ref", true, 1, vec![p(1.0, None)]),
            series("b", false, 2, vec![p(1.0, None)]),
        ];
        let prepared = prepare_series(&input);
        let colors: Vec<RGBColor> = prepared.iter().map(|s| s.color).collect();
        assert_eq!(colors, vec![DEEP[0], DEEP[0], DEEP[1]]);
        assert!(prepared[1].dashed && !prepared[0].dashed);
        assert_eq!(prepared[0].points.len(), 2, "sorted, last of equal x kept");
        assert_eq!(prepared[0].points[1].noise, Some(0.5));
    }

    #[test]
    fn log_limits_follow_matplotlib() {
        assert_eq!(log_limits([3e-5].into_iter()), (-5.0, -4.0));
        assert_eq!(log_limits([1e-4].into_iter()), (-5.0, -3.0));
        assert_eq!(log_limits(std::iter::empty()), (0.0, 1.0));
        let (lo, hi) = log_limits([1.0, 100.0].into_iter());
        assert!((lo + 0.1).abs() < 1e-12 && (hi - 2.1).abs() < 1e-12);
    }

    #[test]
    fn axis_values_and_errors_use_upstream_wording() {
        assert_eq!(along_axis_value("Elements{io}", "65536"), Ok(65536.0));
        assert_eq!(along_axis_value("A", " 1_000 "), Ok(1000.0));
        assert_eq!(
            along_axis_value("A", "F32"),
            Err("--plot-along requires numeric axis values; axis 'A' has value 'F32'".into())
        );
        assert_eq!(
            along_axis_value("A", "1__0"),
            Err("--plot-along requires numeric axis values; axis 'A' has value '1__0'".into())
        );
        assert_eq!(
            along_axis_value("A", "0"),
            Err("--plot-along requires positive finite axis values; axis 'A' has value '0'".into())
        );
        assert_eq!(
            along_axis_value("A", "inf"),
            Err(
                "--plot-along requires positive finite axis values; axis 'A' has value 'inf'"
                    .into()
            )
        );
        assert_eq!(
            missing_along_axis("A", "bench", "T=F32"),
            "--plot-along axis 'A' is not present in benchmark 'bench' state 'T=F32'"
        );
    }
}
