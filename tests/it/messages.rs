//! What a new user reads when something is off: the hints and warnings
//! on stderr (a file in one directory only, a threshold given in percent,
//! a pow2 value written as the table shows it, a directory among files,
//! one path), and text that says the same thing the same way (the
//! markdown's change column, its advice on repetitions).

use std::path::Path;

use crate::util::{Scratch, copy_dir, project, run, stderr, stdout};

fn case(name: &str) -> std::path::PathBuf {
    project("testdata/conformance/cases").join(name)
}

#[test]
fn a_file_in_one_directory_only_gets_a_hint() {
    let dir = Scratch::new("messages-dirs");
    for side in ["ref", "cmp"] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
    }
    let mixed = case("068-mixed-explain-nocolor");
    for (name, from) in [
        ("ref/a.json", "ref.json"),
        ("cmp/a.json", "cmp.json"),
        ("ref/b.json", "ref.json"),
    ] {
        std::fs::copy(mixed.join(from), dir.join(name)).unwrap();
    }
    let out = run(&dir, &["--no-color", "ref", "cmp"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "hint: 1 file(s) are in one directory only and were not compared (ref/b.json); --report-missing lists them"
        ),
        "{}",
        stderr(&out)
    );
    let listed = run(&dir, &["--no-color", "--report-missing", "ref", "cmp"]);
    assert!(
        !stderr(&listed).contains("hint: 1 file(s)"),
        "{}",
        stderr(&listed)
    );
}

