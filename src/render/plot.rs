//! Chart output for `--plot` and `--plot-along`.
//!
//! Two charts, drawn without any display or system font library so that they
//! work from a terminal and in CI:
//!
//! * the *summary chart* (`--plot`): one horizontal bar per displayed row with
//!   the fractional change of the timing center, colored by status, like the
//!   reference's matplotlib `barh` figure;
//! * the *along chart* (`--plot-along AXIS`): log-log time against a numeric
//!   axis for one benchmark and device pair, one solid line per compare series
//!   and one dashed line per reference series, with translucent noise bands,
//!   like the reference's seaborn-styled `plt.plot` figure.
//!
//! The image format follows the output file's extension (`.png` or `.svg`).
//! Text is drawn with DejaVu Sans, embedded in the binary
//! (`assets/fonts/DejaVuSans.ttf`, license in `DejaVuSans-LICENSE.txt`).
//!
//! Besides drawing, this module owns the plot-related command-line rules that
//! upstream NVBench (`main`, `_nvbench_compare_plotting.py`) defines: option
//! validation, `--plot-along-output` templates, output de-duplication and the
//! `--plot-along` axis checks. Every message is returned, never printed, so
//! the caller decides between stdout and stderr.
//!
//! Sizes follow matplotlib at 150 dpi: the summary chart is 10 inches wide and
//! `max(4, 0.3 * rows + 1.5)` inches high, the along chart 6.4 x 4.8 inches.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use crate::pyfmt::{parse_py_float, str_repr};
use plotters::coord::Shift;
use plotters::element::{Circle, PathElement, Polygon, Rectangle};
use plotters::prelude::{BitMapBackend, DrawingArea, DrawingBackend, IntoDrawingArea, SVGBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    Color, FontStyle, FontTransform, IntoFont, RGBAColor, RGBColor, ShapeStyle, TextStyle,
};

// ---------------------------------------------------------------------------
// Public data and constants
// ---------------------------------------------------------------------------

/// Title of the summary chart before any device or filter suffix.
pub const SUMMARY_TITLE: &str = "%SOL Bandwidth change";
/// Where the summary chart goes when no `--plot-output` is given (the
/// reference's file name in a session without a display).
pub const DEFAULT_SUMMARY_OUTPUT: &str = "nvbench_compare.png";
/// What the reference prints when `--plot` finds no row to draw.
pub const NO_SUMMARY_DATA: &str = "No comparison data to plot.";

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

/// One line of an along chart.
#[derive(Debug, Clone, PartialEq)]
pub struct AlongSeries {
    /// Legend text, shown verbatim (upstream appends ` ref` to reference series).
    pub label: String,
    /// Reference series are dashed, compare series solid.
    pub reference: bool,
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

/// Image format, chosen from the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Svg,
}

impl ImageFormat {
    /// The format for `path`, case-insensitively from its extension. The
    /// error names the offending format the way matplotlib's `savefig` does.
    pub fn from_path(path: &Path) -> Result<Self, String> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        match python_suffix(&name).map(|ext| ext.to_ascii_lowercase()) {
            Some(ext) if ext == "png" => Ok(ImageFormat::Png),
            Some(ext) if ext == "svg" => Ok(ImageFormat::Svg),
            Some(ext) => Err(format!(
                "Format '{ext}' is not supported (supported formats: png, svg)"
            )),
            None => Err(
                "the file name has no extension to choose the image format from \
                 (supported formats: png, svg)"
                    .to_string(),
            ),
        }
    }
}

/// Which chart a message or an output path is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlotKind {
    Summary,
    Along,
}

impl PlotKind {
    /// Name used in `Saved ... to` and `failed to write ... to` messages.
    fn saved_name(self) -> &'static str {
        match self {
            PlotKind::Summary => "comparison plot",
            PlotKind::Along => "plot-along output",
        }
    }

    /// Name used in the de-duplication warning.
    fn output_name(self) -> &'static str {
        match self {
            PlotKind::Summary => "comparison plot",
            PlotKind::Along => "plot-along",
        }
    }
}

// ---------------------------------------------------------------------------
// Titles, options and paths (upstream `main` rules and wording)
// ---------------------------------------------------------------------------

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

/// Checks the plot options before any comparison work, in upstream `main`'s
/// order; the first failure is returned with upstream's text (upstream prints
/// it and exits with status 1). `plot_along` is `Some("")` for an empty
/// `--plot-along ""`.
pub fn validate_plot_options(
    plot: bool,
    plot_output: Option<&str>,
    plot_along: Option<&str>,
    plot_along_output: Option<&str>,
) -> Result<(), String> {
    if plot_output.is_some() && !plot {
        return Err("--plot-output requires --plot".to_string());
    }
    if plot_along_output.is_some() && plot_along.is_none() {
        return Err("--plot-along-output requires --plot-along".to_string());
    }
    if plot_along == Some("") {
        return Err("--plot-along requires a non-empty axis name".to_string());
    }
    if let Some(template) = plot_along_output {
        validate_along_template(template)?;
    }
    // Upstream also refuses to show one chart interactively while saving the
    // other; this tool never shows charts (every chart is written to a file),
    // so there is nothing to mix.
    Ok(())
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

/// Expands a `--plot-along-output` template for one chart. The fields
/// `{benchmark}`, `{device}` (compare device id), `{axis}` and `{pair}`
/// (position of the device pair in the benchmark) are sanitized so that a
/// name cannot leave the template's directory; `{{`/`}}` are literal braces.
pub fn along_output_path(
    template: &str,
    benchmark: &str,
    device_id: i64,
    axis: &str,
    pair: usize,
) -> Result<String, String> {
    let pieces = checked_template(template)?;
    let mut out = String::new();
    for piece in pieces {
        match piece {
            TemplatePiece::Literal(text) => out.push_str(&text),
            TemplatePiece::Field(name) => out.push_str(&match name.as_str() {
                "benchmark" => sanitize_component(benchmark),
                "device" => sanitize_component(&device_id.to_string()),
                "axis" => sanitize_component(axis),
                _ => sanitize_component(&pair.to_string()),
            }),
        }
    }
    Ok(out)
}

/// Output paths already written in this run, so that a second chart aimed at
/// the same file gets a `-copy-N` name instead of overwriting the first.
#[derive(Debug, Default)]
pub struct OutputPaths {
    claimed: HashSet<PathBuf>,
}

impl OutputPaths {
    pub fn new() -> Self {
        Self::default()
    }

    /// The path to write for a requested output and, when that path was
    /// already used in this run, the warning upstream prints on stderr. A
    /// file left from an earlier run is overwritten on first use; `-copy-N`
    /// names skip files that exist.
    pub fn claim(&mut self, requested: &str, kind: PlotKind) -> (String, Option<String>) {
        if self.claimed.insert(absolute(Path::new(requested))) {
            return (requested.to_string(), None);
        }
        let original = Path::new(requested);
        // The bound only guards against a pathological directory; a free name
        // is normally found within a handful of tries.
        for counter in 1..=1_000_000u32 {
            let candidate = with_copy_suffix(original, counter);
            let key = absolute(&candidate);
            if !self.claimed.contains(&key) && !candidate.exists() {
                self.claimed.insert(key);
                let resolved = candidate.to_string_lossy().into_owned();
                let warning = format!(
                    "Warning: {} output {} is unavailable; writing to {} instead.",
                    kind.output_name(),
                    str_repr(requested),
                    str_repr(&resolved)
                );
                return (resolved, Some(warning));
            }
        }
        (requested.to_string(), None)
    }
}

// ---------------------------------------------------------------------------
// Rendering entry points
// ---------------------------------------------------------------------------

/// Draws the summary chart into `path` (parent directories are created).
/// Returns the `Saved comparison plot to PATH` line, or the
/// `failed to write comparison plot to 'PATH': ...` error. Zero entries give
/// an empty chart; the caller prints [`NO_SUMMARY_DATA`] instead, as upstream.
pub fn render_summary_chart(
    entries: &[SummaryEntry],
    title: &str,
    dark: bool,
    path: &Path,
) -> Result<String, String> {
    let chart = SummaryChart {
        entries,
        title,
        dark,
    };
    save_chart(
        &chart,
        summary_canvas_size(entries.len()),
        path,
        PlotKind::Summary,
    )
}

/// Draws one along chart (log-log, time [s] against `axis_name`, `title` on
/// top, normally the compare device's name) into `path`. Returns the
/// `Saved plot-along output to PATH` line or the
/// `failed to write plot-along output to 'PATH': ...` error.
pub fn render_along_chart(
    title: &str,
    axis_name: &str,
    series: &[AlongSeries],
    path: &Path,
) -> Result<String, String> {
    let chart = AlongChart {
        title,
        axis_name,
        series,
    };
    save_chart(&chart, ALONG_CANVAS, path, PlotKind::Along)
}

// ---------------------------------------------------------------------------
// Saving
// ---------------------------------------------------------------------------

const DPI: f64 = 150.0;
/// Caps the summary chart's height so that a huge comparison cannot ask for
/// gigabytes of pixels; rows get thinner past this point instead.
const MAX_CANVAS_HEIGHT: u32 = 16_000;
const SUMMARY_WIDTH: u32 = 1500;
const ALONG_CANVAS: (u32, u32) = (960, 720);

/// Points (1/72 inch) to pixels at the output resolution.
fn pt(points: f64) -> f64 {
    points * DPI / 72.0
}

fn summary_canvas_size(rows: usize) -> (u32, u32) {
    let inches = (0.3 * rows as f64 + 1.5).max(4.0);
    let height = (inches * DPI).round().min(MAX_CANVAS_HEIGHT as f64) as u32;
    (SUMMARY_WIDTH, height)
}

/// A chart that can draw itself on any plotters backend.
trait Chart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String>;
}

