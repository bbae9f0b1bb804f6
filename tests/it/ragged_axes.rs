//! States of one benchmark that do not all have one value an axis: Google
//! Benchmark families that mix `BM_x` with `BM_x/8` (or `BM_x/threads:2`,
//! `BM_x/8/16`), and NVBench states with an axis value missing or given
//! twice. Every output of every mode compares them; a row's cells line up
//! under the benchmark's axes, an axis the state lacks being an empty cell.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use serde_json::{Value, json};

use crate::util::{Bench, Doc, Need, Scratch, State, Times, require, run, shared_dir, stderr};

fn times(seconds: f64) -> Times {
    Times::around(seconds, [0.99, 0.995, 1.005])
        .max(seconds * 1.02)
        .iqr(0.01)
        .clock(1.5e9)
}

/// Benchmark `b` with axes `T` (string) and `N` (int64): a state with
/// both, one without `N`, one with `N` twice.
fn ragged_nvbench(scale: f64) -> Doc {
    let states = [
        State::on(0).at("T", "a").at("N", 1),
        State::on(0).at("T", "b"),
        State::on(0).at("T", "c").at("N", 3).at("N", 3),
    ];
    let states = states
        .into_iter()
        .zip([1e-3, 2e-3, 3e-3])
        .map(|(state, seconds)| state.times(times(seconds * scale)));
    Doc::new().device(0, "GPU").bench(
        Bench::new("b")
            .axis("T", "string")
            .axis("N", "int64")
            .states(states),
    )
}

/// A Google Benchmark file of `(run name, time in ns)`, ten repetitions
/// each.
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

/// Every output the tables feed, each a run of its own.
const OUTPUTS: [&[&str]; 11] = [
    &[],
    &["--display", "explain"],
    &["--display", "intervals"],
    &["--display", "legacy"],
    &["--display", "simple"],
    &["--json", "-"],
    &["--csv", "-"],
    &["--markdown-summary", "-"],
    &["--plot", "--plot-output", "chart.svg"],
    &["--explain-ambg", "--report-missing"],
    &["--fail-on", "slow", "--json", "gate.json"],
];

/// The ways the two sides are given: a pair, two runs a side, N-way (the
/// second runs are copies, `2-ref.json` and `2-cmp.json`).
fn modes() -> [&'static [&'static str]; 3] {
    [
        &["ref.json", "cmp.json"],
        &["ref.json", "2-ref.json", "--vs", "cmp.json", "2-cmp.json"],
        &["ref.json", "--vs", "cmp.json", "--vs", "2-cmp.json"],
    ]
}

/// Runs every output in every mode on `ref.json` and `cmp.json` in `dir`;
/// each run ends normally (0, or the gate's 3) and what should parse does.
fn every_output_compares(dir: &Scratch) {
    for name in ["ref.json", "cmp.json"] {
        std::fs::copy(dir.join(name), dir.join(format!("2-{name}"))).unwrap();
    }
    for mode in modes() {
        for output in OUTPUTS {
            let nway = mode.iter().filter(|w| **w == "--vs").count() > 1;
            if nway && (output.contains(&"legacy") || output.contains(&"simple")) {
                continue; // displays with no N-way form
            }
            let mut args: Vec<String> = vec!["--no-color".into()];
            args.extend(output.iter().map(|w| w.to_string()));
            args.extend(mode.iter().map(|w| w.to_string()));
            let out = run(dir, &args);
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(3),
                "{args:?} exited with {code:?}:\n{}",
                stderr(&out)
            );
            assert!(
                !stderr(&out).contains("panicked"),
                "{args:?}: {}",
                stderr(&out)
            );
            if output == ["--json", "-"] {
                let report: Value = serde_json::from_slice(&out.stdout).unwrap();
                // N-way reports hold their states by candidate.
                if let Some(states) = report["states"].as_array() {
                    assert_eq!(states.len(), 3, "{args:?}");
                }
            }
            if output.contains(&"gate.json") {
                let gate = std::fs::read(dir.join("gate.json")).unwrap();
                serde_json::from_slice::<Value>(&gate).unwrap();
                std::fs::remove_file(dir.join("gate.json")).unwrap();
            }
        }
    }
}

