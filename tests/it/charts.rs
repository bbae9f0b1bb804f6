//! `--plot` and `--plot-along` on the built binary, with NVBench results
//! written by the tests: titles, legends, axis labels, row labels of large
//! and multi-GPU inputs, series colours and pow2 ticks, and the messages.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Output;

use crate::util::{Bench, Doc, Scratch, State, stderr};

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("charts-{name}"))
}

/// Runs the binary in `dir`, which must exit 0.
fn run(dir: &Path, args: &[&str]) -> Output {
    let output = crate::util::run(dir, args);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    output
}

/// A state whose GPU time is `mean` seconds with 0.2 % noise.
fn state(device: i64, t: &str, exponent: u32, mean: f64) -> State {
    timed(
        State::on(device)
            .at("T", t)
            .at("Elements{io}", 1u64 << exponent),
        mean,
    )
}

/// `state` timed at `mean` seconds with 0.2 % noise.
fn timed(state: State, mean: f64) -> State {
    let sd = mean * 0.002;
    state
        .float("nv/cold/time/gpu/min", mean - 2.0 * sd)
        .float("nv/cold/time/gpu/max", mean + 2.0 * sd)
        .float("nv/cold/time/gpu/mean", mean)
        .float("nv/cold/time/gpu/stdev/absolute", sd)
        .float("nv/cold/time/gpu/stdev/relative", 0.002)
        .float("nv/cold/sm_clock_rate/mean", 1.98e9)
        .float("nv/cold/sm_clock_rate/stdev/relative", 0.001)
}

/// Results of `benchmarks` benchmarks on `devices` GPUs named `GPU-<id>`,
/// each with `T` in {F32, F64} and `exponents` pow2 `Elements{io}` values
/// from 2^10; `factor(benchmark, state index)` scales the times.
fn results(
    benchmarks: usize,
    exponents: u32,
    devices: i64,
    factor: &dyn Fn(usize, usize) -> f64,
) -> Doc {
    let mut doc = Doc::new();
    for id in 0..devices {
        doc = doc.device(id, &format!("GPU-{id}"));
    }
    for b in 0..benchmarks {
        let mut states = Vec::new();
        for device in 0..devices {
            for t in ["F32", "F64"] {
                for e in 10..10 + exponents {
                    let base = 2e-6 + (1u64 << e) as f64 * 4e-12;
                    let time = base * if t == "F32" { 1.0 } else { 1.9 };
                    states.push(state(device, t, e, time * factor(b, states.len())));
                }
            }
        }
        let bench = Bench::new(&format!("bench_{b}"))
            .axis("T", "type")
            .pow2_axis("Elements{io}");
        doc = doc.bench(bench.states(states));
    }
    doc
}

/// Writes a reference and a compare file: every third state slower (by
/// 10 % in the first benchmark, 2 % more in each next one), every third
/// 10 % faster, the rest unchanged.
fn write_pair(dir: &Path, benchmarks: usize, exponents: u32, devices: i64) {
    let reference = results(benchmarks, exponents, devices, &|_, _| 1.0);
    let compare = results(benchmarks, exponents, devices, &|b, i| {
        [1.0, 1.1 + 0.02 * b as f64, 0.9][i % 3]
    });
    std::fs::write(dir.join("ref.json"), reference.text()).unwrap();
    std::fs::write(dir.join("cmp.json"), compare.text()).unwrap();
}

fn svg_texts(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

/// Row labels are `bench_B | T=.. Elements{io}=2^E`.
fn row_labels(texts: &[String]) -> Vec<&String> {
    texts.iter().filter(|t| t.starts_with("bench_")).collect()
}

#[test]
fn summary_chart_has_title_legend_axis_label_and_every_row() {
    let dir = scratch("summary");
    write_pair(&dir, 2, 3, 1);
    let out = run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "summary.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Saved comparison plot to summary.svg"),
        "{stderr}"
    );
    let texts = svg_texts(&dir.join("summary.svg"));
    assert!(
        texts.contains(&"GPU timing change - GPU-0".to_string()),
        "{texts:?}"
    );
    for legend in ["SLOW", "FAST", "SAME"] {
        assert!(texts.contains(&legend.to_string()), "legend {legend}");
    }
    assert!(
        texts.contains(&"GPU time change, compare vs reference (negative = faster)".to_string()),
        "{texts:?}"
    );
    assert_eq!(row_labels(&texts).len(), 12, "{texts:?}");
    assert!(texts.contains(&"bench_1 | T=F64 Elements{io}=2^12".to_string()));
}

