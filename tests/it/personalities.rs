//! The three commands of one binary: which personality a name, the
//! interpreter form or `--personality` choose, and the classic script's
//! exit status beyond 255 failures. (Output byte for byte: the
//! `upstream/legacy*` corpora in `conformance`.)

use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

use crate::util::{Scratch, plain_env};

const LEGACY_BIN: &str = env!("CARGO_BIN_EXE_nvbench-compare-legacy");
const ROBUST_BIN: &str = env!("CARGO_BIN_EXE_nvbench-compare-robust");

fn run(bin: &str, argv0: Option<&str>, args: &[&str], dir: &std::path::Path) -> Output {
    let mut command = Command::new(bin);
    plain_env(&mut command).current_dir(dir).args(args);
    if let Some(name) = argv0 {
        command.arg0(name);
    }
    command.output().unwrap()
}

/// The classic script prints the arguments it did not parse first, then
/// its argparse help when there are not two.
fn is_legacy_help(output: &Output) -> bool {
    let text = String::from_utf8_lossy(&output.stdout);
    output.status.code() == Some(1)
        && text.starts_with("[")
        && text.contains("\nusage: nvbench_compare [reference.json compare.json")
}

#[test]
fn each_command_and_each_way_of_choosing() {
    let scratch = Scratch::new("personalities");
    let dir: &std::path::Path = scratch.as_ref();
    let bin = crate::util::BIN;
    assert!(is_legacy_help(&run(LEGACY_BIN, None, &[], dir)));
    assert!(is_legacy_help(&run(
        bin,
        Some("/opt/bin/nvbench-compare-legacy"),
        &[],
        dir
    )));
    assert!(is_legacy_help(&run(
        bin,
        None,
        &["/nowhere/nvbench_compare.py"],
        dir
    )));
    assert!(is_legacy_help(&run(
        bin,
        None,
        &["--personality=legacy"],
        dir
    )));
    assert!(is_legacy_help(&run(
        ROBUST_BIN,
        None,
        &["--personality", "legacy"],
        dir
    )));
    // The script prints what it did not parse: the interpreter form's path is gone.
    let listed = run(
        bin,
        None,
        &["nvbench_compare.py", "--no-color", "a.json"],
        dir,
    );
    assert!(String::from_utf8_lossy(&listed.stdout).starts_with("['a.json']\n"));
    // Today's nvbench-compare: clap's help, no list, for these.
    for (bin, argv0, args) in [
        (bin, None, &[][..]),
        (ROBUST_BIN, None, &[][..]),
        (bin, None, &["--personality=compare"][..]),
        (
            LEGACY_BIN,
            Some("nvbench-compare"),
            &["--personality=robust"][..],
        ),
        (bin, None, &["nvbench_compare_robust.py"][..]),
    ] {
        let output = run(bin, argv0, args, dir);
        assert!(!is_legacy_help(&output), "{bin} {args:?}");
        assert!(!String::from_utf8_lossy(&output.stdout).starts_with('['));
    }
    // Another script's name is a path like any other.
    let other = run(bin, None, &["nvbench_json_summary.py", "b.json"], dir);
    assert_eq!(other.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&other.stdout).starts_with('['));
    // A bad personality is a usage error.
    let bad = run(bin, None, &["--personality=fastest"], dir);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown personality fastest"));
}

/// An NVBench file of one benchmark whose `states` states all take
/// `seconds`, with a 1 % noise.
fn many_states(states: usize, seconds: f64) -> String {
    let summary = |tag: &str, value: f64| {
        format!(
            r#"{{"tag": "{tag}", "data": [{{"name": "value", "type": "float64", "value": "{value}"}}]}}"#
        )
    };
    let state = |i: usize| {
        format!(
            r#"{{"name": "Device=0 N={i}", "device": 0, "axis_values": [{{"name": "N", "type": "int64", "value": "{i}"}}], "summaries": [{}, {}]}}"#,
            summary("nv/cold/time/gpu/mean", seconds),
            summary("nv/cold/time/gpu/stdev/relative", 0.01)
        )
    };
    let states: Vec<String> = (0..states).map(state).collect();
    format!(
        r#"{{"meta": {{"version": {{"json": {{"string": "1.0.0"}}}}}}, "devices": [{{"id": 0, "name": "GPU"}}], "benchmarks": [{{"name": "b", "devices": [0], "axes": [{{"name": "N", "type": "int64", "flags": ""}}], "states": [{}]}}]}}"#,
        states.join(", ")
    )
}

#[test]
fn more_than_255_failures_exit_255_not_a_wrapped_pass() {
    let scratch = Scratch::new("legacy-255");
    let reference = scratch.write("ref.json", many_states(256, 1e-3));
    let slower = scratch.write("cmp.json", many_states(256, 1.1e-3));
    let dir: &std::path::Path = scratch.as_ref();
    let output = run(LEGACY_BIN, None, &["--no-color", &reference, &slower], dir);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("- Failure (diff > min_noise):  256\n"),
        "{text}"
    );
    assert_eq!(output.status.code(), Some(255));
    let same = run(LEGACY_BIN, None, &[&reference, &reference], dir);
    assert_eq!(same.status.code(), Some(0));
    let fewer = scratch.write("few.json", many_states(3, 1.1e-3));
    let reference3 = scratch.write("ref3.json", many_states(3, 1e-3));
    let three = run(LEGACY_BIN, None, &[&reference3, &fewer], dir);
    assert_eq!(three.status.code(), Some(3));
}

