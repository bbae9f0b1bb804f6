//! Input files: listing a directory's JSON files, reading NVBench JSON
//! (or handing a Google Benchmark file to `loading::gbench`), and the
//! reader's file-version warnings.

use std::io::Write;

use crate::failure::Failure;
use crate::loading::anchor::Role;
use crate::loading::mapped::{open_input, parse_with_release, rewind_release};
use crate::loading::model::Root;
use crate::loading::opening::{cannot_read, out_of_memory};
use crate::pycompat::oserror::os_error_text;
use crate::text::path_text::{to_path, to_text};
use crate::text::printable::printable;

/// `name` has the extension `.json` in Python's `os.path.splitext` sense
/// (a name made only of dots before `.json` has no extension).
fn has_json_extension(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|stem| stem.chars().any(|c| c != '.'))
}

/// Names of the `.json` files of a directory, in the order the directory
/// lists them (`os.listdir`'s).
pub fn json_names(directory: &str) -> Result<Vec<String>, Failure> {
    let entries = std::fs::read_dir(to_path(directory)).map_err(|e| {
        Failure::fatal(format!(
            "cannot list directory: {}",
            os_error_text(&e, directory)
        ))
    })?;
    let names: Vec<String> = entries
        .filter_map(|entry| Some(to_text(&entry.ok()?.file_name())))
        .filter(|name| has_json_extension(name))
        .collect();
    Ok(names)
}

const READER_VERSION: &str = "1.0.0";

/// The reader's warning for a file without a JSON format version.
pub fn unversioned_warning(path: &str) -> String {
    format!(
        "WARNING:\n  {path} is written in an older, unversioned format. \n  It may not read correctly.\n  Reader expects JSON file version {READER_VERSION}.\n"
    )
}

/// The reader's warning for a file version other than 1.0.0.
pub fn version_warning(path: &str, version: &str) -> String {
    format!(
        "WARNING:\n  {path} was written using a different NVBench JSON file version.\n  It may not read correctly.\n  (file version: {version} reader version: {READER_VERSION})\n"
    )
}

/// Whether `version` (as `str()` prints it) is the reader's own.
pub fn is_reader_version(version: &str) -> bool {
    version == READER_VERSION
}

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
        write!(out, "{}", unversioned_warning(&path)).map_err(io)?;
        return Ok(());
    };
    let Some(version) = &json_version.string else {
        return Err(Failure::fatal(format!(
            "{path}: meta.version.json has no 'string' entry"
        )));
    };
    let version = version.py_str();
    let version = printable(&version);
    if !is_reader_version(&version) {
        write!(out, "{}", version_warning(&path, &version)).map_err(io)?;
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
/// keys, `-0`) is read as Python reads it; otherwise `error` stands. No
/// room for the rewritten copy is an I/O error (ENOMEM).
fn read_like_python(bytes: &[u8], error: serde_json::Error) -> serde_json::Result<Root> {
    if !crate::pycompat::pyjson::worth_retrying(&error, bytes) {
        return Err(error);
    }
    match crate::pycompat::pyjson::python_compatible(bytes) {
        Ok(Some(rewritten)) => serde_json::from_slice::<Root>(&rewritten).map_err(|_| error),
        Ok(None) => Err(error),
        Err(_) => Err(serde_json::Error::io(out_of_memory())),
    }
}

/// NVBench wrote `states`, `axes` and `summaries` as objects keyed by name
/// before its JSON format 1.0 (January 2022), and earlier still (2021)
/// states with a `description` where 1.0 has a `name`; 1.0 added the
/// `meta` section. Such a file fails where the format has lists, or on the
/// first state, and has no `meta`.
fn pre_1_0_hint(reason: &str, bytes: &[u8]) -> &'static str {
    let objects_for_lists = reason.contains("invalid type: map, expected a sequence");
    let unversioned_state = reason.contains("missing field `name`")
        && !bytes.windows(b"\"meta\"".len()).any(|w| w == b"\"meta\"");
    if objects_for_lists || unversioned_state {
        " (this looks like an NVBench file from before JSON format 1.0, January 2022, which laid out states and summaries differently; nvbench-compare reads format 1.0: re-run the benchmark with a current NVBench)"
    } else {
        ""
    }
}