fn save_chart<C: Chart>(
    chart: &C,
    size: (u32, u32),
    path: &Path,
    kind: PlotKind,
) -> Result<String, String> {
    let shown = path.to_string_lossy();
    let fail = |reason: String| {
        format!(
            "failed to write {} to {}: {reason}",
            kind.saved_name(),
            str_repr(&shown)
        )
    };
    // Checked before touching the file system so a bad name leaves nothing behind.
    let format = ImageFormat::from_path(path).map_err(fail)?;
    ensure_parent(path).map_err(fail)?;
    let bytes = match format {
        ImageFormat::Png => png_bytes(chart, size),
        ImageFormat::Svg => svg_bytes(chart, size),
    }
    .map_err(fail)?;
    crate::atomic::write_file(path, &bytes).map_err(|e| fail(python_os_error(&e, path)))?;
    Ok(format!("Saved {} to {shown}", kind.saved_name()))
}

fn ensure_parent(path: &Path) -> Result<(), String> {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => {
            fs::create_dir_all(parent).map_err(|e| python_os_error(&e, parent))
        }
        _ => Ok(()),
    }
}

fn png_bytes<C: Chart>(chart: &C, (width, height): (u32, u32)) -> Result<Vec<u8>, String> {
    let mut pixels = vec![0u8; width as usize * height as usize * 3];
    {
        let backend = BitMapBackend::with_buffer(&mut pixels, (width, height));
        let area = backend.into_drawing_area();
        chart.draw(&Canvas::new(&area, Flavor::Bitmap)?)?;
        area.present().map_err(|e| e.to_string())?;
    }
    encode_png(&pixels, width, height).map_err(|e| e.to_string())
}

fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // Charts are mostly flat color, so the "up" filter with the fastest
    // deflate stays small while encoding tall summaries many times quicker
    // than the default adaptive filtering (which dominates debug builds).
    encoder.set_compression(png::Compression::Fastest);
    // Record the 150 dpi so viewers and documents size the chart like
    // matplotlib's output (pixels per metre).
    let per_metre = (DPI / 0.0254).round() as u32;
    encoder.set_pixel_dims(Some(png::PixelDimensions {
        xppu: per_metre,
        yppu: per_metre,
        unit: png::Unit::Meter,
    }));
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(out)
}

fn svg_bytes<C: Chart>(chart: &C, size: (u32, u32)) -> Result<Vec<u8>, String> {
    let mut svg = String::new();
    {
        let backend = SVGBackend::with_string(&mut svg, size);
        let area = backend.into_drawing_area();
        chart.draw(&Canvas::new(&area, Flavor::Svg)?)?;
        area.present().map_err(|e| e.to_string())?;
    }
    Ok(svg.into_bytes())
}

// ---------------------------------------------------------------------------
// Canvas: pixel-space drawing with text placed by its visible glyphs
// ---------------------------------------------------------------------------

const FONT_FAMILY: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/DejaVuSans.ttf"
));

// DejaVu Sans metrics in ems: ab_glyph scales a font so that ascent minus
// descent equals the requested size, which for DejaVu is 1.164 em.
const GLYPH_HEIGHT_EM: f64 = 1.164;
const CAP_HEIGHT_EM: f64 = 0.729;
const MINUS: char = '\u{2212}';

fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err("the embedded chart font could not be loaded".to_string())
    }
}

/// The two backends place text differently: the bitmap backend puts the
/// baseline half a font size below a top anchor, the SVG backend uses
/// `dy="0.76em"` with `font-size = size / 1.24`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    Bitmap,
    Svg,
}

impl Flavor {
    /// plotters' font size that renders an em of `em` pixels.
    fn font_size(self, em: f64) -> f64 {
        match self {
            Flavor::Bitmap => em * GLYPH_HEIGHT_EM,
            Flavor::Svg => em * 1.24,
        }
    }

    /// Distance from a top anchor to the baseline.
    fn top_to_baseline(self, em: f64) -> f64 {
        match self {
            Flavor::Bitmap => 0.5 * em * GLYPH_HEIGHT_EM,
            Flavor::Svg => 0.76 * em,
        }
    }
}

/// Vertical placement of a text line.
#[derive(Debug, Clone, Copy)]
enum VAlign {
    /// `y` is the top of the capital letters.
    CapTop,
    /// `y` is the middle of the capital letters.
    CapCenter,
    /// `y` is the baseline.
    Baseline,
}

struct Canvas<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    flavor: Flavor,
    width: f64,
    height: f64,
}

/// Keeps pixel coordinates in a range where plotters' integer arithmetic
/// cannot overflow, whatever the data (NaN lands on 0).
fn px(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-100_000.0, 100_000.0) as i32
    } else {
        0
    }
}

fn rgba(color: RGBColor, alpha: f64) -> RGBAColor {
    color.mix(alpha)
}

impl<'a, DB: DrawingBackend> Canvas<'a, DB> {
    fn new(area: &'a DrawingArea<DB, Shift>, flavor: Flavor) -> Result<Self, String> {
        register_font()?;
        let (w, h) = area.dim_in_pixel();
        Ok(Self {
            area,
            flavor,
            width: w as f64,
            height: h as f64,
        })
    }

    fn fill(&self, color: RGBColor) -> Result<(), String> {
        self.area.fill(&color).map_err(|e| e.to_string())
    }

