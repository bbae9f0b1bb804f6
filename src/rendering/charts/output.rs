//! Where charts go and how they are written: the image format chosen by the
//! file name, `-copy-N` names for outputs already used in this run, numbered
//! names for a summary chart split into several files, PNG/SVG encoding, and
//! file-system errors in Python's wording (as upstream prints them).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use plotters::prelude::{BitMapBackend, IntoDrawingArea, SVGBackend};

use crate::pycompat::paths::{py_abspath, py_suffix};
use crate::pycompat::pyfmt::str_repr;
use crate::rendering::charts::canvas::{Canvas, Chart, DPI, Flavor};

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
        match py_suffix(&name).map(|ext| ext.to_ascii_lowercase()) {
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
    pub(super) fn saved_name(self) -> &'static str {
        match self {
            PlotKind::Summary => "comparison plot",
            PlotKind::Along => "plot-along output",
        }
    }

    /// The option that names the chart's files.
    pub fn option(self) -> &'static str {
        match self {
            PlotKind::Summary => "--plot-output",
            PlotKind::Along => "--plot-along-output",
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
    /// file left from an earlier run is overwritten, `-copy-N` names
    /// included: upstream skips `-copy-N` files that exist, so each rerun
    /// into a directory added a new set of copies beside the old ones.
    pub fn claim(&mut self, requested: &str, kind: PlotKind) -> (String, Option<String>) {
        if self.claimed.insert(py_abspath(Path::new(requested))) {
            return (requested.to_string(), None);
        }
        let original = Path::new(requested);
        // The bound only guards against a pathological directory; a free name
        // is normally found within a handful of tries.
        for counter in 1..=1_000_000u32 {
            let candidate = with_copy_suffix(original, counter);
            let key = py_abspath(&candidate);
            if !self.claimed.contains(&key) {
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

/// `stem-N.ext` next to `path`: the name of part `N` of a chart split into
/// several files.
pub fn numbered_path(path: &str, number: usize) -> String {
    let path = Path::new(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let new_name = match py_suffix(&name) {
        Some(ext) => format!("{}-{number}.{ext}", &name[..name.len() - ext.len() - 1]),
        None => format!("{name}-{number}"),
    };
    path.with_file_name(new_name).to_string_lossy().into_owned()
}

/// A drawn chart: its file name and bytes, and the lines printed about it
/// (the output owner writes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartFile {
    /// The option naming the file (`--plot-output`, `--plot-along-output`).
    pub option: &'static str,
    pub path: String,
    pub bytes: Vec<u8>,
    /// `Saved comparison plot to PATH`, printed once the file is written.
    pub saved: String,
    /// `failed to write comparison plot to 'PATH'`, the start of the
    /// message of a failed write.
    pub failed: String,
}

pub(super) fn draw_chart<C: Chart>(
    chart: &C,
    size: (u32, u32),
    path: &Path,
    kind: PlotKind,
) -> Result<ChartFile, String> {
    let shown = path.to_string_lossy();
    let failed = format!(
        "failed to write {} to {}",
        kind.saved_name(),
        str_repr(&shown)
    );
    let fail = |reason: String| format!("{failed}: {reason}");
    // Checked before drawing so a bad name costs nothing and leaves nothing behind.
    let format = ImageFormat::from_path(path).map_err(fail)?;
    let bytes = match format {
        ImageFormat::Png => png_bytes(chart, size),
        ImageFormat::Svg => svg_bytes(chart, size),
    }
    .map_err(fail)?;
    Ok(ChartFile {
        option: kind.option(),
        path: shown.to_string(),
        bytes,
        saved: format!("Saved {} to {shown}", kind.saved_name()),
        failed,
    })
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

/// plotters' own PNG writer (`bitmap_encoder`) pulls in the `image` crate;
/// the `png` crate alone writes the pixel buffer plotters drew.
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

/// `stem-copy-N.ext` next to `path` (pathlib's stem and suffix).
pub(super) fn with_copy_suffix(path: &Path, counter: u32) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let new_name = match py_suffix(&name) {
        Some(ext) => format!(
            "{}-copy-{counter}.{ext}",
            &name[..name.len() - ext.len() - 1]
        ),
        None => format!("{name}-copy-{counter}"),
    };
    path.with_file_name(new_name)
}
