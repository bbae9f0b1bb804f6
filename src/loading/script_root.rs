//! An input file as the robust command's script reads it when this tool's
//! reader cannot use it: Python's `json.load` (and its exception's words),
//! the NVBench reader's version check over the parsed value, then the
//! script's own checks of the root's shape. Each refusal is the message
//! the script prints on stdout before exiting with status 1.
//!
//! The value is read only on this path (a file the model refused, or one
//! without a section the script requires), so a valid file costs nothing.

use std::io::Write;

use serde_json::Value;

use crate::failure::Failure;
use crate::loading::inputs::{is_reader_version, unversioned_warning, version_warning};
use crate::pycompat::json_errors::python_json_error;
use crate::pycompat::oserror::os_error_text;
use crate::pycompat::pyfmt::str_repr;
use crate::pycompat::pyvalue::{Py, Raised, getitem, py, py_str};
use crate::text::path_text::to_path;
use crate::text::printable::printable;

/// The sections the script requires of a root, in its order.
const REQUIRED: [&str; 2] = ["devices", "benchmarks"];

/// Reads `path` as the script does, printing the reader's version
/// warnings on `out`; the parsed value, or the script's message.
pub fn read_root(path: &str, out: &mut dyn Write) -> Result<Value, Failure> {
    let root = read_json(path)?;
    check_version(path, &root, out)?;
    check_shape(path, &root)?;
    Ok(root)
}

/// The file parsed as Python parses it, without checking anything else.
pub fn read_value(path: &str) -> Result<Value, Failure> {
    read_json(path)
}

fn failed_to_read(path: &str, reason: &str) -> Failure {
    Failure::reported(format!(
        "failed to read NVBench JSON file {}: {reason}",
        str_repr(path)
    ))
}

fn read_json(path: &str) -> Result<Value, Failure> {
    let file_path = to_path(path);
    let bytes = if file_path.is_dir() {
        // Python's open() refuses a directory; reading one gives no error.
        Err(std::io::Error::from_raw_os_error(libc::EISDIR))
    } else {
        std::fs::read(&file_path)
    }
    .map_err(|e| failed_to_read(path, &os_error_text(&e, path)))?;
    if let Some(reason) = python_json_error(&bytes) {
        return Err(failed_to_read(path, &reason));
    }
    // Python read it, but deeper than this tool follows.
    crate::pycompat::pyjson::loads(&bytes)
        .map_err(|reason| Failure::fatal(format!("cannot read {}: {reason}", printable(path))))
}

/// `meta.version.json.string`: a missing level is an unversioned file
/// (warned about); any other failure to look it up is the reading's error.
fn check_version(path: &str, root: &Value, out: &mut dyn Write) -> Result<(), Failure> {
    let lookup = || -> Result<&Value, Raised> {
        let meta = getitem(root, "meta")?;
        getitem(getitem(meta, "version")?, "json")
    };
    let shown = printable(path);
    let node = match lookup() {
        Ok(node) => node,
        Err(raised) if raised.kind == "KeyError" => {
            write!(out, "{}", unversioned_warning(&shown)).map_err(Failure::write)?;
            return Ok(());
        }
        Err(raised) => return Err(failed_to_read(path, &raised.message)),
    };
    let version = getitem(node, "string").map_err(|r| failed_to_read(path, &r.message))?;
    // Only a string can equal the reader's version.
    let same = matches!(py(version), Py::Str(text) if is_reader_version(text));
    if !same {
        let version = py_str(version);
        write!(out, "{}", version_warning(&shown, &printable(&version))).map_err(Failure::write)?;
    }
    Ok(())
}

/// The root must be an object with `devices` and `benchmarks` lists of objects.
fn check_shape(path: &str, root: &Value) -> Result<(), Failure> {
    let file = format!("NVBench JSON file {}", str_repr(path));
    let refused = |what: String| Err(Failure::reported(format!("{file} {what}")));
    let Py::Dict(map) = py(root) else {
        return refused("root must be an object".to_string());
    };
    let missing: Vec<String> = REQUIRED
        .iter()
        .filter(|key| !map.contains_key(**key))
        .map(|key| str_repr(key))
        .collect();
    if !missing.is_empty() {
        return refused(format!(
            "is missing required root key(s): {}",
            missing.join(", ")
        ));
    }
    for key in REQUIRED {
        let Some(Py::List(entries)) = map.get(key).map(py) else {
            return refused(format!("root key {} must be an array", str_repr(key)));
        };
        if let Some(index) = entries.iter().position(|e| !matches!(py(e), Py::Dict(_))) {
            return refused(format!(
                "root key {} entry {index} must be an object",
                str_repr(key)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Result<(), String> {
        let root: Value = serde_json::from_str(text).unwrap();
        check_shape("f.json", &root).map_err(|f| match f {
            Failure::Reported(message) => message,
            other => format!("{other:?}"),
        })
    }

    fn version(text: &str) -> (String, Result<(), String>) {
        let root: Value = serde_json::from_str(text).unwrap();
        let mut out = Vec::new();
        let result = check_version("f.json", &root, &mut out).map_err(|f| match f {
            Failure::Reported(message) => message,
            other => format!("{other:?}"),
        });
        (String::from_utf8(out).unwrap(), result)
    }

    #[test]
    fn the_root_shape_is_checked_in_the_scripts_order() {
        assert_eq!(shape(r#"{"devices": [], "benchmarks": []}"#), Ok(()));
        assert_eq!(
            shape("{}").unwrap_err(),
            "NVBench JSON file 'f.json' is missing required root key(s): 'devices', 'benchmarks'"
        );
        assert_eq!(
            shape(r#"{"devices": null, "benchmarks": []}"#).unwrap_err(),
            "NVBench JSON file 'f.json' root key 'devices' must be an array"
        );
        assert_eq!(
            shape(r#"{"devices": [{}], "benchmarks": [{}, 3]}"#).unwrap_err(),
            "NVBench JSON file 'f.json' root key 'benchmarks' entry 1 must be an object"
        );
    }

    #[test]
    fn the_version_lookup_fails_as_python_indexing_does() {
        let (warned, result) = version("{}");
        assert!(warned.contains("older, unversioned format"));
        assert_eq!(result, Ok(()));
        assert_eq!(
            version("[1]").1.unwrap_err(),
            "failed to read NVBench JSON file 'f.json': list indices must be integers or slices, not str"
        );
        assert_eq!(
            version(r#"{"meta": {"version": {"json": {}}}}"#)
                .1
                .unwrap_err(),
            "failed to read NVBench JSON file 'f.json': 'string'"
        );
        let (warned, result) = version(r#"{"meta": {"version": {"json": {"string": 2}}}}"#);
        assert!(warned.contains("(file version: 2 reader version: 1.0.0)"));
        assert_eq!(result, Ok(()));
        assert_eq!(
            version(r#"{"meta": "x"}"#).1.unwrap_err(),
            "failed to read NVBench JSON file 'f.json': string indices must be integers, not 'str'"
        );
    }
}
