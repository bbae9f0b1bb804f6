//! The CI gate must never pass on nothing, nor abort on a changed set of
//! states; its markdown says what it decided within `--max-bytes`; stdout
//! carries one document. Every input is written here, in a temp directory.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::util::{Bench, Doc, Scratch, State, Times, stderr, stdout};

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("holes-{name}"))
}

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = crate::util::command(dir);
    command.args(args);
    command
}

fn run(dir: &Path, args: &[&str]) -> Output {
    crate::util::run(dir, args)
}

/// A file with one benchmark `bench` whose states are `(N, seconds)`, each
/// with a tight timing around its seconds (clock summaries included, so
/// that a clear gap is confirmed in cycle space).
fn nvbench_file(bench: &str, states: &[(i64, f64)]) -> Value {
    let times = |seconds: f64| {
        Times::around(seconds, [0.999, 0.9995, 1.0005])
            .mean(seconds)
            .max(seconds * 1.001)
            .iqr(0.001)
            .clock(1.5e9)
    };
    Doc::n_sweep("Test GPU", bench, states, times).json()
}

fn write(dir: &Scratch, name: &str, value: &Value) {
    dir.write(name, value.to_string());
}

/// `ref.json` and `cmp.json` with two SAME states of `copy_sweep`.
fn same_pair(name: &str) -> Scratch {
    let dir = scratch(name);
    let states = [(1, 1e-3), (2, 2e-3)];
    write(&dir, "ref.json", &nvbench_file("copy_sweep", &states));
    write(&dir, "cmp.json", &nvbench_file("copy_sweep", &states));
    dir
}

/// Runs with and without `--fail-on slow`: exit 3 and a gate message, or
/// exit 0 and a warning, both explaining why with `expected`.
fn assert_nothing_compared(dir: &Path, args: &[&str], expected: &str) {
    let mut gated_args = vec!["--fail-on", "slow"];
    gated_args.extend(args);
    let gated = run(dir, &gated_args);
    assert_eq!(gated.status.code(), Some(3), "{}", stderr(&gated));
    assert!(
        stderr(&gated).contains(&format!(
            "nvbench-compare: gate failed: nothing was compared: {expected} (--fail-on slow)\n"
        )),
        "{}",
        stderr(&gated)
    );
    let ungated = run(dir, args);
    assert_eq!(ungated.status.code(), Some(0), "{}", stderr(&ungated));
    assert_eq!(
        stderr(&ungated),
        format!("nvbench-compare: warning: nothing was compared: {expected}\n")
    );
    // The reference's stdout is untouched: an empty summary.
    assert!(
        stdout(&ungated).contains("- Total Matches: 0\n"),
        "{}",
        stdout(&ungated)
    );
}

#[test]
fn a_mistyped_benchmark_filter_names_the_close_names() {
    let dir = same_pair("typo");
    assert_nothing_compared(
        &dir,
        &["-b", "copy_swep", "ref.json", "cmp.json"],
        "-b 'copy_swep' matched no benchmark (close names: 'copy_sweep')",
    );
}

#[test]
fn an_axis_filter_matching_nothing_names_the_values_or_axes() {
    let dir = same_pair("axis");
    assert_nothing_compared(
        &dir,
        &["-a", "N=7", "ref.json", "cmp.json"],
        "-a N=7 matched nothing: axis 'N' has the values '1', '2'",
    );
    assert_nothing_compared(
        &dir,
        &["-b", "copy_sweep", "-a", "n=1", "ref.json", "cmp.json"],
        "-a n=1 matched nothing: no axis is named 'n' (close names: 'N')",
    );
}

#[test]
fn empty_directories_and_directories_without_common_files() {
    let dir = scratch("dirs");
    std::fs::create_dir_all(dir.join("empty_ref")).unwrap();
    std::fs::create_dir_all(dir.join("empty_cmp")).unwrap();
    assert_nothing_compared(
        &dir,
        &["empty_ref", "empty_cmp"],
        "both directories are empty (no non-empty .json file in either)",
    );
    write(&dir, "base/old.json", &nvbench_file("b", &[(1, 1e-3)]));
    write(&dir, "pr/new.json", &nvbench_file("b", &[(1, 1e-3)]));
    assert_nothing_compared(
        &dir,
        &["base", "pr"],
        "the directories have no .json file in common (reference: 'base/old.json'; compare: 'pr/new.json')",
    );
}

