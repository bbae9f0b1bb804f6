//! `nvbench-compare-legacy`: NVBench's classic `nvbench_compare.py` (at
//! 66212f1), ported step by step over the files as Python's `json` reads
//! them (`pycompat::pyvalue`), so that it prints what the script prints,
//! in its order, and stops where the script stops: where Python would
//! raise, the run ends with status 1 and says why on stderr, after what
//! the script had printed by then.
//!
//! The decision is `deciding::legacy`, the text `rendering::legacy`; here
//! is the script's walk over paths, files, benchmarks, devices and states
//! ([`compare`]), and its axis filters ([`axes`]).

use std::io::Write;

use serde_json::Value;

use crate::deciding::legacy::Tally;
use crate::pycompat::pyvalue::{Raised, equal, getitem, py_str};
use crate::rendering::legacy as text;
use crate::settings::LegacySettings;
use crate::text::printable::printable;

mod axes;
mod compare;

/// Why the script stopped before its end.
#[derive(Debug)]
enum Stop {
    /// Python raised (`what` says where).
    Raised { raised: Raised, what: String },
    /// `sys.exit(code)` after a message the script printed.
    Exit(u8),
    /// stdout could not be written.
    Write(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(error: std::io::Error) -> Self {
        Stop::Write(error)
    }
}

/// A raised exception with where it happened.
fn raised(what: impl Into<String>) -> impl FnOnce(Raised) -> Stop {
    let what = what.into();
    move |raised| Stop::Raised { raised, what }
}

/// Runs the script; gives its exit status (the number of FAST and SLOW
/// states, at most 255).
pub fn run(settings: &LegacySettings, out: &mut dyn Write) -> u8 {
    let mut script = Script {
        settings,
        out,
        tally: Tally::default(),
        unversioned: Vec::new(),
    };
    let result = script.main();
    let flushed = script.out.flush();
    match result {
        Ok(code) => match flushed {
            Ok(()) => code,
            Err(e) => write_failure(&e),
        },
        Err(Stop::Exit(code)) => code,
        Err(Stop::Raised { raised, what }) => {
            crate::messages::error(format_args!(
                "{what}: {raised} (the script stops here with a Python traceback)"
            ));
            if !script.unversioned.is_empty() {
                crate::messages::hint(format_args!(
                    "without a JSON format version ({}), a file is likely from before NVBench's JSON format 1.0 (January 2022), and the script reads format 1.0: re-run the benchmark with a current NVBench",
                    script.unversioned.join(", ")
                ));
            }
            1
        }
        Err(Stop::Write(e)) => write_failure(&e),
    }
}

fn write_failure(error: &std::io::Error) -> u8 {
    // A closed pipe (`| head`) has nobody left to tell.
    if error.kind() != std::io::ErrorKind::BrokenPipe {
        crate::messages::error(format_args!("cannot write to stdout: {error}"));
    }
    1
}

struct Script<'s> {
    settings: &'s LegacySettings,
    out: &'s mut dyn Write,
    tally: Tally,
    /// The files read without a format version (named in a hint if the
    /// script then stops).
    unversioned: Vec<String>,
}