#[test]
fn every_row_of_1600_rows_is_labelled_across_numbered_files() {
    let dir = scratch("rows1600");
    // 20 benchmarks x 2 types x 40 sizes
    write_pair(&dir, 20, 40, 1);
    let out = run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "plots/all.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "Comparison plot has 1600 rows: splitting it into 8 charts of at most 200 rows, \
             plots/all-1.svg to plots/all-8.svg"
        ),
        "{stderr}"
    );
    let mut labels = BTreeSet::new();
    let mut tick_sets = BTreeSet::new();
    for part in 1..=8 {
        let path = dir.join(format!("plots/all-{part}.svg"));
        assert!(
            stderr.contains(&format!("Saved comparison plot to plots/all-{part}.svg")),
            "{stderr}"
        );
        let texts = svg_texts(&path);
        assert!(
            texts.contains(&format!("GPU timing change - GPU-0 (part {part} of 8)")),
            "{texts:?}"
        );
        let rows = row_labels(&texts);
        assert_eq!(rows.len(), 200, "part {part}");
        let ticks: Vec<&String> = texts.iter().filter(|t| t.ends_with('%')).collect();
        assert!(ticks.len() >= 3, "{texts:?}");
        tick_sets.insert(format!("{ticks:?}"));
        labels.extend(rows.into_iter().cloned());
    }
    assert_eq!(
        tick_sets.len(),
        1,
        "the parts share one x scale: {tick_sets:?}"
    );
    assert!(!dir.join("plots/all.svg").exists());
    for b in 0..20 {
        for t in ["F32", "F64"] {
            for e in 10..50 {
                let label = format!("bench_{b} | T={t} Elements{{io}}=2^{e}");
                assert!(labels.contains(&label), "missing {label}");
            }
        }
    }
}