/// The cells of the table lines of `text`, trimmed (header and rows, the
/// `|---|` line left out).
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|line| line.starts_with('|') && !line.starts_with("|-"))
        .map(|line| {
            let inner = line.trim_matches('|');
            inner
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn nvbench_states_missing_or_repeating_an_axis_value_compare_in_every_output() {
    let dir = Scratch::new("ragged-nvbench");
    dir.write("ref.json", ragged_nvbench(1.0).text());
    dir.write("cmp.json", ragged_nvbench(1.001).text());
    every_output_compares(&dir);

    let out = run(
        &dir,
        &["--no-color", "--display", "legacy", "ref.json", "cmp.json"],
    );
    let rows = table_rows(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(rows[0][..3], ["T", "N", "Ref Time"]);
    // The missing value is an empty cell; the repeated one is shown once.
    let firsts: Vec<_> = rows[1..].iter().map(|r| (&r[0][..], &r[1][..])).collect();
    assert_eq!(firsts, [("a", "1"), ("b", ""), ("c", "3")]);
    assert!(
        rows.iter().all(|row| row.len() == rows[0].len()),
        "{rows:?}"
    );
    assert!(rows[2].last().unwrap().ends_with("SAME"), "{rows:?}");

    let csv = run(&dir, &["--csv", "-", "ref.json", "cmp.json"]);
    let lines: Vec<_> = std::str::from_utf8(&csv.stdout).unwrap().lines().collect();
    let header: Vec<_> = lines[0].split(',').collect();
    let n = header.iter().position(|h| *h == "N").unwrap();
    let missing: Vec<_> = lines[2].split(',').collect();
    assert_eq!((missing[n - 1], missing[n]), ("b", ""), "{}", lines[2]);
}

#[test]
fn gbench_families_mixing_arguments_compare_in_every_output() {
    let families: [&[(&str, f64)]; 3] = [
        &[("BM_x", 100.0), ("BM_x/8", 200.0)],
        &[("BM_x/8", 100.0), ("BM_x/threads:2", 200.0)],
        &[("BM_x/8", 100.0), ("BM_x/8/16", 200.0)],
    ];
    for runs in families {
        let dir = Scratch::new("ragged-gbench");
        let file = serde_json::to_vec(&gbench(runs)).unwrap();
        dir.write("ref.json", &file);
        dir.write("cmp.json", &file);
        every_output_compares_gbench(&dir, runs.len());
    }
}

/// As [`every_output_compares`], for Google Benchmark input (states are
/// counted by run).
fn every_output_compares_gbench(dir: &Scratch, states: usize) {
    for output in OUTPUTS {
        let mut args: Vec<&str> = vec!["--no-color"];
        args.extend(output);
        args.extend(["ref.json", "cmp.json"]);
        let out = run(dir, &args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        if output == ["--json", "-"] {
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(report["states"].as_array().unwrap().len(), states);
        }
    }
    let out = run(dir, &["--no-color", "ref.json", "cmp.json"]);
    let rows = table_rows(&String::from_utf8_lossy(&out.stdout));
    assert!(
        rows.iter().all(|row| row.len() == rows[0].len()),
        "{rows:?}"
    );
}

#[test]
fn google_benchmarks_own_fixture_compares_with_itself() {
    if !require(Need::Shared) {
        return;
    }
    let fixture = shared_dir().join("gbench/google-benchmark-fixtures/test2_run.json");
    let dir = Scratch::new("ragged-fixture");
    let file = std::fs::read(&fixture).unwrap();
    dir.write("ref.json", &file);
    dir.write("cmp.json", &file);
    let out = run(&dir, &["--no-color", "ref.json", "cmp.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let zero = text.split("# BM_Zero\n").nth(1).unwrap();
    let rows = table_rows(zero.split("\n# ").next().unwrap());
    assert_eq!(rows[0][0], "arg0");
    assert_eq!((&rows[1][0][..], &rows[2][0][..]), ("", "4"), "{rows:?}");
}

// ---------------------------------------------------------------------------
// Property: any mix of missing, repeated and reordered values
// ---------------------------------------------------------------------------

const AXES: [&str; 3] = ["A", "B", "C"];

/// A state's axis values as `(axis index, value)`: some axes left out,
/// some repeated, in any order.
fn state_values() -> impl Strategy<Value = Vec<(usize, u8)>> {
    prop::collection::vec((0..AXES.len(), 0u8..4), 0..5)
}

/// The cells the table shows for `values` under `axes` axes: the values
/// in their own order when there is one a axis (the reference's row),
/// else the first value of each axis or an empty cell.
fn expected_cells(values: &[(usize, u8)], axes: usize) -> Vec<String> {
    if values.len() == axes {
        return values.iter().map(|(_, v)| v.to_string()).collect();
    }
    (0..axes)
        .map(|axis| {
            let first = values.iter().find(|(a, _)| *a == axis);
            first.map_or_else(String::new, |(_, v)| v.to_string())
        })
        .collect()
}

fn ragged_doc(axes: usize, states: &[Vec<(usize, u8)>]) -> Doc {
    let mut bench = Bench::new("b");
    for name in &AXES[..axes] {
        bench = bench.axis(name, "int64");
    }
    for (index, values) in states.iter().enumerate() {
        let mut state = State::on(0);
        for (axis, value) in values {
            state = state.at(AXES[*axis], value);
        }
        let seconds = 1e-3 * (1.0 + index as f64);
        bench = bench.state(state.times(times(seconds)));
    }
    Doc::new().device(0, "GPU").bench(bench)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: RngSeed::Fixed(0x7261_6767),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn ragged_rows_line_up_under_the_axes(
        axes in 1..=AXES.len(),
        states in prop::collection::vec(state_values(), 1..6),
    ) {
        // Values name only the benchmark's axes.
        let states: Vec<Vec<(usize, u8)>> = states
            .into_iter()
            .map(|values| values.into_iter().filter(|(a, _)| *a < axes).collect())
            .collect();
        let dir = Scratch::new("ragged-property");
        dir.write("ref.json", ragged_doc(axes, &states).text());
        let out = run(&dir, &["--no-color", "--display", "legacy", "ref.json", "ref.json"]);
        prop_assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let rows = table_rows(&String::from_utf8_lossy(&out.stdout));
        prop_assert_eq!(rows.len(), states.len() + 1);
        let columns = rows[0].len();
        prop_assert_eq!(columns, axes + 7);
        for (row, values) in rows[1..].iter().zip(&states) {
            prop_assert_eq!(row.len(), columns);
            prop_assert_eq!(&row[..axes], &expected_cells(values, axes)[..]);
            prop_assert!(row[columns - 1].ends_with("SAME"), "{:?}", row);
        }
    }
}
