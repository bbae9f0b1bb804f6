//! No output overwrites an input or another output: `--json`,
//! `--markdown-summary`, `--bulk-debug-python`, `--plot-output` and
//! `--plot-along-output` are checked against each other and the input JSON
//! files before any work, and against the sidecars each input pair
//! references as soon as it is loaded. Paths are compared resolved
//! (symlinks, `./`, `..`) and, for existing files, by device and inode
//! (hard links).

use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::app::Settings;
use crate::cli::Extras;
use crate::failure::Failure;
use crate::loading::model::Root;
use crate::loading::sidecar::resolve_sidecar_path;
use crate::loading::summaries::Extracted;
use crate::loading::summaries::Tag;
use crate::pycompat::paths::py_dirname;
use crate::text::path_text::to_path;

/// Exit status of a usage error (as clap's); an output naming an input is one.
pub const CONFLICT_EXIT: u8 = 2;

/// What a path names on this system.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    resolved: PathBuf,
    inode: Option<(u64, u64)>,
}

impl Identity {
    fn of(path: &str) -> Identity {
        let path = &*to_path(path);
        Identity {
            resolved: resolved(path),
            inode: std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino())),
        }
    }

    fn same(&self, other: &Identity) -> bool {
        self.resolved == other.resolved || (self.inode.is_some() && self.inode == other.inode)
    }
}

/// The path with symlinks resolved as far as it exists, and `.`/`..`
/// removed from the rest.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return canonical;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => {
                out.push(other.as_os_str());
                // Existing parents resolve their symlinks too.
                if let Ok(canonical) = std::fs::canonicalize(&out) {
                    out = canonical;
                }
            }
        }
    }
    out
}

/// One output file of the command line.
#[derive(Debug, Clone)]
struct Output {
    option: &'static str,
    path: String,
    identity: Identity,
}

/// The file outputs of a run and the paths they must not name.
#[derive(Debug, Clone, Default)]
pub struct OutputGuard {
    outputs: Vec<Output>,
}

fn conflict(message: String) -> Failure {
    Failure::Conflict(message)
}