/// Statuses in the order a `--json -` report lists its states: a pair's
/// or repetitions' `states`, or each N-way candidate's.
fn json_statuses(output: &Output) -> Vec<Vec<String>> {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    let statuses = |states: &serde_json::Value| -> Vec<String> {
        let states = states.as_array().unwrap().iter();
        states
            .map(|state| state["status"].as_str().unwrap().to_string())
            .collect()
    };
    match report["candidates"].as_array() {
        Some(candidates) => candidates.iter().map(|c| statuses(&c["states"])).collect(),
        None => vec![statuses(&report["states"])],
    }
}

/// Statuses in the order the rows of a `--no-color` table show them.
fn table_statuses(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|line| line.starts_with('|'))
        .filter_map(|line| {
            ["SAME", "FAST", "SLOW", "AMBG", "????"]
                .into_iter()
                .find(|status| line.contains(&format!(" {status} ")))
        })
        .map(str::to_string)
        .collect()
}

/// The project's own options decide with the robust command's rules when
/// started as `nvbench-compare-robust`: on a mixed pair where the two
/// trees disagree on a state, the report, the gate and the repetition
/// and N-way modes follow the robust table.
#[test]
fn the_projects_own_options_under_the_robust_command() {
    if !crate::util::require(crate::util::Need::Shared) {
        return;
    }
    let case =
        crate::util::shared_dir().join("conformance/upstream/robust/078-mixed-explain-nocolor");
    let scratch = Scratch::new("robust-options");
    crate::util::copy_dir(&case, scratch.as_ref());
    let dir: &std::path::Path = scratch.as_ref();
    let expected = std::fs::read_to_string(case.join("expected_stdout")).unwrap();
    let robust_rows = table_statuses(&expected);
    assert_eq!(robust_rows.len(), 10, "{expected}");

    let pair = ["--no-color", "ref.json", "cmp.json"];
    let robust = run(
        ROBUST_BIN,
        None,
        &[&pair[..], &["--json", "-"]].concat(),
        dir,
    );
    let default = run(
        crate::util::BIN,
        None,
        &[&pair[..], &["--json", "-"]].concat(),
        dir,
    );
    assert_eq!(json_statuses(&robust), std::slice::from_ref(&robust_rows));
    let rules = |output: &Output| -> String {
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        report["thresholds"]["rules"].as_str().unwrap().to_string()
    };
    assert_eq!(rules(&robust), "nvbench_compare_robust.py@66212f1");
    assert_eq!(rules(&default), "nvbench_compare.py@4fabe3f");
    let default = json_statuses(&default);
    assert_ne!(
        default,
        std::slice::from_ref(&robust_rows),
        "the trees differ here"
    );

    let robust_count = |status: &str| robust_rows.iter().filter(|s| *s == status).count();
    let gate = run(
        ROBUST_BIN,
        None,
        &[&pair[..], &["--fail-on", "slow"]].concat(),
        dir,
    );
    assert_eq!(gate.status.code(), Some(3));
    let plain = run(ROBUST_BIN, None, &pair, dir);
    let (gate, plain) = (
        String::from_utf8_lossy(&gate.stdout),
        String::from_utf8_lossy(&plain.stdout),
    );
    assert!(
        gate.starts_with(&*plain),
        "the gate adds only the New and Dropped counts:\n{gate}\n{plain}"
    );

    let csv = run(
        ROBUST_BIN,
        None,
        &[&pair[..], &["--csv", "-"]].concat(),
        dir,
    );
    let csv = String::from_utf8_lossy(&csv.stdout);
    let unknown_rows = csv.lines().filter(|l| l.contains(",????,")).count();
    assert_eq!(unknown_rows, robust_count("????"), "{csv}");

    let summary = dir.join("summary.md");
    let markdown = run(
        ROBUST_BIN,
        None,
        &[&pair[..], &["--markdown-summary", "summary.md"]].concat(),
        dir,
    );
    assert_eq!(markdown.status.code(), Some(0));
    let summary = std::fs::read_to_string(summary).unwrap();
    let counts = ["SAME", "FAST", "SLOW", "AMBG", "????"].map(robust_count);
    let row = format!(
        "| {} | {} | {} | {} | {} | {} |",
        robust_rows.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4]
    );
    assert!(summary.contains(&row), "{row}\n{summary}");

    // One run a side, in repetitions and N-way, is the pair's decision.
    for (args, groups) in [
        (&["ref.json", "--vs", "cmp.json"][..], 1),
        (&["ref.json", "--vs", "cmp.json", "--vs", "cmp.json"][..], 2),
    ] {
        let output = run(ROBUST_BIN, None, &[args, &["--json", "-"]].concat(), dir);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(
            json_statuses(&output),
            vec![robust_rows.clone(); groups],
            "{args:?}"
        );
    }
}