    /// Width of `text` in pixels; measured with the real glyph advances on
    /// both backends because an SVG viewer renders the same font.
    fn text_width(&self, text: &str, em: f64) -> f64 {
        if text.is_empty() {
            return 0.0;
        }
        let style: TextStyle = (FONT_FAMILY, em * GLYPH_HEIGHT_EM).into_font().into();
        match self.area.estimate_text_size(text, &style) {
            Ok((w, _)) => w as f64,
            Err(_) => 0.6 * em * text.chars().count() as f64,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn text(
        &self,
        text: &str,
        x: f64,
        y: f64,
        em: f64,
        color: RGBAColor,
        h: HPos,
        v: VAlign,
    ) -> Result<(), String> {
        if text.is_empty() || !em.is_finite() || em <= 0.0 {
            return Ok(());
        }
        let baseline = match v {
            VAlign::CapTop => y + CAP_HEIGHT_EM * em,
            VAlign::CapCenter => y + 0.5 * CAP_HEIGHT_EM * em,
            VAlign::Baseline => y,
        };
        let top = baseline - self.flavor.top_to_baseline(em);
        let style = (FONT_FAMILY, self.flavor.font_size(em))
            .into_font()
            .color(&color)
            .pos(Pos::new(h, VPos::Top));
        self.area
            .draw_text(text, &style, (px(x), px(top)))
            .map_err(|e| e.to_string())
    }

    /// Text reading bottom to top, centered on `y`, with the tops of its
    /// glyphs on the vertical line `x` (a y-axis label).
    fn vertical_text(
        &self,
        text: &str,
        x: f64,
        y: f64,
        em: f64,
        color: RGBAColor,
    ) -> Result<(), String> {
        if text.is_empty() {
            return Ok(());
        }
        // After the rotation the glyphs' "down" points right, so the
        // baseline sits right of `x` by the cap height.
        let baseline = x + CAP_HEIGHT_EM * em;
        let top = baseline - self.flavor.top_to_baseline(em);
        let style = (FONT_FAMILY, self.flavor.font_size(em))
            .into_font()
            .color(&color)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        self.area
            .draw_text(text, &style, (px(top), px(y)))
            .map_err(|e| e.to_string())
    }

    fn rect(&self, x0: f64, y0: f64, x1: f64, y1: f64, color: RGBAColor) -> Result<(), String> {
        let (l, r) = (px(x0.min(x1)), px(x0.max(x1)));
        let (t, b) = (px(y0.min(y1)), px(y0.max(y1)));
        let style = ShapeStyle {
            color,
            filled: true,
            stroke_width: 0,
        };
        self.area
            .draw(&Rectangle::new(
                [(l, t), (r.max(l + 1), b.max(t + 1))],
                style,
            ))
            .map_err(|e| e.to_string())
    }

    fn polyline(&self, points: &[(f64, f64)], color: RGBAColor, width: u32) -> Result<(), String> {
        if points.len() < 2 {
            return Ok(());
        }
        let pixels: Vec<(i32, i32)> = points.iter().map(|&(x, y)| (px(x), px(y))).collect();
        let style = ShapeStyle {
            color,
            filled: false,
            stroke_width: width,
        };
        self.area
            .draw(&PathElement::new(pixels, style))
            .map_err(|e| e.to_string())
    }

    fn line(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        color: RGBAColor,
        width: u32,
    ) -> Result<(), String> {
        self.polyline(&[from, to], color, width)
    }

    fn polygon(&self, points: &[(f64, f64)], color: RGBAColor) -> Result<(), String> {
        if points.len() < 3 {
            return Ok(());
        }
        let pixels: Vec<(i32, i32)> = points.iter().map(|&(x, y)| (px(x), px(y))).collect();
        self.area
            .draw(&Polygon::new(pixels, color.filled()))
            .map_err(|e| e.to_string())
    }

    fn dot(&self, x: f64, y: f64, radius: f64, color: RGBAColor) -> Result<(), String> {
        let r = radius.clamp(1.0, 1000.0).round() as i32;
        self.area
            .draw(&Circle::new((px(x), px(y)), r, color.filled()))
            .map_err(|e| e.to_string())
    }

    /// Shortens `text` with an ellipsis until it fits `max_width` pixels.
    fn fit(&self, text: &str, em: f64, max_width: f64) -> String {
        if self.text_width(text, em) <= max_width {
            return text.to_string();
        }
        let chars: Vec<char> = text.chars().collect();
        let (mut keep, mut step) = (0usize, chars.len());
        // Largest prefix that still fits, by binary search on its length.
        while step > 0 {
            let next = keep + step;
            let candidate: String = chars[..next.min(chars.len())]
                .iter()
                .chain(['…'].iter())
                .collect();
            if next < chars.len() && self.text_width(&candidate, em) <= max_width {
                keep = next;
            } else {
                step /= 2;
            }
        }
        chars[..keep].iter().chain(['…'].iter()).collect()
    }
}

/// Area of the canvas that holds the data.
#[derive(Debug, Clone, Copy)]
struct PlotRect {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl PlotRect {
    fn width(&self) -> f64 {
        self.right - self.left
    }
    fn height(&self) -> f64 {
        self.bottom - self.top
    }
    fn center_x(&self) -> f64 {
        (self.left + self.right) / 2.0
    }
    fn center_y(&self) -> f64 {
        (self.top + self.bottom) / 2.0
    }
    fn contains(&self, (x, y): (f64, f64)) -> bool {
        x >= self.left && x <= self.right && y >= self.top && y <= self.bottom
    }
}

/// Linear map from `[lo, hi]` onto `[p0, p1]`.
fn lerp(v: f64, lo: f64, hi: f64, p0: f64, p1: f64) -> f64 {
    if hi > lo {
        p0 + (v - lo) / (hi - lo) * (p1 - p0)
    } else {
        (p0 + p1) / 2.0
    }
}

fn draw_frame<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    r: PlotRect,
    color: RGBAColor,
    width: u32,
) -> Result<(), String> {
    let corners = [
        (r.left, r.top),
        (r.right, r.top),
        (r.right, r.bottom),
        (r.left, r.bottom),
        (r.left, r.top),
    ];
    c.polyline(&corners, color, width)
}

/// Title centered over the plot, kept inside the canvas when it is long.
fn draw_title<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    title: &str,
    r: PlotRect,
    em: f64,
    color: RGBAColor,
) -> Result<(), String> {
    let margin = pt(8.0);
    let text = c.fit(title, em, c.width - 2.0 * margin);
    let half = c.text_width(&text, em) / 2.0;
    let x = r
        .center_x()
        .clamp(margin + half, (c.width - margin - half).max(margin + half));
    c.text(
        &text,
        x,
        r.top - pt(6.0),
        em,
        color,
        HPos::Center,
        VAlign::Baseline,
    )
}

// ---------------------------------------------------------------------------
// Tick placement and labels
// ---------------------------------------------------------------------------

/// Evenly spaced "nice" ticks (steps of 1, 2, 2.5 or 5 times a power of ten)
/// inside `[lo, hi]`, at most `max_bins` intervals, like matplotlib's
/// MaxNLocator.
fn nice_ticks(lo: f64, hi: f64, max_bins: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let raw = (hi - lo) / max_bins.clamp(1, 9) as f64;
    let exponent = raw.log10().floor();
    if !exponent.is_finite() || exponent.abs() > 300.0 {
        return Vec::new();
    }
    let magnitude = 10f64.powi(exponent as i32);
    let mantissa = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .find(|m| m * magnitude >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0);
    let step = mantissa * magnitude;
    let first = (lo / step - 1e-9).ceil();
    let last = (hi / step + 1e-9).floor();
    if !(first.is_finite() && last.is_finite()) || last - first > 50.0 {
        return Vec::new();
    }
    // Dividing by an exact power of ten keeps 3 x 0.05 at 0.15 rather than
    // 0.15000000000000002.
    let value = |k: f64| {
        if exponent < 0.0 {
            k * mantissa / 10f64.powi(-exponent as i32)
        } else {
            k * mantissa * magnitude
        }
    };
    let mut ticks = Vec::new();
    let mut k = first;
    while k <= last {
        ticks.push(if k == 0.0 { 0.0 } else { value(k) });
        k += 1.0;
    }
    ticks
}

/// Matplotlib's `PercentFormatter(1.0)`: the decimals follow the visible
/// range, and negative numbers use a real minus sign.
fn percent_labels(ticks: &[f64], view_range: f64) -> Vec<String> {
    let scaled = view_range.abs() * 100.0;
    let decimals = if scaled > 0.0 && scaled.is_finite() {
        (2.0 - (2.0 * scaled).log10()).ceil().clamp(0.0, 5.0) as usize
    } else {
        0
    };
    ticks
        .iter()
        .map(|t| {
            let percent = t * 100.0;
            // Astronomic changes would print hundreds of digits.
            let text = if percent.abs() >= 1e9 {
                format!("{percent:.2e}%")
            } else {
                format!("{:.*}%", decimals, percent)
            };
            // A tick that rounds to zero must not show as "-0.0%".
            let text = if text.starts_with('-')
                && text[1..].chars().all(|c| c == '0' || c == '.' || c == '%')
            {
                text[1..].to_string()
            } else {
                text
            };
            text.replace('-', &MINUS.to_string())
        })
        .collect()
}

/// A log-axis tick label: `10^exponent` or `mantissa×10^exponent`.
#[derive(Debug, Clone, PartialEq)]
struct SciLabel {
    mantissa: Option<String>,
    exponent: i32,
}

impl SciLabel {
    fn base(&self) -> String {
        match &self.mantissa {
            Some(m) => format!("{m}\u{d7}10"),
            None => "10".to_string(),
        }
    }
    fn power(&self) -> String {
        self.exponent.to_string().replace('-', &MINUS.to_string())
    }
    /// Plain text, for tests and debugging.
    #[cfg(test)]
    fn plain(&self) -> String {
        format!("{}^{}", self.base(), self.exponent)
    }
}

/// Ticks of a log axis over `[lo10, hi10]` (base-10 logarithms), as
/// `(log10 position, label)`: decades when at least two are visible, else
/// labelled multiples of a decade, else evenly spaced values.
fn log_ticks(lo10: f64, hi10: f64) -> Vec<(f64, SciLabel)> {
    if !(lo10.is_finite() && hi10.is_finite() && hi10 > lo10) {
        return Vec::new();
    }
    let (lo10, hi10) = (lo10.max(-400.0), hi10.min(400.0));
    let first = lo10.ceil() as i32;
    let last = hi10.floor() as i32;
    if last - first >= 1 {
        let stride = ((last - first + 1) as f64 / 8.0).ceil().max(1.0) as i32;
        return (first..=last)
            .filter(|k| k.rem_euclid(stride) == 0)
            .map(|k| {
                (
                    k as f64,
                    SciLabel {
                        mantissa: None,
                        exponent: k,
                    },
                )
            })
            .collect();
    }
    // matplotlib labels every multiple on short ranges and 1, 2, 3, 4, 6
    // up to a decade; 1-2-5 covers the remaining single-decade case.
    let span = hi10 - lo10;
    let mantissas: &[u32] = if span <= 0.4 {
        &[1, 2, 3, 4, 5, 6, 7, 8, 9]
    } else if span <= 1.0 {
        &[1, 2, 3, 4, 6]
    } else {
        &[1, 2, 5]
    };
    let mut ticks = Vec::new();
    for k in (lo10.floor() as i32)..=(hi10.ceil() as i32) {
        for &m in mantissas {
            let pos = k as f64 + (m as f64).log10();
            if pos >= lo10 - 1e-12 && pos <= hi10 + 1e-12 {
                let mantissa = (m != 1).then(|| m.to_string());
                ticks.push((
                    pos,
                    SciLabel {
                        mantissa,
                        exponent: k,
                    },
                ));
            }
        }
    }
    if ticks.len() >= 2 {
        ticks
    } else {
        linear_log_ticks(lo10, hi10)
    }
}

/// Evenly spaced ticks for a log axis shorter than the gap between two
/// 1-2-5 multiples, labelled in scientific notation.
fn linear_log_ticks(lo10: f64, hi10: f64) -> Vec<(f64, SciLabel)> {
    let (lo, hi) = (10f64.powf(lo10), 10f64.powf(hi10));
    let ticks = nice_ticks(lo, hi, 5);
    let Some(step) = ticks.windows(2).map(|w| w[1] - w[0]).next() else {
        return Vec::new();
    };
    let exponent = hi.log10().floor() as i32;
    let scale = 10f64.powi(exponent);
    // Enough decimals to tell neighbouring ticks apart.
    let decimals = ((scale / step).log10().ceil().max(0.0) as usize).min(6);
    ticks
        .into_iter()
        .filter(|v| *v > 0.0)
        .map(|v| {
            let mantissa = format!("{:.*}", decimals, v / scale);
            (
                v.log10(),
                SciLabel {
                    mantissa: Some(mantissa),
                    exponent,
                },
            )
        })
        .collect()
}

fn sci_label_size<DB: DrawingBackend>(c: &Canvas<'_, DB>, label: &SciLabel, em: f64) -> (f64, f64) {
    (
        c.text_width(&label.base(), em),
        c.text_width(&label.power(), 0.7 * em),
    )
}

/// Draws a tick label with a raised exponent; `x` is its left edge and
/// `baseline` the baseline of its main part.
fn draw_sci_label<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    label: &SciLabel,
    x: f64,
    baseline: f64,
    em: f64,
    color: RGBAColor,
) -> Result<(), String> {
    let (base_w, _) = sci_label_size(c, label, em);
    c.text(
        &label.base(),
        x,
        baseline,
        em,
        color,
        HPos::Left,
        VAlign::Baseline,
    )?;
    c.text(
        &label.power(),
        x + base_w + 0.05 * em,
        baseline - 0.45 * em,
        0.7 * em,
        color,
        HPos::Left,
        VAlign::Baseline,
    )
}

// ---------------------------------------------------------------------------
// Summary chart
// ---------------------------------------------------------------------------

struct SummaryChart<'a> {
    entries: &'a [SummaryEntry],
    title: &'a str,
    dark: bool,
}

/// Colors of the two summary themes (matplotlib's default and the
/// reference's `--dark` variant).
struct SummaryTheme {
    background: RGBColor,
    foreground: RGBColor,
    guide: RGBColor,
}

impl SummaryTheme {
    fn new(dark: bool) -> Self {
        if dark {
            Self {
                background: RGBColor(0, 0, 0),
                foreground: RGBColor(255, 255, 255),
                guide: RGBColor(255, 255, 255),
            }
        } else {
            Self {
                background: RGBColor(255, 255, 255),
                foreground: RGBColor(0, 0, 0),
                guide: RGBColor(128, 128, 128),
            }
        }
    }
}

/// Matplotlib's named colors the reference uses for each status.
fn status_color(status: &str) -> RGBColor {
    match status {
        "SLOW" => RGBColor(255, 0, 0),
        "FAST" => RGBColor(0, 128, 0),
        "SAME" => RGBColor(0, 0, 255),
        _ => RGBColor(128, 128, 128),
    }
}

