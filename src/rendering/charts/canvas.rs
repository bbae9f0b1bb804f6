//! What both charts draw on: the embedded font, sizes in points at the
//! output resolution, the colours of the themes, and text measurement,
//! shortening and drawing.

use std::fmt::Display;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::element::Text;
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontDesc, FontFamily, FontStyle, IntoFont, RGBColor, TextStyle};

/// Charts follow matplotlib's sizes at 150 dpi.
pub(super) const DPI: f64 = 150.0;

/// Points (1/72 inch) to pixels at the output resolution.
pub(super) fn pt(points: f64) -> f64 {
    points * DPI / 72.0
}

pub(super) const FONT_FAMILY: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/DejaVuSans.ttf"
));

// DejaVu Sans metrics in ems: ab_glyph scales a font so that ascent minus
// descent equals the requested size, which for DejaVu is 1.164 em.
const GLYPH_HEIGHT_EM: f64 = 1.164;
/// The minus sign matplotlib puts in tick labels.
pub(super) const MINUS: char = '\u{2212}';

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

/// The two backends size text differently: the SVG backend writes
/// `font-size = size / 1.24`, the bitmap backend scales the glyph box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flavor {
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
}

/// A chart that can draw itself on any plotters backend.
pub(super) trait Chart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String>;
}

/// The drawing area of one output file and how its backend sizes text.
pub(super) struct Canvas<'a, DB: DrawingBackend> {
    pub area: &'a DrawingArea<DB, Shift>,
    flavor: Flavor,
    pub width: f64,
}

/// plotters' errors carry the backend's error type; the charts report text.
pub(super) fn drawn<T, E: Display>(result: Result<T, E>) -> Result<T, String> {
    result.map_err(|e| e.to_string())
}

impl<'a, DB: DrawingBackend> Canvas<'a, DB> {
    pub fn new(area: &'a DrawingArea<DB, Shift>, flavor: Flavor) -> Result<Self, String> {
        register_font()?;
        let (w, _) = area.dim_in_pixel();
        Ok(Self {
            area,
            flavor,
            width: w as f64,
        })
    }

    /// The embedded font with an em of `em` pixels, in `color`.
    pub fn font(&self, em: f64, color: RGBColor) -> TextStyle<'static> {
        (FONT_FAMILY, self.flavor.font_size(em))
            .into_font()
            .color(&color)
    }

    /// Width of `text` in pixels (see [`text_width`]).
    pub fn text_width(&self, text: &str, em: f64) -> f64 {
        text_width(text, em)
    }

    /// `text`, shortened to `max_width` pixels (see [`fit`]).
    pub fn fit(&self, text: &str, em: f64, max_width: f64) -> String {
        fit(text, em, max_width)
    }

    /// Draws `text` at the backend pixel `at`, anchored as `anchor` says.
    pub fn text(
        &self,
        text: &str,
        at: (f64, f64),
        (em, color): (f64, RGBColor),
        anchor: (HPos, VPos),
    ) -> Result<(), String> {
        if text.is_empty() {
            return Ok(());
        }
        let style = self.font(em, color).pos(Pos::new(anchor.0, anchor.1));
        let at = (at.0.round() as i32, at.1.round() as i32);
        drawn(self.area.draw(&Text::new(text.to_string(), at, style)))
    }

    /// Draws centred lines from `top` down, each `(text, em)`, and gives
    /// the height they took.
    pub fn header(
        &self,
        lines: &[(String, f64)],
        top: f64,
        color: RGBColor,
    ) -> Result<f64, String> {
        let mut y = top;
        for (text, em) in lines {
            let at = (self.width / 2.0, y);
            self.text(text, at, (*em, color), (HPos::Center, VPos::Top))?;
            y += line_pitch(*em);
        }
        Ok(y - top)
    }
}

/// Distance between the baselines of two lines of text of `em` pixels.
pub(super) fn line_pitch(em: f64) -> f64 {
    1.3 * em
}

/// Width of `text` in pixels with an em of `em` pixels; measured with the
/// real glyph advances on both backends because an SVG viewer renders the
/// same font, and without a canvas, so that a chart can be sized to its
/// labels before it is drawn.
pub(super) fn text_width(text: &str, em: f64) -> f64 {
    if text.is_empty() {
        return 0.0;
    }
    let fallback = 0.6 * em * text.chars().count() as f64;
    if register_font().is_err() {
        return fallback;
    }
    let font = FontDesc::new(
        FontFamily::Name(FONT_FAMILY),
        em * GLYPH_HEIGHT_EM,
        FontStyle::Normal,
    );
    match font.layout_box(text) {
        Ok(((x0, _), (x1, _))) => (x1 - x0) as f64,
        Err(_) => fallback,
    }
}

/// Shortens `text` with an ellipsis until it fits `max_width` pixels
/// (plotters draws a text as given, however long; a long benchmark name
/// would push the plot off the canvas). The last resort: labels are
/// wrapped and charts widened first.
pub(super) fn fit(text: &str, em: f64, max_width: f64) -> String {
    if text_width(text, em) <= max_width {
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
        if next < chars.len() && text_width(&candidate, em) <= max_width {
            keep = next;
        } else {
            step /= 2;
        }
    }
    chars[..keep].iter().chain(['…'].iter()).collect()
}

/// Colours of a chart's theme: matplotlib's default, the reference's
/// `--dark` variant, and seaborn's darkgrid for the along chart.
#[derive(Debug, Clone, Copy)]
pub(super) struct Theme {
    pub background: RGBColor,
    pub face: RGBColor,
    pub foreground: RGBColor,
    pub guide: RGBColor,
}

impl Theme {
    pub fn summary(dark: bool) -> Self {
        if dark {
            Theme {
                background: RGBColor(0, 0, 0),
                face: RGBColor(0, 0, 0),
                foreground: RGBColor(255, 255, 255),
                guide: RGBColor(255, 255, 255),
            }
        } else {
            Theme {
                background: RGBColor(255, 255, 255),
                face: RGBColor(255, 255, 255),
                foreground: RGBColor(0, 0, 0),
                guide: RGBColor(128, 128, 128),
            }
        }
    }

    pub fn darkgrid() -> Self {
        Theme {
            background: RGBColor(255, 255, 255),
            face: RGBColor(0xEA, 0xEA, 0xF2),
            foreground: RGBColor(0x26, 0x26, 0x26),
            guide: RGBColor(255, 255, 255),
        }
    }
}

/// Matplotlib's named colours the reference uses for each status; on the
/// dark theme SAME is `dodgerblue`, as pure blue on black is hard to see
/// (WCAG contrast 2.4; `dodgerblue` has 6.5).
pub(super) fn status_color(status: &str, dark: bool) -> RGBColor {
    match status {
        "SLOW" => RGBColor(255, 0, 0),
        "FAST" => RGBColor(0, 128, 0),
        "SAME" if dark => RGBColor(30, 144, 255),
        "SAME" => RGBColor(0, 0, 255),
        _ => RGBColor(128, 128, 128),
    }
}

/// WCAG 2 contrast ratio of two colours (1 to 21; 3 is the minimum for
/// graphics such as bars).
#[cfg(test)]
pub(super) fn contrast_ratio(a: RGBColor, b: RGBColor) -> f64 {
    let luminance = |c: RGBColor| {
        let channel = |v: u8| {
            let v = v as f64 / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
    };
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// seaborn's "deep" palette, the colour cycle after `sns.set_theme()`.
pub(super) const DEEP: [RGBColor; 10] = [
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
