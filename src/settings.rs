//! What the user asked for, validated once (by `cli`) into ready values:
//! the sides to compare, how to decide and display, and every output with
//! its destination. A leaf of the pipeline: it holds the option values of
//! the stages and nothing of the stages themselves, and no stage below
//! `app` imports it.

use crate::deciding::config::Thresholds;
use crate::deciding::gate::GateCategory;
use crate::deciding::status::Status;
use crate::loading::gbench::Format;
use crate::loading::gbench::mapping::Metric;
use crate::matching::filters::{DeviceFilter, FilterPlan};
use crate::rendering::charts::selection::ChartSettings;
use crate::rendering::gbench::CompareOptions;
use crate::rendering::table::DisplayMode;

/// Everything a comparison run needs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The command the binary stands in for: what it decides, labels and
    /// prints differently is read from here.
    pub personality: crate::personality::Personality,
    pub inputs: Inputs,
    /// `--threshold-diff`: rows with a smaller |change| are not shown.
    pub threshold: f64,
    pub display: DisplayMode,
    /// `--display gbench`: Google Benchmark's compare.py report instead of
    /// this tool's tables and decisions.
    pub compare_py: Option<CompareOptions>,
    /// `--format`: how input files are read.
    pub format: Format,
    /// `--time`: which time of a Google Benchmark repetition is compared.
    pub metric: Metric,
    pub no_color: bool,
    pub ignore_devices: bool,
    pub filters: FilterPlan,
    pub reference_devices: DeviceFilter,
    pub compare_devices: DeviceFilter,
    /// Name of the preset the thresholds are based on.
    pub preset: String,
    pub thresholds: Thresholds,
    /// The `--config` file: an input, which no output may overwrite.
    pub config: Option<String>,
    /// List states, benchmarks and files present on one side only (and
    /// pair what can be paired instead of failing on them).
    pub report_missing: bool,
    /// Print the next steps for each AMBG reason after the summary.
    pub explain_ambg: bool,
    /// `--show`: only rows of these statuses are displayed.
    pub show: Option<Vec<Status>>,
    /// `--sort change`: each table's rows ordered by their change.
    pub sort_by_change: bool,
    /// `--sort` of an N-way table (`change` also sets `sort_by_change`).
    pub sort: Option<SortKey>,
    /// N-way: `--layout` of the table.
    pub table_layout: TableLayout,
    /// N-way: the side whose Time is every row's Speedup basis (`--speedup-base`).
    pub speedup_base: usize,
    pub charts: ChartSettings,
    pub outputs: Outputs,
    /// `--fail-on` categories (empty: the run is not gated).
    pub fail_on: Vec<GateCategory>,
    /// `--fail-on-label`: the one candidate the gate looks at (its index
    /// among the candidates); all of them otherwise.
    pub fail_on_label: Option<usize>,
    /// `--rerun-plan-statuses`: the states a rerun plan re-measures.
    pub rerun_statuses: Vec<Status>,
}

impl Settings {
    /// Keep a record of every matched state (for the documents, and for
    /// the N-way table, which joins the candidates' records).
    pub fn keep_records(&self) -> bool {
        let outputs = &self.outputs;
        outputs.json.is_some()
            || outputs.markdown.is_some()
            || outputs.csv.is_some()
            || self.inputs.layout == Layout::NWay
    }

    /// Records name their sidecar files: only the bulk-debug script and the
    /// JSON report print them (an N-way table keeps its records, but would
    /// build every run's file names for nothing).
    pub fn resolve_sidecars(&self) -> bool {
        self.outputs.bulk_debug.is_some() || self.outputs.json.is_some()
    }

    /// The reference's first path, as the reports name the comparison.
    pub fn reference_label(&self) -> &str {
        self.inputs.baseline.first()
    }

    /// The compare side's first path.
    pub fn compare_label(&self) -> &str {
        self.inputs.candidates[0].first()
    }
}

/// The sides of the comparison: a baseline and candidates, each one or more
/// runs (files, or directories whose same-named files are runs of the same
/// benchmarks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    pub baseline: SidePaths,
    pub candidates: Vec<SidePaths>,
    pub layout: Layout,
}

