//! The conformance corpora: the project's own cases
//! (testdata/conformance/cases) and, when `../shared` exists (it does in CI),
//! every case under `../shared/conformance/cases`,
//! `../shared/conformance/real`, `../shared/conformance/gbench` and
//! `../shared/conformance/upstream/{legacy,legacy-real,robust,robust-real}`
//! (started under the name in each case's `program` file). Each case runs the built binary in a fresh
//! copy of its directory, exactly as `shared/conformance/run` does, and
//! compares stdout, the exit code and any expected files byte for byte with
//! the reference's. Every test prints how many cases it ran.
//!
//! `NVBENCH_COMPARE_SHARED=DIR` points to another shared directory (a
//! directory that does not exist runs the project's cases only, and fails
//! under `NVBC_REQUIRE=shared`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use crate::util::{Need, Scratch, announce, copy_dir, files_under, project, require, shared_dir};
use nvbench_compare::SIMPLE_PATHS_VARIABLE;

/// Cases whose feature has not landed yet, by their path's last
/// components (`corpus/case`: the upstream corpora reuse the case names of
/// `cases`). A listed case that starts passing fails the test so the list
/// cannot go stale.
const EXPECTED_FAILURES: &[&str] = &[];

/// The shared corpora, relative to the shared directory.
const SHARED_CORPORA: &[&str] = &[
    "conformance/cases",
    "conformance/real",
    // Google Benchmark's compare.py, under `--display gbench`.
    "conformance/gbench",
    // NVBench HEAD's classic script, run as `nvbench-compare-legacy`
    // (each case's `program` file).
    "conformance/upstream/legacy",
    "conformance/upstream/legacy-real",
    // NVBench 66212f1's nvbench_compare_robust.py (each case's `program`
    // names the command the binary is started as).
    "conformance/upstream/robust",
    "conformance/upstream/robust-real",
];

/// Which paths the binary takes (see `nvbench_compare::fast_paths`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Paths {
    Fast,
    Simple,
}

/// Parallel cases per corpus (the shared runner's default is up to 4).
const WORKERS: usize = 4;

/// The case directories of a corpus (those with an `args` file), in name order.
fn cases_in(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file())
        .collect();
    cases.sort();
    cases
}

fn read_word(dir: &Path, name: &str, default: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| default.to_string())
}

fn visible(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\x1b', "\\x1b")
}

fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let (e, a) = (visible(expected), visible(actual));
    for (number, (el, al)) in e.lines().zip(a.lines()).enumerate() {
        if el != al {
            return format!("line {}:\n  expected: {el}\n  actual:   {al}", number + 1);
        }
    }
    format!(
        "lengths differ: expected {} lines, got {} lines",
        e.lines().count(),
        a.lines().count()
    )
}

/// Copies a case to `work` as the shared runner does: first the directory
/// its `inputs` file names (input files shared by many cases), then the case.
fn prepare(case: &Path, work: &Path) {
    if let Ok(inputs) = std::fs::read_to_string(case.join("inputs")) {
        copy_dir(&case.join(inputs.trim()), work);
    }
    copy_dir(case, work);
}

/// The shared runner's environment: no display or color settings, 80 columns.
fn runner_command(work: &Path, paths: Paths) -> Command {
    let mut command = crate::util::command(work);
    if paths == Paths::Simple {
        command.env(SIMPLE_PATHS_VARIABLE, "1");
    }
    for name in [
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "PYTHONWARNINGS",
        "MPLBACKEND",
        "TERM",
    ] {
        command.env_remove(name);
    }
    command
        .env("COLUMNS", "80")
        .env("LINES", "24")
        .env("LC_ALL", "C.UTF-8")
        .env("PYTHONIOENCODING", "utf-8");
    command
}