impl Script<'_> {
    fn main(&mut self) -> Result<u8, Stop> {
        let listed: Vec<String> = self
            .settings
            .paths
            .iter()
            .map(|p| crate::pycompat::pyfmt::str_repr(p))
            .collect();
        writeln!(self.out, "[{}]", listed.join(", "))?;
        let filters = match axes::parse_axis_filters(&self.settings.axis) {
            Ok(filters) => filters,
            Err(message) => {
                writeln!(self.out, "{}", printable(&message))?;
                return Err(Stop::Exit(1));
            }
        };
        if self.settings.paths.len() != 2 {
            self.out.write_all(self.settings.help.as_bytes())?;
            return Err(Stop::Exit(1));
        }
        for (reference, compare) in self.pairs()? {
            let reference_root = self.read_file(&reference)?;
            let compare_root = self.read_file(&compare)?;
            let ref_devices =
                getitem(&reference_root, "devices").map_err(raised(reading(&reference)))?;
            let cmp_devices =
                getitem(&compare_root, "devices").map_err(raised(reading(&compare)))?;
            if !equal(ref_devices, cmp_devices) {
                write!(
                    self.out,
                    "{}",
                    text::device_mismatch(self.settings.ignore_devices, self.settings.no_color)
                )?;
                writeln!(
                    self.out,
                    "{}",
                    crate::pycompat::jsondiff::symmetric_diff_repr(ref_devices, cmp_devices)
                )?;
                if !self.settings.ignore_devices {
                    return Err(Stop::Exit(1));
                }
            }
            let ref_benches =
                getitem(&reference_root, "benchmarks").map_err(raised(reading(&reference)))?;
            let cmp_benches =
                getitem(&compare_root, "benchmarks").map_err(raised(reading(&compare)))?;
            let sides = compare::Sides {
                ref_benches,
                cmp_benches,
                ref_devices,
                cmp_devices,
            };
            self.compare_benches(&sides, &filters)?;
        }
        write!(self.out, "{}", text::summary(&self.tally))?;
        Ok(self.tally.exit_status())
    }

    /// The pairs of files: two directories' same-named `.json` files (in
    /// the compare directory's listing order, both non-empty regular
    /// files), else the two paths as given.
    fn pairs(&self) -> Result<Vec<(String, String)>, Stop> {
        use crate::text::path_text::{to_path, to_text};
        let (first, second) = (&self.settings.paths[0], &self.settings.paths[1]);
        if !(to_path(first).is_dir() && to_path(second).is_dir()) {
            return Ok(vec![(first.clone(), second.clone())]);
        }
        let entries = std::fs::read_dir(to_path(second))
            .map_err(|e| raised(format!("listing {}", printable(second)))(os_error(&e, second)))?;
        let mut pairs = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| {
                raised(format!("listing {}", printable(second)))(os_error(&e, second))
            })?;
            let name = to_text(&entry.file_name());
            if !has_json_extension(&name) {
                continue;
            }
            let reference = crate::pycompat::paths::py_join(first, &name);
            let compare = crate::pycompat::paths::py_join(second, &name);
            let usable = |path: &str| {
                std::fs::metadata(to_path(path)).is_ok_and(|m| m.is_file() && m.len() > 0)
            };
            if usable(&reference) && usable(&compare) {
                pairs.push((reference, compare));
            }
        }
        Ok(pairs)
    }

    /// `reader.read_file`: the file as Python's `json` reads it, and the
    /// reader's version warnings (on stdout).
    fn read_file(&mut self, path: &str) -> Result<Value, Stop> {
        let stop = raised(format!("cannot read {}", printable(path)));
        let root = read_json(path).map_err(stop)?;
        self.check_file_version(path, &root)?;
        Ok(root)
    }

    fn check_file_version(&mut self, path: &str, root: &Value) -> Result<(), Stop> {
        let lookup = || -> Result<&Value, Raised> {
            let meta = getitem(root, "meta")?;
            let version = getitem(meta, "version")?;
            getitem(version, "json")
        };
        let version_node = match lookup() {
            Ok(node) => node,
            Err(raised) if raised.kind == "KeyError" => {
                let shown = printable(path).into_owned();
                if !self.unversioned.contains(&shown) {
                    self.unversioned.push(shown);
                }
                write!(self.out, "{}", text::unversioned_warning(&printable(path)))?;
                return Ok(());
            }
            Err(e) => return Err(raised(reading(path))(e)),
        };
        let version = getitem(version_node, "string").map_err(raised(reading(path)))?;
        if !equal(version, &Value::String("1.0.0".to_string())) {
            write!(
                self.out,
                "{}",
                text::version_warning(&printable(path), &printable(&py_str(version)))
            )?;
        }
        Ok(())
    }
}

fn reading(path: &str) -> String {
    format!("reading {}", printable(path))
}

/// `os.path.splitext(name)[1] == ".json"`: a name made only of dots
/// before `.json` has no extension.
fn has_json_extension(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|stem| stem.chars().any(|c| c != '.'))
}

/// An `OSError` as Python names and words it.
fn os_error(error: &std::io::Error, path: &str) -> Raised {
    let kind = match error.kind() {
        std::io::ErrorKind::NotFound => "FileNotFoundError",
        std::io::ErrorKind::PermissionDenied => "PermissionError",
        std::io::ErrorKind::IsADirectory => "IsADirectoryError",
        std::io::ErrorKind::NotADirectory => "NotADirectoryError",
        _ => "OSError",
    };
    Raised::new(kind, crate::pycompat::oserror::os_error_text(error, path))
}

/// `json.load(open(path, "r"))`.
fn read_json(path: &str) -> Result<Value, Raised> {
    use crate::text::path_text::to_path;
    let file_path = to_path(path);
    if file_path.is_dir() {
        let error = std::io::Error::from_raw_os_error(libc::EISDIR);
        return Err(os_error(&error, path));
    }
    let bytes = std::fs::read(&file_path).map_err(|e| os_error(&e, path))?;
    crate::pycompat::pyjson::loads(&bytes).map_err(|message| {
        let (kind, message) = match message.split_once(": ") {
            Some(("UnicodeDecodeError", rest)) => ("UnicodeDecodeError", rest.to_string()),
            Some(("JSONDecodeError", rest)) => ("json.decoder.JSONDecodeError", rest.to_string()),
            _ => ("ValueError", message),
        };
        Raised::new(kind, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_extension_as_splitext() {
        assert!(has_json_extension("a.json"));
        assert!(has_json_extension(".a.json"));
        assert!(!has_json_extension(".json"));
        assert!(!has_json_extension("a.json.bak"));
    }
}