/// The reference's x limits: the data range padded by 10 % of its width,
/// or by 10 % of the value (0.05 around zero) when all values are equal.
/// Non-finite values are ignored.
fn summary_x_limits(entries: &[SummaryEntry]) -> (f64, f64) {
    let finite = entries.iter().map(|e| e.fraction).filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !(lo.is_finite() && hi.is_finite()) {
        return (-0.05, 0.05);
    }
    let pad = if hi > lo {
        (hi - lo) * 0.1
    } else if lo == 0.0 {
        0.05
    } else {
        lo.abs() * 0.1
    };
    let (lo, hi) = (lo - pad, hi + pad);
    // Values so large that the padding overflows still need a usable range.
    if lo.is_finite() && hi.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (-0.05, 0.05)
    }
}

/// Font size of the row labels and how many rows each label stands for:
/// labels shrink with thin rows and, below a readable size, only every
/// `stride`-th row is labelled.
fn row_label_plan(pitch: f64) -> (f64, usize) {
    let full = pt(10.0);
    let smallest = pt(5.0);
    let em = (pitch / 1.15).min(full);
    if em >= smallest {
        return (em, 1);
    }
    let stride = (smallest * 1.15 / pitch.max(1e-6)).ceil();
    (
        smallest,
        if stride.is_finite() {
            (stride as usize).max(1)
        } else {
            usize::MAX
        },
    )
}

impl Chart for SummaryChart<'_> {
    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Result<(), String> {
        let theme = SummaryTheme::new(self.dark);
        let fg = rgba(theme.foreground, 1.0);
        c.fill(theme.background)?;

        let (pad, tick_len, tick_pad) = (pt(1.08 * 10.0), pt(3.5), pt(3.5));
        let (tick_em, title_em) = (pt(10.0), pt(12.0));
        let rows = self.entries.len().max(1);

        // matplotlib's tight layout: the title's baseline 6 pt above the
        // plot, the tick labels (one em high) below the tick marks.
        let title_room = if self.title.is_empty() {
            0.0
        } else {
            CAP_HEIGHT_EM * title_em + pt(6.0)
        };
        let top = pad + title_room;
        let bottom = c.height - pad - tick_em - tick_len - tick_pad;
        let pitch = (bottom - top).max(1.0) / rows as f64;
        let (label_em, stride) = row_label_plan(pitch);

        let labels = self.row_labels(c, label_em, stride, 0.45 * c.width);
        let label_width = labels
            .iter()
            .map(|(_, t)| c.text_width(t, label_em))
            .fold(0.0, f64::max);
        let (lo, hi) = summary_x_limits(self.entries);
        let left = pad + label_width + tick_len + tick_pad;
        let (right, ticks) = fit_percent_ticks(c, lo, hi, left, c.width - pad, tick_em);
        let plot = PlotRect {
            left,
            top,
            right,
            bottom: top + pitch * rows as f64,
        };
        let to_x = |v: f64| lerp(v, lo, hi, plot.left, plot.right);
        let row_y = |i: usize| plot.top + (i as f64 + 0.5) * pitch;

        self.draw_bars(c, plot, pitch, &to_x)?;
        self.draw_guides(c, plot, pitch, &theme, lo, hi, &to_x)?;
        draw_frame(c, plot, fg, 2)?;

        // Percent ticks below the plot.
        for (tick, text) in &ticks {
            let x = to_x(*tick);
            c.line((x, plot.bottom), (x, plot.bottom + tick_len), fg, 2)?;
            c.text(
                text,
                x,
                plot.bottom + tick_len + tick_pad,
                tick_em,
                fg,
                HPos::Center,
                VAlign::CapTop,
            )?;
        }
        // Row labels left of the plot.
        for (row, text) in &labels {
            let y = row_y(*row);
            c.line((plot.left - tick_len, y), (plot.left, y), fg, 2)?;
            c.text(
                text,
                plot.left - tick_len - tick_pad,
                y,
                label_em,
                fg,
                HPos::Right,
                VAlign::CapCenter,
            )?;
        }
        draw_title(c, self.title, plot, title_em, fg)
    }
}

/// Percent ticks for a plot spanning `left..right` pixels, and the right
/// edge moved in when the last label would stick out of the canvas.
fn fit_percent_ticks<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    lo: f64,
    hi: f64,
    left: f64,
    right: f64,
    em: f64,
) -> (f64, Vec<(f64, String)>) {
    let ticks_for = |right: f64| {
        let bins = ((right - left) / (3.0 * em)).floor().max(1.0) as usize;
        let ticks = nice_ticks(lo, hi, bins);
        let labels = percent_labels(&ticks, hi - lo);
        ticks.into_iter().zip(labels).collect::<Vec<_>>()
    };
    let ticks = ticks_for(right);
    let overhang = ticks
        .last()
        .map(|(t, text)| lerp(*t, lo, hi, left, right) + c.text_width(text, em) / 2.0 - right)
        .unwrap_or(0.0);
    if overhang > 0.0 && right - overhang > left {
        (right - overhang, ticks_for(right - overhang))
    } else {
        (right, ticks)
    }
}

