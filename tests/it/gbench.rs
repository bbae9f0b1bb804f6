//! Google Benchmark input on the built binary, with result files written
//! here in the library's layout: detection and `--format`, the errors,
//! units, errored repetitions, the time-only confirmation and
//! `too_few_repetitions`, `--vs` merging files as processes, the U test in
//! the explain view and the JSON, `--display gbench`'s option checks, and
//! the run-name parser on every real file in `../shared/gbench`.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::util::{Need, Scratch, files_under, require, run, shared_dir, stderr, stdout};
use nvbench_compare::loading::gbench::names::RunName;

/// A file of benchmarks `(run_name, repetition times)` in `unit`.
fn gbench(benches: &[(&str, &[f64])], unit: &str) -> Value {
    let mut entries = Vec::new();
    for (family, (name, times)) in benches.iter().enumerate() {
        for (index, time) in times.iter().enumerate() {
            entries.push(json!({
                "name": name, "family_index": family, "per_family_instance_index": 0,
                "run_name": name, "run_type": "iteration", "repetitions": times.len(),
                "repetition_index": index, "threads": 1, "iterations": 1000,
                "real_time": time, "cpu_time": time, "time_unit": unit,
            }));
        }
    }
    json!({
        "context": {"host_name": "host", "num_cpus": 8, "caches": [], "library_build_type": "release",
                    "json_schema_version": 1},
        "benchmarks": entries,
    })
}

/// Writes the file into the scratch directory; its name, for runs there.
fn write(dir: &Scratch, name: &str, value: &Value) -> String {
    dir.write(name, serde_json::to_vec_pretty(value).unwrap());
    name.to_string()
}

/// Ten repetitions around `center` with a 0.2 % spread.
fn ten(center: f64) -> Vec<f64> {
    (0..10)
        .map(|i| center * (1.0 + 0.0004 * (i as f64 - 4.5)))
        .collect()
}

