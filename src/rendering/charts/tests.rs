//! Chart files drawn through the module's API: formats, sizes, themes,
//! texts, output names and templates, and inputs that must not panic.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::Path;

use crate::rendering::charts::along::{AlongAxis, AlongPoint, AlongSeries, draw_along_chart};
use crate::rendering::charts::labels::NamePart;
use crate::rendering::charts::legend::{COMPARE_KEY, REFERENCE_KEY};
use crate::rendering::charts::output::{
    ChartFile, ImageFormat, OutputPaths, PlotKind, numbered_path, with_copy_suffix,
};
use crate::rendering::charts::summary::{SummaryEntry, draw_summary, summary_title};
use crate::rendering::charts::template::{
    along_output_path, sanitize_component, validate_plot_options,
};

/// Writes a drawn chart as the output owner would (plainly: collisions
/// and atomic writes are the owner's, tested there); gives the `Saved`
/// line.
fn written(file: Result<ChartFile, String>) -> Result<String, String> {
    let file = file?;
    fs::write(&file.path, &file.bytes).map_err(|e| format!("{}: {e}", file.failed))?;
    Ok(file.saved)
}

fn render_summary_chart(
    entries: &[SummaryEntry],
    title: &str,
    dark: bool,
    path: &Path,
) -> Result<String, String> {
    written(draw_summary(entries, title, dark, path))
}

fn render_along_chart(
    title: &str,
    axis: AlongAxis<'_>,
    series: &[AlongSeries],
    path: &Path,
) -> Result<String, String> {
    written(draw_along_chart(title, "", axis, series, path))
}

use crate::testing::Scratch;

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

fn axis(name: &str) -> AlongAxis<'_> {
    AlongAxis { name, pow2: false }
}

fn pow2(name: &str) -> AlongAxis<'_> {
    AlongAxis { name, pow2: true }
}

/// A bar whose whole label is one part (so it is never shared or wrapped).
fn entry(label: &str, fraction: f64, status: &'static str, benchmark: &str) -> SummaryEntry {
    SummaryEntry {
        name: vec![NamePart::new("label", label, 0)],
        fraction,
        range: None,
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
                    range: None,
                }
            })
            .collect::<Vec<_>>()
    };
    vec![
        AlongSeries {
            label: "T = I32".into(),
            side: COMPARE_KEY.into(),
            style: 1,
            group: 0,
            points: points(1.0),
        },
        AlongSeries {
            label: "T = I32".into(),
            side: REFERENCE_KEY.into(),
            style: 0,
            group: 0,
            points: points(1.3),
        },
        AlongSeries {
            label: "T = F64".into(),
            side: COMPARE_KEY.into(),
            style: 1,
            group: 1,
            points: points(2.0),
        },
        AlongSeries {
            label: "T = F64".into(),
            side: REFERENCE_KEY.into(),
            style: 0,
            group: 1,
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
    let dir = Scratch::new("plot");
    let path = dir.join("summary.png");
    let saved =
        render_summary_chart(&sample_entries(), "GPU timing change - H100", false, &path).unwrap();
    assert_eq!(
        saved,
        format!("Saved comparison plot to {}", path.display())
    );
    // matplotlib's 4-inch minimum at 150 dpi, and the legend row below.
    assert_eq!(png_size(&path), (1500, 642));
    assert_eq!(png_pixel(&path, 2, 2), [255, 255, 255], "light background");
}

#[test]
fn summary_dark_theme_has_black_background() {
    let dir = Scratch::new("plot");
    let path = dir.join("dark.png");
    render_summary_chart(&sample_entries(), "dark", true, &path).unwrap();
    assert_eq!(png_pixel(&path, 2, 2), [0, 0, 0]);
}

#[test]
fn summary_svg_has_title_labels_and_colored_bars() {
    let dir = Scratch::new("plot");
    let path = dir.join("summary.svg");
    let title = summary_title(
        &["NVIDIA H100".to_string()],
        &["Elements{io}=2^20".to_string()],
    );
    render_summary_chart(&sample_entries(), &title, false, &path).unwrap();
    let svg = svg_doc(&path);
    let texts = svg_texts(&svg);
    assert!(
        texts.contains(&"GPU timing change - NVIDIA H100 (Elements{io}=2^20)".to_string()),
        "{texts:?}"
    );
    for legend in ["SLOW", "FAST", "SAME", "AMBG"] {
        assert!(
            texts.contains(&legend.to_string()),
            "legend {legend}: {texts:?}"
        );
    }
    assert!(
        texts.contains(&crate::rendering::charts::summary::SUMMARY_X_LABEL.to_string()),
        "x-axis label: {texts:?}"
    );
    for e in sample_entries() {
        let label = &e.name[0].text;
        assert!(texts.contains(label), "missing label {label}");
    }
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with('%') && t.starts_with('\u{2212}')),
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
            2,
            "one {color} bar and its legend key"
        );
    }
}

