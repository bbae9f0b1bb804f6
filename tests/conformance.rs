//! The conformance corpus (testdata/conformance/cases): every case runs the
//! built binary in a fresh copy of its directory and compares stdout, the
//! exit code and any expected files byte for byte with the reference's.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Cases whose feature has not landed yet, by directory name. Later issues
/// empty this list; a listed case that starts passing fails the test so the
/// list cannot go stale.
const EXPECTED_FAILURES: &[&str] = &[];

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/cases")
}

fn read_word(dir: &Path, name: &str, default: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| default.to_string())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
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

fn expected_files(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            expected_files(root, &path, found);
        } else {
            found.push(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// Runs one case; `Err` describes every mismatch.
fn run_case(case: &Path, scratch: &Path) -> Result<(), String> {
    let name = case.file_name().unwrap().to_string_lossy().to_string();
    let work = scratch.join(&name);
    copy_dir(case, &work);
    let work_text = work.to_str().unwrap().to_string();
    let args: Vec<String> = std::fs::read_to_string(case.join("args"))
        .unwrap()
        .lines()
        .map(|line| line.replace("{CASE}", &work_text))
        .collect();
    let output = Command::new(env!("CARGO_BIN_EXE_nvbench-compare"))
        .args(&args)
        .current_dir(&work)
        .env_remove("DISPLAY")
        .env_remove("NO_COLOR")
        .env("COLUMNS", "80")
        .env("LC_ALL", "C.UTF-8")
        .output()
        .map_err(|e| format!("cannot run the binary: {e}"))?;
    let unplace = |bytes: &[u8]| -> Vec<u8> {
        String::from_utf8_lossy(bytes)
            .replace(&work_text, "{CASE}")
            .into_bytes()
    };
    let mut problems = Vec::new();
    let expected_exit: i32 = read_word(case, "expected_exit", "0").parse().unwrap();
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
    let mut files = Vec::new();
    expected_files(&files_root, &files_root, &mut files);
    for relative in files {
        let expected = std::fs::read(files_root.join(&relative)).unwrap();
        match std::fs::read(work.join(&relative)) {
            Ok(actual) if unplace(&actual) == expected => {}
            Ok(actual) => problems.push(format!(
                "file {} differs at {}",
                relative.display(),
                first_difference(&expected, &unplace(&actual))
            )),
            Err(_) => problems.push(format!("expected file not written: {}", relative.display())),
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}:\n  {}", problems.join("\n  ")))
    }
}

#[test]
fn conformance_corpus_matches_the_reference() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("testdata/conformance/cases exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 200,
        "the corpus is incomplete: {} cases",
        cases.len()
    );
    let scratch = std::env::temp_dir().join(format!("nvbc-conformance-{}", std::process::id()));
    let queue = Mutex::new(cases.clone());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                while let Some(case) = queue.lock().unwrap().pop() {
                    if let Err(problem) = run_case(&case, &scratch) {
                        failures.lock().unwrap().push((case, problem));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    let is_expected =
        |case: &Path| EXPECTED_FAILURES.contains(&case.file_name().unwrap().to_str().unwrap());
    let unexpected: Vec<&String> = failures
        .iter()
        .filter(|(c, _)| !is_expected(c))
        .map(|(_, p)| p)
        .collect();
    let now_passing: Vec<&&str> = EXPECTED_FAILURES
        .iter()
        .filter(|name| !failures.iter().any(|(c, _)| c.ends_with(name)))
        .collect();
    println!(
        "conformance: {} passed, {} failed ({} expected)",
        cases.len() - failures.len(),
        failures.len(),
        failures.len() - unexpected.len()
    );
    assert!(
        unexpected.is_empty(),
        "{} case(s) fail:\n{}",
        unexpected.len(),
        unexpected
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        now_passing.is_empty(),
        "listed as expected failures but passing: {now_passing:?}"
    );
}