impl OutputGuard {
    /// `(option, path)` of every file output; two naming the same file are
    /// an error.
    pub fn new(outputs: Vec<(&'static str, String)>) -> Result<OutputGuard, Failure> {
        let outputs: Vec<Output> = outputs
            .into_iter()
            .map(|(option, path)| Output {
                option,
                identity: Identity::of(&path),
                path,
            })
            .collect();
        for (index, first) in outputs.iter().enumerate() {
            if let Some(second) = outputs[index + 1..]
                .iter()
                .find(|o| o.identity.same(&first.identity))
            {
                return Err(conflict(format!(
                    "{} {} and {} {} name the same file",
                    first.option, first.path, second.option, second.path
                )));
            }
        }
        Ok(OutputGuard { outputs })
    }

    pub fn is_empty(&self) -> bool {
        self.outputs.is_empty()
    }

    /// An output naming `input` (an input JSON file or a sidecar) is an error.
    pub fn check_input(&self, kind: &str, input: &str) -> Result<(), Failure> {
        if self.is_empty() {
            return Ok(());
        }
        let identity = Identity::of(input);
        match self.outputs.iter().find(|o| o.identity.same(&identity)) {
            Some(output) => Err(conflict(format!(
                "{} {} would overwrite the {kind} {input}",
                output.option, output.path
            ))),
            None => Ok(()),
        }
    }

    /// Checks every sidecar `root` (read from `json_path`) references.
    pub fn check_sidecars(&self, json_path: &str, root: &Root) -> Result<(), Failure> {
        if self.is_empty() {
            return Ok(());
        }
        for path in sidecar_paths(json_path, root) {
            self.check_input("sidecar", &path)?;
        }
        Ok(())
    }
}

/// `(option, path)` of every output written to a file.
pub fn file_outputs(settings: &Settings, extras: &Extras) -> Vec<(&'static str, String)> {
    let charts = &settings.charts;
    let summary_chart = charts.summary.then(|| {
        let path = charts.summary_output.as_deref();
        path.unwrap_or(crate::rendering::charts::summary::DEFAULT_SUMMARY_OUTPUT)
            .to_string()
    });
    // A template with fields names its files only once they are drawn
    // (checked then, see `Charts::finish_device_pair`).
    let along_chart = charts.along.as_ref().and_then(|_| {
        let template = charts.along_template.as_deref();
        let template =
            template.unwrap_or(crate::rendering::charts::selection::DEFAULT_ALONG_TEMPLATE);
        (!template.contains('{')).then(|| template.to_string())
    });
    let bulk_debug = settings.bulk_debug.clone();
    [
        ("--json", extras.json.clone().filter(|p| p != "-")),
        (
            "--markdown-summary",
            extras.markdown.clone().filter(|p| p != "-"),
        ),
        (
            "--bulk-debug-python",
            bulk_debug.filter(|p| !p.eq_ignore_ascii_case("stdout")),
        ),
        ("--plot-output", summary_chart),
        ("--plot-along-output", along_chart),
    ]
    .into_iter()
    .filter_map(|(option, path)| Some((option, path?)))
    .collect()
}

/// Checks a path chosen during the run (a templated chart file name)
/// against the inputs of the current pair.
pub fn check_chart_path(path: &str, inputs: &[String]) -> Result<(), Failure> {
    let identity = Identity::of(path);
    match inputs.iter().find(|i| Identity::of(i).same(&identity)) {
        Some(input) => Err(conflict(format!(
            "--plot-along-output {path} would overwrite the input {input}"
        ))),
        None => Ok(()),
    }
}

/// The resolved paths of the sidecars the states of `root` advertise.
pub fn sidecar_paths(json_path: &str, root: &Root) -> Vec<String> {
    let json_dir = py_dirname(json_path);
    let mut paths: Vec<String> = Vec::new();
    let benchmarks = root.benchmarks.as_deref().unwrap_or(&[]);
    let summaries = benchmarks
        .iter()
        .flat_map(|b| b.states())
        .filter_map(|s| s.summaries.as_ref());
    for summaries in summaries {
        for tag in [Tag::SampleTimes, Tag::SampleFrequencies] {
            if let crate::loading::summaries::Lookup::Found(Extracted::Sidecar(Ok((_, name)))) =
                summaries.lookup(tag)
            {
                let path = resolve_sidecar_path(&json_dir, name);
                if !paths.contains(&path) {
                    paths.push(path);
                }
            }
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nvbc-collide-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        dir
    }

    #[test]
    fn dot_segments_symlinks_and_hard_links_name_the_same_file() {
        let dir = scratch("identity");
        let file = dir.join("ref.json");
        std::fs::write(&file, "{}").unwrap();
        std::os::unix::fs::symlink(&file, dir.join("link.json")).unwrap();
        std::fs::hard_link(&file, dir.join("hard.json")).unwrap();
        let of = |p: PathBuf| Identity::of(p.to_str().unwrap());
        let original = of(file.clone());
        assert!(original.same(&of(dir.join("sub/../ref.json"))));
        assert!(original.same(&of(dir.join("./link.json"))));
        assert!(original.same(&of(dir.join("hard.json"))));
        assert!(!original.same(&of(dir.join("other.json"))));
        // Files that do not exist yet compare by their resolved names.
        assert!(of(dir.join("new.md")).same(&of(dir.join("sub/../new.md"))));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_outputs_on_one_file_are_a_conflict() {
        let dir = scratch("outputs");
        let a = dir.join("out.json").to_str().unwrap().to_string();
        let b = dir.join("sub/../out.json").to_str().unwrap().to_string();
        let error =
            OutputGuard::new(vec![("--json", a.clone()), ("--markdown-summary", b)]).unwrap_err();
        let Failure::Conflict(message) = error else {
            panic!("not a conflict: {error:?}");
        };
        assert!(message.contains("--json") && message.contains("--markdown-summary"));
        let guard = OutputGuard::new(vec![("--json", a.clone())]).unwrap();
        assert!(guard.check_input("input file", &a).is_err());
        assert!(
            guard
                .check_input("input file", "/nonexistent/x.json")
                .is_ok()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
