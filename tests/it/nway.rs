//! N-way comparison (`base --vs a --vs b ...`) on the built binary: every
//! candidate decided as `base --vs candidate` would be, the long and wide
//! tables, labels, CSV, JSON version 2, the gate per candidate, the errors.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::util::{Bench, Doc, Scratch, State, Times, run, stderr, stdout};

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("nway-{name}"))
}

/// A run of benchmark `b` (device 0, `GPU`) whose states `N=1..=4` take
/// `n ms * factor`, and `N=4` `extra` times longer again.
fn write_run(dir: &Path, name: &str, factor: f64, extra: f64) {
    let times = |median| {
        Times::around(median, [0.998, 0.999, 1.002])
            .iqr(0.003)
            .clock(1.5e9)
    };
    let states: Vec<(i64, f64)> = (1..=4)
        .map(|n| {
            let slow = if n == 4 { extra } else { 1.0 };
            (n, 1e-3 * n as f64 * factor * slow)
        })
        .collect();
    let doc = Doc::n_sweep("GPU", "b", &states, times);
    std::fs::write(dir.join(name), doc.text()).unwrap();
}

/// Three processes of the baseline and of candidates `a` (unchanged),
/// `b` (N=4 20 % slower) and `c` (everything 30 % faster).
fn groups(dir: &Path) {
    for (run, drift) in [(1, 1.0), (2, 1.004), (3, 0.997)] {
        write_run(dir, &format!("main{run}.json"), drift, 1.0);
        write_run(dir, &format!("a{run}.json"), drift * 1.001, 1.0);
        write_run(dir, &format!("b{run}.json"), drift * 0.999, 1.2);
        write_run(dir, &format!("c{run}.json"), drift * 0.7, 1.0);
    }
}

fn group(name: &str) -> Vec<String> {
    (1..=3).map(|run| format!("{name}{run}.json")).collect()
}

/// `main1 main2 main3 --vs a1 a2 a3 --vs ...` for the named candidates.
fn nway_args(candidates: &[&str]) -> Vec<String> {
    let mut args = group("main");
    for candidate in candidates {
        args.push("--vs".to_string());
        args.extend(group(candidate));
    }
    args
}

fn run_ok(dir: &Path, args: &[String]) -> Output {
    let out = run(dir, args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(out), stderr(out)))
}

/// `(state, status, reason)` of a version-1 states list.
fn decisions(states: &Value) -> Vec<(String, String, String)> {
    states
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let text = |key: &str| s[key].as_str().unwrap_or_default().to_string();
            (
                text("state_key"),
                text("status"),
                s["reason"]["code"].to_string(),
            )
        })
        .collect()
}