#[test]
fn along_png_and_svg() {
    let dir = Scratch::new("plot");
    let series = along_series();
    let png_path = dir.join("along.png");
    let saved = render_along_chart(
        "NVIDIA H100 80GB HBM3",
        axis("Elements{io}"),
        &series,
        &png_path,
    )
    .unwrap();
    assert_eq!(
        saved,
        format!("Saved plot-along output to {}", png_path.display())
    );
    // matplotlib's 6.4 x 4.8 inches at 150 dpi, and the legend below.
    let (width, height) = png_size(&png_path);
    assert_eq!(width, 960);
    assert!((720 + 60..720 + 120).contains(&height), "{height}");

    let svg_path = dir.join("along.svg");
    render_along_chart(
        "NVIDIA H100 80GB HBM3",
        pow2("Elements{io}"),
        &series,
        &svg_path,
    )
    .unwrap();
    let svg = svg_doc(&svg_path);
    let texts = svg_texts(&svg);
    for expected in [
        "NVIDIA H100 80GB HBM3",
        "Elements{io}",
        "time [s]",
        "T = I32",
        "T = F64",
        "compare",
        "reference",
    ] {
        assert!(
            texts.contains(&expected.to_string()),
            "missing {expected}: {texts:?}"
        );
    }
    assert_eq!(
        distinct_circle_fills(&svg).len(),
        2 + 1,
        "a compare series and its reference share a colour; the style key is gray"
    );
    for side in ["T = I32 ref", "T = F64 ref"] {
        assert!(
            !texts.contains(&side.to_string()),
            "line styles tell the sides apart"
        );
    }
    assert_eq!(
        svg.matches("<polygon").count(),
        4,
        "one noise band per series"
    );
    for tick in ["2¹⁶", "2²⁰", "2²⁴", "2²⁸"] {
        assert!(
            texts.contains(&tick.to_string()),
            "pow2 tick {tick}: {texts:?}"
        );
    }
    assert!(
        texts.iter().any(|t| t.contains("10⁻")),
        "decade tick labels on the time axis: {texts:?}"
    );
    let decades = dir.join("decades.svg");
    render_along_chart("t", axis("N"), &series, &decades).unwrap();
    let texts = svg_texts(&svg_doc(&decades));
    assert!(texts.contains(&"10⁵".to_string()), "{texts:?}");
}