impl SummaryChart<'_> {
    /// The labelled rows and their (possibly shortened) texts.
    fn row_labels<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        em: f64,
        stride: usize,
        max_width: f64,
    ) -> Vec<(usize, String)> {
        self.entries
            .iter()
            .enumerate()
            .step_by(stride.max(1))
            .map(|(row, entry)| (row, c.fit(&entry.label, em, max_width)))
            .collect()
    }

    /// Bars from zero to each value, 80 % of a row high, clipped to the plot
    /// (the reference's limits may leave zero outside the visible range).
    fn draw_bars<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        plot: PlotRect,
        pitch: f64,
        to_x: &dyn Fn(f64) -> f64,
    ) -> Result<(), String> {
        for (row, entry) in self.entries.iter().enumerate() {
            if !entry.fraction.is_finite() {
                continue;
            }
            let (a, b) = (to_x(0.0), to_x(entry.fraction));
            let (x0, x1) = (a.min(b).max(plot.left), a.max(b).min(plot.right));
            if x1 <= x0 {
                continue;
            }
            let center = plot.top + (row as f64 + 0.5) * pitch;
            let half = (0.4 * pitch).max(0.5);
            c.rect(
                x0,
                center - half,
                x1,
                center + half,
                rgba(status_color(entry.status), 1.0),
            )?;
        }
        Ok(())
    }

    /// The zero line and the separators between benchmarks.
    #[allow(clippy::too_many_arguments)]
    fn draw_guides<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        plot: PlotRect,
        pitch: f64,
        theme: &SummaryTheme,
        lo: f64,
        hi: f64,
        to_x: &dyn Fn(f64) -> f64,
    ) -> Result<(), String> {
        if lo <= 0.0 && hi >= 0.0 {
            let x = to_x(0.0);
            c.line((x, plot.top), (x, plot.bottom), rgba(theme.guide, 0.6), 2)?;
        }
        for (row, pair) in self.entries.windows(2).enumerate() {
            if pair[0].benchmark != pair[1].benchmark {
                let y = plot.top + (row + 1) as f64 * pitch;
                c.line((plot.left, y), (plot.right, y), rgba(theme.guide, 0.4), 1)?;
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Along chart
// ---------------------------------------------------------------------------

struct AlongChart<'a> {
    title: &'a str,
    axis_name: &'a str,
    series: &'a [AlongSeries],
}

/// seaborn's "deep" palette, the color cycle after `sns.set_theme()`.
const DEEP: [RGBColor; 10] = [
    RGBColor(0x4C, 0x72, 0xB0),
    RGBColor(0xDD, 0x84, 0x52),
    RGBColor(0x55, 0xA8, 0x68),
    RGBColor(0xC4, 0x4E, 0x52),
    RGBColor(0x81, 0x72, 0xB3),
    RGBColor(0x93, 0x78, 0x60),
    RGBColor(0xDA, 0x8B, 0xC3),
    RGBColor(0x8C, 0x8C, 0x8C),
    RGBColor(0xCC, 0xB9, 0x74),
    RGBColor(0x64, 0xB5, 0xCD),
];
/// seaborn darkgrid colors: axes face, text.
const DARKGRID_FACE: RGBColor = RGBColor(0xEA, 0xEA, 0xF2);
const DARKGRID_TEXT: RGBColor = RGBColor(0x26, 0x26, 0x26);

/// A series ready to draw: usable points sorted by axis value, with its
/// color from the cycle (empty series take no color, as in matplotlib).
struct PreparedSeries<'a> {
    label: &'a str,
    dashed: bool,
    color: RGBColor,
    points: Vec<AlongPoint>,
}

fn usable_noise(noise: Option<f64>) -> Option<f64> {
    noise.filter(|n| n.is_finite() && *n >= 0.0)
}

fn prepare_series(series: &[AlongSeries]) -> Vec<PreparedSeries<'_>> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let mut prepared = Vec::new();
    for s in series {
        let mut points: Vec<AlongPoint> = s
            .points
            .iter()
            .copied()
            .filter(|p| positive(p.x) && positive(p.time))
            .collect();
        // Stable sort, then keep the last of equal x values.
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        let mut unique: Vec<AlongPoint> = Vec::with_capacity(points.len());
        for p in points {
            match unique.last_mut() {
                Some(last) if last.x == p.x => *last = p,
                _ => unique.push(p),
            }
        }
        if unique.is_empty() {
            continue;
        }
        let color = DEEP[prepared.len() % DEEP.len()];
        prepared.push(PreparedSeries {
            label: &s.label,
            dashed: s.reference,
            color,
            points: unique,
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
    (lo - margin, hi + margin)
}

impl Chart for AlongChart<'_> {
    fn draw<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Result<(), String> {
        c.fill(RGBColor(255, 255, 255))?;
        let series = prepare_series(self.series);
        let bands: Vec<Vec<Vec<(f64, f64)>>> =
            series.iter().map(|s| noise_bands(&s.points)).collect();
        let axes = LogAxes::fit(c, &series, &bands);
        axes.draw_grid(c)?;
        // Bands first: matplotlib draws filled areas below all lines.
        for (s, runs) in series.iter().zip(&bands) {
            for band in runs {
                let outline: Vec<(f64, f64)> = band.iter().map(|&(x, t)| axes.map(x, t)).collect();
                c.polygon(&outline, rgba(s.color, 0.1))?;
            }
        }
        let mut drawn_points = Vec::new();
        for s in &series {
            let pixels: Vec<(f64, f64)> = s.points.iter().map(|p| axes.map(p.x, p.time)).collect();
            draw_series_line(c, &pixels, s.color, s.dashed)?;
            drawn_points.extend(sample_polyline(&pixels));
        }
        axes.draw_labels(c, self.axis_name, "time [s]")?;
        draw_title(c, self.title, axes.plot, pt(12.0), rgba(DARKGRID_TEXT, 1.0))?;
        draw_legend(c, axes.plot, &series, &drawn_points)
    }
}

/// The log-log frame of an along chart: where the plot sits, the visible
/// log10 ranges and their ticks.
struct LogAxes {
    plot: PlotRect,
    x_range: (f64, f64),
    y_range: (f64, f64),
    x_ticks: Vec<(f64, SciLabel)>,
    y_ticks: Vec<(f64, SciLabel)>,
    widest_y_label: f64,
}

/// Font sizes of the along chart (seaborn's notebook context).
const ALONG_TICK_PT: f64 = 11.0;
const ALONG_LABEL_PT: f64 = 12.0;

impl LogAxes {
    /// Limits from every point and band edge; matplotlib's default subplot
    /// box, widened when the y tick labels need more room.
    fn fit<DB: DrawingBackend>(
        c: &Canvas<'_, DB>,
        series: &[PreparedSeries<'_>],
        bands: &[Vec<Vec<(f64, f64)>>],
    ) -> Self {
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
        let times = series.iter().flat_map(|s| s.points.iter().map(|p| p.time));
        let band_edges = bands.iter().flatten().flatten().map(|&(_, t)| t);
        let x_range = log_limits(xs);
        let y_range = log_limits(times.chain(band_edges));
        let (x_ticks, y_ticks) = (
            log_ticks(x_range.0, x_range.1),
            log_ticks(y_range.0, y_range.1),
        );
        let tick_em = pt(ALONG_TICK_PT);
        let widest_y_label = y_ticks
            .iter()
            .map(|(_, label)| {
                let (base, power) = sci_label_size(c, label, tick_em);
                base + power
            })
            .fold(0.0, f64::max);
        let needed_left =
            pt(8.0) + 1.2 * pt(ALONG_LABEL_PT) + pt(4.0) + widest_y_label + along_tick_gap();
        let plot = PlotRect {
            left: (0.125 * c.width).max(needed_left).min(0.5 * c.width),
            top: 0.12 * c.height,
            right: 0.9 * c.width,
            bottom: 0.89 * c.height,
        };
        Self {
            plot,
            x_range,
            y_range,
            x_ticks,
            y_ticks,
            widest_y_label,
        }
    }

    fn x_px(&self, log10: f64) -> f64 {
        lerp(
            log10,
            self.x_range.0,
            self.x_range.1,
            self.plot.left,
            self.plot.right,
        )
    }

    fn y_px(&self, log10: f64) -> f64 {
        lerp(
            log10,
            self.y_range.0,
            self.y_range.1,
            self.plot.bottom,
            self.plot.top,
        )
    }

    /// Pixel position of an axis value and a time.
    fn map(&self, x: f64, time: f64) -> (f64, f64) {
        (self.x_px(x.log10()), self.y_px(time.log10()))
    }

    /// The plot's face with white grid lines at the ticks (seaborn's
    /// darkgrid style).
    fn draw_grid<DB: DrawingBackend>(&self, c: &Canvas<'_, DB>) -> Result<(), String> {
        let p = self.plot;
        c.rect(p.left, p.top, p.right, p.bottom, rgba(DARKGRID_FACE, 1.0))?;
        let white = rgba(RGBColor(255, 255, 255), 1.0);
        for (pos, _) in &self.x_ticks {
            let x = self.x_px(*pos);
            c.line((x, p.top), (x, p.bottom), white, 2)?;
        }
        for (pos, _) in &self.y_ticks {
            let y = self.y_px(*pos);
            c.line((p.left, y), (p.right, y), white, 2)?;
        }
        Ok(())
    }

    /// Tick labels and the two axis titles.
    fn draw_labels<DB: DrawingBackend>(
        &self,
        c: &Canvas<'_, DB>,
        x_title: &str,
        y_title: &str,
    ) -> Result<(), String> {
        let (p, gap, color) = (self.plot, along_tick_gap(), rgba(DARKGRID_TEXT, 1.0));
        let (tick_em, label_em) = (pt(ALONG_TICK_PT), pt(ALONG_LABEL_PT));
        for (pos, label) in &self.x_ticks {
            let (base, power) = sci_label_size(c, label, tick_em);
            // The exponent's top sits at the label's top edge.
            let baseline = p.bottom + gap + 0.96 * tick_em;
            draw_sci_label(
                c,
                label,
                self.x_px(*pos) - (base + power) / 2.0,
                baseline,
                tick_em,
                color,
            )?;
        }
        for (pos, label) in &self.y_ticks {
            let (base, power) = sci_label_size(c, label, tick_em);
            let left = p.left - gap - base - power;
            draw_sci_label(
                c,
                label,
                left,
                self.y_px(*pos) + 0.48 * tick_em,
                tick_em,
                color,
            )?;
        }
        let x_title = c.fit(x_title, label_em, c.width - pt(16.0));
        let x_title_top = p.bottom + gap + 1.2 * tick_em + pt(4.0);
        c.text(
            &x_title,
            p.center_x(),
            x_title_top,
            label_em,
            color,
            HPos::Center,
            VAlign::CapTop,
        )?;
        let y_title_x = p.left - gap - self.widest_y_label - pt(4.0) - 1.1 * label_em;
        c.vertical_text(y_title, y_title_x, p.center_y(), label_em, color)
    }
}

/// Line width and marker radius of matplotlib's defaults in seaborn's
/// notebook context (1.5 pt lines, 6 pt markers).
fn line_width() -> u32 {
    pt(1.5).round() as u32
}
fn marker_radius() -> f64 {
    // Half the 6 pt marker plus half its 1 pt edge.
    pt(3.5)
}

/// Distance from the along chart's plot edge to its tick labels: seaborn's
/// 6 pt ticks are hidden in darkgrid but still push the labels out, plus
/// matplotlib's 3.5 pt label pad.
fn along_tick_gap() -> f64 {
    pt(6.0 + 3.5)
}

/// A series line with its round markers.
fn draw_series_line<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    pixels: &[(f64, f64)],
    color: RGBColor,
    dashed: bool,
) -> Result<(), String> {
    draw_stroke(c, pixels, color, dashed)?;
    for &(x, y) in pixels {
        c.dot(x, y, marker_radius(), rgba(color, 1.0))?;
    }
    Ok(())
}

/// A series line without markers; reference lines are dashed with
/// matplotlib's `--` pattern scaled by the line width.
fn draw_stroke<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    pixels: &[(f64, f64)],
    color: RGBColor,
    dashed: bool,
) -> Result<(), String> {
    let stroke = rgba(color, 1.0);
    if !dashed {
        return c.polyline(pixels, stroke, line_width());
    }
    for dash in dash_segments(pixels, pt(3.7 * 1.5), pt(1.6 * 1.5)) {
        c.polyline(&dash, stroke, line_width())?;
    }
    Ok(())
}

/// Cuts a polyline into dashes of `dash` pixels separated by `gap` pixels.
fn dash_segments(points: &[(f64, f64)], dash: f64, gap: f64) -> Vec<Vec<(f64, f64)>> {
    let mut dashes = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let (mut drawing, mut left) = (true, dash);
    for pair in points.windows(2) {
        let (mut from, to) = (pair[0], pair[1]);
        let mut length = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
        if !length.is_finite() {
            continue;
        }
        if drawing && current.is_empty() {
            current.push(from);
        }
        // Walk the segment, switching between dash and gap as each runs out.
        while length > left && dashes.len() < 100_000 {
            let t = left / length;
            let cut = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
            if drawing {
                current.push(cut);
                dashes.push(std::mem::take(&mut current));
            } else {
                current.push(cut);
            }
            length -= left;
            from = cut;
            drawing = !drawing;
            left = if drawing { dash } else { gap };
        }
        left -= length;
        if drawing {
            current.push(to);
        } else {
            current.clear();
        }
    }
    if drawing && current.len() >= 2 {
        dashes.push(current);
    }
    dashes
}

/// Points along a drawn polyline, every few pixels, so the legend can avoid
/// covering lines as well as markers.
fn sample_polyline(pixels: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut samples: Vec<(f64, f64)> = pixels.to_vec();
    for pair in pixels.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let steps = (length / 8.0).clamp(0.0, 500.0) as usize;
        for i in 1..steps {
            let t = i as f64 / steps as f64;
            samples.push((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
        }
    }
    samples
}

/// Legend in the emptiest corner or edge of the plot (matplotlib's "best"
/// placement, tried in its order), with matplotlib's spacing: rows one em
/// high, half an em apart, 0.4 em inside the frame.
fn draw_legend<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    plot: PlotRect,
    series: &[PreparedSeries<'_>],
    drawn: &[(f64, f64)],
) -> Result<(), String> {
    let em = pt(11.0);
    let (border, pitch, handle, handle_gap, inset) =
        (0.4 * em, 1.5 * em, 2.0 * em, 0.8 * em, 0.5 * em);
    // Like matplotlib, series without a label (or with a `_` label) stay
    // out of the legend.
    let series: Vec<&PreparedSeries<'_>> = series
        .iter()
        .filter(|s| !s.label.is_empty() && !s.label.starts_with('_'))
        .collect();
    let room = plot.height() - 2.0 * (inset + border) + 0.5 * em;
    let (texts, shown) = legend_texts(c, &series, em, (room / pitch).floor(), 0.6 * plot.width());
    if texts.is_empty() {
        return Ok(());
    }
    let text_w = texts
        .iter()
        .map(|t| c.text_width(t, em))
        .fold(0.0, f64::max);
    let w = 2.0 * border + handle + handle_gap + text_w;
    let h = 2.0 * border + texts.len() as f64 * pitch - 0.5 * em;

    let b = legend_box(plot, w, h, inset, drawn);
    c.rect(b.left, b.top, b.right, b.bottom, rgba(DARKGRID_FACE, 0.8))?;
    draw_frame(c, b, rgba(RGBColor(0xCC, 0xCC, 0xCC), 1.0), 1)?;
    let x = b.left + border;
    for (row, text) in texts.iter().enumerate() {
        let y = b.top + border + 0.5 * em + row as f64 * pitch;
        if let Some(s) = series[..shown].get(row) {
            // matplotlib's legend handle: the line with one marker in its middle.
            draw_stroke(c, &[(x, y), (x + handle, y)], s.color, s.dashed)?;
            c.dot(x + handle / 2.0, y, marker_radius(), rgba(s.color, 1.0))?;
        }
        let color = rgba(DARKGRID_TEXT, 1.0);
        c.text(
            text,
            x + handle + handle_gap,
            y,
            em,
            color,
            HPos::Left,
            VAlign::CapCenter,
        )?;
    }
    Ok(())
}

/// Legend texts for at most `rows` rows (the last one summarising what does
/// not fit), each shortened to `max_width`, and how many series they show.
fn legend_texts<DB: DrawingBackend>(
    c: &Canvas<'_, DB>,
    series: &[&PreparedSeries<'_>],
    em: f64,
    rows: f64,
    max_width: f64,
) -> (Vec<String>, usize) {
    let rows = if rows.is_finite() {
        rows.max(1.0) as usize
    } else {
        1
    };
    let shown = if series.len() > rows {
        rows - 1
    } else {
        series.len()
    };
    let mut texts: Vec<String> = series[..shown]
        .iter()
        .map(|s| c.fit(s.label, em, max_width))
        .collect();
    if shown < series.len() {
        texts.push(format!("\u{2026} and {} more", series.len() - shown));
    }
    (texts, shown)
}

/// The candidate legend box covering the fewest drawn points.
fn legend_box(plot: PlotRect, w: f64, h: f64, inset: f64, drawn: &[(f64, f64)]) -> PlotRect {
    let (l, r) = (plot.left + inset, plot.right - inset - w);
    let (t, b) = (plot.top + inset, plot.bottom - inset - h);
    let (cx, cy) = (plot.center_x() - w / 2.0, plot.center_y() - h / 2.0);
    // upper right, upper left, lower left, lower right, right, center left,
    // center right, lower center, upper center, center
    let corners = [
        (r, t),
        (l, t),
        (l, b),
        (r, b),
        (r, cy),
        (l, cy),
        (r, cy),
        (cx, b),
        (cx, t),
        (cx, cy),
    ];
    let boxes = corners.iter().map(|&(x, y)| PlotRect {
        left: x,
        top: y,
        right: x + w,
        bottom: y + h,
    });
    let mut best: Option<(usize, PlotRect)> = None;
    for candidate in boxes {
        let covered = drawn.iter().filter(|p| candidate.contains(**p)).count();
        if best.is_none_or(|(score, _)| covered < score) {
            best = Some((covered, candidate));
        }
    }
    best.map(|(_, b)| b).unwrap_or(PlotRect {
        left: r,
        top: t,
        right: r + w,
        bottom: t + h,
    })
}

// ---------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------

const TEMPLATE_FIELDS: [&str; 4] = ["axis", "benchmark", "device", "pair"];

#[derive(Debug, Clone, PartialEq)]
enum TemplatePiece {
    Literal(String),
    Field(String),
}

/// A replacement field as Python's `str.format` parser splits it.
struct RawField {
    name: String,
    conversion: Option<char>,
    spec: String,
}

/// Parses a template and checks that every field is a bare supported name,
/// with upstream's messages.
fn checked_template(template: &str) -> Result<Vec<TemplatePiece>, String> {
    let raw = parse_format_string(template)
        .map_err(|e| format!("--plot-along-output template is invalid: {e}"))?;
    let supported = TEMPLATE_FIELDS.map(|f| format!("{{{f}}}")).join(", ");
    raw.into_iter()
        .map(|piece| match piece {
            Ok(text) => Ok(TemplatePiece::Literal(text)),
            Err(field) => {
                let bare = field.conversion.is_none() && field.spec.is_empty();
                if bare && TEMPLATE_FIELDS.contains(&field.name.as_str()) {
                    Ok(TemplatePiece::Field(field.name))
                } else {
                    Err(format!(
                        "--plot-along-output supports template fields {supported}; got {{{}}}",
                        field.name
                    ))
                }
            }
        })
        .collect()
}

fn validate_along_template(template: &str) -> Result<(), String> {
    checked_template(template).map(|_| ())
}

/// Python's format-string grammar: literal text (`Ok`) and replacement
/// fields (`Err`, for brevity of the match above), or Python's error text.
fn parse_format_string(template: &str) -> Result<Vec<Result<String, RawField>>, String> {
    let chars: Vec<char> = template.chars().collect();
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match (c, next) {
            ('{', Some('{')) | ('}', Some('}')) => {
                literal.push(c);
                i += 2;
            }
            ('}', _) => return Err("Single '}' encountered in format string".to_string()),
            ('{', None) => return Err("Single '{' encountered in format string".to_string()),
            ('{', Some(_)) => {
                let (body, end) = field_body(&chars, i + 1)?;
                if !literal.is_empty() {
                    pieces.push(Ok(std::mem::take(&mut literal)));
                }
                pieces.push(Err(parse_field(&body)?));
                i = end;
            }
            _ => {
                literal.push(c);
                i += 1;
            }
        }
    }
    if !literal.is_empty() {
        pieces.push(Ok(literal));
    }
    Ok(pieces)
}

/// The text of a replacement field starting at `start` (after its `{`),
/// with nested braces counted, and the index after its closing `}`.
fn field_body(chars: &[char], start: usize) -> Result<(String, usize), String> {
    let mut depth = 1;
    for (offset, &c) in chars[start..].iter().enumerate() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let end = start + offset;
                    return Ok((chars[start..end].iter().collect(), end + 1));
                }
            }
            _ => {}
        }
    }
    Err("expected '}' before end of string".to_string())
}