#[test]
fn every_candidate_is_decided_as_its_own_vs_run() {
    let dir = scratch("equal");
    groups(&dir);
    let mut args = vec!["--json".to_string(), "-".to_string()];
    args.extend(nway_args(&["a", "b", "c"]));
    let report = json(&run_ok(&dir, &args));
    assert_eq!(report["schema_version"], 2);
    assert_eq!(report["baseline"]["label"], "main");
    let candidates = report["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 3);
    for (candidate, name) in candidates.iter().zip(["a", "b", "c"]) {
        assert_eq!(candidate["label"], name);
        let mut pair = vec!["--json".to_string(), "-".to_string()];
        pair.extend(group("main"));
        pair.push("--vs".to_string());
        pair.extend(group(name));
        let alone = json(&run_ok(&dir, &pair));
        assert_eq!(alone["schema_version"], 1);
        assert_eq!(
            decisions(&candidate["states"]),
            decisions(&alone["states"]),
            "{name}"
        );
        assert_eq!(candidate["summary"], alone["summary"], "{name}");
    }
    let statuses = |label: usize| {
        decisions(&candidates[label]["states"])
            .into_iter()
            .map(|(_, status, _)| status)
            .collect::<Vec<_>>()
    };
    assert_eq!(statuses(0), ["SAME"; 4]);
    assert_eq!(statuses(1)[3], "SLOW");
    assert!(statuses(2).iter().all(|s| s == "FAST"), "{:?}", statuses(2));
}

#[test]
fn the_long_table_has_a_row_per_state_and_group() {
    let dir = scratch("long");
    groups(&dir);
    let out = run_ok(
        &dir,
        &[&["--no-color".to_string()][..], &nway_args(&["a", "b"])].concat(),
    );
    let text = stdout(&out);
    assert!(text.starts_with("# b\n\n## [0] GPU\n\n"), "{text}");
    assert!(
        text.contains("| Config   |") && text.contains("|   Speedup |") && text.contains("Signif"),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("|  4  |")).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(
        rows[0].contains("| main ") && rows[0].contains("base"),
        "{}",
        rows[0]
    );
    assert!(rows[0].contains(" 1.00x "), "{}", rows[0]);
    assert!(
        rows[2].contains("| b ") && rows[2].contains("SLOW"),
        "{}",
        rows[2]
    );
    assert!(rows[2].contains(" 0.83x "), "{}", rows[2]);
    assert!(text.contains("- a vs main: 4 SAME, 0 FAST, 0 SLOW, 0 AMBG, 0 ????; geomean speedup "));
    assert!(text.contains("- b vs main: 3 SAME, 0 FAST, 1 SLOW, 0 AMBG, 0 ????; geomean speedup "));
    // --show keeps the baseline row of a state whose candidate row is shown.
    let shown = run_ok(
        &dir,
        &[
            &["--no-color", "--show", "slow"].map(String::from)[..],
            &nway_args(&["a", "b"]),
        ]
        .concat(),
    );
    let rows: Vec<String> = stdout(&shown)
        .lines()
        .filter(|l| l.starts_with("|  ") && !l.contains("Config"))
        .map(String::from)
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[0].contains("base") && rows[1].contains("SLOW"));
}

#[test]
fn the_wide_table_speedup_base_and_sort() {
    let dir = scratch("wide");
    groups(&dir);
    let wide = run_ok(
        &dir,
        &[
            &["--no-color", "--layout", "wide"].map(String::from)[..],
            &nway_args(&["a", "b", "c"]),
        ]
        .concat(),
    );
    let text = stdout(&wide);
    assert!(
        text.contains("main Time |") && text.contains(" b Δ ± σ |") && text.contains("c Status"),
        "{text}"
    );
    let rows = text
        .lines()
        .filter(|l| l.starts_with("|  ") && !l.contains("Time"));
    assert_eq!(rows.count(), 4, "{text}");
    let based = run_ok(
        &dir,
        &[
            &["--no-color", "--speedup-base", "c", "--sort", "status"].map(String::from)[..],
            &nway_args(&["a", "b", "c"]),
        ]
        .concat(),
    );
    let text = stdout(&based);
    let first = text
        .lines()
        .find(|l| l.starts_with("|  ") && !l.contains("Config"))
        .unwrap();
    // The state with the SLOW candidate first; speedups relative to c.
    assert!(first.starts_with("|  4  |"), "{text}");
    let c_row = text
        .lines()
        .find(|l| l.starts_with("|  4  |") && l.contains("| c "))
        .unwrap();
    assert!(c_row.contains(" 1.00x "), "{c_row}");
}

