//! No output overwrites an input or another output: `--json`,
//! `--markdown-summary`, `--bulk-debug-python`, `--plot-output` and
//! `--plot-along-output` are checked against each other, the `--config`
//! file and the input JSON files before any work, against the sidecars
//! each group of runs references as soon as it is loaded, and a templated
//! chart name against all of them when it is chosen. Paths are compared
//! resolved (symlinks, `./`, `..`) and, for existing files, by device and
//! inode (hard links).

use crate::failure::Failure;
use crate::loading::identity::Identity;
use crate::loading::model::Root;
use crate::loading::sidecar::{py_dirname, resolve_sidecar_path};
use crate::loading::summaries::{Extracted, Lookup, Tag};
use crate::rendering::charts::selection::DEFAULT_ALONG_TEMPLATE;
use crate::rendering::charts::summary::DEFAULT_SUMMARY_OUTPUT;
use crate::settings::Settings;

/// Exit status of a usage error (as clap's); an output naming an input is one.
pub const CONFLICT_EXIT: u8 = 2;

/// One named file: an output of the command line, or an input.
#[derive(Debug, Clone)]
struct Named {
    /// The option of an output, or what kind of input it is.
    what: String,
    path: String,
    identity: Identity,
}

impl Named {
    fn new(what: impl Into<String>, path: &str) -> Self {
        Named {
            what: what.into(),
            path: path.to_string(),
            identity: Identity::of(path),
        }
    }
}

/// The file outputs of a run and the inputs they must not name.
#[derive(Debug, Clone, Default)]
pub struct Collisions {
    outputs: Vec<Named>,
    /// Inputs seen so far, kept when charts are drawn: a chart's file name
    /// may be chosen during the run (a templated `--plot-along-output`, the
    /// numbered parts of a split summary chart) and is checked then.
    inputs: Vec<Named>,
    keep_inputs: bool,
}

fn conflict(message: String) -> Failure {
    Failure::Conflict(message)
}

impl Collisions {
    /// The outputs of `settings`; two naming the same file are an error, as
    /// is one naming the `--config` file.
    pub fn new(settings: &Settings) -> Result<Collisions, Failure> {
        let outputs: Vec<Named> = file_outputs(settings)
            .into_iter()
            .map(|(option, path)| Named::new(option, &path))
            .collect();
        for (index, first) in outputs.iter().enumerate() {
            if let Some(second) = outputs[index + 1..]
                .iter()
                .find(|o| o.identity.same(&first.identity))
            {
                return Err(conflict(format!(
                    "{} {} and {} {} name the same file",
                    first.what, first.path, second.what, second.path
                )));
            }
        }
        let mut collisions = Collisions {
            outputs,
            inputs: Vec::new(),
            keep_inputs: settings.charts.any(),
        };
        if let Some(config) = &settings.config {
            collisions.check_input("config file", config)?;
        }
        Ok(collisions)
    }

    /// An output naming `input` (an input JSON file, a sidecar, the config)
    /// is an error.
    pub fn check_input(&mut self, kind: &str, input: &str) -> Result<(), Failure> {
        if self.outputs.is_empty() && !self.keep_inputs {
            return Ok(());
        }
        let input = Named::new(kind, input);
        if let Some(output) = self
            .outputs
            .iter()
            .find(|o| o.identity.same(&input.identity))
        {
            return Err(conflict(format!(
                "{} {} would overwrite the {kind} {}",
                output.what, output.path, input.path
            )));
        }
        if self.keep_inputs {
            self.inputs.push(input);
        }
        Ok(())
    }

    /// Checks every sidecar `root` (read from `json_path`) references.
    pub fn check_sidecars(&mut self, json_path: &str, root: &Root) -> Result<(), Failure> {
        if self.outputs.is_empty() && !self.keep_inputs {
            return Ok(());
        }
        for path in sidecar_paths(json_path, root) {
            self.check_input("sidecar", &path)?;
        }
        Ok(())
    }

    /// Checks the file name of a chart (`option` names its files) against
    /// the inputs seen so far and the other outputs. A chart may replace
    /// the file its own option names: the file the chart was asked for.
    pub fn check_chart(&self, option: &str, path: &str) -> Result<(), Failure> {
        if self.outputs.is_empty() && self.inputs.is_empty() {
            return Ok(());
        }
        let chart = Identity::of(path);
        if let Some(input) = self.inputs.iter().find(|i| i.identity.same(&chart)) {
            return Err(conflict(format!(
                "{option} {path} would overwrite the {} {}",
                input.what, input.path
            )));
        }
        let other = self
            .outputs
            .iter()
            .filter(|o| o.what != option)
            .find(|o| o.identity.same(&chart));
        match other {
            Some(output) => Err(conflict(format!(
                "{option} {path} and {} {} name the same file",
                output.what, output.path
            ))),
            None => Ok(()),
        }
    }
}

/// `(option, path)` of every output written to a file.
fn file_outputs(settings: &Settings) -> Vec<(&'static str, String)> {
    let charts = &settings.charts;
    let summary_chart = charts.summary.then(|| {
        let path = charts.summary_output.as_deref();
        path.unwrap_or(DEFAULT_SUMMARY_OUTPUT).to_string()
    });
    // A template with fields names its files only once they are drawn
    // (see `check_chart`).
    let along_chart = charts.along.as_ref().and_then(|_| {
        let template = charts.along_template.as_deref();
        let template = template.unwrap_or(DEFAULT_ALONG_TEMPLATE);
        (!template.contains('{')).then(|| template.to_string())
    });
    let outputs = &settings.outputs;
    let file = |d: &Option<crate::settings::Destination>| {
        d.as_ref().and_then(|d| d.file()).map(str::to_string)
    };
    [
        ("--json", file(&outputs.json)),
        ("--markdown-summary", file(&outputs.markdown)),
        ("--bulk-debug-python", file(&outputs.bulk_debug)),
        ("--plot-output", summary_chart),
        ("--plot-along-output", along_chart),
    ]
    .into_iter()
    .filter_map(|(option, path)| Some((option, path?)))
    .collect()
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
            if let Lookup::Found(Extracted::Sidecar(Ok((_, name)))) = summaries.lookup(tag) {
                let path = resolve_sidecar_path(&json_dir, name);
                if !paths.contains(&path) {
                    paths.push(path);
                }
            }
        }
    }
    paths
}