#[test]
fn default_output_keeps_the_saved_line_on_stdout() {
    let dir = scratch("default");
    write_pair(&dir, 1, 2, 1);
    let out = run(&dir, &["--plot", "ref.json", "cmp.json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("\n\nSaved comparison plot to nvbench_compare.png\n"),
        "{stdout}"
    );
    let png = std::fs::read(dir.join("nvbench_compare.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn rows_of_a_multi_gpu_file_carry_their_device() {
    let dir = scratch("multigpu");
    write_pair(&dir, 1, 2, 2);
    run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "multi.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let texts = svg_texts(&dir.join("multi.svg"));
    let rows: Vec<&String> = texts.iter().filter(|t| t.contains("=2^")).collect();
    assert_eq!(rows.len(), 8, "{texts:?}");
    for device in ["0: GPU-0", "1: GPU-1"] {
        // The one benchmark is said once, under the title.
        let label = format!("T=F32 Elements{{io}}=2^10 | device {device}");
        assert!(rows.contains(&&label), "missing {label}: {rows:?}");
    }
    let title = texts.iter().position(|t| t == "GPU timing change");
    assert!(
        title.is_some(),
        "two device names: no device in the title: {texts:?}"
    );
    assert_eq!(texts[title.unwrap() + 1], "bench_0", "the subtitle");
}

/// Stroke colours of `<polyline>`s, each with the number of polylines
/// through `points` points (solid lines) and of others (dashes).
fn line_colours(path: &Path, points: usize) -> BTreeMap<String, (usize, usize)> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut colours: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for line in doc.descendants().filter(|n| n.has_tag_name("polyline")) {
        let (Some(stroke), Some(line_points)) =
            (line.attribute("stroke"), line.attribute("points"))
        else {
            continue;
        };
        let entry = colours.entry(stroke.to_string()).or_default();
        if line_points.split_whitespace().count() == points {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    colours
}

/// Charts of one run aimed at one name get `-copy-N` names; a rerun writes
/// the same names again instead of adding copies beside them.
#[test]
fn reruns_reuse_the_copy_names_of_along_charts() {
    let dir = scratch("along-rerun");
    write_pair(&dir, 3, 3, 1);
    let args = [
        "--plot-along",
        "Elements{io}",
        "--plot-along-output",
        "along.svg",
        "ref.json",
        "cmp.json",
    ];
    let charts = || {
        let mut names = crate::util::entries(&dir);
        names.retain(|name| name.ends_with(".svg"));
        names
    };
    run(&dir, &args);
    let first = charts();
    assert_eq!(first, ["along-copy-1.svg", "along-copy-2.svg", "along.svg"]);
    run(&dir, &args);
    run(&dir, &args);
    assert_eq!(charts(), first);
}

#[test]
fn along_chart_pairs_share_a_colour_with_pow2_ticks_and_a_named_title() {
    let dir = scratch("along");
    write_pair(&dir, 1, 9, 2);
    let out = run(
        &dir,
        &[
            "--plot-along",
            "Elements{io}",
            "--plot-along-output",
            "along-{device}.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    for device in 0..2 {
        assert!(
            stderr.contains(&format!("Saved plot-along output to along-{device}.svg")),
            "{stderr}"
        );
        let path = dir.join(format!("along-{device}.svg"));
        let texts = svg_texts(&path);
        assert!(
            texts.contains(&format!("bench_0 - GPU-{device} (device {device})")),
            "{texts:?}"
        );
        // A colour a type; the line style tells the sides apart.
        for legend in ["T = F32", "T = F64", "compare", "reference"] {
            assert!(texts.contains(&legend.to_string()), "legend {legend}");
        }
        for tick in ["2¹⁰", "2¹²", "2¹⁴", "2¹⁶", "2¹⁸"] {
            assert!(texts.contains(&tick.to_string()), "tick {tick}: {texts:?}");
        }
        // Two colours, each drawn solid (compare) and dashed (reference).
        let colours = line_colours(&path, 9);
        let series: Vec<_> = colours
            .iter()
            // Grid lines are white, the style key's handles gray.
            .filter(|(colour, _)| !["#FFFFFF", "#595959"].contains(&colour.as_str()))
            .collect();
        assert_eq!(series.len(), 2, "{colours:?}");
        for (colour, (solid, dashes)) in series {
            assert_eq!(*solid, 1, "{colour}: one solid compare line");
            assert!(*dashes > 10, "{colour}: a dashed reference line");
        }
    }
}

/// `(fill, cx, cy)` of the markers drawn inside the plot (the darkgrid
/// face), so legend handles outside it do not count.
fn plot_markers(path: &Path) -> Vec<(String, f64, f64)> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let number = |n: &roxmltree::Node, name: &str| -> f64 {
        n.attribute(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    let face = doc
        .descendants()
        .find(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#EAEAF2"))
        .expect("the plot face");
    let (x0, y0) = (number(&face, "x"), number(&face, "y"));
    let (x1, y1) = (x0 + number(&face, "width"), y0 + number(&face, "height"));
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            let fill = n.attribute("fill").unwrap_or_default().to_string();
            (fill, number(&n, "cx"), number(&n, "cy"))
        })
        .filter(|(_, x, y)| (x0..=x1).contains(x) && (y0..=y1).contains(y))
        .collect()
}

#[test]
fn every_measured_point_is_drawn_even_when_the_other_side_has_none() {
    // The example's compare run skipped F64 at 2^26 on device 1 (`????`):
    // its reference point is drawn all the same.
    let dir = scratch("measured");
    let example = crate::util::project("testdata/examples");
    let (reference, compare) = (example.join("reference.json"), example.join("compare.json"));
    run(
        &dir,
        &[
            "--plot-along",
            "Elements{io}",
            "--plot-along-output",
            "along-{device}.svg",
            reference.to_str().unwrap(),
            compare.to_str().unwrap(),
        ],
    );
    for (device, measured) in [(0, 48), (1, 47)] {
        let markers = plot_markers(&dir.join(format!("along-{device}.svg")));
        assert_eq!(markers.len(), measured, "device {device}: {markers:?}");
        // Every type has a marker at the largest size, 2^26.
        let right = markers.iter().map(|m| m.1).fold(f64::MIN, f64::max);
        let fills: BTreeSet<&str> = markers
            .iter()
            .filter(|m| (m.1 - right).abs() < 0.5)
            .map(|m| m.0.as_str())
            .collect();
        assert_eq!(fills.len(), 4, "device {device}: {fills:?}");
    }
}

/// The x tick labels of a summary chart, left to right.
fn x_tick_labels(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut ticks: Vec<(f64, String)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let t = n.text()?.trim();
            let x = n.attribute("x")?.parse().ok()?;
            t.ends_with(" %").then(|| (x, t.to_string()))
        })
        .collect();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    ticks.into_iter().map(|(_, t)| t).collect()
}

#[test]
fn bars_start_at_zero_with_few_round_distinct_ticks() {
    // Every state 7 % slower: the reference's axis left 0 out and read
    // `7.00000%` three times.
    let dir = scratch("ticks");
    let reference = results(1, 6, 1, &|_, _| 1.0);
    let compare = results(1, 6, 1, &|_, _| 1.07);
    std::fs::write(dir.join("ref.json"), reference.text()).unwrap();
    std::fs::write(dir.join("cmp.json"), compare.text()).unwrap();
    run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "slow.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(
        x_tick_labels(&dir.join("slow.svg")),
        vec!["0 %", "2 %", "4 %", "6 %"]
    );
    // Changes of both signs: ticks either side of 0, each label once.
    write_pair(&dir, 1, 6, 1);
    run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "both.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let ticks = x_tick_labels(&dir.join("both.svg"));
    assert_eq!(
        ticks,
        vec!["\u{2212}10 %", "\u{2212}5 %", "0 %", "5 %", "10 %"]
    );
}

/// The lines of the row labels (right-aligned texts), top to bottom.
fn row_label_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("end"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

/// Whether `lines` hold each label's parts in order, each part whole on
/// one line (a label may wrap between its parts).
fn labels_in_order(lines: &[String], labels: &[Vec<String>]) -> Result<(), String> {
    let mut at = 0;
    for label in labels {
        for part in label {
            while at < lines.len() && !lines[at].contains(part.as_str()) {
                at += 1;
            }
            if at == lines.len() {
                return Err(format!("{part:?} of {label:?} not found in order"));
            }
        }
        at += 1;
    }
    Ok(())
}

#[test]
fn labels_keep_what_differs_and_say_what_all_rows_share_once() {
    // A CUB-like sweep: every label used to read
    // `cub.bench.radix_sort.keys.base.tuned | T{ct}=I16 OffsetT{ct}…`.
    let dir = scratch("cub");
    let doc = |factor: f64| {
        let mut states = Vec::new();
        for t in ["I8", "I16", "I32", "I64", "I128"] {
            for e in [16, 20, 24, 28] {
                for entropy in ["1.000", "0.544", "0.201", "0.000"] {
                    let state = State::on(0)
                        .at("T{ct}", t)
                        .at("OffsetT{ct}", "I32")
                        .at("Elements{io}", 1u64 << e)
                        .at("Entropy", entropy);
                    let time = 1e-5 * (1u64 << (e - 16)) as f64;
                    states.push(timed(state, time * factor));
                }
            }
        }
        let bench = Bench::new("cub.bench.radix_sort.keys.base.tuned")
            .axis("T{ct}", "type")
            .axis("OffsetT{ct}", "type")
            .pow2_axis("Elements{io}")
            .axis("Entropy", "float64");
        Doc::new()
            .device(0, "NVIDIA H100 80GB HBM3")
            .bench(bench.states(states))
    };
    std::fs::write(dir.join("ref.json"), doc(1.0).text()).unwrap();
    std::fs::write(dir.join("cmp.json"), doc(1.03).text()).unwrap();
    run(
        &dir,
        &["--plot", "--plot-output", "cub.svg", "ref.json", "cmp.json"],
    );
    let path = dir.join("cub.svg");
    let texts = svg_texts(&path);
    let title = texts
        .iter()
        .position(|t| t == "GPU timing change - NVIDIA H100 80GB HBM3")
        .expect("the title");
    assert_eq!(
        texts[title + 1],
        "cub.bench.radix_sort.keys.base.tuned | OffsetT{ct}=I32",
        "what every row shares, once"
    );
    let lines = row_label_lines(&path);
    assert_eq!(lines.len(), 80, "one line a row: {lines:?}");
    // Float axis values as the tables show them.
    assert_eq!(lines[0], "T{ct}=I8 Elements{io}=2^16 Entropy=1");
    assert_eq!(lines[79], "T{ct}=I128 Elements{io}=2^28 Entropy=0");
    let distinct: BTreeSet<&String> = lines.iter().collect();
    assert_eq!(distinct.len(), 80, "every row tells itself apart");
}

#[test]
fn long_labels_wrap_and_widen_the_chart_before_anything_is_cut() {
    let dir = scratch("long");
    let layouts = [
        "row_major_with_padding_for_coalesced_loads_of_sixteen_byte_vectors",
        "column_major_with_padding_for_coalesced_loads_of_sixteen_byte_vectors",
    ];
    let doc = |factor: f64| {
        let mut states = Vec::new();
        for device in 0..2 {
            for layout in layouts {
                for e in [16, 20] {
                    let state = State::on(device)
                        .at("Layout", layout)
                        .at("Elements{io}", 1u64 << e);
                    states.push(timed(state, 1e-5 * factor));
                }
            }
        }
        let bench = Bench::new("transpose")
            .axis("Layout", "string")
            .pow2_axis("Elements{io}");
        Doc::new()
            .device(0, "NVIDIA H100 80GB HBM3")
            .device(1, "NVIDIA L4")
            .bench(bench.states(states))
    };
    std::fs::write(dir.join("ref.json"), doc(1.0).text()).unwrap();
    std::fs::write(dir.join("cmp.json"), doc(0.9).text()).unwrap();
    run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "long.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let path = dir.join("long.svg");
    let lines = row_label_lines(&path);
    assert!(lines.iter().all(|l| !l.contains('…')), "{lines:?}");
    assert_eq!(lines.len(), 16, "two lines a row: {lines:?}");
    let mut labels = Vec::new();
    for (device, name) in [(0, "NVIDIA H100 80GB HBM3"), (1, "NVIDIA L4")] {
        for layout in layouts {
            for e in [16, 20] {
                labels.push(vec![
                    format!("Layout={layout}"),
                    format!("Elements{{io}}=2^{e}"),
                    format!("device {device}: {name}"),
                ]);
            }
        }
    }
    labels_in_order(&lines, &labels).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let width: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    assert!(width > 1500.0, "the chart widened: {width}");
}

#[test]
fn the_example_s_devices_are_named_whole() {
    let dir = scratch("example-summary");
    let example = crate::util::project("testdata/examples");
    let (reference, compare) = (example.join("reference.json"), example.join("compare.json"));
    run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "summary.svg",
            reference.to_str().unwrap(),
            compare.to_str().unwrap(),
        ],
    );
    // Every state has a row, the `????` one (without a change) too, its
    // gap marked `n/a` beside the zero line.
    let (marks, lines): (Vec<String>, Vec<String>) = row_label_lines(&dir.join("summary.svg"))
        .into_iter()
        .partition(|line| line == "n/a");
    assert_eq!((lines.len(), marks.len()), (48, 1), "{lines:?}");
    assert_eq!(
        lines[0],
        "T=I8 Elements{io}=2^16 | device 0: NVIDIA H100 80GB HBM3"
    );
    assert_eq!(lines[47], "T=F64 Elements{io}=2^26 | device 1: NVIDIA L4");
    let texts = svg_texts(&dir.join("summary.svg"));
    assert!(texts.contains(&"copy_type_sweep".to_string()), "{texts:?}");
}

/// Texts drawn below the plot face (the legend's), top to bottom.
fn texts_below_the_plot(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let number = |n: &roxmltree::Node, name: &str| -> f64 {
        n.attribute(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    let face = doc
        .descendants()
        .find(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#EAEAF2"))
        .expect("the plot face");
    let bottom = number(&face, "y") + number(&face, "height");
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("start"))
        .filter(|n| number(n, "y") > bottom)
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

#[test]
fn the_along_legend_sits_below_the_plot_with_every_entry_whole() {
    // CUB-like tuning axes: the entries used to be cut at `ItemsPerThrea…`,
    // losing the ` ref` that told the sides apart, and covered the curves.
    let dir = scratch("along-legend");
    let doc = |factor: f64| {
        let mut states = Vec::new();
        for items in [7, 11, 15] {
            for threads in [128, 256] {
                for e in [16, 20, 24] {
                    let state = State::on(0)
                        .at("ItemsPerThread", items)
                        .at("BlockThreads", threads)
                        .at("Algorithm", "warp_scans_with_lookback")
                        .at("Elements{io}", 1u64 << e);
                    let time = 1e-5 * (1u64 << (e - 16)) as f64 * (1.0 + items as f64 / 100.0);
                    states.push(timed(state, time * factor));
                }
            }
        }
        let bench = Bench::new("cub.bench.scan.exclusive.sum.base")
            .axis("ItemsPerThread", "int64")
            .axis("BlockThreads", "int64")
            .axis("Algorithm", "string")
            .pow2_axis("Elements{io}");
        Doc::new()
            .device(0, "NVIDIA L4")
            .bench(bench.states(states))
    };
    std::fs::write(dir.join("ref.json"), doc(1.0).text()).unwrap();
    std::fs::write(dir.join("cmp.json"), doc(0.95).text()).unwrap();
    run(
        &dir,
        &[
            "--plot-along",
            "Elements{io}",
            "--plot-along-output",
            "along.svg",
            "ref.json",
            "cmp.json",
        ],
    );
    let path = dir.join("along.svg");
    let legend = texts_below_the_plot(&path);
    let mut expected: Vec<String> = Vec::new();
    for items in [7, 11, 15] {
        for threads in [128, 256] {
            expected.push(format!(
                "ItemsPerThread = {items}, BlockThreads = {threads}"
            ));
        }
    }
    expected.extend(["compare".to_string(), "reference".to_string()]);
    assert_eq!(legend, expected, "whole entries, in order, below the plot");
    let texts = svg_texts(&path);
    assert!(
        texts.contains(&"Algorithm = warp_scans_with_lookback".to_string()),
        "the value every series shares is said once: {texts:?}"
    );
    assert!(texts.iter().all(|t| !t.contains('…')), "{texts:?}");
}

/// Two benchmarks' worth of runs for repetition mode: `T` in {F32, F64},
/// `Elements{io}` 2^10..2^13, every time scaled by `factor`.
fn repetition_run(factor: f64) -> Doc {
    results(1, 4, 1, &|_, _| factor)
}

/// `(x1, y, x2)` of the horizontal two-point lines in `stroke`.
fn horizontal_lines(path: &Path, stroke: &str) -> Vec<(f64, f64, f64)> {
    two_point_lines(path, stroke)
        .into_iter()
        .filter(|((_, y1), (_, y2))| y1 == y2)
        .map(|((x1, y), (x2, _))| (x1.min(x2), y, x1.max(x2)))
        .collect()
}

/// The two-point `<polyline>`s drawn in `stroke`.
fn two_point_lines(path: &Path, stroke: &str) -> Vec<((f64, f64), (f64, f64))> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(stroke))
        .filter_map(|n| {
            let points: Vec<(f64, f64)> = n
                .attribute("points")?
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect();
            (points.len() == 2).then(|| (points[0], points[1]))
        })
        .collect()
}

/// The x pixel of a change (0.05 = 5 %) on a summary chart, from the
/// positions of its first and last tick labels.
fn change_to_pixel(path: &Path) -> impl Fn(f64) -> f64 {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let ticks: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let label = n
                .text()?
                .trim()
                .strip_suffix(" %")?
                .replace('\u{2212}', "-");
            Some((
                label.parse::<f64>().ok()? / 100.0,
                n.attribute("x")?.parse().ok()?,
            ))
        })
        .collect();
    assert!(ticks.len() >= 2, "{ticks:?}");
    let ((v0, x0), (v1, x1)) = (ticks[0], ticks[ticks.len() - 1]);
    move |change| x0 + (change - v0) / (v1 - v0) * (x1 - x0)
}

