//! No output overwrites an input or another output: `--json`,
//! `--markdown-summary`, `--bulk-debug-python`, `--csv`, `--rerun-plan`, `--plot-output` and
//! `--plot-along-output` are checked against each other, the `--config`
//! file and the input JSON files before any work, against the sidecars
//! each group of runs references as soon as it is loaded, and a templated
//! chart name against all of them when it is chosen. Paths are compared
//! resolved (symlinks, `./`, `..`) and, for existing files, by device and
//! inode (hard links).

use crate::failure::Failure;
use crate::loading::identity::Identity;
use crate::loading::model::Root;
use crate::loading::sidecar::resolve_sidecar_path;
use crate::loading::summaries::{Extracted, Lookup, Tag};
use crate::pycompat::paths::py_dirname;
use crate::rendering::charts::selection::DEFAULT_ALONG_TEMPLATE;
use crate::rendering::charts::summary::DEFAULT_SUMMARY_OUTPUT;
use crate::settings::Settings;

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
        let all: Vec<Named> = file_outputs(settings)
            .into_iter()
            .map(|(option, path)| Named::new(option, &path))
            .collect();
        one_document_on_stdout(settings, &all)?;
        // Writing to a terminal or `/dev/null` replaces no file.
        let outputs: Vec<Named> = all
            .into_iter()
            .filter(|o| !o.identity.is_char_device())
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

/// With `--json -` stdout carries the JSON document alone: another
/// document sent there under another name (`/dev/stdout`, `/proc/self/fd/1`,
/// the file stdout is redirected to) is refused as `-` is.
fn one_document_on_stdout(settings: &Settings, outputs: &[Named]) -> Result<(), Failure> {
    let Some(alone) = settings.outputs.stdout_document() else {
        return Ok(());
    };
    let Some(stdout) = Identity::of_stdout().filter(|s| !s.is_dev_null()) else {
        return Ok(());
    };
    match outputs.iter().find(|o| o.identity.same(&stdout)) {
        Some(output) => Err(conflict(format!(
            "{alone} - and {} {} cannot both write to stdout",
            output.what, output.path
        ))),
        None => Ok(()),
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
        ("--csv", file(&outputs.csv)),
        ("--rerun-plan", file(&outputs.rerun_plan)),
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
            let Lookup::Found(found) = summaries.lookup(tag) else {
                continue;
            };
            if let Extracted::Sidecar(Ok((_, name))) = &*found {
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
    use crate::testing::Scratch;

    /// A scratch directory with a subdirectory `sub`.
    fn scratch(name: &str) -> Scratch {
        let dir = Scratch::new(&format!("collide-{name}"));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        dir
    }

    /// The settings of a command line ending in `r.json c.json`.
    fn settings(args: &[&str]) -> Settings {
        let all = ["nvbench-compare"]
            .iter()
            .chain(args)
            .chain(&["r.json", "c.json"])
            .map(std::ffi::OsString::from);
        let (cli, filters) = crate::cli::parse(all).unwrap();
        match crate::cli::into_command(cli, &filters) {
            Ok(crate::cli::Command::Compare(settings)) => *settings,
            _ => panic!("not a comparison: {args:?}"),
        }
    }

    fn message(failure: Failure) -> String {
        match failure {
            Failure::Conflict(message) => message,
            other => panic!("not a conflict: {other:?}"),
        }
    }

    #[test]
    fn two_outputs_on_one_file_are_a_conflict() {
        let dir = scratch("outputs");
        let a = dir.join("out.json").to_str().unwrap().to_string();
        let b = dir.join("sub/../out.json").to_str().unwrap().to_string();
        let error = Collisions::new(&settings(&["--json", &a, "--markdown-summary", &b]));
        let text = message(error.unwrap_err());
        assert!(
            text.contains("--json") && text.contains("--markdown-summary"),
            "{text}"
        );
        let mut collisions = Collisions::new(&settings(&["--json", &a])).unwrap();
        assert!(collisions.check_input("input file", &a).is_err());
        assert!(
            collisions
                .check_input("input file", "/nonexistent/x.json")
                .is_ok()
        );
    }

    #[test]
    fn character_devices_are_no_file_to_overwrite() {
        let args = ["--json", "/dev/null", "--markdown-summary", "/dev/null"];
        let mut collisions = Collisions::new(&settings(&args)).unwrap();
        assert!(collisions.check_input("input file", "/dev/null").is_ok());
    }

    #[test]
    fn the_config_file_is_an_input() {
        let dir = scratch("config");
        let config = dir.join("cfg.toml");
        std::fs::write(&config, "version = 1\n").unwrap();
        let config = config.to_str().unwrap();
        let link = dir.join("link.toml");
        std::os::unix::fs::symlink(config, &link).unwrap();
        for option in ["--json", "--markdown-summary", "--bulk-debug-python"] {
            for output in [config, link.to_str().unwrap()] {
                let args = ["--config", config, option, output];
                let text = message(Collisions::new(&settings(&args)).unwrap_err());
                assert_eq!(
                    text,
                    format!("{option} {output} would overwrite the config file {config}")
                );
            }
        }
    }

    #[test]
    fn a_chart_named_during_the_run_is_checked_against_inputs_and_outputs() {
        let dir = scratch("charts");
        let report = dir.join("x.png").to_str().unwrap().to_string();
        let input = dir.join("r.json").to_str().unwrap().to_string();
        let template = dir.join("{benchmark}.png").to_str().unwrap().to_string();
        let args = [
            "--json",
            &report,
            "--plot-along",
            "N",
            "--plot-along-output",
            &template,
        ];
        let mut collisions = Collisions::new(&settings(&args)).unwrap();
        collisions.check_input("input file", &input).unwrap();
        let text = message(
            collisions
                .check_chart("--plot-along-output", &report)
                .unwrap_err(),
        );
        assert!(text.contains("and --json"), "{text}");
        let text = message(
            collisions
                .check_chart("--plot-along-output", &input)
                .unwrap_err(),
        );
        assert!(text.ends_with(&format!("would overwrite the input file {input}")));
        let other = dir.join("y.png").to_str().unwrap().to_string();
        assert!(
            collisions
                .check_chart("--plot-along-output", &other)
                .is_ok()
        );
        // The summary chart may be written to its own --plot-output file.
        let chart = dir.join("plot.png").to_str().unwrap().to_string();
        let collisions = Collisions::new(&settings(&["--plot", "--plot-output", &chart])).unwrap();
        assert!(collisions.check_chart("--plot-output", &chart).is_ok());
    }
}