#[test]
fn labels_three_ways() {
    let dir = scratch("labels");
    groups(&dir);
    let table = |args: &[String]| {
        stdout(&run_ok(
            &dir,
            &[&["--no-color".to_string()][..], args].concat(),
        ))
    };
    // The distinguishing part of the paths.
    let text = table(&nway_args(&["a", "b"]));
    assert!(text.contains("| main ") && text.contains("| a ") && text.contains("| b "));
    // LABEL=PATH on a group's first path.
    let mut named = nway_args(&["a", "b"]);
    named[0] = "trunk=main1.json".to_string();
    named[4] = "pr-1=a1.json".to_string();
    let text = table(&named);
    assert!(
        text.contains("| trunk ") && text.contains("| pr-1 "),
        "{text}"
    );
    assert!(text.contains("- pr-1 vs trunk: "), "{text}");
    // --labels.
    let text = table(
        &[
            &["--labels", "x,y,z"].map(String::from)[..],
            &nway_args(&["a", "b"]),
        ]
        .concat(),
    );
    assert!(text.contains("| x ") && text.contains("| z "), "{text}");
}

#[test]
fn csv_reads_back_with_a_line_per_state_and_candidate() {
    let dir = scratch("csv");
    groups(&dir);
    let out = run_ok(
        &dir,
        &[
            &["--csv", "-"].map(String::from)[..],
            &nway_args(&["a", "b"]),
        ]
        .concat(),
    );
    let text = stdout(&out);
    assert!(!text.contains("# b"), "the CSV replaces the tables");
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 1 + 2 * 4, "{text}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let slow: Vec<&str> = lines[8].split(',').collect();
    assert_eq!(slow[column("candidate")], "b");
    assert_eq!(slow[column("status")], "SLOW");
    assert_eq!(slow[column("N")], "4");
    let delta: f64 = slow[column("delta")].parse().unwrap();
    assert!((delta - 0.2).abs() < 0.01, "{delta}");
    let time: f64 = slow[column("time_s")].parse().unwrap();
    assert!((time - 4.8e-3).abs() < 1e-4, "{time}");
    // Also for a pair.
    let pair = run_ok(
        &dir,
        &["--csv", "-", "main1.json", "b1.json"].map(String::from),
    );
    assert_eq!(
        stdout(&pair)
            .split("\r\n")
            .filter(|l| !l.is_empty())
            .count(),
        5
    );
}

