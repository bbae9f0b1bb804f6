//! Repetition mode (`R1 R2 ... --vs C1 C2 ...`) on the built binary, with
//! NVBench files made here: runs of the same code that drift between
//! processes, real changes, unequal run counts, directories, states
//! missing from a run, the CI outputs, and the errors.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::util::{
    Bench, Doc, Need, Scratch, State, Times, require, run, shared_dir, stderr, stdout,
};

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("reps-{name}"))
}

/// One run's NVBench file: benchmark `b`, states `N=n` with robust
/// summaries around the given median (interval ±0.2 %) and a constant SM
/// clock, so that the cycle-space confirmation agrees with the times.
fn nvbench_file(states: &[(i64, f64)]) -> Value {
    let times = |median| {
        Times::around(median, [0.998, 0.999, 1.002])
            .iqr(0.003)
            .clock(1.5e9)
    };
    Doc::n_sweep("GPU", "b", states, times).json()
}

/// Writes a run whose states `N=1..=count` all take `base * factor`.
fn write_run(path: &Path, factor: f64, count: i64) {
    let states: Vec<(i64, f64)> = (1..=count).map(|n| (n, 1e-3 * n as f64 * factor)).collect();
    std::fs::write(path, serde_json::to_vec(&nvbench_file(&states)).unwrap()).unwrap();
}

/// The statuses of a `--json -` report, in order.
fn statuses(output: &Output) -> Vec<String> {
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(output), stderr(output)));
    report["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap().to_string())
        .collect()
}

/// Unchanged code, three processes a side, drifting by up to 2 %.
fn drifting_runs(dir: &Path) {
    for (name, factor) in [
        ("r1.json", 1.00),
        ("r2.json", 1.02),
        ("r3.json", 0.99),
        ("c1.json", 1.01),
        ("c2.json", 0.985),
        ("c3.json", 1.015),
    ] {
        write_run(&dir.join(name), factor, 4);
    }
}

#[test]
fn drift_between_processes_is_not_called_slow() {
    let dir = scratch("drift");
    drifting_runs(&dir);
    // One run a side is fooled: each run's own interval is narrow.
    let pair = run(&dir, &["--json", "-", "r1.json", "c3.json"]);
    assert!(
        statuses(&pair).iter().all(|s| s == "SLOW"),
        "{}",
        stdout(&pair)
    );
    let reps = run(
        &dir,
        &[
            "--json", "-", "r1.json", "r2.json", "r3.json", "--vs", "c1.json", "c2.json", "c3.json",
        ],
    );
    assert_eq!(reps.status.code(), Some(0), "{}", stderr(&reps));
    let found = statuses(&reps);
    assert_eq!(found.len(), 4);
    assert!(
        found.iter().all(|s| s != "SLOW" && s != "FAST"),
        "{found:?}"
    );
    let report: Value = serde_json::from_slice(&reps.stdout).unwrap();
    let first = &report["states"][0];
    // Median of the run centers; noise from the scatter between processes.
    assert_eq!(first["reference"]["center"].as_f64(), Some(1e-3));
    let noise = first["repetitions"]["reference"]["noise"].as_f64().unwrap();
    assert!((noise - 0.015_275).abs() < 1e-5, "{noise}");
    assert_eq!(first["repetitions"]["reference"]["reps"], 3);
    assert_eq!(first["repetitions"]["single_run"], false);
    let centers = &first["repetitions"]["compare"]["run_centers"];
    assert_eq!(centers[2]["run"], 2);
    assert!((centers[2]["center"].as_f64().unwrap() - 1.015e-3).abs() < 1e-12);
}

#[test]
fn a_change_beyond_the_drift_is_detected_with_its_size() {
    let dir = scratch("change");
    for (name, factor) in [
        ("r1.json", 1.00),
        ("r2.json", 1.01),
        ("r3.json", 0.995),
        ("c1.json", 1.10),
        ("c2.json", 1.115),
        ("c3.json", 1.105),
    ] {
        write_run(&dir.join(name), factor, 3);
    }
    let args = [
        "--no-color",
        "r1.json",
        "r2.json",
        "r3.json",
        "--vs",
        "c1.json",
        "c2.json",
        "c3.json",
    ];
    let out = run(&dir, &args);
    let text = stdout(&out);
    assert!(
        text.contains("|   Change |   Ref Noise |   Cmp Noise |       Δ ± σ |   Signif | Test       |   Ref Reps |   Cmp Reps |  Status  |"),
        "{text}"
    );
    // Δ from the mean log centers, σ its standard error (the runs' scatter
    // pooled over both sides), |t| = 16.8 beyond the t-test's 4.3 (df 4).
    assert!(
        text.contains("| +10.5 ± 0.6 |     16.8 | time ≥ 4.3 |          3 |          3 |"),
        "{text}"
    );
    assert_eq!(text.matches("SLOW").count(), 3, "{text}");
    assert!(text.contains("- Total Matches: 3\n"));
}

