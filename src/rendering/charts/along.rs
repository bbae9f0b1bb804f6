//! The along chart (`--plot-along AXIS`): time against a positive numeric
//! axis on log-log scales for one benchmark and device pair, like the
//! reference's seaborn-styled `plt.plot` figure (6.4 x 4.8 inches at
//! 150 dpi). Each combination of the other axes' values is a colour and
//! each side a line style ([`style`](super::style)): the compare series
//! solid, the reference dashed, both with round markers (N-way: each
//! candidate its own marker and dash), with translucent noise bands (in repetition mode, whiskers over
//! the runs' interval hulls instead). pow2 axes are labelled `2^N`. The
//! axes every series shares are said once under the title, and the legend
//! sits below the plot ([`legend`](super::legend)).

use std::path::Path;

use plotters::chart::{ChartBuilder, ChartContext};
use plotters::coord::Shift;
use plotters::coord::combinators::{BindKeyPoints, IntoLogRange};
use plotters::element::{PathElement, Polygon};
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::series::{DashedLineSeries, LineSeries};
use plotters::style::{Color, RGBColor, ShapeStyle, TRANSPARENT};

use crate::pycompat::pyfmt::{parse_py_float, str_repr};
use crate::rendering::charts::canvas::{
    Canvas, Chart, Theme, drawn, fit, line_pitch, pt, text_width,
};
use crate::rendering::charts::labels::{NamePart, words, wrap_lines};
use crate::rendering::charts::legend::{self, Entry, Layout, Metrics};
use crate::rendering::charts::output::{ChartFile, PlotKind, draw_chart};
use crate::rendering::charts::style::{
    LineStyle, dash_pattern, draw_marker, group_color, side_style,
};
use crate::rendering::charts::ticks::{Tick, label_at, log_ticks, pow2_ticks};

