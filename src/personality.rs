//! Which upstream command the binary stands in for. NVBench has shipped
//! three comparison commands: `nvbench-compare` as its script was at commit
//! 4fabe3f (this tool's own pipeline reproduces it), and at its HEAD
//! (66212f1) `nvbench-compare-robust` and `nvbench-compare-legacy`, the
//! classic mean/noise script. The choice is made once, at the edge
//! (`cli::personality`), and carried as a value: what differs between the
//! commands is read from it, never from the command line again.
//!
//! A leaf: it imports nothing of the crate.

/// The command the binary behaves as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Personality {
    /// `nvbench-compare`: `python/scripts/nvbench_compare.py` at NVBench
    /// 4fabe3f, with this tool's extensions.
    #[default]
    Compare,
    /// `nvbench-compare-robust`: `python/scripts/nvbench_compare_robust.py`
    /// at NVBench 66212f1, the same tree with the differences of
    /// [`Dialect`].
    Robust,
    /// `nvbench-compare-legacy`: `python/scripts/nvbench_compare.py` at
    /// NVBench 66212f1, the mean/noise comparison.
    Legacy,
}

/// How a personality decides a matched state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The decision tree over intervals, clocks and bulk samples
    /// (`deciding::decision`).
    DecisionTree,
    /// The mean against the smaller relative noise (`deciding::legacy`).
    MeanNoise,
}

/// What tells the personalities apart, as data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// The name `--personality` takes.
    pub name: &'static str,
    /// The command NVBench installs (and `cargo install` installs here).
    pub command: &'static str,
    /// The upstream script reproduced, relative to NVBench's repository.
    pub script: &'static str,
    /// The NVBench commit the script is taken at.
    pub upstream: &'static str,
    pub engine: Engine,
    /// What the decision tree's command prints and decides its own way.
    pub dialect: Dialect,
}

/// Which variant of the decision tree a command runs (see
/// `deciding::decision`): the order of the steps, the reason codes there
/// are, how intervals are built and how the Change column is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    /// 4fabe3f: bulk coverage before the summary SAME test, each side's
    /// interval on its own, the change as a ratio minus one.
    #[default]
    Compare,
    /// 66212f1's robust script: the summary SAME test first, then bulk
    /// coverage (time alone when there are no frequencies), both sides'
    /// estimate and interval from the same kind of summary, the change as
    /// a symmetric fraction.
    Robust,
}

impl Rules {
    /// The name reports give the rules: the script whose tree decided.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Compare => "nvbench_compare.py@4fabe3f",
            Rules::Robust => "nvbench_compare_robust.py@66212f1",
        }
    }
}

/// Where a relative sidecar name is looked for when it is not beside the
/// JSON file (see `loading::sidecar::Lookup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SidecarSearch {
    /// Beside the JSON file's directory, then in the working directory.
    Compare,
    /// From a component named after the JSON file, then beside its directory.
    Robust,
}

/// How a command reports an input file it cannot use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadErrors {
    /// This tool's own explanation, on stderr.
    Own,
    /// The robust script's: Python's exception text after `failed to read
    /// NVBench JSON file 'PATH': `, and its checks of the root's shape, on
    /// stdout (see `loading::script_root`).
    Script,
}

/// The help printed when the number of paths is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageHelp {
    /// This tool's own `--help`.
    Own,
    /// The robust script's argparse help (see `cli::robust_help`).
    RobustScript,
}

/// What a decision-tree command prints differently, as data the renderers
/// and the front end read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dialect {
    pub rules: Rules,
    /// Between the three values of an explicit interval, in the explain
    /// view's cells and headers.
    pub interval_separator: &'static str,
    /// The summary's line of the SAME count, before the count.
    pub same_label: &'static str,
    /// `--threshold-diff` is a percentage (else a fraction).
    pub threshold_in_percent: bool,
    pub sidecar_search: SidecarSearch,
    /// Sidecar names are written absolute in `--bulk-debug-python` (and the
    /// reports), as `os.path.abspath` makes them.
    pub absolute_sidecar_names: bool,
    /// `--plot` with no row to draw says so on stderr (else on stdout).
    pub no_plot_data_on_stderr: bool,
    /// Two directories without a non-empty `.json` file of the same name
    /// are an error (else an empty summary).
    pub no_common_files_is_an_error: bool,
    /// Two directories' files are compared in the order the compare
    /// directory lists them (else by name).
    pub files_in_listed_order: bool,
    /// The `--display` choices the command has.
    pub displays: &'static [&'static str],
    /// The permissive preset's `bulk.sample_coverage`, where it is not the
    /// thresholds table's.
    pub permissive_sample_coverage: Option<f64>,
    pub read_errors: ReadErrors,
    pub usage_help: UsageHelp,
    /// A state's key holds its axis values besides its name (see
    /// `matching::axis_keys`).
    pub axis_value_keys: bool,
}