/// State 2 dropped, state 4 added; state 3 is SLOW when `slow`.
fn changed_set(name: &str, slow: bool) -> Scratch {
    let dir = scratch(name);
    let reference = [(1, 1e-3), (2, 1e-3), (3, 1e-3)];
    let third = if slow { 2e-3 } else { 1e-3 };
    let compare = [(1, 1e-3), (3, third), (4, 1e-3)];
    write(&dir, "ref.json", &nvbench_file("b", &reference));
    write(&dir, "cmp.json", &nvbench_file("b", &compare));
    dir
}

#[test]
fn a_changed_state_set_is_compared_and_listed_under_the_gate() {
    let dir = changed_set("changed-slow", true);
    let out = run(
        &dir,
        &["--no-color", "--fail-on", "slow", "ref.json", "cmp.json"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("- Total Matches: 2\n"), "{text}");
    assert!(
        text.contains("# Missing\n\n- DROPPED state b [0 vs 0] N=2 (ref.json)\n- NEW state b [0 vs 0] N=4 (cmp.json)\n"),
        "{text}"
    );
    assert_eq!(
        stderr(&out),
        "nvbench-compare: gate failed: 1 slow (--fail-on slow)\n"
    );
    // Without a regression, the changed set alone does not fail `--fail-on slow`...
    let dir_same = changed_set("changed-same", false);
    let out = run(&dir_same, &["--fail-on", "slow", "ref.json", "cmp.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("- NEW state b [0 vs 0] N=4 (cmp.json)\n"));
    // ...but it fails `--fail-on missing`.
    let out = run(&dir_same, &["--fail-on", "missing", "ref.json", "cmp.json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        stderr(&out),
        "nvbench-compare: gate failed: 2 missing (--fail-on missing)\n"
    );
}

#[test]
fn without_the_options_a_changed_set_fails_as_in_the_reference_with_a_hint() {
    let dir = changed_set("changed-plain", false);
    let out = run(&dir, &["ref.json", "cmp.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "# b\n\nbenchmark 'b' device pair ref=0 cmp=0 has mismatched state occurrences: ref={'N=1': 1, 'N=2': 1, 'N=3': 1}, cmp={'N=1': 1, 'N=3': 1, 'N=4': 1}\n"
    );
    let hint = stderr(&out);
    assert!(hint.starts_with("nvbench-compare: hint: "), "{hint}");
    assert!(hint.contains("--report-missing"), "{hint}");
    assert_eq!(hint.lines().count(), 1, "{hint}");
}

#[test]
fn a_step_summary_is_appended_to_and_other_files_replaced() {
    let dir = same_pair("step-summary");
    let summary = dir.join("step_summary.md");
    std::fs::write(&summary, "# Earlier step\n\n").unwrap();
    let out = command(
        &dir,
        &[
            "--markdown-summary",
            "step_summary.md",
            "ref.json",
            "cmp.json",
        ],
    )
    .env("GITHUB_STEP_SUMMARY", &summary)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(
        text.starts_with("# Earlier step\n\n## nvbench-compare\n\n"),
        "{text}"
    );
    // Any other path is written whole.
    let other = dir.join("other.md");
    std::fs::write(&other, "old content\n").unwrap();
    let out = command(
        &dir,
        &["--markdown-summary", "other.md", "ref.json", "cmp.json"],
    )
    .env("GITHUB_STEP_SUMMARY", &summary)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&other).unwrap();
    assert!(text.starts_with("## nvbench-compare\n\n"), "{text}");
}

#[test]
fn the_markdown_says_what_was_decided() {
    let dir = changed_set("verdict", true);
    let out = run(
        &dir,
        &[
            "--fail-on",
            "slow,missing",
            "--preset",
            "strict",
            "--markdown-summary",
            "-",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(out.status.code(), Some(3));
    let text = stdout(&out);
    let markdown = &text[text.find("## nvbench-compare").expect("markdown on stdout")..];
    assert!(
        markdown.starts_with(
            "## nvbench-compare\n\n**Gate: failed** (`--fail-on slow,missing`): 1 slow, 2 missing\n\n- Reference: `ref.json`\n- Compare: `cmp.json`\n- Preset: `strict`; rules: `nvbench_compare.py@4fabe3f`; thresholds: `clear_gap.relative = "
        ),
        "{markdown}"
    );
    // Items are code spans: names from the inputs cannot make links.
    assert!(
        markdown.contains("### NEW / DROPPED (2)\n\n- `DROPPED state b [0 vs 0] N=2 (ref.json)`\n- `NEW state b [0 vs 0] N=4 (cmp.json)`\n"),
        "{markdown}"
    );
    assert!(markdown.contains(&format!(
        "- Tool: nvbench-compare {}\n",
        env!("CARGO_PKG_VERSION")
    )));
    let passed = run(
        &same_pair("verdict-pass"),
        &[
            "--fail-on",
            "slow",
            "--markdown-summary",
            "-",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(passed.status.code(), Some(0));
    assert!(stdout(&passed).contains("**Gate: passed** (`--fail-on slow`)\n"));
}

/// 30 SLOW and 30 SAME states: rows of a kept and of a cut section.
fn slow_and_same(name: &str) -> Scratch {
    let dir = scratch(name);
    let reference: Vec<(i64, f64)> = (0..60).map(|n| (n, 1e-3)).collect();
    let compare: Vec<(i64, f64)> = (0..60)
        .map(|n| (n, if n < 30 { 2e-3 } else { 1e-3 }))
        .collect();
    write(&dir, "ref.json", &nvbench_file("b", &reference));
    write(&dir, "cmp.json", &nvbench_file("b", &compare));
    dir
}

fn markdown_with_budget(dir: &Path, max_bytes: Option<usize>) -> Result<String, String> {
    let budget = max_bytes.map(|n| n.to_string());
    let mut args = vec!["--markdown-summary", "-"];
    if let Some(budget) = &budget {
        args.extend(["--max-bytes", budget.as_str()]);
    }
    args.extend(["--json", "report.json", "ref.json", "cmp.json"]);
    let out = run(dir, &args);
    let text = stdout(&out);
    match out.status.code() {
        Some(0) => Ok(text[text.find("## nvbench-compare").unwrap()..].to_string()),
        _ => Err(stderr(&out)),
    }
}

/// Every table line is a whole row: starts and ends with a pipe, and has
/// the header's number of cells.
fn assert_whole_rows(markdown: &str) {
    for line in markdown.lines().filter(|l| l.starts_with('|')) {
        assert!(line.ends_with('|'), "cut row: {line}");
    }
    assert!(markdown.ends_with('\n'));
}

#[test]
fn max_bytes_at_just_under_and_far_under_the_full_size() {
    let dir = slow_and_same("budget");
    let full = markdown_with_budget(&dir, None).unwrap();
    assert!(full.contains("### SLOW (30)"), "{full}");
    assert!(full.contains("<details><summary>SAME (30)</summary>"));
    assert!(!full.contains("omitted"));
    // At the full size, nothing is cut.
    assert_eq!(markdown_with_budget(&dir, Some(full.len())).unwrap(), full);
    // One byte less: SAME rows go first, SLOW rows stay.
    let under = markdown_with_budget(&dir, Some(full.len() - 1)).unwrap();
    assert!(under.len() < full.len());
    assert_whole_rows(&under);
    let slow_rows = |text: &str| {
        text.lines()
            .filter(|l| l.ends_with("| clear_gap_confirmed_by_summary_cycles |"))
            .count()
    };
    assert_eq!(slow_rows(&full), 30);
    assert_eq!(slow_rows(&under), 30);
    assert!(under.contains("row(s) omitted to keep this summary within --max-bytes._"));
    // Far under: the smallest summary keeps the decision and counts only.
    let error = markdown_with_budget(&dir, Some(100)).unwrap_err();
    let smallest: usize = error
        .split("the smallest that works is ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no smallest size in {error}"));
    assert!(
        error.starts_with(
            "nvbench-compare: error: --max-bytes 100 is too small for this markdown summary"
        ),
        "{error}"
    );
    let tiny = markdown_with_budget(&dir, Some(smallest)).unwrap();
    assert_eq!(tiny.len(), smallest);
    assert_whole_rows(&tiny);
    assert!(tiny.contains("**Gate: not gated**"));
    assert!(
        tiny.contains("| 60 | 30 | 0 | 30 | 0 | 0 | 0 | 0 |"),
        "{tiny}"
    );
    assert!(
        tiny.contains("### SLOW (30)\n\n_30 row(s) omitted"),
        "{tiny}"
    );
    assert!(markdown_with_budget(&dir, Some(smallest - 1)).is_err());
}

#[test]
fn json_on_stdout_is_the_only_stdout_document() {
    let dir = same_pair("conflict");
    for other in [
        ["--markdown-summary", "-"],
        ["--bulk-debug-python", "stdout"],
    ] {
        let out = run(
            &dir,
            &["--json", "-", other[0], other[1], "ref.json", "cmp.json"],
        );
        assert_eq!(out.status.code(), Some(2), "{other:?}");
        assert!(out.stdout.is_empty());
        assert!(
            stderr(&out).contains("cannot both write to stdout"),
            "{}",
            stderr(&out)
        );
    }
    // Writing either of them to a file is fine.
    let out = run(
        &dir,
        &[
            "--json",
            "-",
            "--markdown-summary",
            "s.md",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice::<Value>(&out.stdout).expect("only JSON on stdout");
}

#[test]
fn under_json_stdout_warnings_go_to_stderr() {
    let dir = scratch("json-warnings");
    let mut reference = nvbench_file("b", &[(1, 1e-3)]);
    reference["meta"] = json!({});
    reference["devices"][0]["name"] = json!("Other GPU");
    write(&dir, "ref.json", &reference);
    write(&dir, "cmp.json", &nvbench_file("b", &[(1, 1e-3)]));
    let out = run(
        &dir,
        &["--ignore-devices", "--json", "-", "ref.json", "cmp.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("only JSON on stdout");
    let warnings = stderr(&out);
    assert!(
        warnings.contains("ref.json is written in an older, unversioned format."),
        "{warnings}"
    );
    assert!(
        warnings.contains("Device sections do not match"),
        "{warnings}"
    );
    // The device names are in the report.
    assert_eq!(report["states"][0]["reference_device_name"], "Other GPU");
    assert_eq!(report["states"][0]["compare_device_name"], "Test GPU");
}

#[test]
fn the_json_report_carries_the_gate_result() {
    let dir = changed_set("json-gate", true);
    let out = run(
        &dir,
        &[
            "--fail-on",
            "slow,ambg",
            "--json",
            "-",
            "ref.json",
            "cmp.json",
        ],
    );
    assert_eq!(out.status.code(), Some(3));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["gate"],
        json!({
            "fail_on": ["slow", "ambg"],
            "verdict": "failed",
            "tripped": [{"category": "slow", "count": 1}],
            "nothing_compared": null
        })
    );
    let empty = scratch("json-gate-empty");
    std::fs::create_dir_all(empty.join("a")).unwrap();
    std::fs::create_dir_all(empty.join("b")).unwrap();
    let out = run(&empty, &["--json", "-", "a", "b"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["gate"]["verdict"], "not gated");
    assert_eq!(
        report["gate"]["nothing_compared"],
        "both directories are empty (no non-empty .json file in either)"
    );
}

/// `ref.json` and `cmp.json` with 300 benchmarks of one state each: three
/// of them (`slow_17`, `slow_42`, `slow_99`) twice as slow in the compare
/// file, the others a hair slower, by up to 0.09%.
fn many_benchmarks(name: &str) -> Scratch {
    let dir = scratch(name);
    let times = |seconds: f64| {
        Times::around(seconds, [0.999, 0.9995, 1.0005])
            .mean(seconds)
            .max(seconds * 1.001)
            .iqr(0.001)
            .clock(1.5e9)
    };
    let file = |compare: bool| {
        let mut doc = Doc::new().device(0, "Test GPU");
        for i in 0..300 {
            let slow = [17, 42, 99].contains(&i);
            let name = if slow {
                format!("slow_{i}")
            } else {
                format!("bench_{i}")
            };
            let seconds = match (compare, slow) {
                (false, _) => 1e-3,
                (true, true) => 2e-3,
                (true, false) => 1e-3 * (1.0 + (i % 10) as f64 * 1e-4),
            };
            let state = State::on(0).at("N", 1).times(times(seconds));
            doc = doc.bench(Bench::new(&name).axis("N", "int64").state(state));
        }
        doc.json()
    };
    write(&dir, "ref.json", &file(false));
    write(&dir, "cmp.json", &file(true));
    dir
}

/// A row of the markdown's per-benchmark geomean table: `(benchmark, ratio)`.
fn geomean_row(line: &str) -> Option<(String, f64)> {
    let rest = line.strip_prefix("| `")?;
    let (name, rest) = rest.split_once("` | ")?;
    let ratio = rest.split(' ').next()?.parse().ok()?;
    rest.ends_with("%) |").then(|| (name.to_string(), ratio))
}

fn geomean_rows(markdown: &str) -> Vec<(String, f64)> {
    markdown.lines().filter_map(geomean_row).collect()
}

/// A summary of many benchmarks under a budget smaller than their geomean
/// table: the table is cut, its most regressed rows kept, the SLOW rows
/// whole, and the run exits as the gate says, not with an error.
#[test]
fn a_geomean_table_over_the_budget_is_cut_not_an_error() {
    let dir = many_benchmarks("many-benchmarks");
    let summary = |budget: Option<&str>| {
        let mut args = vec!["--fail-on", "slow", "--markdown-summary", "summary.md"];
        if let Some(budget) = budget {
            args.extend(["--max-bytes", budget]);
        }
        args.extend(["ref.json", "cmp.json"]);
        let out = run(&dir, &args);
        let text = std::fs::read_to_string(dir.join("summary.md"))
            .unwrap_or_else(|_| panic!("no summary: {}", stderr(&out)));
        std::fs::remove_file(dir.join("summary.md")).unwrap();
        (out.status.code(), text)
    };
    let (code, full) = summary(None);
    assert_eq!(code, Some(3));
    let all = geomean_rows(&full);
    assert_eq!(all.len(), 300, "{full}");
    let table_len: usize = full
        .lines()
        .filter(|line| geomean_row(line).is_some())
        .map(str::len)
        .sum();
    let budget = 4096;
    assert!(
        table_len > budget,
        "the geomean table alone is over the budget"
    );
    let (cut_code, cut) = summary(Some(&budget.to_string()));
    assert_eq!(cut_code, code, "the gate's exit, as without a budget");
    assert!(cut.len() <= budget, "{} bytes", cut.len());
    assert_whole_rows(&cut);
    assert!(
        cut.contains("**Gate: failed** (`--fail-on slow`): 3 slow"),
        "{cut}"
    );
    // The SLOW rows are kept before the geomeans of each benchmark.
    assert!(cut.contains("### SLOW (3)\n"), "{cut}");
    assert_eq!(
        cut.matches("| clear_gap_confirmed_by_summary_cycles |")
            .count(),
        3
    );
    let kept = geomean_rows(&cut);
    let omitted = all.len() - kept.len();
    assert!(kept.len() >= 3 && omitted > 0, "{cut}");
    assert!(
        cut.contains(&format!("\n_{omitted} row(s) omitted to keep this summary within --max-bytes; the most regressed benchmarks are kept._\n")),
        "{cut}"
    );
    // The kept rows are the most regressed, in the table's order.
    let lowest_kept = kept.iter().map(|(_, r)| *r).fold(f64::INFINITY, f64::min);
    let highest_omitted = all
        .iter()
        .filter(|row| !kept.contains(row))
        .map(|(_, r)| *r)
        .fold(0.0, f64::max);
    assert!(
        lowest_kept >= highest_omitted,
        "{lowest_kept} < {highest_omitted}"
    );
    for slow in ["slow_17", "slow_42", "slow_99"] {
        assert!(
            kept.iter().any(|(name, _)| name == slow),
            "{slow}: {kept:?}"
        );
    }
    let in_table_order: Vec<&(String, f64)> = all.iter().filter(|row| kept.contains(row)).collect();
    assert_eq!(in_table_order, kept.iter().collect::<Vec<_>>());
}

/// Directory mode with a benchmark name in two files (CUB's `base`): the
/// project's own outputs say which file each row and geomean is from, and
/// stderr names each pair of files before its tables.
#[test]
fn directory_mode_names_the_file_of_every_row() {
    let dir = scratch("dir-files");
    let states = [(1, 1e-3), (2, 2e-3)];
    let slower = [(1, 1.2e-3), (2, 2e-3)];
    write(&dir, "a/x.json", &nvbench_file("base", &states));
    write(&dir, "b/x.json", &nvbench_file("base", &slower));
    write(&dir, "a/y.json", &nvbench_file("base", &states));
    write(&dir, "b/y.json", &nvbench_file("base", &states));
    let out = run(
        &dir,
        &[
            "--csv",
            "o.csv",
            "--markdown-summary",
            "o.md",
            "--json",
            "o.json",
            "a",
            "b",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let notes: Vec<String> = stderr(&out)
        .lines()
        .filter(|l| l.contains("the tables below compare"))
        .map(str::to_string)
        .collect();
    assert_eq!(notes.len(), 2, "{}", stderr(&out));
    assert!(
        notes[0].ends_with("compare a/x.json vs b/x.json"),
        "{notes:?}"
    );
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let markdown = read("o.md");
    assert!(
        markdown.contains("| File | Benchmark | Geomean ratio |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| `a/y.json` | `base` | 1.0000 (+0.00%) |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| `a/x.json` | `base` | \\[0\\] Test GPU | `N=1` |"),
        "{markdown}"
    );
    let csv = read("o.csv");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(
        header[header.len() - 2..],
        ["reference_json", "compare_json"]
    );
    assert!(
        csv.lines().nth(1).unwrap().ends_with(",a/x.json,b/x.json"),
        "{csv}"
    );
    let json: Value = serde_json::from_str(&read("o.json")).unwrap();
    let files: Vec<&str> = json["geomean"]["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["reference_json"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["a/x.json", "a/y.json"]);
    // One file a side: no File column.
    let pair = run(&dir, &["--markdown-summary", "-", "a/x.json", "b/x.json"]);
    assert!(!stdout(&pair).contains("| File |"), "{}", stdout(&pair));
}