#[test]
fn unequal_run_counts_and_a_single_run_side() {
    let dir = scratch("unequal");
    drifting_runs(&dir);
    let out = run(
        &dir,
        &[
            "--no-color",
            "r1.json",
            "r2.json",
            "r3.json",
            "--vs",
            "c1.json",
            "c2.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("|          3 |          2 |"), "{text}");
    // A side with one run marks the significance: its scatter between
    // processes is taken from the other side (df 1: |t| must reach 50.9).
    let single = run(
        &dir,
        &["--no-color", "r1.json", "r2.json", "--vs", "c1.json"],
    );
    let text = stdout(&single);
    let row = text.lines().find(|l| l.starts_with("|  1  |")).unwrap();
    assert!(
        row.contains("* | time ≥ 50.9 |          2 |          1 |"),
        "{row}"
    );
}

/// The warning about the run counts is the comparison's: printed once
/// however many states the runs decide, after the warnings a state raised
/// on its own (here a sidecar with a negative count in the first state of
/// the first reference run), and not at all with three runs a side.
#[test]
fn the_run_counts_warning_is_printed_once_after_a_states_own_warnings() {
    let dir = scratch("run-counts-warning");
    let write = |name: &str, factor: f64, first_count: &str| {
        let states = (1..=5).map(|n| {
            let count = if n == 1 { first_count } else { "100" };
            State::on(0)
                .at("N", n)
                .times(Times::around(1e-3 * n as f64 * factor, [0.998, 0.999, 1.002]).iqr(0.003))
                .sidecar("nv/json/bin:nv/cold/sample_times", "absent.bin", count)
        });
        let doc = Doc::new()
            .device(0, "GPU")
            .bench(Bench::new("b").axis("N", "int64").states(states));
        std::fs::write(dir.join(name), doc.text()).unwrap();
    };
    for (name, factor, first_count) in [
        ("r1.json", 1.0, "-1"),
        ("r2.json", 1.01, "100"),
        ("r3.json", 0.99, "100"),
        ("c1.json", 1.0, "100"),
        ("c2.json", 1.005, "100"),
        ("c3.json", 0.995, "100"),
    ] {
        write(name, factor, first_count);
    }
    let two = run(&dir, &["r1.json", "r2.json", "--vs", "c1.json", "c2.json"]);
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    // The missing sidecar file is warned about too (once: deduplicated).
    let text = stderr(&two);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("nvbench-compare: warning: Could not use NVBench sample time data: negative value count -1;"),
        "{text}"
    );
    assert!(lines[1].contains("failed to read 'absent.bin'"), "{text}");
    assert!(
        lines[2]
            .starts_with("nvbench-compare: warning: --vs with 2 reference and 2 compare run(s): "),
        "{text}"
    );
    let three = [
        "r1.json", "r2.json", "r3.json", "--vs", "c1.json", "c2.json", "c3.json",
    ];
    let three = run(&dir, &three);
    assert_eq!(three.status.code(), Some(0), "{}", stderr(&three));
    let text = stderr(&three);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(!text.contains("--vs with"), "{text}");
}

#[test]
fn a_state_missing_from_one_run_is_merged_from_the_others() {
    let dir = scratch("missing-state");
    drifting_runs(&dir);
    // The second reference run lacks N=4.
    write_run(&dir.join("r2.json"), 1.02, 3);
    let out = run(
        &dir,
        &[
            "--no-color",
            "--json",
            "report.json",
            "r1.json",
            "r2.json",
            "r3.json",
            "--vs",
            "c1.json",
            "c2.json",
            "c3.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let row = text.lines().find(|l| l.starts_with("|  4  |")).unwrap();
    assert!(row.contains("|     2 of 3 |          3 |"), "{row}");
    assert!(
        text.contains("Note: 1 state(s) are missing from some runs and were merged from the runs that have them (see Reps).\n"),
        "{text}"
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let reference = &report["states"][3]["repetitions"]["reference"];
    assert_eq!(
        (reference["reps"].as_u64(), reference["runs"].as_u64()),
        (Some(2), Some(3))
    );
    let runs: Vec<u64> = reference["run_centers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run"].as_u64().unwrap())
        .collect();
    assert_eq!(runs, [0, 2]);
}

/// A run of a rerun plan: benchmark `b` named once per product of states,
/// so that the file holds an instance of `b` for each group of `groups`.
fn write_instances(path: &Path, factor: f64, groups: &[&[i64]]) {
    let mut document = nvbench_file(&[(1, 1e-3)]);
    let instances: Vec<Value> = groups
        .iter()
        .map(|group| {
            let states: Vec<(i64, f64)> = group
                .iter()
                .map(|&n| (n, 1e-3 * n as f64 * factor))
                .collect();
            nvbench_file(&states)["benchmarks"][0].clone()
        })
        .collect();
    document["benchmarks"] = Value::Array(instances);
    std::fs::write(path, serde_json::to_vec(&document).unwrap()).unwrap();
}

#[test]
fn a_runs_instances_of_a_benchmark_merge_and_partial_runs_add_to_their_states_only() {
    let dir = scratch("instances");
    write_run(&dir.join("r1.json"), 1.0, 4);
    write_run(&dir.join("c1.json"), 1.01, 4);
    // The reruns hold N=2 and N=4 only, each in an instance of its own.
    for (name, factor) in [
        ("r2.json", 1.005),
        ("r3.json", 0.995),
        ("c2.json", 1.012),
        ("c3.json", 1.008),
    ] {
        write_instances(&dir.join(name), factor, &[&[2], &[4]]);
    }
    let args = [
        "--no-color",
        "--json",
        "report.json",
        "r1.json",
        "r2.json",
        "r3.json",
        "--vs",
        "c1.json",
        "c2.json",
        "c3.json",
    ];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // One table: the instances are one benchmark.
    assert_eq!(text.matches("# b\n").count(), 1, "{text}");
    assert!(text.contains("- Total Matches: 4\n"), "{text}");
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let reps: Vec<(u64, u64)> = report["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|state| {
            let side = &state["repetitions"]["compare"];
            (
                side["reps"].as_u64().unwrap(),
                side["runs"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(reps, [(1, 3), (3, 3), (1, 3), (3, 3)]);
    for (state, rule) in report["states"]
        .as_array()
        .unwrap()
        .iter()
        .zip([true, false, true, false])
    {
        assert_eq!(state["repetitions"]["single_run"], rule, "{state}");
    }
}

#[test]
fn directories_are_runs_matched_by_file_name() {
    let dir = scratch("dirs");
    for (run_dir, factor) in [
        ("r1", 1.0),
        ("r2", 1.01),
        ("c1", 1.2),
        ("c2", 1.21),
        ("c3", 1.19),
    ] {
        std::fs::create_dir_all(dir.join(run_dir)).unwrap();
        write_run(&dir.join(run_dir).join("a.json"), factor, 2);
        if run_dir != "c3" {
            write_run(&dir.join(run_dir).join("b.json"), factor, 1);
        }
    }
    write_run(&dir.join("c2").join("only_cmp.json"), 1.0, 1);
    let out = run(
        &dir,
        &[
            "--no-color",
            "--report-missing",
            "r1",
            "r2",
            "--vs",
            "c1",
            "c2",
            "c3",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // a.json: 2 and 3 runs; b.json: the third compare directory lacks it.
    assert_eq!(
        text.matches("|          2 |          3 |").count(),
        2,
        "{text}"
    );
    assert!(text.contains("|          2 |     2 of 3 |"), "{text}");
    assert!(text.contains("- NEW file c2/only_cmp.json\n"), "{text}");
    assert!(text.contains("- Total Matches: 3\n"), "{text}");
    assert_eq!(text.matches("SLOW").count(), 3, "{text}");
}

#[test]
fn gate_markdown_and_bulk_debug_work_in_repetition_mode() {
    let dir = scratch("outputs");
    for (name, factor) in [
        ("r1.json", 1.0),
        ("r2.json", 1.005),
        ("c1.json", 1.1),
        ("c2.json", 1.1),
    ] {
        write_run(&dir.join(name), factor, 2);
    }
    let args = [
        "--fail-on",
        "slow",
        "--markdown-summary",
        "summary.md",
        "--bulk-debug-python",
        "bulk.py",
        "r1.json",
        "r2.json",
        "--vs",
        "c1.json",
        "c2.json",
    ];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("gate failed: 2 slow"),
        "{}",
        stderr(&out)
    );
    let markdown = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(markdown.contains("SLOW"), "{markdown}");
    // One bulk_rows entry per run: two rows of two runs each.
    let script = std::fs::read_to_string(dir.join("bulk.py")).unwrap();
    assert_eq!(script.matches("'row_index': ").count(), 4, "{script}");
    assert_eq!(script.matches("'compare_run': 1").count(), 2, "{script}");
    assert!(script.contains("'compare_json': 'c2.json'"), "{script}");
}

#[test]
fn explain_shows_each_runs_center() {
    let dir = scratch("explain");
    drifting_runs(&dir);
    let out = run(
        &dir,
        &[
            "--no-color",
            "--display",
            "explain",
            "r1.json",
            "r2.json",
            "--vs",
            "c1.json",
        ],
    );
    let text = stdout(&out);
    assert!(text.contains("| Reason "), "{text}");
    assert!(text.contains("| 1.000 1.020 ms | 1.010 ms"), "{text}");
}

#[test]
fn errors_name_the_problem() {
    let dir = scratch("errors");
    drifting_runs(&dir);
    let no_reference = run(&dir, &["--vs", "c1.json", "c2.json"]);
    assert_eq!(no_reference.status.code(), Some(1));
    assert!(stderr(&no_reference).contains("--vs: no reference run given"));
    let no_compare = run(&dir, &["r1.json", "--vs"]);
    assert_eq!(no_compare.status.code(), Some(1));
    assert!(stderr(&no_compare).contains("--vs: no compare run given"));
    // A second --vs opens another candidate group (N-way), which needs runs.
    let empty = run(&dir, &["r1.json", "--vs", "c1.json", "--vs"]);
    assert_eq!(empty.status.code(), Some(1));
    assert!(
        stderr(&empty).contains("--vs: candidate group 2 has no run"),
        "{}",
        stderr(&empty)
    );
    std::fs::create_dir_all(dir.join("d")).unwrap();
    let mixed = run(&dir, &["r1.json", "--vs", "d"]);
    assert_eq!(mixed.status.code(), Some(1));
    assert!(
        stderr(&mixed)
            .contains("the runs mix directories and files (d is a directory, r1.json is not)"),
        "{}",
        stderr(&mixed)
    );
    let unreadable = run(&dir, &["r1.json", "--vs", "c1.json", "absent.json"]);
    assert_eq!(unreadable.status.code(), Some(1));
    assert!(
        stderr(&unreadable).contains("absent.json"),
        "{}",
        stderr(&unreadable)
    );
    // Without --vs, more than two paths is still the reference's usage error.
    let three = run(&dir, &["r1.json", "r2.json", "c1.json"]);
    assert_eq!(three.status.code(), Some(1));
    assert!(stdout(&three).contains("Usage:"));
}

/// A file given twice among the runs of a side, by the same path, another
/// spelling of it or a hard link, would count one process twice: refused
/// (exit 1), naming both arguments. The same file on both sides is a
/// comparison of a file with itself, as in pair mode.
#[test]
fn a_file_given_twice_on_a_side_is_refused_naming_both_arguments() {
    let dir = scratch("twice");
    write_run(&dir.join("r.json"), 1.0, 2);
    write_run(&dir.join("c.json"), 1.0, 2);
    std::fs::hard_link(dir.join("r.json"), dir.join("r_hardlink.json")).unwrap();
    let refused = |args: &[&str], first: &str, second: &str, side: &str| {
        let out = run(&dir, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
        let message = stderr(&out);
        assert!(
            message.contains(&format!("{first} and {second} are the same file")),
            "{args:?}: {message}"
        );
        assert!(message.contains(side), "{args:?}: {message}");
    };
    refused(
        &[
            "r.json",
            "./r.json",
            "r_hardlink.json",
            "--vs",
            "c.json",
            "c.json",
            "c.json",
        ],
        "r.json",
        "./r.json",
        "reference runs",
    );
    refused(
        &["r.json", "./r.json", "--vs", "c.json"],
        "r.json",
        "./r.json",
        "reference runs",
    );
    refused(
        &["r.json", "r_hardlink.json", "--vs", "c.json"],
        "r.json",
        "r_hardlink.json",
        "reference runs",
    );
    refused(
        &["r.json", "--vs", "c.json", "c.json"],
        "c.json",
        "c.json",
        "compare runs",
    );
    let itself = run(&dir, &["--no-color", "r.json", "--vs", "./r.json"]);
    assert_eq!(itself.status.code(), Some(0), "{}", stderr(&itself));
}

/// The conformance cases of ../shared, when present: one run a side must
/// give every state the status and reason of the pair comparison.
#[test]
fn one_run_a_side_decides_as_the_pair() {
    if !require(Need::Shared) {
        return;
    }
    let cases = shared_dir().join("conformance/cases");
    let entries = std::fs::read_dir(&cases)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", cases.display()));
    let mut compared = 0;
    for case in entries.flatten().map(|e| e.path()) {
        let Ok(args) = std::fs::read_to_string(case.join("args")) else {
            continue;
        };
        let args: Vec<&str> = args.lines().collect();
        let Some((options, ["ref.json", "cmp.json"])) = args.split_last_chunk::<2>() else {
            continue;
        };
        let other_outputs = ["--bulk-debug-python", "--plot", "--plot-along", "--json"];
        if options.iter().any(|o| other_outputs.contains(o)) {
            continue;
        }
        let reason_and_status = |out: &Output| -> Option<Vec<(Value, Value)>> {
            let report: Value = serde_json::from_slice(&out.stdout).ok()?;
            let states = report["states"].as_array()?;
            Some(
                states
                    .iter()
                    .map(|s| (s["status"].clone(), s["reason"]["code"].clone()))
                    .collect(),
            )
        };
        let with = |paths: &[&'static str]| {
            let mut all = options.to_vec();
            all.extend(["--json", "-"]);
            all.extend(paths);
            run(&case, &all)
        };
        let pair = with(&["ref.json", "cmp.json"]);
        let Some(expected) = reason_and_status(&pair) else {
            continue;
        };
        let repeated = with(&["ref.json", "--vs", "cmp.json"]);
        assert_eq!(
            reason_and_status(&repeated).as_ref(),
            Some(&expected),
            "{}",
            case.display()
        );
        compared += 1;
    }
    eprintln!("{compared} conformance cases compared");
    assert!(compared > 50, "only {compared} cases compared");
}

#[test]
fn filters_apply_and_a_changed_set_of_states_is_checked_as_for_a_pair() {
    let dir = scratch("filters");
    drifting_runs(&dir);
    // The compare runs lack N=4.
    write_run(&dir.join("c1.json"), 1.01, 3);
    write_run(&dir.join("c2.json"), 0.985, 3);
    let both = ["r1.json", "r2.json", "--vs", "c1.json", "c2.json"];
    // Without --report-missing, the reference's failure on a changed set.
    let out = run(&dir, &[&["--no-color"][..], &both].concat());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("benchmark 'b' device pair ref=0 cmp=0 has mismatched state occurrences: ref={'N=1': 1, 'N=2': 1, 'N=3': 1, 'N=4': 1}, cmp={'N=1': 1, 'N=2': 1, 'N=3': 1}\n"),
        "{text}"
    );
    assert!(stderr(&out).contains("hint: the set of states changed"));
    let listed = run(
        &dir,
        &[&["--no-color", "--report-missing"][..], &both].concat(),
    );
    let text = stdout(&listed);
    assert!(
        text.contains("- DROPPED state b [0 vs 0] N=4 (r1.json)\n"),
        "{text}"
    );
    assert!(!text.contains("on one side only"), "{text}");
    let filtered = run(
        &dir,
        &[&["--no-color", "-b", "b", "-a", "N=2"][..], &both].concat(),
    );
    let text = stdout(&filtered);
    assert!(text.contains("- Total Matches: 1\n"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("|  2  |")), "{text}");
    let none = run(&dir, &[&["--no-color", "-b", "other"][..], &both].concat());
    assert!(stdout(&none).contains("- Total Matches: 0\n"));
}

#[test]
fn separated_processes_are_called_by_the_test_on_run_centers() {
    let dir = scratch("center-test");
    for (name, factor) in [
        ("r1.json", 1.000),
        ("r2.json", 1.003),
        ("r3.json", 0.998),
        ("c1.json", 1.012),
        ("c2.json", 1.014),
        ("c3.json", 1.013),
    ] {
        write_run(&dir.join(name), factor, 2);
    }
    let reasons = |args: &[&str]| -> Vec<(String, String)> {
        let out = run(&dir, &[&["--json", "-"][..], args].concat());
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        report["states"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let status = s["status"].as_str().unwrap().to_string();
                (status, s["reason"]["code"].as_str().unwrap().to_string())
            })
            .collect()
    };
    // The hulls miss a clear gap (0.49 % < 0.5 %), but the run centers
    // differ by 1.3 % with |t| = 8.1 beyond the threshold of 4.3 (df 4).
    let three = [
        "r1.json", "r2.json", "r3.json", "--vs", "c1.json", "c2.json", "c3.json",
    ];
    let called = ("SLOW".to_string(), "center_test_time".to_string());
    assert_eq!(reasons(&three), vec![called.clone(), called]);
    // Two runs a side: |t| = 6.4 is short of the threshold at df 2 (8.9).
    let two = ["r1.json", "r2.json", "--vs", "c1.json", "c2.json"];
    assert!(reasons(&two).iter().all(|(status, _)| status == "AMBG"));
    let out = run(
        &dir,
        &[&["--no-color", "--display", "explain"][..], &three].concat(),
    );
    let text = stdout(&out);
    assert!(text.contains("| t-time "), "{text}");
    // Change is the test's confidence bound on the change.
    assert!(text.contains(">= +0.6%"), "{text}");
}

#[test]
fn runs_of_a_side_must_have_the_same_devices() {
    let dir = scratch("devices");
    drifting_runs(&dir);
    let mut other = nvbench_file(&[(1, 1e-3)]);
    other["devices"][0]["name"] = json!("Other GPU");
    std::fs::write(dir.join("r2.json"), serde_json::to_vec(&other).unwrap()).unwrap();
    let args = ["--no-color", "r1.json", "r2.json", "--vs", "c1.json"];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with("Device sections do not match (reference runs): "),
        "{text}"
    );
    let ignored = run(&dir, &[&["--ignore-devices"][..], &args].concat());
    assert_eq!(ignored.status.code(), Some(0), "{}", stderr(&ignored));
    assert!(stdout(&ignored).contains("- Total Matches: 4\n"));
}

#[test]
fn show_and_sort_apply_in_repetition_mode() {
    let dir = scratch("show-sort");
    // State N has the compare side slower by N * 4 % for N = 1..=3 and
    // unchanged for N = 4: sorted by change, the order is 3, 2, 1, 4.
    let file = |factors: &[f64]| {
        let states: Vec<(i64, f64)> = factors
            .iter()
            .enumerate()
            .map(|(i, f)| (i as i64 + 1, 1e-3 * f))
            .collect();
        serde_json::to_vec(&nvbench_file(&states)).unwrap()
    };
    for (name, drift) in [("r1.json", 1.0), ("r2.json", 1.002), ("r3.json", 0.998)] {
        std::fs::write(dir.join(name), file(&[drift; 4])).unwrap();
    }
    for (name, drift) in [("c1.json", 1.0), ("c2.json", 1.002), ("c3.json", 0.998)] {
        let factors = [1.04 * drift, 1.08 * drift, 1.12 * drift, drift];
        std::fs::write(dir.join(name), file(&factors)).unwrap();
    }
    let runs = [
        "r1.json", "r2.json", "r3.json", "--vs", "c1.json", "c2.json", "c3.json",
    ];
    let with = |options: &[&str]| {
        let args: Vec<&str> = options.iter().chain(&runs).copied().collect();
        stdout(&run(&dir, &args))
    };
    let axis_column = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with('|') && !l.starts_with("|--") && !l.contains("Status"))
            .map(|l| l.split('|').nth(1).unwrap().trim().to_string())
            .collect()
    };
    assert_eq!(axis_column(&with(&["--no-color"])), ["1", "2", "3", "4"]);
    let sorted = with(&["--no-color", "--sort", "change"]);
    assert_eq!(axis_column(&sorted), ["3", "2", "1", "4"], "{sorted}");
    let shown = with(&["--no-color", "--show", "same"]);
    assert_eq!(axis_column(&shown), ["4"], "{shown}");
    assert!(shown.contains("- Total Matches: 4\n"), "{shown}");
}
