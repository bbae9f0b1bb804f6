//! Python's wording of a JSON file it refuses
//! (`pycompat::json_errors`) against python3's own `json.load`, on
//! randomly damaged NVBench-like documents (`tests/json_errors_python/cases.py`).
//! Without python3 the test says so and is skipped (fails under
//! `NVBC_REQUIRE=python`).

use std::process::Command;

use nvbench_compare::pycompat::json_errors::python_json_error;

use crate::util::{Need, Scratch, project, require};

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn damaged_documents_are_refused_in_pythons_words() {
    if !require(Need::Python3) {
        return;
    }
    let dir = Scratch::new("json-errors");
    let out = dir.join("cases.json");
    let script = project("tests/json_errors_python/cases.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg(&out)
        .arg("4000")
        .status()
        .unwrap();
    assert!(status.success(), "{} failed: {status}", script.display());
    let cases: Vec<(String, Option<String>)> =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|(hex, expected)| {
            let bytes = unhex(hex);
            let actual = python_json_error(&bytes);
            (actual != *expected).then(|| {
                format!(
                    "{:?}\nexpected {expected:?}\nactual   {actual:?}",
                    String::from_utf8_lossy(&bytes)
                )
            })
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} of {} documents differ; first:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches[..mismatches.len().min(3)].join("\n")
    );
}