#[test]
fn unlabelled_series_stay_out_of_the_legend() {
    // A benchmark whose only axis is the plotted one has an empty series
    // key, so its colour is unnamed; the style key still says which line
    // is which side.
    let dir = Scratch::new("plot");
    let p = |x: f64| AlongPoint {
        x,
        time: 1e-5 * x,
        noise: None,
        range: None,
    };
    let series = vec![
        AlongSeries {
            label: String::new(),
            side: COMPARE_KEY.into(),
            style: 1,
            group: 0,
            points: vec![p(1.0), p(2.0), p(4.0)],
        },
        AlongSeries {
            label: "".into(),
            side: REFERENCE_KEY.into(),
            style: 0,
            group: 0,
            points: vec![p(1.0), p(2.0), p(4.0)],
        },
    ];
    let path = dir.join("single-axis.svg");
    render_along_chart("GPU", axis("Elements{io}"), &series, &path).unwrap();
    let svg = svg_doc(&path);
    let texts = svg_texts(&svg);
    assert!(!texts.contains(&"ref".to_string()), "{texts:?}");
    assert!(texts.contains(&"compare".to_string()), "{texts:?}");
    assert!(texts.contains(&"reference".to_string()), "{texts:?}");
    assert_eq!(
        svg.matches("<circle").count(),
        6 + 2,
        "markers plus the style key's two handles"
    );
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let dir = Scratch::new("plot");
    for ext in ["png", "svg"] {
        render_summary_chart(&[], "", false, &dir.join(format!("empty.{ext}"))).unwrap();
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
            &dir.join(format!("odd.{ext}")),
        )
        .unwrap();
        let same = vec![entry("a", 0.0, "SAME", "a"), entry("b", 0.0, "SAME", "a")];
        render_summary_chart(&same, "zero", false, &dir.join(format!("same.{ext}"))).unwrap();

        render_along_chart("", axis(""), &[], &dir.join(format!("none.{ext}"))).unwrap();
        let junk = vec![
            AlongSeries {
                label: "empty".into(),
                side: COMPARE_KEY.into(),
                style: 1,
                group: 0,
                points: vec![],
            },
            AlongSeries {
                label: "bad".into(),
                side: REFERENCE_KEY.into(),
                style: 0,
                group: 0,
                points: vec![
                    AlongPoint {
                        x: f64::NAN,
                        time: 1.0,
                        noise: None,
                        range: None,
                    },
                    AlongPoint {
                        x: -1.0,
                        time: 1.0,
                        noise: Some(0.1),
                        range: None,
                    },
                    AlongPoint {
                        x: 1.0,
                        time: 0.0,
                        noise: Some(f64::INFINITY),
                        range: None,
                    },
                    AlongPoint {
                        x: 1e300,
                        time: 1e-300,
                        noise: Some(1e300),
                        range: None,
                    },
                ],
            },
            AlongSeries {
                label: "one".into(),
                side: COMPARE_KEY.into(),
                style: 1,
                group: 0,
                points: vec![AlongPoint {
                    x: 4.0,
                    time: 2e-5,
                    noise: Some(0.01),
                    range: None,
                }],
            },
            AlongSeries {
                label: "flat".into(),
                side: COMPARE_KEY.into(),
                style: 1,
                group: 0,
                points: vec![
                    AlongPoint {
                        x: 1000.0,
                        time: 5.1e-6,
                        noise: Some(0.0),
                        range: None,
                    },
                    AlongPoint {
                        x: 1001.0,
                        time: 5.11e-6,
                        noise: Some(0.0),
                        range: None,
                    },
                ],
            },
        ];
        render_along_chart("t", pow2("N"), &junk, &dir.join(format!("junk.{ext}"))).unwrap();
        let many: Vec<AlongSeries> = (0..200)
            .map(|i| AlongSeries {
                label: format!("S{i}"),
                side: format!("side {}", i % 2),
                style: i % 2,
                group: i / 2,
                points: vec![AlongPoint {
                    x: 1.0 + i as f64,
                    time: 1e-5,
                    noise: None,
                    range: None,
                }],
            })
            .collect();
        render_along_chart("many", axis("N"), &many, &dir.join(format!("many.{ext}"))).unwrap();
    }
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
    let dir = Scratch::new("plot");
    let bad = dir.join("sub/plot.pdf");
    let err = render_summary_chart(&sample_entries(), "t", false, &bad).unwrap_err();
    assert_eq!(
        err,
        format!(
            "failed to write comparison plot to '{}': Format 'pdf' is not supported (supported formats: png, svg)",
            bad.display()
        )
    );
    assert!(!dir.join("sub").exists(), "nothing created for a bad name");
    let none = dir.join("plot");
    let err = render_along_chart("t", axis("N"), &along_series(), &none).unwrap_err();
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
    let supported =
        "--plot-along-output supports template fields {axis}, {benchmark}, {device}, {pair}; got ";
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
fn repeated_outputs_get_copy_names() {
    let dir = Scratch::new("plot");
    let plot = dir.join("plot.png").to_string_lossy().into_owned();
    fs::write(dir.join("plot-copy-1.png"), "").unwrap();
    let mut paths = OutputPaths::new();
    assert_eq!(
        paths.claim(&plot, PlotKind::Along),
        (plot.clone(), None),
        "an existing file is reused on first use"
    );
    // A copy left by an earlier run is replaced, not skipped: reruns
    // write the same names.
    let (second, warning) = paths.claim(&plot, PlotKind::Along);
    assert_eq!(second, dir.join("plot-copy-1.png").to_string_lossy());
    assert_eq!(
        warning,
        Some(format!(
            "Warning: plot-along output '{plot}' is unavailable; writing to '{second}' instead."
        ))
    );
    let (third, _) = paths.claim(&plot, PlotKind::Along);
    assert_eq!(third, dir.join("plot-copy-2.png").to_string_lossy());
    let (_, summary_warning) =
        paths.claim(&format!("{}/./plot.png", dir.display()), PlotKind::Summary);
    assert!(
        summary_warning
            .unwrap()
            .starts_with("Warning: comparison plot output '"),
        "normalized paths collide"
    );
    assert_eq!(numbered_path("dir/plot.png", 3), "dir/plot-3.png");
    assert_eq!(numbered_path("plot", 1), "plot-1");
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
fn percent_tick_labels_do_not_overlap() {
    // The example data's range, whose labels need three decimals.
    let entries: Vec<SummaryEntry> = [-0.00046, 0.00035, 0.00157, 0.00002]
        .iter()
        .enumerate()
        .map(|(i, &f)| {
            entry(
                &format!("copy_sweep_grid_shape | BlockSize=2^{i}"),
                f,
                "AMBG",
                "c",
            )
        })
        .collect();
    let dir = Scratch::new("plot");
    let path = dir.join("ticks.svg");
    render_summary_chart(&entries, "t", false, &path).unwrap();
    let svg = svg_doc(&path);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mut ticks: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| n.text().is_some_and(|t| t.trim().ends_with('%')))
        .map(|n| n.attribute("x").unwrap().parse().unwrap())
        .collect();
    ticks.sort_by(f64::total_cmp);
    assert!(ticks.len() >= 3, "{ticks:?}");
    // A label like "−0.050%" is about 95 px wide at 10 pt and 150 dpi.
    assert!(
        ticks.windows(2).all(|w| w[1] - w[0] > 100.0),
        "tick labels overlap: {ticks:?}"
    );
}