#[test]
fn repetition_mode_draws_merged_centers_with_the_runs_hulls() {
    let dir = scratch("repetitions");
    // Reference runs 1.00 and 1.02, compare runs 1.10 and 1.12 (times the
    // base time), each with the interval mean ± 0.2 %.
    for (name, factor) in [("r1", 1.0), ("r2", 1.02), ("c1", 1.10), ("c2", 1.12)] {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(path, repetition_run(factor).text()).unwrap();
    }
    let out = run(
        &dir,
        &[
            "--plot",
            "--plot-output",
            "summary.svg",
            "--plot-along",
            "Elements{io}",
            "--plot-along-output",
            "along.svg",
            "r1.json",
            "r2.json",
            "--vs",
            "c1.json",
            "c2.json",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    for saved in [
        "Saved comparison plot to summary.svg",
        "Saved plot-along output to along.svg",
    ] {
        assert!(stderr.contains(saved), "{stderr}");
    }
    let summary = dir.join("summary.svg");
    let texts = svg_texts(&summary);
    for text in [
        "GPU time change of the merged centers, compare vs reference (negative = faster)",
        "change the runs' intervals allow",
    ] {
        assert!(texts.contains(&text.to_string()), "{text}: {texts:?}");
    }
    // Each of the 8 rows has a whisker from the lowest change the hulls
    // allow to the highest: 1.10 * 0.998 / (1.02 * 1.002) - 1 = +7.4 %
    // to 1.12 * 1.002 / (1.00 * 0.998) - 1 = +12.4 %.
    let pixel = change_to_pixel(&summary);
    let lines = horizontal_lines(&summary, "#000000");
    // The x axis is the longest line; row ticks are short; the legend's
    // whisker is below the axis.
    let axis = lines
        .iter()
        .max_by(|a, b| (a.2 - a.0).total_cmp(&(b.2 - b.0)))
        .unwrap()
        .1;
    let whiskers: Vec<_> = lines
        .iter()
        .filter(|l| l.1 < axis && l.2 - l.0 > 10.0)
        .collect();
    assert_eq!(whiskers.len(), 8, "{lines:?}");
    let (low, high) = (
        1.10 * 0.998 / (1.02 * 1.002) - 1.0,
        1.12 * 1.002 / 0.998 - 1.0,
    );
    for (x1, _, x2) in whiskers {
        assert!((x1 - pixel(low)).abs() < 2.0, "{x1} vs {}", pixel(low));
        assert!((x2 - pixel(high)).abs() < 2.0, "{x2} vs {}", pixel(high));
    }
    // The along chart: every side's merged center is drawn, each with a
    // vertical whisker over its hull, and the legend says what they are.
    let along = dir.join("along.svg");
    assert_eq!(
        plot_markers(&along).len(),
        2 * 2 * 4,
        "{:?}",
        plot_markers(&along)
    );
    let texts = svg_texts(&along);
    assert!(
        texts.contains(&"range of the runs' intervals".to_string()),
        "{texts:?}"
    );
    for colour in ["#4C72B0", "#DD8452"] {
        let vertical = two_point_lines(&along, colour)
            .into_iter()
            .filter(|((x1, y1), (x2, y2))| x1 == x2 && y1 != y2)
            .count();
        assert_eq!(vertical, 2 * 4, "{colour}: a whisker a side and state");
    }
}