/// Splits `name[!conversion][:spec]` as Python does.
fn parse_field(body: &str) -> Result<RawField, String> {
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' => return Err("unexpected '{' in field name".to_string()),
            // An index may contain ':' or '!' without ending the name.
            '[' => {
                while i < chars.len() && chars[i] != ']' {
                    i += 1;
                }
            }
            ':' | '!' => break,
            _ => {}
        }
        i += 1;
    }
    let i = i.min(chars.len());
    let name: String = chars[..i].iter().collect();
    let mut field = RawField {
        name,
        conversion: None,
        spec: String::new(),
    };
    match chars.get(i) {
        Some('!') => {
            let Some(&conversion) = chars.get(i + 1) else {
                return Err("end of string while looking for conversion specifier".to_string());
            };
            field.conversion = Some(conversion);
            match chars.get(i + 2) {
                None => {}
                Some(':') => field.spec = chars[i + 3..].iter().collect(),
                Some(_) => return Err("expected ':' after conversion specifier".to_string()),
            }
        }
        Some(':') => field.spec = chars[i + 1..].iter().collect(),
        _ => {}
    }
    Ok(field)
}

/// Replaces runs of characters other than ASCII letters, digits, `_` and `-`
/// with `_` and trims `.`, `_` and `-` from both ends (so `..` and `/` cannot
/// escape the template's directory); an empty result becomes `value`.
fn sanitize_component(value: &str) -> String {
    let mut out = String::new();
    let mut in_run = false;
    for c in value.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('_');
            in_run = true;
        }
    }
    let trimmed = out.trim_matches(|c| c == '.' || c == '_' || c == '-');
    if trimmed.is_empty() {
        "value".to_string()
    } else {
        trimmed.to_string()
    }
}

// ---------------------------------------------------------------------------
// Small Python-compatible helpers (messages quote values as Python does)
// ---------------------------------------------------------------------------

/// pathlib's suffix rule: the part after the last dot, unless the dot
/// starts the name or ends it.
fn python_suffix(name: &str) -> Option<&str> {
    let dot = name.rfind('.')?;
    (dot > 0 && dot + 1 < name.len()).then(|| &name[dot + 1..])
}

/// `stem-copy-N.ext` next to `path` (pathlib's stem and suffix).
fn with_copy_suffix(path: &Path, counter: u32) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let new_name = match python_suffix(&name) {
        Some(ext) => format!(
            "{}-copy-{counter}.{ext}",
            &name[..name.len() - ext.len() - 1]
        ),
        None => format!("{name}-copy-{counter}"),
    };
    path.with_file_name(new_name)
}

