//! The CI-gate options (`--fail-on`, `--json`, `--report-missing`,
//! `--markdown-summary`, geomean) on the built binary.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::util::{Doc, Scratch, Times, copy_dir, project};

fn cases() -> PathBuf {
    project("testdata/conformance/cases")
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("gate-{name}"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    crate::util::run(dir, args)
}

/// Case 068 has one SLOW, one FAST, four AMBG, two SAME and two `????`.
fn mixed() -> PathBuf {
    cases().join("068-mixed-explain-nocolor")
}

/// Case 019 has a single SAME state.
fn all_same() -> PathBuf {
    cases().join("019-summary-same-cycles")
}

#[test]
fn fail_on_each_status_category() {
    for category in ["slow", "ambg", "unknown"] {
        let tripped = run(&mixed(), &["--fail-on", category, "ref.json", "cmp.json"]);
        assert_eq!(
            tripped.status.code(),
            Some(3),
            "--fail-on {category} on mixed results"
        );
        let stderr = String::from_utf8_lossy(&tripped.stderr);
        assert!(stderr.contains("gate failed: "), "{stderr}");
        let passed = run(
            &all_same(),
            &["--fail-on", category, "ref.json", "cmp.json"],
        );
        assert_eq!(
            passed.status.code(),
            Some(0),
            "--fail-on {category} on SAME results"
        );
    }
    // FAST never fails the gate: the gate output names only what tripped.
    let out = run(
        &mixed(),
        &["--fail-on", "slow,ambg,unknown", "ref.json", "cmp.json"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("gate failed: 1 slow, 4 ambg, 2 unknown"),
        "{stderr}"
    );
    // An unknown category is a usage error.
    assert_eq!(
        run(&mixed(), &["--fail-on", "fast", "ref.json", "cmp.json"])
            .status
            .code(),
        Some(2)
    );
    // Without --fail-on the exit code stays the reference's.
    assert_eq!(
        run(&mixed(), &["ref.json", "cmp.json"]).status.code(),
        Some(0)
    );
}

#[test]
fn fail_on_missing_in_directory_mode_and_not_without_missing_files() {
    let dir_case = cases().join("170-dir-inputs");
    let out = run(
        &dir_case,
        &["--no-color", "--fail-on", "missing", "base", "new"],
    );
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("- DROPPED file base/only_in_ref.json\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("- NEW file new/only_in_cmp.json\n"),
        "{stdout}"
    );
    assert!(stdout.contains("  - New         (only in compare): 1\n"));
    assert!(stdout.contains("  - Dropped     (only in reference): 1\n"));
    let same = cases().join("194-same-file-twice");
    let args: Vec<String> = std::fs::read_to_string(same.join("args"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut with_gate: Vec<&str> = vec!["--fail-on", "missing"];
    with_gate.extend(args.iter().map(String::as_str));
    assert_eq!(run(&same, &with_gate).status.code(), Some(0));
}

/// A minimal NVBench file with one benchmark whose states have the given
/// `(axis value, median seconds)`.
fn nvbench_file(bench: &str, states: &[(i64, f64)]) -> Value {
    let times = |median| Times::around(median, [0.99, 0.995, 1.005]).iqr(0.01);
    Doc::n_sweep("GPU", bench, states, times).json()
}

fn write(dir: &Scratch, name: &str, value: &Value) {
    dir.write(name, value.to_string());
}

#[test]
fn missing_states_in_both_directions() {
    let dir = scratch("missing");
    write(
        &dir,
        "ref.json",
        &nvbench_file("b", &[(1, 1e-3), (2, 1e-3), (3, 1e-3)]),
    );
    write(
        &dir,
        "cmp.json",
        &nvbench_file("b", &[(1, 1e-3), (3, 1e-3), (4, 1e-3)]),
    );
    // The reference's behaviour without the option: mismatched states are an error.
    assert_eq!(run(&dir, &["ref.json", "cmp.json"]).status.code(), Some(1));
    let out = run(
        &dir,
        &[
            "--no-color",
            "--report-missing",
            "--json",
            "report.json",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("# Missing\n\n- DROPPED state b [0 vs 0] N=2 (ref.json)\n- NEW state b [0 vs 0] N=4 (cmp.json)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("- Total Matches: 2\n"));
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["summary"]["new"], 1);
    assert_eq!(report["summary"]["dropped"], 1);
    assert_eq!(report["missing"][0]["state_key"], "N=2");
    assert_eq!(report["missing"][0]["presence"], "DROPPED");
    assert_eq!(report["missing"][1]["state_key"], "N=4");
    assert_eq!(report["missing"][1]["presence"], "NEW");
}

#[test]
fn geomean_of_center_ratios_by_hand() {
    let dir = scratch("geomean");
    // Ratios 2.0 and 0.5 (geomean 1) in one benchmark, 1.21 alone in another.
    let mut reference = nvbench_file("a", &[(1, 1e-3), (2, 4e-3)]);
    let mut compare = nvbench_file("a", &[(1, 2e-3), (2, 2e-3)]);
    reference["benchmarks"]
        .as_array_mut()
        .unwrap()
        .push(nvbench_file("c", &[(1, 1e-3)])["benchmarks"][0].clone());
    compare["benchmarks"]
        .as_array_mut()
        .unwrap()
        .push(nvbench_file("c", &[(1, 1.21e-3)])["benchmarks"][0].clone());
    write(&dir, "ref.json", &reference);
    write(&dir, "cmp.json", &compare);
    let out = run(&dir, &["--json", "-", "ref.json", "cmp.json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).expect("--json - prints only JSON");
    let ratio = |v: &Value| v.as_f64().unwrap();
    assert!((ratio(&report["geomean"]["benchmarks"][0]["ratio"]) - 1.0).abs() < 1e-12);
    assert!((ratio(&report["geomean"]["benchmarks"][1]["ratio"]) - 1.21).abs() < 1e-12);
    // Overall: (2 * 0.5 * 1.21)^(1/3) = 1.21^(1/3).
    assert!((ratio(&report["geomean"]["overall"]) - 1.21f64.powf(1.0 / 3.0)).abs() < 1e-12);
}

#[test]
fn markdown_summary_stays_under_the_byte_budget() {
    let dir = scratch("budget");
    let reference: Vec<(i64, f64)> = (0..20_000).map(|i| (i, 1e-3)).collect();
    let compare: Vec<(i64, f64)> = (0..20_000)
        .map(|i| (i, if i % 3 == 0 { 1.2e-3 } else { 1e-3 }))
        .collect();
    write(&dir, "ref.json", &nvbench_file("big", &reference));
    write(&dir, "cmp.json", &nvbench_file("big", &compare));
    let out = run(
        &dir,
        &["--markdown-summary", "summary.md", "ref.json", "cmp.json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(text.len() <= 1024 * 1024, "{} bytes", text.len());
    assert!(text.starts_with("## nvbench-compare\n\n**Gate: not gated**"));
    assert!(text.contains("| Total |"));
    assert!(text.contains("| 20000 |"));
    assert!(
        text.contains("row(s) omitted to keep this summary within --max-bytes"),
        "no cut note"
    );
    // The most important rows survive: every section is present.
    assert!(text.contains("### SLOW (6667)") || text.contains("### AMBG"));
    let small = run(
        &dir,
        &[
            "--markdown-summary",
            "small.md",
            "--max-bytes",
            "4096",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(small.status.code(), Some(0));
    assert!(std::fs::metadata(dir.join("small.md")).unwrap().len() <= 4096);
}

/// Numbers from the `# Summary` block of the text output.
fn summary_counts(stdout: &str) -> [u64; 6] {
    let count = |prefix: &str| -> u64 {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(prefix))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no `{prefix}` line"))
    };
    [
        count("- Total Matches:"),
        count("- Pass"),
        count("- Improvement"),
        count("- Regression"),
        count("- Ambiguous"),
        count("- Unknown"),
    ]
}

/// Status labels of the table rows, in order (the last cell of each row,
/// behind its emoji in `--no-color` mode).
fn table_statuses(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("Status"))
        .filter_map(|l| l.trim_end_matches('|').rsplit('|').next())
        .filter_map(|cell| cell.split_whitespace().last())
        .map(String::from)
        .collect()
}

#[test]
fn json_agrees_with_the_table_on_every_corpus_case() {
    let mut checked = 0;
    for entry in std::fs::read_dir(cases()).unwrap().flatten() {
        let case = entry.path();
        let exact = !case.join("match").exists();
        let expected_exit = std::fs::read_to_string(case.join("expected_exit")).unwrap();
        let args_text = std::fs::read_to_string(case.join("args")).unwrap();
        let comparing = exact
            && expected_exit.trim() == "0"
            && !args_text.contains("dump-config")
            && !args_text.contains("{CASE}");
        if !comparing {
            continue;
        }
        let dir = scratch(&format!("json-{checked}"));
        let mut args: Vec<String> = args_text.lines().map(String::from).collect();
        args.extend([
            "--no-color".to_string(),
            "--json".to_string(),
            "report.json".to_string(),
        ]);
        copy_dir(&case, &dir);
        let out = run(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(0), "{}", case.display());
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let report: Value =
            serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", case.display()));
        let s = &report["summary"];
        let json_counts = ["total", "same", "fast", "slow", "ambiguous", "unknown"]
            .map(|k| s[k].as_u64().unwrap());
        assert_eq!(json_counts, summary_counts(&stdout), "{}", case.display());
        let states = report["states"].as_array().unwrap();
        assert_eq!(states.len() as u64, json_counts[0], "{}", case.display());
        let displayed: Vec<String> = states
            .iter()
            .filter(|st| st["displayed"] == true)
            .map(|st| st["status"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(displayed, table_statuses(&stdout), "{}", case.display());
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} corpus cases checked");
}