impl Inputs {
    /// Both sides in order, baseline first.
    pub fn sides(&self) -> impl Iterator<Item = &SidePaths> {
        std::iter::once(&self.baseline).chain(&self.candidates)
    }
}

/// The paths given for one side, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SidePaths {
    /// How the side is named in messages (`reference`, `compare`).
    pub name: &'static str,
    /// How tables and reports name the side in an N-way comparison.
    pub label: String,
    pub paths: Vec<String>,
}

impl SidePaths {
    /// Every side has a path (checked when the command line is read).
    pub fn first(&self) -> &str {
        self.paths.first().map_or("", String::as_str)
    }
}

/// How the comparison was asked for, which decides how it is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Two paths: the reference's tables and decisions, byte for byte.
    Pair,
    /// `--vs`: each side's runs merged, the repetition table.
    Repetitions,
    /// Two or more `--vs`: a baseline and several candidates, each decided
    /// as `baseline --vs candidate`, in one table per device section.
    NWay,
}

impl Layout {
    /// Each side's runs are merged and decided together (`--vs`): the
    /// repetition rule, the repetition table, our own sample reader.
    pub fn merges_runs(self) -> bool {
        !matches!(self, Layout::Pair)
    }

    /// Several candidates against one baseline: every candidate's tables
    /// of a group are joined and printed once all are decided, and each
    /// document has a section per candidate.
    pub fn joins_candidates(self) -> bool {
        matches!(self, Layout::NWay)
    }
}

/// The table of an N-way comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableLayout {
    /// A row per state and side (WaterLily's `compare.jl`).
    #[default]
    Long,
    /// A row per state, a column group per candidate (benchstat).
    Wide,
}

/// What `--sort` orders an N-way table by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// The worst status first (SLOW, ????, AMBG, FAST, SAME).
    Status,
    /// The largest slowdown (over the candidates) first.
    Change,
    /// The lowest speedup (over the candidates) first.
    Speedup,
    /// The most significant change first.
    Signif,
    /// The rows of one side together, sides by label.
    Label,
    /// States by name.
    Name,
}

/// Where a document goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Stdout,
    /// Replaced whole and atomically.
    File(String),
    /// Added to what the file holds (`$GITHUB_STEP_SUMMARY`, which earlier
    /// steps may have written to).
    Append(String),
}

impl Destination {
    /// The file written, when it is one.
    pub fn file(&self) -> Option<&str> {
        match self {
            Destination::Stdout => None,
            Destination::File(path) | Destination::Append(path) => Some(path),
        }
    }
}

/// The documents beyond the tables and their destinations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outputs {
    pub json: Option<Destination>,
    pub markdown: Option<Destination>,
    /// `--max-bytes` of the markdown summary.
    pub max_bytes: usize,
    pub bulk_debug: Option<Destination>,
    /// `--csv`: a line per state and candidate.
    pub csv: Option<Destination>,
    /// `--rerun-plan`: the arguments that re-measure the chosen states.
    pub rerun_plan: Option<Destination>,
}

impl Outputs {
    /// The option whose document is stdout's alone (`--json -`, `--csv -`):
    /// the tables are not printed then.
    pub fn stdout_document(&self) -> Option<&'static str> {
        [
            ("--json", &self.json),
            ("--csv", &self.csv),
            ("--rerun-plan", &self.rerun_plan),
        ]
        .into_iter()
        .find(|(_, destination)| **destination == Some(Destination::Stdout))
        .map(|(option, _)| option)
    }
}

/// `nvbench-compare-legacy`'s options, as the classic script parses them.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacySettings {
    /// Every argument argparse did not consume, unknown options included
    /// (the script prints this list first).
    pub paths: Vec<String>,
    pub ignore_devices: bool,
    /// `--threshold-diff`: rows with a smaller |fractional diff| are hidden.
    pub threshold: f64,
    pub plot_along: Option<String>,
    pub plot: bool,
    pub dark: bool,
    pub no_color: bool,
    /// `-a` values in order; they apply to every benchmark.
    pub axis: Vec<String>,
    /// `-b` values: only benchmarks of these names.
    pub benchmark: Vec<String>,
    /// The help, printed when there are not two paths.
    pub help: String,
}
