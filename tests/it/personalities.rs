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