/// Runs one case in `scratch/NAME/case`; `Err` describes every mismatch.
fn run_case(case: &Path, scratch: &Path, paths: Paths) -> Result<(), String> {
    let name = case.file_name().unwrap().to_string_lossy().to_string();
    let work = scratch.join(&name).join("case");
    prepare(case, &work);
    let work_text = work.to_str().unwrap().to_string();
    let args: Vec<String> = std::fs::read_to_string(case.join("args"))
        .unwrap()
        .lines()
        .map(|line| line.replace("{CASE}", &work_text))
        .collect();
    let mut command = runner_command(&work, paths);
    let program = read_word(case, "program", "");
    if !program.is_empty() {
        // The command the binary stands in for, as the shared runner starts it.
        std::os::unix::process::CommandExt::arg0(&mut command, program);
    }
    let output = command
        .args(&args)
        .output()
        .map_err(|e| format!("cannot run the binary: {e}"))?;
    let unplace = |bytes: &[u8]| -> Vec<u8> {
        String::from_utf8_lossy(bytes)
            .replace(&work_text, "{CASE}")
            .into_bytes()
    };
    let mut problems = Vec::new();
    let expected_exit: i32 = read_word(case, "expected_exit", "")
        .parse()
        .map_err(|_| format!("{name}: expected_exit is missing or not a number"))?;
    let code = output.status.code().unwrap_or(-1);
    let mode = read_word(case, "match", "exact");
    if mode == "nonzero-exit" {
        if code == 0 {
            problems.push("exit code: expected non-zero, got 0".to_string());
        }
    } else if code != expected_exit {
        problems.push(format!("exit code: expected {expected_exit}, got {code}"));
    }
    let expected_stdout = std::fs::read(case.join("expected_stdout")).unwrap();
    let stdout = unplace(&output.stdout);
    if mode == "exact" && stdout != expected_stdout {
        problems.push(format!(
            "stdout differs at {}",
            first_difference(&expected_stdout, &stdout)
        ));
    }
    // Sidecar warnings use the reference's words (argparse's usage errors,
    // the other stderr lines of the corpus, are our own).
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected_stderr = std::fs::read_to_string(case.join("expected_stderr")).unwrap_or_default();
    for line in expected_stderr
        .lines()
        .filter(|l| l.starts_with("Could not use NVBench"))
    {
        let line = line.replace(&work_text, "{CASE}");
        if !stderr.replace(&work_text, "{CASE}").contains(&line) {
            problems.push(format!("stderr lacks the warning: {line}"));
        }
    }
    let files_root = case.join("expected_files");
    for file in files_under(&files_root, &|_| false) {
        let relative = file.strip_prefix(&files_root).unwrap();
        let expected = std::fs::read(&file).unwrap();
        match std::fs::read(work.join(relative)) {
            Ok(actual) if unplace(&actual) == expected => {}
            Ok(actual) => problems.push(format!(
                "file {} differs at {}",
                relative.display(),
                first_difference(&expected, &unplace(&actual))
            )),
            Err(_) => problems.push(format!("expected file not written: {}", relative.display())),
        }
    }
    let _ = std::fs::remove_dir_all(scratch.join(&name));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}:\n  {}", problems.join("\n  ")))
    }
}

/// Runs every case of `cases` (named `label` in messages) and announces
/// the tally; returns the failures.
fn run_corpus(label: &str, cases: &[PathBuf], paths: Paths) -> Vec<(PathBuf, String)> {
    let label = match paths {
        Paths::Fast => label.to_string(),
        Paths::Simple => format!("{label} (simple paths)"),
    };
    let slug: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let scratch = Scratch::new(&format!("conformance-{slug}"));
    let queue = Mutex::new(cases.to_vec());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                loop {
                    let Some(case) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    if let Err(problem) = run_case(&case, &scratch, paths) {
                        failures.lock().unwrap().push((case, problem));
                    }
                }
            });
        }
    });
    drop(scratch);
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    announce(&format!(
        "conformance {label}: ran {} cases, {} passed, {} failed",
        cases.len(),
        cases.len() - failures.len(),
        failures.len()
    ));
    failures
}

/// Fails on every failure not in EXPECTED_FAILURES, and on every listed
/// case of `cases` that passes.
fn assert_conforms(cases: &[PathBuf], failures: &[(PathBuf, String)]) {
    let name = |case: &Path| case.file_name().unwrap().to_string_lossy().to_string();
    let is_expected = |case: &Path| EXPECTED_FAILURES.iter().any(|entry| case.ends_with(entry));
    let unexpected: Vec<&str> = failures
        .iter()
        .filter(|(case, _)| !is_expected(case))
        .map(|(_, problem)| problem.as_str())
        .collect();
    let now_passing: Vec<String> = cases
        .iter()
        .filter(|case| is_expected(case) && !failures.iter().any(|(c, _)| c == *case))
        .map(|case| name(case))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} case(s) fail:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        now_passing.is_empty(),
        "listed as expected failures but passing: {now_passing:?}"
    );
}

#[test]
fn project_corpus_matches_the_reference() {
    project_corpus(Paths::Fast);
}

#[test]
fn project_corpus_matches_the_reference_on_the_simple_paths() {
    project_corpus(Paths::Simple);
}