/// `(status, reason code)` of each state of a `--json -` run.
fn decisions(output: &Output) -> Vec<(String, String)> {
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(output), stderr(output)));
    report["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["status"].as_str().unwrap().to_string(),
                s["reason"]["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pair(dir: &Scratch, reference: &Value, compare: &Value) -> (String, String) {
    (
        write(dir, "ref.json", reference),
        write(dir, "cmp.json", compare),
    )
}

fn owned(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_gbench_file_is_told_by_its_shape_and_decided_in_time_alone() {
    let dir = Scratch::new("gbench-decide");
    let (same, slow, fast) = (ten(100.0), ten(120.0), ten(80.0));
    let reference = gbench(
        &[("BM_same/8", &same), ("BM_slow", &same), ("BM_fast", &same)],
        "ns",
    );
    let compare = gbench(
        &[("BM_same/8", &same), ("BM_slow", &slow), ("BM_fast", &fast)],
        "ns",
    );
    let (r, c) = pair(&dir, &reference, &compare);
    let output = run(&dir, &["--json", "-", &r, &c]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        decisions(&output),
        owned(&[
            ("SAME", "same_without_clock_rate"),
            ("SLOW", "clear_gap_time_only"),
            ("FAST", "clear_gap_time_only"),
        ])
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["thresholds"]["clear_gap_without_clock"], "confirm");
    let p = report["states"][1]["utest_p"].as_f64().unwrap();
    assert!(p < 1e-3, "{p}");
    // strict: never confirmed without a clock.
    let strict = run(&dir, &["--json", "-", "--preset", "strict", &r, &c]);
    assert_eq!(
        decisions(&strict)[1],
        ("AMBG".into(), "missing_clock_rate".into())
    );
    // The same through a config key, and --format gbench says the same.
    dir.write(
        "c.toml",
        "version = 1\n[clear_gap]\nwithout_clock = \"ambg\"\n",
    );
    let config = "c.toml".to_string();
    let keyed = run(
        &dir,
        &[
            "--json", "-", "--config", &config, "--format", "gbench", &r, &c,
        ],
    );
    assert_eq!(
        decisions(&keyed)[2],
        ("AMBG".into(), "missing_clock_rate".into())
    );
    // The explain view shows the U test, and -b / -a select as for NVBench.
    let explain = run(
        &dir,
        &[
            "--display",
            "explain",
            "--no-color",
            "-b",
            "BM_same",
            "-a",
            "arg0=8",
            &r,
            &c,
        ],
    );
    let text = stdout(&explain);
    assert!(text.contains("U-test p"), "{text}");
    assert!(
        text.contains("# BM_same\n") && !text.contains("# BM_slow"),
        "{text}"
    );
    // The gate works on gbench input.
    let gated = run(&dir, &["--fail-on", "slow", &r, &c]);
    assert_eq!(gated.status.code(), Some(3));
}

#[test]
fn one_repetition_is_too_few_unless_a_side_has_several_files() {
    let dir = Scratch::new("gbench-reps");
    let (r, c) = pair(
        &dir,
        &gbench(&[("BM_x", &[100.0])], "ns"),
        &gbench(&[("BM_x", &[150.0])], "ns"),
    );
    let output = run(&dir, &["--json", "-", &r, &c]);
    assert_eq!(
        decisions(&output),
        owned(&[("AMBG", "too_few_repetitions")])
    );
    // Three processes a side of one repetition each (google/benchmark#1796).
    let mut args = vec!["--json".to_string(), "-".to_string()];
    for (side, base) in [("r", 100.0), ("c", 150.0)] {
        for (k, jitter) in [0.999, 1.0, 1.001].iter().enumerate() {
            let name = format!("{side}{k}.json");
            write(&dir, &name, &gbench(&[("BM_x", &[base * jitter])], "ns"));
            args.push(name);
        }
        if side == "r" {
            args.push("--vs".into());
        }
    }
    let merged = run(&dir, &args);
    let decided = decisions(&merged);
    assert_eq!(decided[0].0, "SLOW", "{decided:?} {}", stderr(&merged));
    let report: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(
        report["states"][0]["repetitions"]["reference"]["reps"], 3,
        "{report}"
    );
}

#[test]
fn units_are_converted_and_failed_repetitions_dropped() {
    let dir = Scratch::new("gbench-units");
    let ns = ten(2000.0);
    let us: Vec<f64> = ns.iter().map(|t| t / 1000.0).collect();
    let mut compare = gbench(&[("BM_unit", &us), ("BM_err", &ns), ("BM_dead", &ns)], "us");
    let entries = compare["benchmarks"].as_array_mut().unwrap();
    for entry in entries.iter_mut() {
        let name = entry["name"].as_str().unwrap().to_string();
        if name == "BM_err" && entry["repetition_index"] == 0 || name == "BM_dead" {
            entry["error_occurred"] = true.into();
            entry["error_message"] = "bad input".into();
            entry["real_time"] = 0.into();
        }
        if name != "BM_unit" {
            entry["time_unit"] = "ns".into();
        }
    }
    let reference = gbench(&[("BM_unit", &ns), ("BM_err", &ns), ("BM_dead", &ns)], "ns");
    let (r, c) = pair(&dir, &reference, &compare);
    let output = run(&dir, &["--json", "-", &r, &c]);
    assert_eq!(
        decisions(&output),
        owned(&[
            ("SAME", "same_without_clock_rate"),
            ("SAME", "same_without_clock_rate"),
            ("????", "state_skipped"),
        ])
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["states"][2]["reason"]["message"],
        "compare state skipped: bad input"
    );
    assert!(
        stderr(&output).contains("1 errored or skipped repetition(s) of 1 benchmark(s) left out")
    );
    // compare.py drops the benchmark whose unit changed.
    let py = run(&dir, &["--display", "gbench", "--no-color", &r, &c]);
    assert!(!stdout(&py).contains("BM_unit "), "{}", stdout(&py));
}

#[test]
fn formats_schemas_and_listings_are_checked() {
    let dir = Scratch::new("gbench-errors");
    let g = write(&dir, "g.json", &gbench(&[("BM_x", &[1.0, 2.0])], "ns"));
    let nv = write(
        &dir,
        "nv.json",
        &crate::util::Doc::n_sweep("GPU", "b", &[(1, 1e-3)], |m| {
            crate::util::Times::around(m, [0.99, 1.0, 1.01])
        })
        .json(),
    );
    let mixed = run(&dir, &[&g, &nv]);
    assert_eq!(mixed.status.code(), Some(1));
    assert!(
        stderr(&mixed).contains("cannot compare files of two formats"),
        "{}",
        stderr(&mixed)
    );
    let forced = run(&dir, &["--format", "nvbench", &g, &g]);
    assert_eq!(forced.status.code(), Some(1));
    let wrong = run(&dir, &["--format", "gbench", &nv, &nv]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(
        stderr(&wrong).contains("not a Google Benchmark JSON file"),
        "{}",
        stderr(&wrong)
    );
    let mut v2 = gbench(&[("BM_x", &[1.0])], "ns");
    v2["context"]["json_schema_version"] = 2.into();
    let v2 = write(&dir, "v2.json", &v2);
    let schema = run(&dir, &[&g, &v2]);
    assert_eq!(schema.status.code(), Some(1));
    assert_eq!(
        stdout(&schema),
        "In v2.json, got unsupported JSON schema version: 2, expected 1\n"
    );
    let listing = write(
        &dir,
        "list.json",
        &json!({"benchmarks": [{"name": "BM_x/8"}]}),
    );
    let listed = run(&dir, &[&g, &listing]);
    assert_eq!(listed.status.code(), Some(1));
    assert!(
        stderr(&listed).contains("--benchmark_list_tests"),
        "{}",
        stderr(&listed)
    );
    // --display gbench's own options, and what it cannot combine with.
    for args in [
        vec!["--alpha", "0.1", &g, &g],
        vec!["--display", "gbench", "--json", "out.json", &g, &g],
        vec!["--display", "gbench", &g, "--vs", &g],
    ] {
        assert_eq!(run(&dir, &args).status.code(), Some(2), "{args:?}");
    }
    let missing = run(&dir, &["--display", "gbench", &g, "nope.json"]);
    assert_eq!(missing.status.code(), Some(2));
    let dump = run(&dir, &["--dump-config", "--format", "gbench"]);
    assert!(
        stdout(&dump).contains("without_clock = \"confirm\""),
        "{}",
        stdout(&dump)
    );
}

#[test]
fn every_real_run_name_round_trips() {
    if !require(Need::Shared) {
        return;
    }
    let root = shared_dir().join("gbench");
    let files = files_under(&root, &|_| false);
    let mut names = 0;
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
    {
        let value: Value = match serde_json::from_slice(&std::fs::read(file).unwrap()) {
            Ok(value) => value,
            Err(_) => continue, // NaN literals: read by the binary, not here
        };
        for entry in value["benchmarks"].as_array().into_iter().flatten() {
            let Some(run_name) = entry["run_name"].as_str().or(entry["name"].as_str()) else {
                continue;
            };
            assert_eq!(
                RunName::parse(run_name).to_run_name(),
                run_name,
                "{}",
                file.display()
            );
            names += 1;
        }
    }
    assert!(names > 100, "only {names} names in {}", root.display());
}

#[test]
fn every_real_pair_compares() {
    if !require(Need::Shared) {
        return;
    }
    let root = shared_dir().join("gbench");
    for (a, b) in [
        (
            "kalman/results_7d24daca.json",
            "kalman/results_75a85ac8.json",
        ),
        (
            "bencode/benchmark-fbdtemme-bencode.json",
            "bencode/benchmark-jimporter-bencode.json",
        ),
        (
            "cxxgraph-bellmanford/bellmanford.json",
            "cxxgraph-bellmanford/bellmanford_optimized.json",
        ),
    ] {
        let output = run(&root, &["--json", "-", a, b]);
        assert_eq!(output.status.code(), Some(0), "{a}: {}", stderr(&output));
        let decided = decisions(&output);
        let count = |s: &str| decided.iter().filter(|(status, _)| status == s).count();
        match Path::new(a).parent().unwrap().to_str().unwrap() {
            // The mapping's expectations (spec gbench-input.md, "Which decision").
            "kalman" => assert_eq!((count("SLOW"), count("SAME"), count("AMBG")), (3, 1, 1)),
            "bencode" => assert_eq!(count("AMBG") + count("????"), 0),
            _ => assert_eq!(count("AMBG"), 19),
        }
    }
}
