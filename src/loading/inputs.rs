//! Input files: pairing two files or two directories, reading NVBench JSON,
//! and the reader's file-version warnings.

use std::io::Write;

use crate::failure::Failure;
use crate::loading::mapped::{open_input, parse_with_release, rewind_release};
use crate::loading::model::Root;
use crate::pycompat::oserror::os_error_text;
use crate::pycompat::paths::py_join;
use crate::text::path_text::{to_path, to_text};
use crate::text::printable::printable;

/// `name` has the extension `.json` in Python's `os.path.splitext` sense
/// (a name made only of dots before `.json` has no extension).
fn has_json_extension(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|stem| stem.chars().any(|c| c != '.'))
}

fn non_empty_file(path: &str) -> bool {
    std::fs::metadata(to_path(path)).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// The `(reference, compare)` JSON files to compare, and in directory mode
/// the non-empty `.json` files that only one directory has.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct InputPairs {
    pub pairs: Vec<(String, String)>,
    pub only_reference: Vec<String>,
    pub only_compare: Vec<String>,
}

/// Names of the `.json` files of a directory, sorted.
pub fn json_names(directory: &str) -> Result<Vec<String>, Failure> {
    let entries = std::fs::read_dir(to_path(directory)).map_err(|e| {
        Failure::fatal(format!(
            "cannot list directory: {}",
            os_error_text(&e, directory)
        ))
    })?;
    let mut names: Vec<String> = entries
        .filter_map(|entry| Some(to_text(&entry.ok()?.file_name())))
        .filter(|name| has_json_extension(name))
        .collect();
    names.sort();
    Ok(names)
}

/// Two files are compared as given. Two directories pair their same-named
/// non-empty `.json` files; unlike the reference, which follows the
/// directory's listing order, pairs are sorted by file name so that output
/// is reproducible.
pub fn input_pairs(reference: &str, compare: &str) -> Result<InputPairs, Failure> {
    if !(to_path(reference).is_dir() && to_path(compare).is_dir()) {
        return Ok(InputPairs {
            pairs: vec![(reference.to_string(), compare.to_string())],
            ..InputPairs::default()
        });
    }
    let compare_names = json_names(compare)?;
    let reference_names = json_names(reference)?;
    let mut inputs = InputPairs::default();
    for name in &compare_names {
        let (r, c) = (py_join(reference, name), py_join(compare, name));
        match (non_empty_file(&r), non_empty_file(&c)) {
            (true, true) => inputs.pairs.push((r, c)),
            (false, true) => inputs.only_compare.push(c),
            _ => {}
        }
    }
    inputs.only_reference = reference_names
        .iter()
        .filter(|name| !compare_names.contains(name) || !non_empty_file(&py_join(compare, name)))
        .map(|name| py_join(reference, name))
        .filter(|path| non_empty_file(path))
        .collect();
    Ok(inputs)
}

const READER_VERSION: &str = "1.0.0";

/// The reader's version check: warnings go to stdout, as the reference prints them.
pub fn check_file_version(path: &str, root: &Root, out: &mut dyn Write) -> Result<(), Failure> {
    let json_version = root
        .meta
        .as_ref()
        .and_then(|meta| meta.version.as_ref())
        .and_then(|version| version.json.as_ref());
    let io = Failure::write;
    // A file name (directory mode lists them) may hold a newline.
    let path = printable(path);
    let Some(json_version) = json_version else {
        write!(
            out,
            "WARNING:\n  {path} is written in an older, unversioned format. \n  It may not read correctly.\n  Reader expects JSON file version {READER_VERSION}.\n"
        )
        .map_err(io)?;
        return Ok(());
    };
    let Some(version) = &json_version.string else {
        return Err(Failure::fatal(format!(
            "{path}: meta.version.json has no 'string' entry"
        )));
    };
    let version = version.py_str();
    let version = printable(&version);
    if version != READER_VERSION {
        write!(
            out,
            "WARNING:\n  {path} was written using a different NVBench JSON file version.\n  It may not read correctly.\n  (file version: {version} reader version: {READER_VERSION})\n"
        )
        .map_err(io)?;
    }
    Ok(())
}