/// The full reader: serde_json, with Python's leniencies; it decides
/// every error message.
pub fn read_full(bytes: &[u8]) -> serde_json::Result<Root> {
    // The schema reader may have released pages as it read: they are read
    // again from the start.
    rewind_release();
    // serde_json does not check the strings it skips; Python decodes the
    // whole file first.
    if let Some(offset) = first_invalid_utf8(bytes) {
        return Err(serde::de::Error::custom(format!(
            "invalid UTF-8 at byte offset {offset}"
        )));
    }
    rewind_release();
    serde_json::from_slice::<Root>(bytes).or_else(|error| read_like_python(bytes, error))
}

/// A parsed input file of either format.
pub enum Parsed {
    NvBench(Root),
    Gbench(crate::loading::gbench::GbenchFile),
}

/// Reads one input file in the format asked for; `Auto` tells a Google
/// Benchmark file by its shape. NVBench files take the NVBench reader's
/// path unchanged: only a file it refuses (or one without NVBench's
/// `meta`/`devices`) is looked at again. An NVBench file shares what
/// names its states with the comparison's other runs as `role` says (see
/// `loading::anchor`).
pub fn parse_input(
    path: &str,
    format: crate::loading::gbench::Format,
    role: Role,
) -> Result<Parsed, Failure> {
    use crate::loading::gbench::{self, Format};
    // However the first run's reading ends, the runs waiting for it go on.
    let _finish = match role {
        Role::First(anchor) => Some(anchor.finish_on_drop()),
        _ => None,
    };
    match format {
        Format::Gbench => gbench::read_file(path)
            .map(Parsed::Gbench)
            .map_err(|e| gbench::read_failure(path, e)),
        Format::NvBench => parse_root_anchored(path, role).map(Parsed::NvBench),
        Format::Auto => match parse_root_anchored(path, role) {
            Ok(root) if root.meta.is_some() || root.devices.is_some() => Ok(Parsed::NvBench(root)),
            Ok(root) => match gbench::read_if_gbench(path) {
                Some(file) => file.map(Parsed::Gbench),
                None => Ok(Parsed::NvBench(root)),
            },
            Err(error) => match gbench::read_if_gbench(path) {
                Some(file) => file.map(Parsed::Gbench),
                None => Err(error),
            },
        },
    }
}

/// Reads and parses one NVBench JSON file.
pub fn parse_root(path: &str) -> Result<Root, Failure> {
    parse_root_anchored(path, Role::Alone)
}

/// [`parse_root`] in a comparison's `role`.
fn parse_root_anchored(path: &str, role: Role) -> Result<Root, Failure> {
    if to_path(path).is_dir() {
        // Python's `[Errno 21] Is a directory` says what, not why.
        return Err(Failure::fatal(format!(
            "cannot read {}: it is a directory; compare two files, or two directories (their same-named .json files are paired)",
            printable(path)
        )));
    }
    let bytes = open_input(path).map_err(|e| Failure::fatal(cannot_read(&e, path)))?;
    let invalid = |reason: String| {
        Failure::fatal(format!(
            "{path}: not a valid NVBench JSON file: {reason}{}",
            pre_1_0_hint(&reason, bytes.as_ref())
        ))
    };
    // serde would also read a struct from a positional array; an NVBench
    // file is an object.
    let first = bytes.as_ref().iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{') {
        return Err(invalid("the top level is not a JSON object".to_string()));
    }
    parse_with_release(&bytes, |bytes| {
        if crate::fast_paths::simple_paths() {
            if let Role::First(anchor) = role {
                anchor.finish();
            }
            return read_full(bytes);
        }
        let read = crate::loading::schema::read_anchored(bytes, role);
        if let Role::First(anchor) = role {
            // The full reader below publishes nothing.
            anchor.finish();
        }
        // The full reader decides everything the schema reader gave up on.
        read.or_else(|_| read_full(bytes))
    })
    .map_err(|e| {
        if e.is_io() {
            Failure::fatal(cannot_read(&e.into(), path))
        } else {
            invalid(e.to_string())
        }
    })
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