#[test]
fn the_markdown_summary_has_a_section_per_candidate() {
    let dir = scratch("markdown");
    groups(&dir);
    let out = run(
        &dir,
        &[
            &["--markdown-summary", "-", "--fail-on", "slow"].map(String::from)[..],
            &nway_args(&["a", "b"]),
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = stdout(&out);
    let a = text
        .find("## nvbench-compare: a vs main")
        .expect("a's section");
    let b = text
        .find("## nvbench-compare: b vs main")
        .expect("b's section");
    assert!(a < b, "{text}");
    assert!(text[b..].contains("**Gate: failed**"), "{text}");
    assert!(!text[a..b].contains("**Gate: failed**"), "{text}");
}

/// N-way, every candidate's section gets an equal share of `--max-bytes`:
/// a budget too small names the whole budget that works, and it does.
#[test]
fn a_budget_too_small_names_the_total_that_works() {
    let dir = scratch("markdown-budget");
    groups(&dir);
    let with_budget = |budget: usize| {
        let options = [
            "--markdown-summary",
            "-",
            "--fail-on",
            "slow",
            "--max-bytes",
        ];
        let mut args: Vec<String> = options.map(String::from).to_vec();
        args.push(budget.to_string());
        args.extend(nway_args(&["a", "b"]));
        run(&dir, &args)
    };
    let smallest_said = |out: &Output| -> usize {
        let error = stderr(out);
        assert_eq!(out.status.code(), Some(1), "{error}");
        error
            .split("the smallest that works is ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no smallest size in {error}"))
    };
    let smallest = smallest_said(&with_budget(100));
    let fits = with_budget(smallest);
    assert_eq!(fits.status.code(), Some(3), "{}", stderr(&fits));
    let text = stdout(&fits);
    let markdown = &text[text
        .find("## nvbench-compare: a vs main")
        .expect("a's section")..];
    assert!(
        markdown.len() <= smallest,
        "{} > {smallest}",
        markdown.len()
    );
    assert!(
        markdown.contains("## nvbench-compare: b vs main"),
        "{markdown}"
    );
    // One byte less is too small, and says the same size.
    assert_eq!(smallest_said(&with_budget(smallest - 1)), smallest);
}

#[test]
fn the_gate_looks_at_every_candidate_or_the_one_named() {
    let dir = scratch("gate");
    groups(&dir);
    let args = |extra: &[&str], candidates: &[&str]| {
        [
            &extra.iter().map(|s| s.to_string()).collect::<Vec<_>>()[..],
            &nway_args(candidates),
        ]
        .concat()
    };
    let tripped = run(&dir, &args(&["--fail-on", "slow"], &["a", "b"]));
    assert_eq!(tripped.status.code(), Some(3), "{}", stderr(&tripped));
    assert!(
        stderr(&tripped).contains("nvbench-compare: b: gate failed: 1 slow"),
        "{}",
        stderr(&tripped)
    );
    assert!(!stderr(&tripped).contains(" a: gate failed"));
    let only_a = run(
        &dir,
        &args(&["--fail-on", "slow", "--fail-on-label", "a"], &["a", "b"]),
    );
    assert_eq!(only_a.status.code(), Some(0), "{}", stderr(&only_a));
    let only_b = run(
        &dir,
        &args(&["--fail-on", "slow", "--fail-on-label", "b"], &["a", "b"]),
    );
    assert_eq!(only_b.status.code(), Some(3));
}

#[test]
fn five_groups_and_directories_across_devices() {
    let dir = scratch("five");
    groups(&dir);
    for (name, factor) in [("d", 1.1), ("e", 0.9)] {
        for run in 1..=3 {
            write_run(&dir, &format!("{name}{run}.json"), factor, 1.0);
        }
    }
    let out = run_ok(
        &dir,
        &[
            &["--no-color".to_string()][..],
            &nway_args(&["a", "b", "c", "d", "e"]),
        ]
        .concat(),
    );
    let text = stdout(&out);
    assert_eq!(text.lines().filter(|l| l.starts_with("|  1  |")).count(), 6);
    assert!(text.contains("- e vs main: 0 SAME, 4 FAST,"), "{text}");
    // Directories of another GPU each, compared by file name.
    for (gpu, factor) in [("h100", 1.0), ("a100", 1.5), ("l40s", 2.0)] {
        std::fs::create_dir_all(dir.join(gpu)).unwrap();
        let times = |median| {
            Times::around(median, [0.998, 0.999, 1.002])
                .iqr(0.003)
                .clock(1.5e9)
        };
        let states: Vec<(i64, f64)> = (1..=2).map(|n| (n, 1e-3 * n as f64 * factor)).collect();
        let doc = Doc::n_sweep(gpu, "b", &states, times);
        std::fs::write(dir.join(gpu).join("bench.json"), doc.text()).unwrap();
    }
    let refused = run(&dir, &["h100", "--vs", "a100", "--vs", "l40s"]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(stdout(&refused).contains("Device sections do not match (h100 and a100)"));
    let out = run_ok(
        &dir,
        &[
            "--no-color",
            "--ignore-devices",
            "h100/",
            "--vs",
            "a100/",
            "--vs",
            "l40s/",
        ]
        .map(String::from),
    );
    let text = stdout(&out);
    assert!(text.contains("## [0] h100"), "{text}");
    assert!(
        text.contains("| a100 ") && text.contains("| l40s "),
        "{text}"
    );
    assert!(
        text.contains("- l40s vs h100: 0 SAME, 0 FAST, 2 SLOW,"),
        "{text}"
    );
}

#[test]
fn errors_name_the_problem() {
    let dir = scratch("errors");
    groups(&dir);
    let three = ["main1.json", "--vs", "a1.json", "--vs", "b1.json"];
    let cases: [(&[&str], &[&str], i32, &str); 5] = [
        (
            &[],
            &["main1.json", "--vs", "a1.json", "--vs"],
            1,
            "candidate group 2 has no run",
        ),
        (
            &["--labels", "x,y,x"],
            &three,
            2,
            "the label x is given to two groups",
        ),
        (
            &["--speedup-base", "zz"],
            &three,
            2,
            "--speedup-base zz names no group",
        ),
        (&["--display", "legacy"], &three, 2, "no N-way form"),
        (
            &["--layout", "wide"],
            &["main1.json", "a1.json"],
            2,
            "--layout applies to N-way comparisons",
        ),
    ];
    for (options, paths, code, message) in cases {
        let out = run(&dir, &[options, paths].concat());
        assert_eq!(out.status.code(), Some(code), "{options:?}");
        assert!(
            stderr(&out).contains(message),
            "{options:?}: {}",
            stderr(&out)
        );
    }
}

/// The documented N-way example: the shipped example files with the second
/// candidate the example generator writes.
#[test]
fn the_shipped_example_compares_two_builds_with_the_old_one() {
    let examples = crate::util::project("testdata/examples");
    let out = run_ok(
        &examples,
        &[
            "--no-color",
            "reference.json",
            "--vs",
            "compare.json",
            "--vs",
            "compare-fix.json",
        ]
        .map(String::from),
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "- compare vs reference: 31 SAME, 12 FAST, 2 SLOW, 2 AMBG, 1 ????; geomean speedup 1.18x"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "- compare-fix vs reference: 36 SAME, 12 FAST, 0 SLOW, 0 AMBG, 0 ????; geomean speedup 1.19x"
        ),
        "{text}"
    );
}

/// The N-way documentation's example prints what the binary prints.
#[test]
fn the_documented_nway_example_is_the_binary_s_output() {
    let readme = std::fs::read_to_string(crate::util::project("docs/nway.md")).unwrap();
    let command = "      reference.json --vs compare.json --vs compare-fix.json\n";
    let start = readme
        .find(command)
        .expect("the N-way example in docs/nway.md")
        + command.len();
    let shown = &readme[start..start + readme[start..].find("\n```").unwrap() + 1];
    let examples = crate::util::project("testdata/examples");
    let out = run_ok(
        &examples,
        &[
            "--no-color",
            "-a",
            "T=F64",
            "-a",
            "Elements{io}[pow2]=24",
            "reference.json",
            "--vs",
            "compare.json",
            "--vs",
            "compare-fix.json",
        ]
        .map(String::from),
    );
    assert_eq!(stdout(&out), shown);
}

/// `--plot`: a bar per shown candidate row, labelled with its candidate,
/// the bars of a state together; `--plot-along`: a series per group, the
/// baseline's dashed.
#[test]
fn charts_have_a_bar_and_a_series_per_candidate() {
    let dir = scratch("charts");
    groups(&dir);
    let args = [
        "--plot",
        "--plot-output",
        "summary.svg",
        "--plot-along",
        "N",
        "--plot-along-output",
        "{benchmark}.svg",
    ]
    .map(String::from);
    run_ok(&dir, &[&args[..], &nway_args(&["a", "b"])].concat());
    let summary = std::fs::read_to_string(dir.join("summary.svg")).unwrap();
    // The benchmark, alike in every row, is said once under the title.
    let bars = ["\nN=4 | a\n", "\nN=4 | b\n"];
    let at: Vec<usize> = bars
        .iter()
        .map(|bar| summary.find(bar).unwrap_or_else(|| panic!("no bar {bar}")))
        .collect();
    assert!(
        at[0] < at[1],
        "a state's bars stand together, candidates in order"
    );
    let along = std::fs::read_to_string(dir.join("b.svg")).unwrap();
    // SVG text sits on a line of its own between its tags.
    for legend in ["main", "a", "b"] {
        assert!(along.lines().any(|l| l == legend), "no series {legend}");
    }
}

/// Directories: a file some candidates lack is compared with the others;
/// the candidates without it list it as DROPPED (`--report-missing`) or
/// get a hint.
#[test]
fn a_file_some_candidates_lack_is_compared_with_the_others() {
    let dir = scratch("lacking");
    for side in ["base", "a", "b"] {
        std::fs::create_dir_all(dir.join(side)).unwrap();
        write_run(&dir.join(side), "x.json", 1.0, 1.0);
    }
    // Only the baseline and `a` have y.json.
    write_run(&dir.join("base"), "y.json", 1.0, 1.0);
    write_run(&dir.join("a"), "y.json", 1.0, 1.2);
    let args = ["--no-color", "base", "--vs", "a", "--vs", "b"];
    let out = run_ok(&dir, &args.map(String::from));
    assert!(
        stdout(&out).contains("- a vs base: 7 SAME, 0 FAST, 1 SLOW,"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("- b vs base: 4 SAME,"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("hint: 1 file(s) are in one directory only"),
        "{}",
        stderr(&out)
    );
    let listed = run_ok(
        &dir,
        &[
            "--json",
            "-",
            "--report-missing",
            "base",
            "--vs",
            "a",
            "--vs",
            "b",
        ]
        .map(String::from),
    );
    let report = json(&listed);
    let missing = &report["candidates"][1]["missing"];
    assert_eq!(missing.as_array().unwrap().len(), 1, "{missing}");
    assert_eq!(missing[0]["presence"], "DROPPED");
    assert_eq!(
        report["candidates"][0]["missing"].as_array().unwrap().len(),
        0
    );
}

/// An error met while the N-way tables are written (here `--plot-along` on
/// a benchmark without the axis, found when its chart rows are added)
/// leaves the tables printed so far and exits 1, as a pair of files does:
/// both print both benchmarks' tables, then the same error.
#[test]
fn an_error_between_tables_leaves_the_tables_before_it_as_pairs_do() {
    let dir = scratch("error-between-tables");
    let times = |seconds: f64| Times::around(seconds, [0.998, 0.999, 1.002]).iqr(0.003);
    for (name, factor) in [("base.json", 1.0), ("a.json", 1.001), ("b.json", 0.7)] {
        let swept = Bench::new("swept")
            .axis("N", "int64")
            .states((1..=3).map(|n| {
                State::on(0)
                    .at("N", n)
                    .times(times(1e-3 * n as f64 * factor))
            }));
        let flat = Bench::new("flat")
            .axis("T", "string")
            .state(State::on(0).at("T", "x").times(times(2e-3 * factor)));
        let doc = Doc::new().device(0, "GPU").bench(swept).bench(flat);
        dir.write(name, doc.text());
    }
    let along = [
        "--plot-along",
        "N",
        "--plot-along-output",
        "{benchmark}.svg",
    ];
    let args = |files: &[&str]| -> Vec<String> {
        along.iter().chain(files).map(|s| s.to_string()).collect()
    };
    let pair = run(&dir, &args(&["base.json", "a.json"]));
    let nway = run(
        &dir,
        &args(&["base.json", "--vs", "a.json", "--vs", "b.json"]),
    );
    for (mode, out) in [("pair", &pair), ("N-way", &nway)] {
        assert_eq!(out.status.code(), Some(1), "{mode}: {}", stderr(out));
        assert!(
            stderr(out).contains("--plot-along axis 'N' is not present in benchmark 'flat'"),
            "{mode}: {}",
            stderr(out)
        );
        let text = stdout(out);
        assert!(text.starts_with("# swept\n"), "{mode}: {text}");
        assert!(text.contains("\n|  3  | "), "{mode}: {text}");
        assert!(text.contains("\n# flat\n"), "{mode}: {text}");
        assert!(text.contains("\n|  x  | "), "{mode}: {text}");
        assert!(!text.contains("# Summary"), "{mode}: {text}");
    }
}