/// Where `bytes` stop being UTF-8, checked in steps so that the pages
/// behind are released as during parsing.
fn first_invalid_utf8(bytes: &[u8]) -> Option<usize> {
    const STEP: usize = 16 << 20;
    let mut start = 0;
    while start < bytes.len() {
        let end = (start + STEP).min(bytes.len());
        match std::str::from_utf8(&bytes[start..end]) {
            Ok(_) => start = end,
            // A character split by the step's end continues in the next step.
            Err(e) if e.error_len().is_none() && end < bytes.len() && e.valid_up_to() > 0 => {
                start += e.valid_up_to();
            }
            Err(e) => return Some(start + e.valid_up_to()),
        }
        crate::loading::mapped::reached(bytes.as_ptr().wrapping_add(start));
    }
    None
}

/// What Python's `json` accepts and serde_json refuses (`NaN`, duplicate
/// keys, `-0`) is read as Python reads it; otherwise `error` stands.
fn read_like_python(bytes: &[u8], error: serde_json::Error) -> serde_json::Result<Root> {
    if !crate::pycompat::pyjson::worth_retrying(&error, bytes) {
        return Err(error);
    }
    match crate::pycompat::pyjson::python_compatible(bytes) {
        Some(rewritten) => serde_json::from_slice::<Root>(&rewritten).map_err(|_| error),
        None => Err(error),
    }
}

/// Reads and parses one NVBench JSON file.
pub fn parse_root(path: &str) -> Result<Root, Failure> {
    let bytes = open_input(path)
        .map_err(|e| Failure::fatal(format!("cannot read {}", os_error_text(&e, path))))?;
    let invalid =
        |reason: String| Failure::fatal(format!("{path}: not a valid NVBench JSON file: {reason}"));
    // serde would also read a struct from a positional array; an NVBench
    // file is an object.
    let first = bytes.as_ref().iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{') {
        return Err(invalid("the top level is not a JSON object".to_string()));
    }
    // The model takes about a fifth of the file's size.
    crate::memory::reserve_heap(bytes.as_ref().len() / 5);
    parse_with_release(&bytes, |bytes| {
        crate::loading::fastjson::from_slice::<Root>(bytes).or_else(|_| {
            // serde_json decides everything the fast path gave up on,
            // including the error message.
            rewind_release();
            // serde_json does not check the strings it skips; Python
            // decodes the whole file first.
            if let Some(offset) = first_invalid_utf8(bytes) {
                return Err(serde::de::Error::custom(format!(
                    "invalid UTF-8 at byte offset {offset}"
                )));
            }
            rewind_release();
            serde_json::from_slice::<Root>(bytes).or_else(|error| read_like_python(bytes, error))
        })
    })
    .map_err(|e| invalid(e.to_string()))
}

/// Reads both files of a pair (at the same time when there are two cores)
/// and prints their version warnings in order, as the reference does.
pub fn load_pair(
    reference: &str,
    compare: &str,
    out: &mut dyn Write,
) -> Result<(Root, Root), Failure> {
    let parallel = crate::parallel::cores() > 1;
    let (ref_root, cmp_root) = if parallel {
        // The run's helper thread parses the compare file meanwhile.
        let compare_path = compare.to_string();
        let compare_worker = crate::parallel::run_on_helper(move || parse_root(&compare_path));
        let ref_root = parse_root(reference);
        (ref_root, compare_worker.join())
    } else {
        let ref_root = parse_root(reference);
        (ref_root, parse_root(compare))
    };
    let ref_root = ref_root?;
    check_file_version(reference, &ref_root, out)?;
    let cmp_root = cmp_root?;
    check_file_version(compare, &cmp_root, out)?;
    Ok((ref_root, cmp_root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_extension_like_python_splitext() {
        assert!(has_json_extension("results.json"));
        assert!(!has_json_extension(".json"));
        assert!(!has_json_extension("..json"));
        assert!(has_json_extension(".a.json"));
        assert!(!has_json_extension("results.json.bak"));
    }
}