const COMPARE_DIALECT: Dialect = Dialect {
    rules: Rules::Compare,
    interval_separator: " | ",
    same_label: "  - Pass        (centers close and intervals overlap): ",
    threshold_in_percent: false,
    sidecar_search: SidecarSearch::Compare,
    absolute_sidecar_names: false,
    no_plot_data_on_stderr: false,
    no_common_files_is_an_error: false,
    files_in_listed_order: false,
    displays: &["intervals", "legacy", "explain", "simple", "gbench"],
    permissive_sample_coverage: None,
    read_errors: ReadErrors::Own,
    usage_help: UsageHelp::Own,
    axis_value_keys: false,
};

const ROBUST_DIALECT: Dialect = Dialect {
    rules: Rules::Robust,
    interval_separator: " / ",
    same_label: "  - Unchanged   (classified as SAME): ",
    threshold_in_percent: true,
    sidecar_search: SidecarSearch::Robust,
    absolute_sidecar_names: true,
    no_plot_data_on_stderr: true,
    no_common_files_is_an_error: true,
    files_in_listed_order: true,
    displays: &["simple", "intervals", "explain"],
    permissive_sample_coverage: Some(0.90),
    read_errors: ReadErrors::Script,
    usage_help: UsageHelp::RobustScript,
    axis_value_keys: true,
};

const PROFILES: [(Personality, Profile); 3] = [
    (
        Personality::Compare,
        Profile {
            name: "compare",
            command: "nvbench-compare",
            script: "python/scripts/nvbench_compare.py",
            upstream: "4fabe3f",
            engine: Engine::DecisionTree,
            dialect: COMPARE_DIALECT,
        },
    ),
    (
        Personality::Robust,
        Profile {
            name: "robust",
            command: "nvbench-compare-robust",
            script: "python/scripts/nvbench_compare_robust.py",
            upstream: "66212f1",
            engine: Engine::DecisionTree,
            dialect: ROBUST_DIALECT,
        },
    ),
    (
        Personality::Legacy,
        Profile {
            name: "legacy",
            command: "nvbench-compare-legacy",
            script: "python/scripts/nvbench_compare.py",
            upstream: "66212f1",
            engine: Engine::MeanNoise,
            // Not read: the mean/noise engine has its own tables.
            dialect: COMPARE_DIALECT,
        },
    ),
];

impl Personality {
    pub const ALL: [Personality; 3] = [
        Personality::Compare,
        Personality::Robust,
        Personality::Legacy,
    ];

    pub fn dialect(self) -> &'static Dialect {
        &self.profile().dialect
    }

    pub fn profile(self) -> &'static Profile {
        // PROFILES lists every personality.
        &PROFILES
            .iter()
            .find(|(personality, _)| *personality == self)
            .unwrap_or(&PROFILES[0])
            .1
    }

    /// The personality `--personality NAME` names.
    pub fn from_name(name: &str) -> Option<Personality> {
        Self::ALL.into_iter().find(|p| p.profile().name == name)
    }

    /// The personality an executable's file name stands for: only the two
    /// HEAD commands name one (any other name keeps the binary's own).
    pub fn from_command(file_name: &str) -> Option<Personality> {
        [Personality::Robust, Personality::Legacy]
            .into_iter()
            .find(|p| p.profile().command == file_name)
    }

    /// The personality of `python3 SCRIPT ...` when SCRIPT's file name is
    /// one of the HEAD scripts' (the interpreter form).
    pub fn from_script(file_name: &str) -> Option<Personality> {
        match file_name {
            "nvbench_compare_robust.py" => Some(Personality::Robust),
            "nvbench_compare.py" => Some(Personality::Legacy),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_personality_has_its_own_profile() {
        for personality in Personality::ALL {
            let profile = personality.profile();
            assert_eq!(Personality::from_name(profile.name), Some(personality));
        }
        assert_eq!(Personality::Legacy.profile().engine, Engine::MeanNoise);
        assert_eq!(Personality::Robust.profile().engine, Engine::DecisionTree);
    }

    #[test]
    fn command_and_script_names() {
        assert_eq!(
            Personality::from_command("nvbench-compare-robust"),
            Some(Personality::Robust)
        );
        assert_eq!(
            Personality::from_command("nvbench-compare-legacy"),
            Some(Personality::Legacy)
        );
        assert_eq!(Personality::from_command("nvbench-compare"), None);
        assert_eq!(
            Personality::from_script("nvbench_compare.py"),
            Some(Personality::Legacy)
        );
        assert_eq!(Personality::from_script("nvbench_json_summary.py"), None);
        assert_eq!(Personality::from_name("Legacy"), None);
    }
}