#[test]
fn a_threshold_in_percent_is_warned_about() {
    let out = run(
        case("019-summary-same-cycles"),
        &["--threshold-diff", "5", "ref.json", "cmp.json"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("--threshold-diff 5.0 shows only rows whose change is at least 500.0%: it is a fraction (0.05 means 5%)"),
        "{}",
        stderr(&out)
    );
    let fraction = run(
        case("019-summary-same-cycles"),
        &["--threshold-diff", "0.05", "ref.json", "cmp.json"],
    );
    assert!(!stderr(&fraction).contains("it is a fraction"));
}

#[test]
fn a_pow2_value_written_as_the_table_shows_it_gets_the_filter_that_works() {
    let examples = project("testdata/examples");
    let out = run(
        &examples,
        &["-a", "Elements{io}=2^20", "reference.json", "compare.json"],
    );
    assert!(
        stderr(&out).contains("the table's 2^N is the exponent filter -a 'Elements{io}[pow2]=20'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn wrong_paths_say_what_is_wrong() {
    let mixed = case("068-mixed-explain-nocolor");
    let one = run(&mixed, &["ref.json"]);
    assert_eq!(one.status.code(), Some(1));
    assert!(
        stdout(&one).contains("Usage:"),
        "the reference's help stays on stdout"
    );
    assert!(
        stderr(&one).contains(
            "error: expected two paths (a reference and a compare file, or two directories), got 1"
        ),
        "{}",
        stderr(&one)
    );
    let dir = Scratch::new("messages-dir-file");
    copy_dir(&mixed, &dir.join("d"));
    let out = run(&dir, &["d", "d/ref.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("cannot read d: it is a directory; compare two files, or two directories"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_markdown_change_column_reads_the_same_for_every_row() {
    let out = run(
        case("068-mixed-explain-nocolor"),
        &["--markdown-summary", "-", "ref.json", "cmp.json"],
    );
    let text = stdout(&out);
    assert!(!text.contains("&gt;") && !text.contains("&lt;"), "{text}");
    // FAST and SLOW: the centers' change and the bound, e.g. `+12.30% (≥ +11.2%)`.
    assert!(
        text.lines()
            .any(|l| l.contains("% (≥ +") || l.contains("% (≤ -")),
        "{text}"
    );
}

/// Runs that follow the advice to collect repetitions are not told again.
#[test]
fn the_advice_on_repetitions_is_for_runs_without_them() {
    let mixed = case("068-mixed-explain-nocolor");
    let single = stdout(&run(
        &mixed,
        &["--markdown-summary", "-", "ref.json", "cmp.json"],
    ));
    assert!(single.contains("Collect repetitions"), "{single}");
    let dir = Scratch::new("messages-reps");
    for (name, from) in [
        ("r1.json", "ref.json"),
        ("r2.json", "ref.json"),
        ("c1.json", "cmp.json"),
        ("c2.json", "cmp.json"),
    ] {
        copy_file(&mixed, from, &dir, name);
    }
    let merged = run(
        &dir,
        &[
            "--markdown-summary",
            "-",
            "r1.json",
            "r2.json",
            "--vs",
            "c1.json",
            "c2.json",
        ],
    );
    let text = stdout(&merged);
    assert!(
        text.contains("What would settle the AMBG rows"),
        "{text}{}",
        stderr(&merged)
    );
    assert!(!text.contains("Collect repetitions"), "{text}");
}

fn copy_file(from_dir: &Path, from: &str, to_dir: &Path, to: &str) {
    std::fs::copy(from_dir.join(from), to_dir.join(to)).unwrap();
    // The sidecars the file names, beside it.
    for suffix in ["-bin", "-freqs-bin"] {
        let source = from_dir.join(format!("{from}{suffix}"));
        if source.is_dir() {
            copy_dir(&source, &to_dir.join(format!("{to}{suffix}")));
        }
    }
}

/// A file from before NVBench's JSON format 1.0 (states, axes and
/// summaries as objects) is named as such, not as a serde type error.
#[test]
fn a_pre_1_0_nvbench_file_is_named_as_such() {
    let dir = Scratch::new("messages-pre-1-0");
    let old = r#"{"devices": [{"id": 0, "name": "GPU"}], "benchmarks": [{"index": 0, "name": "simple",
        "devices": [0], "axes": null, "states": {"Device=0": {"device": 0, "summaries": {}}}}]}"#;
    let path = dir.write("old.json", old);
    let out = run(&dir, &[&path, &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("this looks like an NVBench file from before JSON format 1.0"),
        "{}",
        stderr(&out)
    );
    // Earlier still (March 2021): states as lists, each with a
    // `description` where 1.0 has a `name`, and no `meta` section.
    let state = r#"{"index": 0, "description": "Device=0", "device": 0, "summaries": null}"#;
    let older = format!(
        r#"{{"devices": [{{"id": 0, "name": "GPU"}}], "benchmarks": [{{"index": 0, "name": "simple",
        "devices": [0], "axes": null, "states": [{state}]}}]}}"#
    );
    let path = dir.write("older.json", &older);
    let out = run(&dir, &[&path, &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("missing field `name`")
            && stderr(&out).contains("from before JSON format 1.0"),
        "{}",
        stderr(&out)
    );
    // A versioned file without a state name is not called old.
    let meta = r#""meta": {"version": {"json": {"string": "1.0.0"}}}, "#;
    let versioned = older.replacen('{', &format!("{{{meta}"), 1);
    let path = dir.write("versioned.json", &versioned);
    let out = run(&dir, &[&path, &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("missing field `name`"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("format 1.0"), "{}", stderr(&out));
}

/// A mistyped `--plot-along` axis gets the close names.
#[test]
fn a_mistyped_along_axis_gets_the_close_names() {
    let dir = Scratch::new("messages-along-typo");
    let examples = project("testdata/examples");
    let chart = dir.join("x.png");
    let args = [
        "--plot-along",
        "Elements{oi}",
        "--plot-along-output",
        chart.to_str().unwrap(),
        "reference.json",
        "compare.json",
    ];
    let out = run(&examples, &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("(close names: 'Elements{io}')"),
        "{}",
        stderr(&out)
    );
}

/// `--plot-along` says where it saved its charts where `--plot` does: with
/// the tables when the file names are the default ones, on stderr when
/// they were chosen.
#[test]
fn along_charts_say_where_they_went_as_the_summary_chart_does() {
    let dir = Scratch::new("messages-along-saved");
    let mixed = case("068-mixed-explain-nocolor");
    copy_dir(&mixed, &dir);
    let default = run(
        &dir,
        &[
            "--no-color",
            "--plot-along",
            "Elements{io}",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(default.status.code(), Some(0), "{}", stderr(&default));
    assert!(
        stdout(&default).contains("Saved plot-along output to "),
        "{}",
        stdout(&default)
    );
    assert!(
        !stderr(&default).contains("Saved plot-along"),
        "{}",
        stderr(&default)
    );
    let chosen = run(
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
    assert!(stderr(&chosen).contains("Saved plot-along output to along.svg"));
    assert!(!stdout(&chosen).contains("Saved plot-along"));
}

/// `--help` says what `--display simple`'s `%C Diff` is.
#[test]
fn the_help_defines_the_simple_tables_columns() {
    let out = run(project(""), &["--help"]);
    let help = stdout(&out)
        .replace('\n', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains("%C Diff (the change of the centers relative to the smaller one, symmetric: (Cmp - Ref) / min(Ref, Cmp)"),
        "{help}"
    );
}

/// The simple table's `%C Diff` is what the help says it is, on every row
/// of the example pair (centers read back from their cells).
#[test]
fn the_simple_tables_center_diff_is_the_helps_formula() {
    let examples = project("testdata/examples");
    let out = run(
        &examples,
        &[
            "--display",
            "simple",
            "--no-color",
            "reference.json",
            "compare.json",
        ],
    );
    let seconds = |cell: &str| -> Option<f64> {
        let (number, unit) = cell.trim().split_once(' ')?;
        let scale = match unit {
            "ns" => 1e-9,
            "us" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            _ => return None,
        };
        Some(number.parse::<f64>().ok()? * scale)
    };
    let mut checked = 0;
    for line in stdout(&out).lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').collect();
        let (Some(r), Some(c)) = (seconds(cells[3]), seconds(cells[5])) else {
            continue;
        };
        let shown: f64 = cells[7].trim().trim_end_matches('%').parse().unwrap();
        let expected = (c - r) / r.min(c) * 100.0;
        assert!((shown - expected).abs() < 0.2, "{line}: {expected}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked} rows checked");
}

/// A missing input is named with the reason in plain words, not Python's
/// `[Errno 2] No such file or directory: 'nope.json'`.
#[test]
fn a_missing_input_is_named_in_plain_words() {
    let examples = project("testdata/examples");
    for args in [
        vec!["nope.json", "compare.json"],
        vec!["--format", "gbench", "nope.json", "compare.json"],
        vec!["reference.json", "--vs", "nope.json"],
    ] {
        let out = run(&examples, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let text = stderr(&out);
        assert!(
            text.contains("cannot read nope.json: no such file"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("Errno"), "{args:?}: {text}");
    }
}

/// Sides that select different numbers of devices are named with their
/// GPUs, and a pair of device options that would work is suggested.
#[test]
fn a_device_count_mismatch_names_the_files_and_gpus() {
    let dir = Scratch::new("messages-device-count");
    let examples = project("testdata/examples");
    let text = std::fs::read_to_string(examples.join("reference.json")).unwrap();
    let mut root: serde_json::Value = serde_json::from_str(&text).unwrap();
    let devices = root["devices"].as_array_mut().unwrap();
    let mut extra = devices[0].clone();
    extra["id"] = serde_json::json!(7);
    extra["name"] = serde_json::json!("GPU Seven");
    devices.push(extra);
    let three = dir.write("three.json", root.to_string());
    let compare = examples.join("compare.json");
    let compare = compare.to_str().unwrap();
    for ignore in [false, true] {
        let mut args = vec![three.as_str(), compare];
        if ignore {
            args.insert(0, "--ignore-devices");
        }
        let out = run(&dir, &args);
        assert_eq!(out.status.code(), Some(1));
        // The reference's line stays on stdout as it is.
        assert!(stdout(&out).contains(
            "--reference-devices selected 3 device(s), but --compare-devices selected 2 device(s)"
        ));
        let notes = stderr(&out);
        assert!(notes.contains("three.json selects 3 device(s): 0 (NVIDIA H100 80GB HBM3), 1 (NVIDIA L4), 7 (GPU Seven)"), "{notes}");
        assert!(
            notes.contains(
                "compare.json selects 2 device(s): 0 (NVIDIA H100 80GB HBM3), 1 (NVIDIA L4)"
            ),
            "{notes}"
        );
        assert!(
            notes.contains("--reference-devices 0 --compare-devices 0"),
            "{notes}"
        );
        assert_eq!(
            notes.contains("--ignore-devices lets the GPUs differ"),
            ignore,
            "{notes}"
        );
    }
}

/// Repetition tables: a legend says what their columns mean; runs copied
/// on one side are warned of, and a state without a test on the run
/// centers says `noise` in the Test column (its Signif is |Δ| / noise).
#[test]
fn repetition_tables_explain_their_columns_and_warn_of_copied_runs() {
    let dir = Scratch::new("messages-reps");
    let examples = project("testdata/examples");
    let reference = std::fs::read(examples.join("reference.json")).unwrap();
    let compare = std::fs::read(examples.join("compare.json")).unwrap();
    for name in ["r1.json", "r2.json"] {
        std::fs::write(dir.join(name), &reference).unwrap();
    }
    std::fs::write(dir.join("c1.json"), &compare).unwrap();
    // A second compare run that differs by a byte: not a copy.
    let mut other = compare.clone();
    other.push(b'\n');
    std::fs::write(dir.join("c2.json"), &other).unwrap();
    let out = run(
        &dir,
        &[
            "--no-color",
            "r1.json",
            "r2.json",
            "--vs",
            "c1.json",
            "c2.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (text, notes) = (stdout(&out), stderr(&out));
    assert!(
        text.contains("\nColumns: Δ ± σ = change of the run centers"),
        "{text}"
    );
    assert!(text.contains("| noise  |"), "{text}");
    assert!(
        notes.contains("warning: r1.json and r2.json hold the same bytes: one run copied?"),
        "{notes}"
    );
    assert!(!notes.contains("c1.json and c2.json"), "{notes}");
    assert!(notes.contains("run each side a third time"), "{notes}");
    // A pair of files: no legend.
    let pair = run(&dir, &["--no-color", "r1.json", "c1.json"]);
    assert!(!stdout(&pair).contains("Columns:"));
}

/// `--max-bytes comment` is a PR comment's limit; a budget too small for
/// every row drops the advice before any row.
#[test]
fn the_markdown_budget_has_a_comment_size_and_drops_advice_first() {
    let examples = project("testdata/examples");
    let summary = |budget: &str| {
        let out = run(
            &examples,
            &[
                "--markdown-summary",
                "-",
                "--max-bytes",
                budget,
                "reference.json",
                "compare.json",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        text[text.find("## nvbench-compare").unwrap()..].to_string()
    };
    let full = summary("comment");
    assert!(full.len() <= 65_536);
    assert!(
        full.contains("### What would settle the AMBG rows"),
        "{full}"
    );
    assert!(!full.contains("omitted"), "{full}");
    // One byte short: the advice goes, every row stays.
    let short = summary(&(full.len() - 1).to_string());
    assert!(!short.contains("What would settle"), "{short}");
    assert!(!short.contains("omitted"), "{short}");
    assert!(
        short.contains("| `copy_type_sweep` | \\[1\\] NVIDIA L4 | `T=F64 Elements{io}=2^26` |"),
        "{short}"
    );
    let wrong = run(
        &examples,
        &["--max-bytes", "lots", "reference.json", "compare.json"],
    );
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        stderr(&wrong).contains("`comment` (65536)"),
        "{}",
        stderr(&wrong)
    );
}