/// One line of an along chart.
#[derive(Debug, Clone, PartialEq)]
pub struct AlongSeries {
    /// Legend text of its colour, shown verbatim: the other axes' values
    /// that tell its group apart (empty: the colour is not named).
    pub label: String,
    /// Which side it is, named in the legend's style key (`compare`,
    /// `reference`, an N-way label).
    pub side: String,
    /// Its line style: 0 the reference (dashed), 1 the compare side (solid),
    /// further N-way candidates their own (see [`side_style`]).
    pub style: usize,
    /// Series of one group (one series a side) share a colour.
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
    /// Repetition mode: the hull of the runs' intervals (lowest, highest
    /// time), drawn as a whisker.
    pub range: Option<(f64, f64)>,
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
/// top and `subtitle`, the axis values every series shares, under it) for
/// the file `path`.
pub fn draw_along_chart(
    title: &str,
    subtitle: &str,
    axis: AlongAxis<'_>,
    series: &[AlongSeries],
    path: &Path,
) -> Result<ChartFile, String> {
    let series = prepare_series(series);
    let room = ALONG_WIDTH as f64 - 2.0 * margin();
    let legend = Layout::new(legend_entries(&series), room, legend_metrics());
    let header = header_lines(title, subtitle, room);
    let header_height: f64 = header.iter().map(|(_, em)| line_pitch(*em)).sum();
    // The reference's 4.8 inches hold the title and the plot; a subtitle
    // and the legend below add to them.
    let extra = (header_height - line_pitch(pt(LABEL_PT))).max(0.0) + legend.height();
    let height = (ALONG_HEIGHT as f64 + extra).round() as u32;
    let chart = AlongChart {
        header,
        axis,
        series,
        legend,
    };
    draw_chart(&chart, (ALONG_WIDTH, height), path, PlotKind::Along)
}

const ALONG_WIDTH: u32 = 960;
const ALONG_HEIGHT: u32 = 720;
/// Font sizes of the along chart (seaborn's notebook context).
const TICK_PT: f64 = 11.0;
const LABEL_PT: f64 = 12.0;
const LEGEND_PT: f64 = 11.0;
/// Most lines of the title and of the subtitle.
const TITLE_LINES: usize = 2;
const SUBTITLE_LINES: usize = 3;

fn margin() -> f64 {
    pt(8.0)
}

/// The title, wrapped between words, and the subtitle, wrapped between
/// its axis values; shortened only when one word is wider than the chart.
fn header_lines(title: &str, subtitle: &str, room: f64) -> Vec<(String, f64)> {
    let lines = |parts: &[NamePart], em: f64, most: usize| -> Vec<(String, f64)> {
        let measure = |t: &str| text_width(t, em);
        let shorten = |t: &str, width: f64| fit(t, em, width);
        wrap_lines(parts, (most, room), &measure, &shorten)
            .into_iter()
            .map(|line| (line, em))
            .collect()
    };
    let mut header = lines(&words(title, " "), pt(LABEL_PT), TITLE_LINES);
    header.extend(lines(&words(subtitle, ", "), pt(TICK_PT), SUBTITLE_LINES));
    header
}

fn legend_metrics() -> Metrics {
    Metrics {
        em: pt(LEGEND_PT),
        handle: pt(2.0 * LEGEND_PT),
        marker_radius: marker_radius(),
        line_width: pt(1.5).round() as u32,
    }
}

/// The legend: an entry a colour, named by its group's label, then the
/// style key (each side's name in its style) when the chart has more than
/// one style or no named colour; with a key, a colour's entry is a patch
/// (it stands for every side), else a line in its one style. Like
/// matplotlib, labels that are empty or start with `_` stay out.
fn legend_entries(series: &[PreparedSeries<'_>]) -> Vec<Vec<Entry>> {
    let mut groups: Vec<usize> = Vec::new();
    let mut sides: Vec<(&str, usize)> = Vec::new();
    for s in series {
        if !groups.contains(&s.group) {
            groups.push(s.group);
        }
        if !sides.iter().any(|(_, style)| *style == s.style) {
            sides.push((s.side, s.style));
        }
    }
    let named = |label: &str| !label.is_empty() && !label.starts_with('_');
    let firsts: Vec<&PreparedSeries> = groups
        .iter()
        .filter_map(|group| series.iter().find(|s| s.group == *group))
        .filter(|s| named(s.label))
        .collect();
    let show_sides = sides.len() > 1 || firsts.is_empty();
    let entries: Vec<Entry> = firsts
        .into_iter()
        .map(|s| match show_sides {
            true => Entry::patch(s.label, s.color),
            false => Entry::line(s.label, s.color, side_style(s.style)),
        })
        .collect();
    let whiskers = series
        .iter()
        .any(|s| s.points.iter().any(|p| p.range.is_some()));
    let keyed: Vec<(&str, LineStyle)> = sides
        .iter()
        .filter(|(name, _)| show_sides && named(name))
        .map(|(name, style)| (*name, side_style(*style)))
        .collect();
    vec![entries, legend::style_key(&keyed, whiskers)]
}

struct AlongChart<'a> {
    /// Title and subtitle lines, each with its font size.
    header: Vec<(String, f64)>,
    axis: AlongAxis<'a>,
    series: Vec<PreparedSeries<'a>>,
    legend: Layout,
}

/// A series ready to draw: usable points sorted by axis value, with the
/// colour of its group.
struct PreparedSeries<'a> {
    label: &'a str,
    side: &'a str,
    style: usize,
    /// Position of its group among the groups drawn (its colour).
    group: usize,
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

/// Series with usable points; colours go through the palette by group, in
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
            side: &s.side,
            style: s.style,
            group: index,
            color: group_color(index),
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

/// Line width and marker radius of matplotlib's defaults in seaborn's
/// notebook context (1.5 pt lines, 6 pt markers).
fn line_style(color: RGBColor) -> ShapeStyle {
    color.stroke_width(pt(1.5).round() as u32)
}
fn marker_radius() -> i32 {
    pt(3.0).round() as i32
}

impl Chart for AlongChart<'_> {
    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Result<(), String> {
        let theme = Theme::darkgrid();
        drawn(c.area.fill(&theme.background))?;
        let series = &self.series;
        let bands: Vec<Vec<Vec<(f64, f64)>>> =
            series.iter().map(|s| noise_bands(&s.points)).collect();
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
        let times = series.iter().flat_map(|s| s.points.iter().map(|p| p.time));
        let band_edges = bands.iter().flatten().flatten().map(|&(_, t)| t);
        let range_ends = series
            .iter()
            .flat_map(|s| s.points.iter().filter_map(|p| p.range))
            .flat_map(|(a, b)| [a, b]);
        let x_range = log_limits(xs);
        let y_range = log_limits(times.chain(band_edges).chain(range_ends));
        let x_ticks = if self.axis.pow2 {
            pow2_ticks(x_range.0, x_range.1)
        } else {
            log_ticks(x_range.0, x_range.1)
        };
        let y_ticks = log_ticks(y_range.0, y_range.1);

        let margin = margin();
        let header = c.header(&self.header, margin, theme.foreground)?;
        let (_, body) = c.area.split_vertically((margin + header).round() as i32);
        let legend_top = c.area.dim_in_pixel().1 as f64 - self.legend.height() - margin / 2.0;
        let body_height = (legend_top - margin - header).round().max(1.0) as i32;
        let (body, _) = body.split_vertically(body_height);
        let mut chart = self.build(&body, c, &theme, (x_range, &x_ticks), (y_range, &y_ticks))?;
        // Bands first: matplotlib draws filled areas below all lines.
        for (s, runs) in series.iter().zip(&bands) {
            let polygons = runs
                .iter()
                .map(|band| Polygon::new(band.clone(), s.color.mix(0.1)));
            drawn(chart.draw_series(polygons))?;
        }
        for s in series {
            draw_series(c, &mut chart, s)?;
        }
        for s in series {
            draw_whiskers(c, &chart, s)?;
        }
        let width = c.width - 2.0 * margin;
        self.legend
            .draw(c, (margin, legend_top), width, theme.foreground)
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
        area: &'a DrawingArea<DB, Shift>,
        c: &Canvas<'_, DB>,
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
        let mut builder = ChartBuilder::on(area);
        builder
            .margin(margin() as u32)
            .margin_top(0)
            .margin_bottom(0)
            .x_label_area_size((tick_gap + 1.4 * tick_em + 1.6 * label_em) as u32)
            .y_label_area_size((tick_gap + widest_y_label + 1.8 * label_em) as u32);
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

/// A series' markers and its line, in its side's style; the markers are
/// drawn in backend pixels on the canvas.
fn draw_series<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    chart: &mut ChartContext<'_, DB, LogLog>,
    s: &PreparedSeries<'_>,
) -> Result<(), String> {
    let points: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.time)).collect();
    let look = side_style(s.style);
    for p in &points {
        let at = chart.backend_coord(p);
        draw_marker(c.area, look.marker, at, marker_radius(), s.color)?;
    }
    let style = line_style(s.color);
    if let Some((size, gap)) = dash_pattern(look.dash) {
        drawn(chart.draw_series(DashedLineSeries::new(points, size, gap, style)))?;
    } else {
        drawn(chart.draw_series(LineSeries::new(points, style)))?;
    }
    Ok(())
}

