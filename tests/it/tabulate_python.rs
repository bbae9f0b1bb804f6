//! The tabulate port against the real python-tabulate, on random tables
//! (`tests/tabulate_python/cases.py`): every cell kind tabulate types,
//! re-prints, measures or splits differently. Needs `python3` with
//! `tabulate` 0.10.0 (`.ci/run` installs it); without them the test says
//! so and is skipped (fails under `NVBC_REQUIRE=python`).

use std::process::Command;

use nvbench_compare::pycompat::tabulate::{Align, CellTable, github_table, github_table_of};

use crate::util::{Need, Scratch, project, require};

type Case = (Vec<String>, Vec<String>, Vec<Vec<String>>, String);

fn python_cases() -> Vec<Case> {
    let script = project("tests/tabulate_python/cases.py");
    let dir = Scratch::new("tabulate");
    let out = dir.join("cases.json");
    let status = Command::new("python3")
        .arg(&script)
        .arg(&out)
        .arg("5000")
        .status()
        .unwrap();
    assert!(status.success(), "{} failed: {status}", script.display());
    let text = std::fs::read_to_string(&out).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn align(name: &str) -> Align {
    match name {
        "left" => Align::Left,
        "center" => Align::Center,
        "right" => Align::Right,
        other => panic!("unknown alignment {other:?}"),
    }
}

/// The length of every row, when they have one (and there is a row).
fn rows_length(rows: &[Vec<String>]) -> Option<usize> {
    let first = rows.first()?.len();
    rows.iter().all(|row| row.len() == first).then_some(first)
}

#[test]
fn random_tables_match_python_tabulate() {
    if !require(Need::Tabulate) {
        return;
    }
    let cases = python_cases();
    assert_eq!(cases.len(), 5000);
    let mismatches: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(index, (headers, aligns, rows, expected))| {
            let aligns: Vec<Align> = aligns.iter().map(|a| align(a)).collect();
            let actual = github_table(headers, &aligns, rows);
            // The tables' cells as the renderers hold them, when the rows are as long.
            let two_pass = rows_length(rows)
                .map(|columns| github_table_of(headers, &aligns, &CellTable::of_rows(columns, rows)));
            let differs = actual != *expected || two_pass.is_some_and(|text| text != *expected);
            differs.then(|| {
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