/// `os.path.abspath`: joined to the working directory and normalized
/// without resolving symbolic links.
fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// An I/O error in Python's `OSError` wording:
/// `[Errno 13] Permission denied: 'path'`.
fn python_os_error(err: &io::Error, path: &Path) -> String {
    let Some(code) = err.raw_os_error() else {
        return err.to_string();
    };
    let text = err.to_string();
    let reason = text
        .strip_suffix(&format!(" (os error {code})"))
        .unwrap_or(&text);
    format!(
        "[Errno {code}] {reason}: {}",
        str_repr(&path.to_string_lossy())
    )
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh directory under the system temp dir, removed on drop.
    struct TempDir(PathBuf);
    impl TempDir {
        fn new() -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let n = COUNTER.fetch_add(1, Ordering::SeqCst);
            let dir =
                std::env::temp_dir().join(format!("nvbench-plot-test-{}-{n}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
        fn path(&self, name: &str) -> PathBuf {
            self.0.join(name)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            if std::env::var_os("KEEP_PLOT_TEST_OUTPUT").is_none() {
                let _ = fs::remove_dir_all(&self.0);
            }
        }
    }

    /// Width and height from the PNG signature and IHDR chunk.
    fn png_size(path: &Path) -> (u32, u32) {
        let bytes = fs::read(path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
        assert_eq!(&bytes[12..16], b"IHDR", "first chunk is IHDR");
        let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        (be(16), be(20))
    }

    /// RGB of one pixel, via the png decoder.
    fn png_pixel(path: &Path, x: u32, y: u32) -> [u8; 3] {
        let decoder = png::Decoder::new(io::BufReader::new(fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let at = (y as usize * info.width as usize + x as usize) * 3;
        [buf[at], buf[at + 1], buf[at + 2]]
    }

    fn svg_doc(path: &Path) -> String {
        let text = fs::read_to_string(path).unwrap();
        roxmltree::Document::parse(&text).expect("SVG is well-formed XML");
        text
    }

    fn svg_texts(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .collect()
    }

    fn entry(label: &str, fraction: f64, status: &'static str, benchmark: &str) -> SummaryEntry {
        SummaryEntry {
            label: label.into(),
            fraction,
            status,
            benchmark: benchmark.into(),
        }
    }

    fn sample_entries() -> Vec<SummaryEntry> {
        vec![
            entry("copy | Elements{io}=2^16", -0.074, "FAST", "copy"),
            entry("copy | Elements{io}=2^20", 0.012, "SAME", "copy"),
            entry("copy | Elements{io}=2^24", 0.153, "SLOW", "copy"),
            entry("reduce | T=F32", 0.031, "AMBG", "reduce"),
        ]
    }

    fn along_series() -> Vec<AlongSeries> {
        let points = |scale: f64| {
            (16..=28)
                .step_by(2)
                .map(|e| {
                    let x = 2f64.powi(e);
                    AlongPoint {
                        x,
                        time: scale * (2e-6 + x * 4e-12),
                        noise: Some(0.03 + 0.002 * e as f64),
                    }
                })
                .collect::<Vec<_>>()
        };
        vec![
            AlongSeries {
                label: "T = I32".into(),
                reference: false,
                points: points(1.0),
            },
            AlongSeries {
                label: "T = I32 ref".into(),
                reference: true,
                points: points(1.3),
            },
            AlongSeries {
                label: "T = F64".into(),
                reference: false,
                points: points(2.0),
            },
            AlongSeries {
                label: "T = F64 ref".into(),
                reference: true,
                points: points(2.2),
            },
        ]
    }

    fn distinct_circle_fills(svg: &str) -> HashSet<String> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("circle"))
            .filter_map(|n| n.attribute("fill"))
            .map(String::from)
            .collect()
    }

    #[test]
    fn summary_png_has_matplotlib_size() {
        let dir = TempDir::new();
        let path = dir.path("summary.png");
        let saved = render_summary_chart(
            &sample_entries(),
            "%SOL Bandwidth change - H100",
            false,
            &path,
        )
        .unwrap();
        assert_eq!(
            saved,
            format!("Saved comparison plot to {}", path.display())
        );
        assert_eq!(png_size(&path), (1500, 600));
        assert_eq!(png_pixel(&path, 2, 2), [255, 255, 255], "light background");
    }

    #[test]
    fn summary_dark_theme_has_black_background() {
        let dir = TempDir::new();
        let path = dir.path("dark.png");
        render_summary_chart(&sample_entries(), "dark", true, &path).unwrap();
        assert_eq!(png_pixel(&path, 2, 2), [0, 0, 0]);
    }

    #[test]
    fn summary_height_grows_with_rows() {
        let dir = TempDir::new();
        let heights: Vec<u32> = [3usize, 20, 40]
            .iter()
            .map(|&n| {
                let entries: Vec<SummaryEntry> = (0..n)
                    .map(|i| entry(&format!("b | N={i}"), i as f64 / 100.0, "SLOW", "b"))
                    .collect();
                let path = dir.path(&format!("rows{n}.png"));
                render_summary_chart(&entries, "t", false, &path).unwrap();
                png_size(&path).1
            })
            .collect();
        // max(4, 0.3 n + 1.5) inches at 150 dpi
        assert_eq!(heights, vec![600, 1125, 2025]);
    }

    #[test]
    fn summary_svg_has_title_labels_and_colored_bars() {
        let dir = TempDir::new();
        let path = dir.path("summary.svg");
        let title = summary_title(
            &["NVIDIA H100".to_string()],
            &["Elements{io}=2^20".to_string()],
        );
        render_summary_chart(&sample_entries(), &title, false, &path).unwrap();
        let svg = svg_doc(&path);
        let texts = svg_texts(&svg);
        assert!(
            texts.contains(&"%SOL Bandwidth change - NVIDIA H100 (Elements{io}=2^20)".to_string()),
            "{texts:?}"
        );
        for e in sample_entries() {
            assert!(texts.contains(&e.label), "missing label {}", e.label);
        }
        assert!(
            texts
                .iter()
                .any(|t| t.ends_with('%') && t.starts_with(MINUS)),
            "negative percent ticks: {texts:?}"
        );
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let fills: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .filter_map(|n| n.attribute("fill"))
            .collect();
        for color in ["#FF0000", "#008000", "#0000FF", "#808080"] {
            assert_eq!(
                fills
                    .iter()
                    .filter(|f| f.eq_ignore_ascii_case(color))
                    .count(),
                1,
                "one {color} bar"
            );
        }
    }

    #[test]
    fn along_png_and_svg() {
        let dir = TempDir::new();
        let series = along_series();
        let png_path = dir.path("along.png");
        let saved = render_along_chart("NVIDIA H100 80GB HBM3", "Elements{io}", &series, &png_path)
            .unwrap();
        assert_eq!(
            saved,
            format!("Saved plot-along output to {}", png_path.display())
        );
        assert_eq!(png_size(&png_path), (960, 720));

        let svg_path = dir.path("along.svg");
        render_along_chart("NVIDIA H100 80GB HBM3", "Elements{io}", &series, &svg_path).unwrap();
        let svg = svg_doc(&svg_path);
        let texts = svg_texts(&svg);
        for expected in [
            "NVIDIA H100 80GB HBM3",
            "Elements{io}",
            "time [s]",
            "T = I32",
            "T = I32 ref",
            "T = F64",
            "T = F64 ref",
        ] {
            assert!(
                texts.contains(&expected.to_string()),
                "missing {expected}: {texts:?}"
            );
        }
        assert_eq!(
            distinct_circle_fills(&svg).len(),
            4,
            "one marker color per series"
        );
        assert_eq!(
            svg.matches("<polygon").count(),
            4,
            "one noise band per series"
        );
        assert!(texts.contains(&"10".to_string()), "decade tick labels");
    }

    #[test]
    fn unlabelled_series_stay_out_of_the_legend() {
        // A benchmark whose only axis is the plotted one has an empty series
        // key, so its compare line is unlabelled, as in matplotlib.
        let dir = TempDir::new();
        let p = |x: f64| AlongPoint {
            x,
            time: 1e-5 * x,
            noise: None,
        };
        let series = vec![
            AlongSeries {
                label: String::new(),
                reference: false,
                points: vec![p(1.0), p(2.0), p(4.0)],
            },
            AlongSeries {
                label: " ref".into(),
                reference: true,
                points: vec![p(1.0), p(2.0), p(4.0)],
            },
        ];
        let path = dir.path("single-axis.svg");
        render_along_chart("GPU", "Elements{io}", &series, &path).unwrap();
        let svg = svg_doc(&path);
        assert!(svg_texts(&svg).contains(&"ref".to_string()));
        assert_eq!(
            svg.matches("<circle").count(),
            6 + 1,
            "markers plus one legend handle"
        );
    }

    #[test]
    fn along_bands_only_where_noise_is_usable() {
        let p = |x: f64, noise: Option<f64>| AlongPoint {
            x,
            time: 1e-3 * x,
            noise,
        };
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
    fn degenerate_inputs_do_not_panic() {
        let dir = TempDir::new();
        for ext in ["png", "svg"] {
            render_summary_chart(&[], "", false, &dir.path(&format!("empty.{ext}"))).unwrap();
            let odd = vec![
                entry("nan", f64::NAN, "????", "a"),
                entry("inf", f64::INFINITY, "SLOW", "a"),
                entry("", 0.0, "SAME", "b"),
                entry(&"x".repeat(5000), -1e300, "FAST", "c"),
            ];
            render_summary_chart(
                &odd,
                &"T".repeat(3000),
                true,
                &dir.path(&format!("odd.{ext}")),
            )
            .unwrap();
            let same = vec![entry("a", 0.0, "SAME", "a"), entry("b", 0.0, "SAME", "a")];
            render_summary_chart(&same, "zero", false, &dir.path(&format!("same.{ext}"))).unwrap();

            render_along_chart("", "", &[], &dir.path(&format!("none.{ext}"))).unwrap();
            let junk = vec![
                AlongSeries {
                    label: "empty".into(),
                    reference: false,
                    points: vec![],
                },
                AlongSeries {
                    label: "bad".into(),
                    reference: true,
                    points: vec![
                        AlongPoint {
                            x: f64::NAN,
                            time: 1.0,
                            noise: None,
                        },
                        AlongPoint {
                            x: -1.0,
                            time: 1.0,
                            noise: Some(0.1),
                        },
                        AlongPoint {
                            x: 1.0,
                            time: 0.0,
                            noise: Some(f64::INFINITY),
                        },
                        AlongPoint {
                            x: 1e300,
                            time: 1e-300,
                            noise: Some(1e300),
                        },
                    ],
                },
                AlongSeries {
                    label: "one".into(),
                    reference: false,
                    points: vec![AlongPoint {
                        x: 4.0,
                        time: 2e-5,
                        noise: Some(0.01),
                    }],
                },
                AlongSeries {
                    label: "flat".into(),
                    reference: false,
                    points: vec![
                        AlongPoint {
                            x: 1000.0,
                            time: 5.1e-6,
                            noise: Some(0.0),
                        },
                        AlongPoint {
                            x: 1001.0,
                            time: 5.11e-6,
                            noise: Some(0.0),
                        },
                    ],
                },
            ];
            render_along_chart("t", "N", &junk, &dir.path(&format!("junk.{ext}"))).unwrap();
            let many: Vec<AlongSeries> = (0..200)
                .map(|i| AlongSeries {
                    label: format!("S{i}"),
                    reference: i % 2 == 1,
                    points: vec![AlongPoint {
                        x: 1.0 + i as f64,
                        time: 1e-5,
                        noise: None,
                    }],
                })
                .collect();
            render_along_chart("many", "N", &many, &dir.path(&format!("many.{ext}"))).unwrap();
        }
    }

    #[test]
    fn huge_row_count_is_capped() {
        let dir = TempDir::new();
        let entries: Vec<SummaryEntry> = (0..400)
            .map(|i| {
                entry(
                    &format!("b{} | N={i}", i / 100),
                    (i as f64).sin() / 10.0,
                    ["SLOW", "FAST", "SAME"][i % 3],
                    &format!("b{}", i / 100),
                )
            })
            .collect();
        let path = dir.path("huge.png");
        render_summary_chart(&entries, "huge", false, &path).unwrap();
        assert_eq!(png_size(&path), (1500, MAX_CANVAS_HEIGHT));
    }

    #[test]
    fn output_format_follows_extension() {
        assert_eq!(
            ImageFormat::from_path(Path::new("a/b.png")),
            Ok(ImageFormat::Png)
        );
        assert_eq!(
            ImageFormat::from_path(Path::new("b.SVG")),
            Ok(ImageFormat::Svg)
        );
        let dir = TempDir::new();
        let bad = dir.path("sub/plot.pdf");
        let err = render_summary_chart(&sample_entries(), "t", false, &bad).unwrap_err();
        assert_eq!(
            err,
            format!(
                "failed to write comparison plot to '{}': Format 'pdf' is not supported (supported formats: png, svg)",
                bad.display()
            )
        );
        assert!(!dir.path("sub").exists(), "nothing created for a bad name");
        let none = dir.path("plot");
        let err = render_along_chart("t", "N", &along_series(), &none).unwrap_err();
        assert!(
            err.starts_with(&format!(
                "failed to write plot-along output to '{}': ",
                none.display()
            )),
            "{err}"
        );
        assert!(err.contains("supported formats: png, svg"), "{err}");
    }

    #[test]
    fn parent_directories_are_created_and_errors_use_python_wording() {
        let dir = TempDir::new();
        let nested = dir.path("plots/nested/compare.svg");
        render_summary_chart(&sample_entries(), "t", false, &nested).unwrap();
        assert!(nested.is_file());

        let blocker = dir.path("not-a-directory");
        fs::write(&blocker, "").unwrap();
        let target = blocker.join("compare.png");
        let err = render_summary_chart(&sample_entries(), "t", false, &target).unwrap_err();
        assert!(
            err.starts_with(&format!(
                "failed to write comparison plot to '{}': [Errno ",
                target.display()
            )),
            "{err}"
        );
        assert!(err.contains(&format!("'{}'", blocker.display())), "{err}");
    }

    #[test]
    fn summary_titles() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(summary_title(&[], &[]), "%SOL Bandwidth change");
        assert_eq!(
            summary_title(&names(&["GPU", "GPU"]), &[]),
            "%SOL Bandwidth change - GPU"
        );
        assert_eq!(
            summary_title(&names(&["A", "B"]), &names(&["T=F32", "N=2^20"])),
            "%SOL Bandwidth change (T=F32, N=2^20)"
        );
    }

    #[test]
    fn template_fields_are_expanded_and_sanitized() {
        let out = along_output_path(
            "/tmp/plots/{benchmark}-device{device}-{axis}.png",
            "../../workspace/bench{name}",
            0,
            "Elements{io}/../Time",
            0,
        )
        .unwrap();
        assert_eq!(
            out,
            "/tmp/plots/workspace_bench_name-device0-Elements_io_Time.png"
        );
        assert_eq!(
            along_output_path("p/{benchmark}-pair{pair}-{axis}.png", "bench", 0, "A", 3).unwrap(),
            "p/bench-pair3-A.png"
        );
        assert_eq!(
            along_output_path("p/{{literal}}-{axis}.png", "b", 0, "A", 0).unwrap(),
            "p/{literal}-A.png"
        );
        assert_eq!(sanitize_component("../../"), "value");
        assert_eq!(sanitize_component("Größe"), "Gr_e");
    }

    #[test]
    fn template_errors_use_upstream_wording() {
        let supported = "--plot-along-output supports template fields {axis}, {benchmark}, {device}, {pair}; got ";
        for (template, got) in [
            ("plots/{benchmark.missing}.png", "{benchmark.missing}"),
            ("plots/{benchmark[0]}.png", "{benchmark[0]}"),
            ("plots/{benchmark!r}.png", "{benchmark}"),
            ("plots/{benchmark:s}.png", "{benchmark}"),
            ("plots/{}.png", "{}"),
            ("plots/{unknown}.png", "{unknown}"),
        ] {
            assert_eq!(
                validate_plot_options(false, None, Some("A"), Some(template)),
                Err(format!("{supported}{got}")),
                "{template}"
            );
        }
        let invalid = "--plot-along-output template is invalid: ";
        for (template, reason) in [
            ("a}b", "Single '}' encountered in format string"),
            ("ab{", "Single '{' encountered in format string"),
            ("{axis", "expected '}' before end of string"),
            ("{a{b}}", "unexpected '{' in field name"),
            (
                "{axis!}",
                "end of string while looking for conversion specifier",
            ),
            ("{axis!rx}", "expected ':' after conversion specifier"),
        ] {
            assert_eq!(
                along_output_path(template, "b", 0, "A", 0),
                Err(format!("{invalid}{reason}")),
                "{template}"
            );
        }
    }

    #[test]
    fn option_rules_follow_upstream_order() {
        assert_eq!(
            validate_plot_options(false, Some("x.png"), None, None),
            Err("--plot-output requires --plot".into())
        );
        assert_eq!(
            validate_plot_options(false, None, None, Some("x.png")),
            Err("--plot-along-output requires --plot-along".into())
        );
        assert_eq!(
            validate_plot_options(false, None, Some(""), Some("x.png")),
            Err("--plot-along requires a non-empty axis name".into())
        );
        assert_eq!(validate_plot_options(true, None, Some("A"), None), Ok(()));
        assert_eq!(
            validate_plot_options(true, Some("a.png"), Some("A"), Some("b.png")),
            Ok(())
        );
        // Every chart goes to a file, so a default and an explicit output mix freely.
        assert_eq!(
            validate_plot_options(true, None, Some("A"), Some("along.png")),
            Ok(())
        );
        assert_eq!(
            validate_plot_options(true, Some("c.png"), Some("A"), None),
            Ok(())
        );
    }

    #[test]
    fn along_axis_values() {
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
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a'\"b\n"), "'a\\'\"b\\n'");
    }

    #[test]
    fn repeated_outputs_get_copy_names() {
        let dir = TempDir::new();
        let plot = dir.path("plot.png").to_string_lossy().into_owned();
        fs::write(dir.path("plot-copy-1.png"), "").unwrap();
        let mut paths = OutputPaths::new();
        assert_eq!(
            paths.claim(&plot, PlotKind::Along),
            (plot.clone(), None),
            "an existing file is reused on first use"
        );
        let (second, warning) = paths.claim(&plot, PlotKind::Along);
        assert_eq!(second, dir.path("plot-copy-2.png").to_string_lossy());
        assert_eq!(
            warning,
            Some(format!(
                "Warning: plot-along output '{plot}' is unavailable; writing to '{second}' instead."
            ))
        );
        let (third, _) = paths.claim(&plot, PlotKind::Along);
        assert_eq!(third, dir.path("plot-copy-3.png").to_string_lossy());
        let (_, summary_warning) = paths.claim(
            &format!("{}/./plot.png", dir.0.display()),
            PlotKind::Summary,
        );
        assert!(
            summary_warning
                .unwrap()
                .starts_with("Warning: comparison plot output '"),
            "normalized paths collide"
        );
        assert_eq!(
            with_copy_suffix(Path::new("dir/archive.tar.gz"), 1),
            Path::new("dir/archive.tar-copy-1.gz")
        );
        assert_eq!(
            with_copy_suffix(Path::new(".hidden"), 2),
            Path::new(".hidden-copy-2")
        );
    }

    #[test]
    fn tick_helpers() {
        assert_eq!(
            nice_ticks(-0.0893, 0.1683, 9),
            vec![-0.05, 0.0, 0.05, 0.1, 0.15]
        );
        assert_eq!(
            percent_labels(&[-0.05, 0.0, 0.1], 0.2576),
            vec!["\u{2212}5.0%", "0.0%", "10.0%"]
        );
        assert_eq!(percent_labels(&[1.0], 3.0), vec!["100%"]);
        let decades: Vec<String> = log_ticks(-5.2, -2.9)
            .iter()
            .map(|(_, l)| l.plain())
            .collect();
        assert_eq!(decades, vec!["10^-5", "10^-4", "10^-3"]);
        let short: Vec<String> = log_ticks(-5.1, -4.2)
            .iter()
            .map(|(_, l)| l.plain())
            .collect();
        assert_eq!(
            short,
            vec!["10^-5", "2×10^-5", "3×10^-5", "4×10^-5", "6×10^-5"]
        );
        assert!(
            log_ticks(-5.29, -5.288).len() >= 2,
            "very short ranges still get ticks"
        );
        assert_eq!(log_limits([3e-5].into_iter()), (-5.0, -4.0));
        assert_eq!(log_limits(std::iter::empty()), (0.0, 1.0));
    }

    #[test]
    fn dashes_cover_the_line() {
        let dashes = dash_segments(&[(0.0, 0.0), (100.0, 0.0)], 10.0, 5.0);
        assert_eq!(dashes.len(), 7);
        assert_eq!(dashes[0], vec![(0.0, 0.0), (10.0, 0.0)]);
        assert_eq!(dashes[6], vec![(90.0, 0.0), (100.0, 0.0)]);
        assert!(dash_segments(&[(0.0, 0.0)], 10.0, 5.0).is_empty());
    }
}
