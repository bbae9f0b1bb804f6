//! The schema reader (`loading::schema`) against the full reader
//! (`loading::inputs::read_full`) on every JSON input of the shared
//! conformance corpus (all scopes) and the real NVBench files: whenever the
//! schema reader succeeds, the full reader succeeds with the same model.
//! Truncations and byte edits of the real files are checked too.

use std::path::{Path, PathBuf};

use nvbench_compare::loading::{inputs, schema};

use crate::util::{Need, require, shared_dir};

fn json_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
}

/// Whether the schema reader accepted `input`; panics when it disagrees.
fn agree(input: &[u8], what: &str) -> bool {
    let Ok(fast) = schema::read(input) else {
        return false;
    };
    let portable = schema::read_with(input, false)
        .unwrap_or_else(|_| panic!("{what}: only the AVX2 classifier accepted it"));
    let full = inputs::read_full(input)
        .unwrap_or_else(|e| panic!("{what}: the full reader refused it ({e})"));
    let fast = format!("{fast:?}");
    assert_eq!(fast, format!("{full:?}"), "{what}");
    assert_eq!(fast, format!("{portable:?}"), "{what}");
    true
}

fn shared_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    json_files(&shared_dir().join("conformance"), &mut files);
    json_files(&shared_dir().join("real"), &mut files);
    files.sort();
    files
}

#[test]
fn schema_reader_agrees_on_the_shared_corpus_and_real_files() {
    if !require(Need::Shared) {
        return;
    }
    let files = shared_files();
    assert!(files.len() > 100, "{} files", files.len());
    let mut accepted = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if agree(&bytes, &path.display().to_string()) {
            accepted += 1;
        }
    }
    eprintln!(
        "schema reader: {accepted} of {} shared files read, the others left to the full reader",
        files.len()
    );
    assert!(accepted * 2 > files.len(), "{accepted}/{}", files.len());
}

#[test]
fn schema_reader_agrees_on_edited_real_files() {
    if !require(Need::Shared) {
        return;
    }
    let mut files = Vec::new();
    json_files(&shared_dir().join("real"), &mut files);
    files.sort();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        crate::util::xorshift_step(&mut state);
        state
    };
    const EDITS: &[&[u8]] = &[
        b"\"",
        b"\\",
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b" ",
        b"\x01",
        b"\xff",
        b"\\u00e9",
        b"\\\"",
        b"0",
        b"-",
        b"e",
        b"\"tag\": 1, ",
        b"\"name\": \"x\", ",
    ];
    for path in files
        .iter()
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() < 400_000))
    {
        let base = std::fs::read(path).unwrap();
        if base.is_empty() {
            continue;
        }
        for round in 0..12 {
            let mut input = base.clone();
            let at = (next() as usize) % input.len();
            match round % 4 {
                0 => input.truncate(at),
                1 => input[at] = EDITS[(next() as usize) % 12][0],
                _ => {
                    let edit = EDITS[(next() as usize) % EDITS.len()];
                    input.splice(at..at, edit.iter().copied());
                }
            }
            agree(&input, &format!("{} edited at {at}", path.display()));
        }
    }
}