fn project_corpus(paths: Paths) {
    let cases = cases_in(&project("testdata/conformance/cases"));
    assert!(
        cases.len() >= 190,
        "testdata/conformance/cases is incomplete: {} cases",
        cases.len()
    );
    let failures = run_corpus("testdata/conformance/cases", &cases, paths);
    assert_conforms(&cases, &failures);
}

/// The shared corpora are not part of the project (their inputs include
/// files from other repositories); they run whenever they are present.
#[test]
fn shared_corpora_match_the_reference_when_present() {
    shared_corpora(Paths::Fast);
}

#[test]
fn shared_corpora_match_the_reference_on_the_simple_paths() {
    shared_corpora(Paths::Simple);
}

fn shared_corpora(paths: Paths) {
    if !require(Need::Shared) {
        return;
    }
    let shared = shared_dir();
    let mut ran = 0;
    for corpus in SHARED_CORPORA {
        let dir = shared.join(corpus);
        let dir = dir.canonicalize().unwrap_or(dir);
        if !dir.is_dir() {
            announce(&format!("conformance: {} not found", dir.display()));
            continue;
        }
        let cases = cases_in(&dir);
        assert!(!cases.is_empty(), "{} holds no cases", dir.display());
        let failures = run_corpus(&dir.display().to_string(), &cases, paths);
        assert_conforms(&cases, &failures);
        ran += cases.len();
    }
    assert!(
        ran > 0,
        "{} exists but holds none of {SHARED_CORPORA:?}",
        shared.display()
    );
}

/// An NVBench file of one benchmark of `states` states `T=.. N=i`, each with
/// the summaries NVBench writes without `--jsonbin` (as
/// `benches/huge_inputs.py` writes them; the builder's JSON values would
/// take most of the test's time).
fn many_states(states: usize, factor: f64) -> String {
    let summary = |tag: &str, hint: &str, value: f64| {
        let name = tag.rsplit('/').next().unwrap();
        format!(
            r#"{{"tag":"{tag}","name":"{name}","hint":"{hint}","data":[{{"name":"value","type":"float64","value":"{value:e}"}}]}}"#
        )
    };
    let state = |i: usize| {
        let t = ["I32", "F64"][i % 2];
        let seconds = 1e-6 * (1 + i % 997) as f64 * factor;
        let summaries = [
            summary("nv/cold/time/gpu/mean", "duration", seconds),
            summary("nv/cold/time/gpu/stdev/relative", "percentage", 0.005),
            summary("nv/cold/sample_size", "sample_size", 1000.0),
        ];
        format!(
            r#"{{"name":"Device=0 T={t} N={i}","device":0,"axis_values":[{{"name":"T","type":"string","value":"{t}"}},{{"name":"N","type":"int64","value":"{i}"}}],"summaries":[{}],"is_skipped":false}}"#,
            summaries.join(",")
        )
    };
    let states: Vec<String> = (0..states).map(state).collect();
    format!(
        r#"{{"meta":{{"version":{{"json":{{"string":"1.0.0"}}}}}},"devices":[{{"id":0,"name":"GPU"}}],"benchmarks":[{{"name":"b","index":0,"devices":[0],"axes":[{{"name":"T","type":"string","flags":""}},{{"name":"N","type":"int64","flags":""}}],"states":[{}]}}]}}"#,
        states.join(",")
    )
}

/// A table of 50,000 rows and more is written in pieces by the two passes;
/// the simple paths make it whole with tabulate's direct port. Both print
/// the same bytes, for a pair and with `--vs`.
#[test]
fn a_huge_table_in_pieces_is_the_simple_paths_whole_table() {
    const STATES: usize = 50_000;
    let dir = Scratch::new("huge-table");
    for (name, factor) in [("ref.json", 1.0), ("cmp.json", 1.02)] {
        std::fs::write(dir.join(name), many_states(STATES, factor)).unwrap();
    }
    let pair = ["ref.json", "cmp.json"];
    let repeated = ["ref.json", "--vs", "cmp.json"];
    for args in [&pair[..], &repeated] {
        let fast = crate::util::command(&dir).args(args).output().unwrap();
        let simple = crate::util::command(&dir)
            .args(args)
            .env(SIMPLE_PATHS_VARIABLE, "1")
            .output()
            .unwrap();
        assert_eq!(
            fast.status.code(),
            Some(0),
            "{args:?}: {}",
            crate::util::stderr(&fast)
        );
        let rows = fast.stdout.iter().filter(|b| **b == b'\n').count();
        assert!(rows > STATES, "{args:?}: {rows} lines");
        assert!(fast.stdout == simple.stdout, "{args:?}: the paths differ");
    }
}
