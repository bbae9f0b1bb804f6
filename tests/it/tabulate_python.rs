//! The tabulate port against the real python-tabulate, on random tables
//! (`tests/tabulate_python/cases.py`): every cell kind tabulate types,
//! re-prints, measures or splits differently. Needs `python3` with
//! `tabulate` 0.10.0 (`.ci/run` installs it); without them the test says so and passes.

use std::path::Path;
use std::process::Command;

use nvbench_compare::pycompat::tabulate::{Align, github_table};

type Case = (Vec<String>, Vec<String>, Vec<Vec<String>>, String);

fn python_cases() -> Option<Vec<Case>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tabulate_python/cases.py");
    let out = std::env::temp_dir().join(format!("nvbc-tabulate-{}.json", std::process::id()));
    let status = Command::new("python3")
        .arg(&script)
        .arg(&out)
        .arg("5000")
        .status()
        .ok()?;
    match status.code() {
        Some(0) => {}
        Some(3) => return None,
        _ => panic!("{} failed: {status}", script.display()),
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    Some(serde_json::from_str(&text).unwrap())
}

fn align(name: &str) -> Align {
    match name {
        "left" => Align::Left,
        "center" => Align::Center,
        "right" => Align::Right,
        other => panic!("unknown alignment {other:?}"),
    }
}

#[test]
fn random_tables_match_python_tabulate() {
    let Some(cases) = python_cases() else {
        eprintln!("skipped: python3 with tabulate is not available");
        return;
    };
    assert_eq!(cases.len(), 5000);
    let mismatches: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(index, (headers, aligns, rows, expected))| {
            let aligns: Vec<Align> = aligns.iter().map(|a| align(a)).collect();
            let actual = github_table(headers, &aligns, rows);
            (actual != *expected).then(|| {
                format!("case {index}: headers {headers:?} rows {rows:?}\nexpected {expected:?}\nactual   {actual:?}")
            })
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} of {} tables differ; first:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches[..mismatches.len().min(3)].join("\n")
    );
}