#[test]
fn markup_in_names_stays_text_in_svg() {
    let dir = Scratch::new("plot");
    let name = "b<x>&\"y\" 'z'";
    let path = dir.join("markup.svg");
    render_summary_chart(&[entry(name, 0.1, "SLOW", name)], name, false, &path).unwrap();
    let texts = svg_texts(&svg_doc(&path));
    assert_eq!(
        texts.iter().filter(|t| t.as_str() == name).count(),
        2,
        "{texts:?}"
    );
    let series = vec![AlongSeries {
        label: name.into(),
        side: COMPARE_KEY.into(),
        style: 1,
        group: 0,
        points: vec![
            AlongPoint {
                x: 1.0,
                time: 1e-5,
                noise: None,
                range: None,
            },
            AlongPoint {
                x: 2.0,
                time: 2e-5,
                noise: None,
                range: None,
            },
        ],
    }];
    let path = dir.join("markup-along.svg");
    render_along_chart(name, axis(name), &series, &path).unwrap();
    let texts = svg_texts(&svg_doc(&path));
    assert_eq!(
        texts.iter().filter(|t| t.as_str() == name).count(),
        3,
        "{texts:?}"
    );
}

#[test]
fn a_single_row_has_its_label_bar_and_frame() {
    let dir = Scratch::new("plot");
    let path = dir.join("one.svg");
    render_summary_chart(
        &[entry("bench | N=2^10", -0.05, "FAST", "bench")],
        "t",
        false,
        &path,
    )
    .unwrap();
    let svg = svg_doc(&path);
    assert!(svg_texts(&svg).contains(&"bench | N=2^10".to_string()));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rect_height = |fill: &str| {
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
            .map(|n| n.attribute("height").unwrap().parse::<f64>().unwrap())
            .fold(0.0, f64::max)
    };
    // 600 px canvas: the bar fills 80 % of the one row, the frame the plot.
    assert!(rect_height("#008000") > 250.0, "{}", rect_height("#008000"));
    let frame = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("stroke") == Some("#000000"))
        .map(|n| n.attribute("height").unwrap().parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    assert!(frame > 350.0, "frame height {frame}");
}