/// Repetition mode: a whisker over each point's hull, with caps, just left
/// of the marker for a reference series and right of it for a compare
/// series, so that neither the marker nor the other side's whisker hides
/// it (a hull of a few percent is only a few pixels tall on a log axis).
/// Drawn in backend pixels on the canvas.
fn draw_whiskers<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    chart: &ChartContext<'_, DB, LogLog>,
    s: &PreparedSeries<'_>,
) -> Result<(), String> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let offset = if s.style == 0 { -1 } else { 1 } * (marker_radius() + 4);
    let cap = 3;
    let style = s.color.stroke_width(pt(1.0).round() as u32);
    for p in &s.points {
        let Some((low, high)) = p.range.filter(|(a, b)| positive(*a) && positive(*b)) else {
            continue;
        };
        let (x, top) = chart.backend_coord(&(p.x, low.max(high)));
        let (_, bottom) = chart.backend_coord(&(p.x, low.min(high)));
        let x = x + offset;
        let lines = [
            vec![(x, top), (x, bottom)],
            vec![(x - cap, top), (x + cap, top)],
            vec![(x - cap, bottom), (x + cap, bottom)],
        ];
        for line in lines {
            drawn(c.area.draw(&PathElement::new(line, style)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rendering::charts::legend::Handle;

    fn p(x: f64, noise: Option<f64>) -> AlongPoint {
        AlongPoint {
            x,
            time: 1e-3 * x,
            noise,
            range: None,
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

    /// A series of side `style` (0 the reference) in group `group`.
    fn series(label: &str, style: usize, group: usize, points: Vec<AlongPoint>) -> AlongSeries {
        let side = match style {
            0 => legend::REFERENCE_KEY.to_string(),
            1 => legend::COMPARE_KEY.to_string(),
            n => format!("candidate {n}"),
        };
        AlongSeries {
            label: label.into(),
            side,
            style,
            group,
            points,
        }
    }

    #[test]
    fn series_of_a_group_share_a_colour() {
        let input = vec![
            series("empty", 1, 0, vec![]),
            series("empty", 0, 0, vec![]),
            series(
                "a",
                1,
                1,
                vec![p(2.0, None), p(1.0, None), p(2.0, Some(0.5))],
            ),
            series("a", 0, 1, vec![p(1.0, None)]),
            series("b", 1, 2, vec![p(1.0, None)]),
        ];
        let prepared = prepare_series(&input);
        let colors: Vec<RGBColor> = prepared.iter().map(|s| s.color).collect();
        assert_eq!(colors, vec![group_color(0), group_color(0), group_color(1)]);
        assert_eq!(prepared[1].style, 0);
        assert_eq!(prepared[0].points.len(), 2, "sorted, last of equal x kept");
        assert_eq!(prepared[0].points[1].noise, Some(0.5));
    }

    /// Four types on three sides (an N-way chart with two candidates), as
    /// the example draws them: twelve series, no two alike.
    #[test]
    fn every_series_of_an_nway_chart_has_its_own_colour_and_style() {
        let types = ["T = I8", "T = I16", "T = F32", "T = F64"];
        let input: Vec<AlongSeries> = types
            .iter()
            .enumerate()
            .flat_map(|(group, t)| {
                (0..3).map(move |side| series(t, side, group, vec![p(1.0, None), p(2.0, None)]))
            })
            .collect();
        let prepared = prepare_series(&input);
        let looks: std::collections::HashSet<_> = prepared
            .iter()
            .map(|s| ((s.color.0, s.color.1, s.color.2), side_style(s.style)))
            .collect();
        assert_eq!(looks.len(), 12);
        let entries = legend_entries(&prepared);
        let texts: Vec<&str> = entries[0].iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, types, "a colour a type, named once");
        let key: Vec<&str> = entries[1].iter().map(|e| e.text.as_str()).collect();
        assert_eq!(key, ["reference", "compare", "candidate 2"]);
        let handles: std::collections::HashSet<_> = entries[1].iter().map(|e| e.handle).collect();
        assert_eq!(handles.len(), 3, "each side its own line in the key");
    }

    #[test]
    fn legend_names_colours_once_and_keys_the_line_styles() {
        let texts = |input: &[AlongSeries]| -> Vec<Vec<String>> {
            legend_entries(&prepare_series(input))
                .into_iter()
                .map(|section| section.into_iter().map(|e| e.text).collect())
                .collect()
        };
        let two = || vec![p(1.0, None), p(2.0, None)];
        let pair = [
            series("T = F32", 1, 0, two()),
            series("T = F32", 0, 0, two()),
            series("T = F64", 1, 1, two()),
            series("T = F64", 0, 1, two()),
        ];
        assert_eq!(
            texts(&pair),
            vec![vec!["T = F32", "T = F64"], vec!["compare", "reference"]]
        );
        // One side only: the colours in its style, no key.
        let one_side = [
            series("T = F32", 1, 0, two()),
            series("T = F64", 1, 1, two()),
        ];
        let entries = legend_entries(&prepare_series(&one_side));
        assert_eq!(entries[0][0].handle, Handle::Line(side_style(1)));
        assert!(entries[1].is_empty(), "no style key: one style");
        // No named colour: the key still names the sides.
        let unnamed = [series("", 1, 0, two()), series("", 0, 0, two())];
        assert_eq!(texts(&unnamed), vec![vec![], vec!["compare", "reference"]]);
        let mut whiskered = pair.to_vec();
        whiskered[0].points[0].range = Some((0.9e-3, 1.1e-3));
        assert_eq!(texts(&whiskered)[1].last().unwrap(), legend::RANGE_KEY);
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
