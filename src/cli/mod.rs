//! The command line: clap options mirroring the reference's, and their
//! conversion into validated settings in the reference's order of checks.

use std::ffi::OsString;
use std::io::Write;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, ValueEnum};

use crate::deciding::gate::GateCategory;
use crate::deciding::status::Status;
use crate::failure::Failure;
use crate::loading::gbench::Format;
use crate::loading::gbench::mapping::Metric;
use crate::matching::filters::{FilterArg, build_filter_plan, parse_device_filter};
use crate::personality::{Dialect, UsageHelp};
use crate::rendering::charts::selection::ChartSettings;
use crate::rendering::gbench::CompareOptions;
use crate::rendering::table::DisplayMode;
use crate::settings::{Destination, Layout, Outputs, Settings, SortKey, TableLayout};

pub mod argparse;
pub mod legacy;
pub mod personality;
pub mod robust_help;
mod sides;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DisplayArg {
    /// Ref and Cmp as center [lower, upper] intervals, the bound of the change, the status
    Intervals,
    /// The reference's classic table: times, noise, diff and %diff
    Legacy,
    /// Intervals plus the reason of every status and the run's evidence
    Explain,
    /// Centers, interval spans relative to the center, %C Diff (the change
    /// of the centers relative to the smaller one, symmetric: (Cmp - Ref) /
    /// min(Ref, Cmp); a halved time shows -100%), Change and Status
    Simple,
    /// Google Benchmark's tools/compare.py report, byte for byte
    Gbench,
}

/// How input files are read (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// By each file's shape
    Auto,
    Nvbench,
    /// Google Benchmark JSON (--benchmark_format=json, --benchmark_out)
    Gbench,
}

/// Which Google Benchmark time is compared (`--time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TimeArg {
    /// real_time (compare.py's "Time")
    Real,
    Cpu,
}

/// A status name for `--show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowArg {
    Same,
    Fast,
    Slow,
    Ambg,
    /// `????`
    Unknown,
}

impl ShowArg {
    fn status(self) -> Status {
        match self {
            ShowArg::Same => Status::Same,
            ShowArg::Fast => Status::Fast,
            ShowArg::Slow => Status::Slow,
            ShowArg::Ambg => Status::Undecided,
            ShowArg::Unknown => Status::Unknown,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortArg {
    /// Largest slowdown first, largest speed-up last, rows without a change at the end
    Change,
    /// N-way: the worst status first (SLOW, ????, AMBG, FAST, SAME)
    Status,
    /// N-way: the lowest speedup first
    Speedup,
    /// N-way: the most significant change first
    Signif,
    /// N-way: the rows of one group together, groups by label
    Label,
    /// N-way: states by name
    Name,
}

impl SortArg {
    fn key(self) -> SortKey {
        match self {
            SortArg::Change => SortKey::Change,
            SortArg::Status => SortKey::Status,
            SortArg::Speedup => SortKey::Speedup,
            SortArg::Signif => SortKey::Signif,
            SortArg::Label => SortKey::Label,
            SortArg::Name => SortKey::Name,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// A row per state and group
    Long,
    /// A row per state, a column group per candidate
    Wide,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresetArg {
    Default,
    Permissive,
    Strict,
}

impl PresetArg {
    fn name(self) -> &'static str {
        match self {
            PresetArg::Default => "default",
            PresetArg::Permissive => "permissive",
            PresetArg::Strict => "strict",
        }
    }
}

/// `--max-bytes`: a number of bytes, or the name of a GitHub limit.
fn parse_max_bytes(text: &str) -> Result<usize, String> {
    match text {
        "comment" => Ok(crate::rendering::markdown::COMMENT_MAX_BYTES),
        "step-summary" => Ok(crate::rendering::markdown::DEFAULT_MAX_BYTES),
        _ => text.parse().map_err(|_| {
            format!("expected a number of bytes, `comment` (65536) or `step-summary` (1048576), not '{text}'")
        }),
    }
}

/// The `--fail-on` list (a newtype, so that clap takes it as one value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailOn(pub Vec<GateCategory>);

fn parse_fail_on(text: &str) -> Result<FailOn, String> {
    crate::deciding::gate::parse_fail_on(text).map(FailOn)
}

/// Paths are read as `OsString` (clap refuses non-UTF-8 `String`s) and
/// kept as lossless text.
fn path_text_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new()
        .map(|name: std::ffi::OsString| crate::text::path_text::to_text(&name))
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    crate::pycompat::pyfmt::parse_py_float(text)
        .ok_or_else(|| format!("invalid float value: '{text}'"))
}

const INPUTS: &str = "Inputs and filters";
const DISPLAY: &str = "Display";
const THRESHOLDS: &str = "Thresholds";
const OUTPUTS: &str = "Outputs";
const GATE: &str = "CI gate";
const SHELL: &str = "Shell integration";

/// Ends `--help` (not `-h`).
const EXAMPLES_AND_EXIT_CODES: &str = "\
Examples:
  nvbench-compare ref.json cmp.json
  nvbench-compare base-results/ pr-results/
  nvbench-compare -b copy_sweep -a 'Elements{io}[pow2]=[16,20]' \\
      ref.json cmp.json
  nvbench-compare --display explain --explain-ambg ref.json cmp.json
  nvbench-compare --fail-on slow,missing \\
      --markdown-summary \"$GITHUB_STEP_SUMMARY\" base/ pr/

Exit codes:
  0  the comparison ran (whatever the statuses), --dump-config, --help
  1  an error: unreadable or invalid input, bad config or filter
  2  a usage error: unknown option, missing or invalid option value
  3  --fail-on: a selected category occurred (the gate failed)";

/// Compare two NVBench JSON result files (or two directories of them) state
/// by state: SAME, FAST, SLOW, AMBG (not enough evidence) or ???? (unusable data).
#[derive(Debug, Parser)]
#[command(
    name = "nvbench-compare",
    version,
    override_usage = "nvbench-compare [OPTIONS] reference.json compare.json\n       nvbench-compare [OPTIONS] reference_dir/ compare_dir/\n       nvbench-compare [OPTIONS] ref_run... --vs cmp_run...",
    infer_long_args = true,
    args_override_self = true,
    after_long_help = EXAMPLES_AND_EXIT_CODES
)]
pub struct Cli {
    /// Reference and compare JSON files, or two directories (same-named .json files are paired)
    // Any file name, UTF-8 or not, as lossless text (`text::path_text`).
    #[arg(value_name = "PATH", value_parser = path_text_parser())]
    pub paths: Vec<String>,

    /// Repetition mode: the paths before --vs are runs of the reference,
    /// the paths after it runs of the compare side (separate processes);
    /// each side's runs are merged before deciding. Each further --vs
    /// opens another candidate group (N-way: one baseline, several
    /// candidates; LABEL=PATH on a group's first path names it)
    // A value-less flag kept once per occurrence, so that clap records
    // where each `--vs` stands among the paths.
    #[arg(long = "vs", action = clap::ArgAction::Append, num_args = 0,
          default_missing_value = "", value_name = "", help_heading = INPUTS)]
    pub vs: Vec<String>,

    /// How many paths come before each `--vs` (set by [`parse`]).
    #[arg(skip)]
    pub vs_positions: Vec<usize>,

    /// The command the binary stands in for (chosen before parsing, see
    /// [`personality`]).
    #[arg(skip)]
    pub personality: crate::personality::Personality,

    /// N-way: the groups' labels, baseline first (default: the part of the
    /// paths that tells them apart)
    #[arg(long, value_delimiter = ',', value_name = "LABEL,...", help_heading = INPUTS)]
    pub labels: Option<Vec<String>>,

    /// N-way: table layout
    #[arg(long, value_enum, help_heading = DISPLAY)]
    pub layout: Option<LayoutArg>,

    /// N-way: the group whose time every Speedup is relative to (default:
    /// the baseline)
    #[arg(long, value_name = "LABEL", help_heading = DISPLAY)]
    pub speedup_base: Option<String>,

    /// Ignore differences in the device sections and compare anyway
    #[arg(long, help_heading = INPUTS)]
    pub ignore_devices: bool,

    /// Only show rows whose |fractional diff| is >= THRESHOLD (0.05 means 5%)
    #[arg(long = "threshold-diff", value_name = "THRESHOLD", default_value = "0.0",
          value_parser = parse_threshold, allow_negative_numbers = true, help_heading = DISPLAY)]
    pub threshold: f64,

    /// Comparison threshold preset
    #[arg(long, value_enum, help_heading = THRESHOLDS)]
    pub preset: Option<PresetArg>,

    /// Comparison threshold TOML config (explicit values override the preset)
    #[arg(long, value_name = "FILE", help_heading = THRESHOLDS)]
    pub config: Option<String>,

    /// Print the effective comparison threshold config and exit
    #[arg(long, help_heading = THRESHOLDS)]
    pub dump_config: bool,

    /// Comparison table display mode
    #[arg(long, value_enum, default_value = "intervals", help_heading = DISPLAY)]
    pub display: DisplayArg,

    /// How the input files are read: by their shape (auto), as NVBench or
    /// as Google Benchmark JSON (--display gbench implies gbench)
    #[arg(long, value_enum, default_value = "auto", help_heading = INPUTS)]
    pub format: FormatArg,

    /// Google Benchmark input: the time each repetition gives (real_time or
    /// cpu_time)
    #[arg(long, value_enum, default_value = "real", help_heading = INPUTS)]
    pub time: TimeArg,

    /// --display gbench: only aggregate rows, U tests and the geomean
    /// (compare.py's -a)
    #[arg(long, help_heading = DISPLAY)]
    pub aggregates_only: bool,

    /// --display gbench: no U test rows (compare.py's --no-utest)
    #[arg(long, help_heading = DISPLAY)]
    pub no_utest: bool,

    /// --display gbench: the significance level the U test's p-values are
    /// coloured by (compare.py's --alpha)
    #[arg(long, value_name = "ALPHA", value_parser = parse_threshold, help_heading = DISPLAY)]
    pub alpha: Option<f64>,

    /// Write Python code describing the bulk sample/frequency files of each
    /// displayed row ('stdout' prints it)
    #[arg(long, value_name = "PATH", help_heading = OUTPUTS)]
    pub bulk_debug_python: Option<String>,

    /// Plot timings along a positive numeric axis
    #[arg(long, value_name = "AXIS", help_heading = OUTPUTS)]
    pub plot_along: Option<String>,

    /// Plot the comparison summary (written to nvbench_compare.png unless
    /// --plot-output is given)
    #[arg(long, help_heading = OUTPUTS)]
    pub plot: bool,

    /// Write the --plot chart to PATH (.png or .svg)
    #[arg(long, value_name = "PATH", help_heading = OUTPUTS)]
    pub plot_output: Option<String>,

    /// Write --plot-along charts to files named by TEMPLATE (.png or .svg;
    /// fields {benchmark}, {device}, {axis}, {pair}); default
    /// nvbench_compare-{benchmark}-{axis}-{pair}.png
    #[arg(long, value_name = "TEMPLATE", help_heading = OUTPUTS)]
    pub plot_along_output: Option<String>,

    /// Use a dark theme for --plot
    #[arg(long, help_heading = OUTPUTS)]
    pub dark: bool,

    /// Only print rows of these statuses (comma-separated: same, fast, slow,
    /// ambg, unknown); the summary still counts every state
    #[arg(long, value_enum, value_delimiter = ',', value_name = "STATUS,...", help_heading = DISPLAY)]
    pub show: Vec<ShowArg>,

    /// Order the rows of each table (pairs and --vs: change only)
    #[arg(long, value_enum, value_name = "KEY", help_heading = DISPLAY)]
    pub sort: Option<SortArg>,

    /// Use emoji instead of ANSI color codes (also when NO_COLOR is set)
    #[arg(long, help_heading = DISPLAY)]
    pub no_color: bool,

    /// Reference devices: all, a non-negative integer id, or comma-separated ids
    #[arg(
        long,
        value_name = "IDS",
        default_value = "all",
        allow_hyphen_values = true,
        help_heading = INPUTS
    )]
    pub reference_devices: String,

    /// Compare devices: all, a non-negative integer id, or comma-separated ids
    #[arg(
        long,
        value_name = "IDS",
        default_value = "all",
        allow_hyphen_values = true,
        help_heading = INPUTS
    )]
    pub compare_devices: String,

    /// Only compare the benchmark with exactly this name (can repeat)
    #[arg(short = 'b', long = "benchmark", value_name = "NAME", action = clap::ArgAction::Append,
          allow_hyphen_values = true, help_heading = INPUTS)]
    pub benchmark: Vec<String>,

    /// Filter on an axis value: NAME=VALUE, NAME=[a,b] (any of the list),
    /// NAME[pow2]=EXP or NAME[pow2]=[16,20] (2^EXP); applies to the most recent
    /// --benchmark, or to all benchmarks when given before any --benchmark
    #[arg(short = 'a', long = "axis", value_name = "NAME=VALUE", action = clap::ArgAction::Append,
          allow_hyphen_values = true, help_heading = INPUTS)]
    pub axis: Vec<String>,

    /// Exit with status 3 when any of these occur (comma-separated): slow,
    /// ambg, unknown, missing. FAST never fails the gate. N-way: in any
    /// candidate
    #[arg(long, value_name = "LIST", value_parser = parse_fail_on, help_heading = GATE)]
    pub fail_on: Option<FailOn>,

    /// N-way: --fail-on looks at this candidate only
    #[arg(long, value_name = "LABEL", help_heading = GATE)]
    pub fail_on_label: Option<String>,

    /// Write a CSV file, a line per state and candidate with every column
    /// of the table as plain numbers ('-' for stdout, which then replaces
    /// the tables)
    #[arg(long, value_name = "PATH", help_heading = OUTPUTS)]
    pub csv: Option<String>,

    /// Write a JSON report of every matched state to PATH ('-' for stdout,
    /// which then replaces the tables)
    #[arg(long, value_name = "PATH", help_heading = OUTPUTS)]
    pub json: Option<String>,

    /// List states, benchmarks and files present on one side only as NEW /
    /// DROPPED (after the tables) and count them in the summary
    #[arg(long, help_heading = GATE)]
    pub report_missing: bool,

    /// Write a markdown summary (for $GITHUB_STEP_SUMMARY or a PR comment) to PATH
    #[arg(long, value_name = "PATH", help_heading = OUTPUTS)]
    pub markdown_summary: Option<String>,

    /// Size limit of the markdown summary in bytes; the default is GitHub's
    /// job-summary limit ($GITHUB_STEP_SUMMARY, 1 MiB); `comment` is a PR
    /// comment's limit (65536 characters), `step-summary` the default
    #[arg(long, value_name = "N", default_value_t = crate::rendering::markdown::DEFAULT_MAX_BYTES,
          value_parser = parse_max_bytes, help_heading = OUTPUTS)]
    pub max_bytes: usize,

    /// After the summary, say what evidence would settle each AMBG reason
    #[arg(long, help_heading = DISPLAY)]
    pub explain_ambg: bool,

    /// Write the benchmark arguments that re-measure exactly the AMBG
    /// states to PATH, one a line (NVBench: -b, -d, -a; Google Benchmark: a
    /// --benchmark_filter), with comments on how to re-run and merge them
    /// ('-' for stdout, which then replaces the tables)
    #[arg(long, value_name = "PATH", help_heading = OUTPUTS)]
    pub rerun_plan: Option<String>,

    /// The statuses --rerun-plan re-measures (comma-separated: ambg, slow,
    /// fast, unknown, same; default ambg)
    #[arg(long, value_enum, value_delimiter = ',', value_name = "STATUS,...", help_heading = OUTPUTS)]
    pub rerun_plan_statuses: Vec<ShowArg>,

    /// Print a completion script for SHELL to stdout and exit
    #[arg(long, value_enum, value_name = "SHELL", help_heading = SHELL)]
    pub generate_completions: Option<clap_complete::Shell>,

    /// Print the man page (roff) to stdout and exit
    #[arg(long, help_heading = SHELL)]
    pub generate_man: bool,
}

/// What the command line asks for.
pub enum Command {
    /// Text to print as it is: `--dump-config`, completions, the man page.
    Print(String),
    Compare(Box<Settings>),
}

/// `-b`/`-a` values in command-line order.
fn ordered_filter_args(matches: &ArgMatches) -> Vec<FilterArg> {
    let indexed = |id: &str| -> Vec<(usize, String)> {
        match (matches.indices_of(id), matches.get_many::<String>(id)) {
            (Some(indices), Some(values)) => indices.zip(values.cloned()).collect(),
            _ => Vec::new(),
        }
    };
    let mut args: Vec<(usize, FilterArg)> = indexed("axis")
        .into_iter()
        .map(|(i, v)| (i, FilterArg::Axis(v)))
        .chain(
            indexed("benchmark")
                .into_iter()
                .map(|(i, v)| (i, FilterArg::Benchmark(v))),
        )
        .collect();
    args.sort_by_key(|(index, _)| *index);
    args.into_iter().map(|(_, arg)| arg).collect()
}

fn no_color_from_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Parses the command line. `Err(code)` means the process should exit with
/// that code (clap already printed help or an error).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<(Cli, Vec<FilterArg>), i32> {
    let matches = Cli::command()
        .try_get_matches_from(args)
        .map_err(print_clap_message)?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(print_clap_message)?;
    cli.vs_positions = vs_positions(&matches);
    let filters = ordered_filter_args(&matches);
    Ok((cli, filters))
}

/// Prints clap's help, version or error; gives the exit status. Help and
/// version go to stdout, and a failure to write them (a full disk) is an
/// error, not a silent success.
fn print_clap_message(error: clap::Error) -> i32 {
    let text = error.render().to_string();
    if error.use_stderr() {
        crate::messages::verbatim(&text);
        return error.exit_code();
    }
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) => {
            crate::messages::error(format_args!("cannot write to stdout: {e}"));
            1
        }
        Ok(()) => error.exit_code(),
    }
}

/// `--json -` (or `--csv -`) makes stdout that document: nothing else may
/// be printed there, so another document asked for on stdout is a usage
/// error.
fn one_document_per_stdout(cli: &Cli) -> Result<(), String> {
    let documents = [
        ("--json", &cli.json),
        ("--csv", &cli.csv),
        ("--rerun-plan", &cli.rerun_plan),
    ];
    let Some(alone) = documents
        .into_iter()
        .find(|(_, path)| path.as_deref() == Some("-"))
        .map(|(option, _)| option)
    else {
        return Ok(());
    };
    let others = [
        (
            "--csv -",
            cli.csv.as_deref() == Some("-") && alone != "--csv",
        ),
        (
            "--rerun-plan -",
            cli.rerun_plan.as_deref() == Some("-") && alone != "--rerun-plan",
        ),
        (
            "--markdown-summary -",
            cli.markdown_summary.as_deref() == Some("-"),
        ),
        (
            "--bulk-debug-python stdout",
            cli.bulk_debug_python
                .as_deref()
                .is_some_and(|d| d.eq_ignore_ascii_case("stdout")),
        ),
    ];
    match others.into_iter().find(|(_, on_stdout)| *on_stdout) {
        Some((other, _)) => Err(format!("{alone} - and {other} cannot both write to stdout")),
        None => Ok(()),
    }
}

/// The number of paths given before each `--vs`.
fn vs_positions(matches: &ArgMatches) -> Vec<usize> {
    let paths: Vec<usize> = matches.indices_of("paths").into_iter().flatten().collect();
    let vs = matches.indices_of("vs").into_iter().flatten();
    vs.map(|at| paths.iter().filter(|index| **index < at).count())
        .collect()
}

/// The options of an N-way comparison, validated.
struct NWayOptions {
    table_layout: TableLayout,
    speedup_base: usize,
    fail_on_label: Option<usize>,
}

/// `--layout`, `--speedup-base`, `--fail-on-label` and the `--sort` keys
/// other than `change` belong to N-way comparisons; there `--display
/// legacy|simple` have no form.
fn nway_options(cli: &Cli, inputs: &crate::settings::Inputs) -> Result<NWayOptions, Failure> {
    let nway = inputs.layout == Layout::NWay;
    let only_nway = [
        cli.layout.map(|_| "--layout"),
        cli.speedup_base.as_ref().map(|_| "--speedup-base"),
        cli.fail_on_label.as_ref().map(|_| "--fail-on-label"),
        cli.sort
            .filter(|sort| *sort != SortArg::Change)
            .map(|_| "--sort (other than change)"),
    ];
    if let Some(option) = only_nway.into_iter().flatten().find(|_| !nway) {
        return Err(Failure::Conflict(format!(
            "{option} applies to N-way comparisons (a baseline and two or more --vs groups)"
        )));
    }
    if nway && matches!(cli.display, DisplayArg::Legacy | DisplayArg::Simple) {
        return Err(Failure::Conflict(
            "--display legacy and simple have no N-way form; use intervals (the default) or explain"
                .to_string(),
        ));
    }
    let labels: Vec<&str> = inputs.sides().map(|side| side.label.as_str()).collect();
    let find = |option: &str, label: &str, from: usize| {
        labels[from..]
            .iter()
            .position(|l| *l == label)
            .map(|i| i + from)
            .ok_or_else(|| {
                Failure::Conflict(format!(
                    "{option} {} names no {}group (the labels are {})",
                    crate::text::printable::printable(label),
                    if from == 0 { "" } else { "candidate " },
                    labels[from..].join(", ")
                ))
            })
    };
    let speedup_base = match &cli.speedup_base {
        Some(label) => find("--speedup-base", label, 0)?,
        None => 0,
    };
    let fail_on_label = match &cli.fail_on_label {
        Some(label) => Some(find("--fail-on-label", label, 1)? - 1),
        None => None,
    };
    Ok(NWayOptions {
        table_layout: match cli.layout {
            Some(LayoutArg::Wide) => TableLayout::Wide,
            _ => TableLayout::Long,
        },
        speedup_base,
        fail_on_label,
    })
}

/// `--display gbench` prints compare.py's report of two files and nothing
/// else; its options (`--aggregates-only`, `--no-utest`, `--alpha`) mean
/// nothing elsewhere.
fn compare_py_options(
    cli: &Cli,
    inputs: &crate::settings::Inputs,
) -> Result<Option<CompareOptions>, Failure> {
    let conflict = |message: String| Err(Failure::Conflict(message));
    if cli.display != DisplayArg::Gbench {
        let only = [
            cli.aggregates_only.then_some("--aggregates-only"),
            cli.no_utest.then_some("--no-utest"),
            cli.alpha.map(|_| "--alpha"),
        ];
        if let Some(option) = only.into_iter().flatten().next() {
            return conflict(format!(
                "{option} applies to --display gbench (Google Benchmark's compare.py report)"
            ));
        }
        return Ok(None);
    }
    if cli.format == FormatArg::Nvbench {
        return conflict(
            "--display gbench reads Google Benchmark files, not --format nvbench".into(),
        );
    }
    if inputs.layout != Layout::Pair {
        return conflict(
            "--display gbench compares two files, as compare.py does (drop --vs, or use the default display)".into(),
        );
    }
    let others = [
        cli.json.as_ref().map(|_| "--json"),
        cli.csv.as_ref().map(|_| "--csv"),
        cli.rerun_plan.as_ref().map(|_| "--rerun-plan"),
        cli.markdown_summary.as_ref().map(|_| "--markdown-summary"),
        cli.bulk_debug_python
            .as_ref()
            .map(|_| "--bulk-debug-python"),
        cli.fail_on.as_ref().map(|_| "--fail-on"),
        cli.plot.then_some("--plot"),
        cli.plot_along.as_ref().map(|_| "--plot-along"),
    ];
    if let Some(option) = others.into_iter().flatten().next() {
        return conflict(format!(
            "--display gbench prints compare.py's report only; {option} needs this tool's decisions (drop --display gbench)"
        ));
    }
    Ok(Some(CompareOptions {
        aggregates_only: cli.aggregates_only,
        utest: !cli.no_utest,
        alpha: cli.alpha.unwrap_or(0.05),
        // compare.py colours unless told not to, whatever stdout is.
        color: !cli.no_color,
    }))
}

/// Where a document option sends it: `-` is stdout.
fn destination(path: String) -> Destination {
    if path == "-" {
        Destination::Stdout
    } else {
        Destination::File(path)
    }
}

/// The markdown summary is added to GitHub's job summary file, as GitHub
/// does with every step's summary.
fn markdown_destination(path: String) -> Destination {
    match destination(path) {
        Destination::File(path) if is_step_summary(&path) => Destination::Append(path),
        other => other,
    }
}

/// `path` is GitHub's job summary file, `$GITHUB_STEP_SUMMARY`, which
/// earlier steps may have written to.
fn is_step_summary(path: &str) -> bool {
    let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()) else {
        return false;
    };
    let (path, summary) = (std::path::Path::new(path), std::path::Path::new(&summary));
    path == summary
        || matches!((path.canonicalize(), summary.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// `--threshold-diff` as the fraction rows are shown from: the robust
/// command takes a percentage, and refuses one that is negative or not
/// finite (first of all its checks).
fn threshold_fraction(threshold: f64, dialect: &Dialect) -> Result<f64, Failure> {
    if !dialect.threshold_in_percent {
        return Ok(threshold);
    }
    if !threshold.is_finite() || threshold < 0.0 {
        return Err(Failure::reported(
            "--threshold-diff must be a finite non-negative percentage",
        ));
    }
    Ok(threshold / 100.0)
}

/// Validates the options in the reference's order: config, --dump-config,
/// filters and devices, then the number of paths.
pub fn into_command(cli: Cli, filter_args: &[FilterArg]) -> Result<Command, Failure> {
    if let Some(shell) = cli.generate_completions {
        return Ok(Command::Print(completion_script(shell)));
    }
    if cli.generate_man {
        return Ok(Command::Print(man_page()));
    }
    one_document_per_stdout(&cli).map_err(Failure::Conflict)?;
    let dialect = cli.personality.dialect();
    let display = cli
        .display
        .to_possible_value()
        .map(|v| v.get_name().to_string());
    if let Some(display) = display.filter(|d| !dialect.displays.contains(&d.as_str())) {
        let choices: Vec<String> = dialect.displays.iter().map(|d| format!("'{d}'")).collect();
        return Err(Failure::Conflict(format!(
            "argument --display: invalid choice: '{display}' (choose from {})",
            choices.join(", ")
        )));
    }
    let threshold = threshold_fraction(cli.threshold, dialect)?;
    let (preset, thresholds) = crate::deciding::config::resolve(
        cli.preset.map(PresetArg::name),
        cli.config.as_deref(),
        cli.personality.dialect(),
    )
    .map_err(|message| config_failure(message, cli.config.as_deref()))?;
    if cli.dump_config {
        return Ok(Command::Print(crate::deciding::config::dump(
            &preset,
            &thresholds,
            cli.format == FormatArg::Gbench || cli.display == DisplayArg::Gbench,
        )));
    }
    crate::rendering::charts::template::validate_plot_options(
        cli.plot,
        cli.plot_output.as_deref(),
        cli.plot_along.as_deref(),
        cli.plot_along_output.as_deref(),
    )
    .map_err(Failure::Fatal)?;
    if let Some(path) = &cli.plot_output {
        crate::rendering::charts::output::ImageFormat::from_path(std::path::Path::new(path))
            .map_err(|e| Failure::fatal(format!("--plot-output {path}: {e}")))?;
    }
    let filters = build_filter_plan(filter_args).map_err(Failure::Reported)?;
    let reference_devices = device_filter(&cli.reference_devices, "--reference-devices")?;
    let compare_devices = device_filter(&cli.compare_devices, "--compare-devices")?;
    let inputs = sides::inputs(&cli.paths, &cli.vs_positions, cli.labels.as_deref())
        .map_err(|failure| with_usage_help(failure, dialect))?;
    let nway = nway_options(&cli, &inputs)?;
    if !dialect.threshold_in_percent && cli.threshold > 1.0 {
        // A percentage given where a fraction belongs hides every row.
        crate::messages::warning(format_args!(
            "--threshold-diff {} shows only rows whose change is at least {}%: it is a fraction (0.05 means 5%)",
            crate::pycompat::pyfmt::float_repr(cli.threshold),
            crate::pycompat::pyfmt::float_repr(cli.threshold * 100.0)
        ));
    }
    let compare_py = compare_py_options(&cli, &inputs)?;
    let format = match (cli.format, compare_py.is_some()) {
        (FormatArg::Auto, true) | (FormatArg::Gbench, _) => Format::Gbench,
        (FormatArg::Auto, false) => Format::Auto,
        (FormatArg::Nvbench, _) => Format::NvBench,
    };
    let fail_on = cli.fail_on.map(|f| f.0).unwrap_or_default();
    let outputs = Outputs {
        json: cli.json.map(destination),
        markdown: cli.markdown_summary.map(markdown_destination),
        max_bytes: cli.max_bytes,
        bulk_debug: cli.bulk_debug_python.map(|path| {
            if path.eq_ignore_ascii_case("stdout") {
                Destination::Stdout
            } else {
                Destination::File(path)
            }
        }),
        csv: cli.csv.map(destination),
        rerun_plan: cli.rerun_plan.map(destination),
    };
    let rerun_statuses = rerun_statuses(&cli.rerun_plan_statuses, outputs.rerun_plan.is_some())?;
    let inputs_layout = inputs.layout;
    Ok(Command::Compare(Box::new(Settings {
        personality: cli.personality,
        inputs,
        threshold,
        display: match cli.display {
            DisplayArg::Intervals | DisplayArg::Gbench => DisplayMode::Intervals,
            DisplayArg::Legacy => DisplayMode::Legacy,
            DisplayArg::Explain => DisplayMode::Explain,
            DisplayArg::Simple => DisplayMode::Simple,
        },
        compare_py,
        format,
        metric: match cli.time {
            TimeArg::Real => Metric::Real,
            TimeArg::Cpu => Metric::Cpu,
        },
        no_color: cli.no_color || no_color_from_env(),
        ignore_devices: cli.ignore_devices,
        filters,
        reference_devices,
        compare_devices,
        preset,
        thresholds,
        config: cli.config,
        // A gated run compares what it can: a changed set of states is
        // listed, and only `--fail-on missing` fails on it.
        report_missing: cli.report_missing || !fail_on.is_empty(),
        explain_ambg: cli.explain_ambg,
        show: (!cli.show.is_empty()).then(|| cli.show.iter().map(|s| s.status()).collect()),
        // N-way tables are sorted when they are joined, not per candidate.
        sort_by_change: cli.sort == Some(SortArg::Change) && inputs_layout != Layout::NWay,
        sort: cli.sort.map(SortArg::key),
        table_layout: nway.table_layout,
        speedup_base: nway.speedup_base,
        charts: ChartSettings {
            summary: cli.plot,
            summary_output: cli.plot_output,
            dark: cli.dark,
            along: cli.plot_along,
            along_template: cli.plot_along_output,
            no_data_on_stderr: dialect.no_plot_data_on_stderr,
        },
        outputs,
        fail_on,
        fail_on_label: nway.fail_on_label,
        rerun_statuses,
    })))
}

/// The statuses a rerun plan re-measures: AMBG unless told; only with
/// `--rerun-plan`.
fn rerun_statuses(given: &[ShowArg], plan: bool) -> Result<Vec<Status>, Failure> {
    if !given.is_empty() && !plan {
        return Err(Failure::Conflict(
            "--rerun-plan-statuses chooses the states of --rerun-plan PATH, which is not given"
                .to_string(),
        ));
    }
    if given.is_empty() {
        return Ok(vec![Status::Undecided]);
    }
    let mut statuses: Vec<Status> = given.iter().map(|s| s.status()).collect();
    statuses.dedup();
    Ok(statuses)
}

/// A device filter, or the reference's error with the value echoed on stderr.
fn device_filter(
    text: &str,
    option: &str,
) -> Result<crate::matching::filters::DeviceFilter, Failure> {
    parse_device_filter(text, option).map_err(|message| {
        Failure::reported_with_notes(message, vec![format!("{option} was given {text:?}")])
    })
}

/// A config error as the reference prints it, with the file named on stderr
/// and close names offered for unknown keys.
fn config_failure(message: String, path: Option<&str>) -> Failure {
    let Some(path) = path else {
        return Failure::Reported(message);
    };
    let mut notes = vec![format!("the error above is in the config file {path}")];
    notes.extend(crate::deciding::config::unknown_key_hints(path));
    Failure::reported_with_notes(message, notes)
}

/// A usage failure with the help of the command the binary stands in for.
fn with_usage_help(failure: Failure, dialect: &Dialect) -> Failure {
    match (failure, dialect.usage_help) {
        (Failure::Usage { problem, .. }, UsageHelp::RobustScript) => Failure::Usage {
            problem,
            help: Some(robust_help::help_text()),
        },
        (failure, _) => failure,
    }
}

/// The help text, printed when the number of paths is wrong.
pub fn write_help(out: &mut dyn Write) -> std::io::Result<()> {
    write!(out, "{}", Cli::command().render_help())
}

/// The completion script of `shell` for this command line.
pub fn completion_script(shell: clap_complete::Shell) -> String {
    // The gate's categories are parsed as one comma-separated list; the
    // shells offer them one at a time.
    let mut command = Cli::command().mut_arg("fail_on", |arg| {
        arg.value_parser(clap::builder::PossibleValuesParser::new(
            crate::deciding::gate::CATEGORY_NAMES,
        ))
    });
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "nvbench-compare", &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// The man page, in roff, generated from the same definition as `--help`,
/// with EXAMPLES and EXIT STATUS sections of their own.
pub fn man_page() -> String {
    let man = clap_mangen::Man::new(Cli::command());
    let mut page = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = man.render_title(&mut page);
    let _ = man.render_name_section(&mut page);
    let _ = man.render_synopsis_section(&mut page);
    let _ = man.render_description_section(&mut page);
    let _ = man.render_options_section(&mut page);
    let mut page = String::from_utf8_lossy(&page).into_owned();
    page.push_str(&man_sections());
    let mut version = Vec::new();
    let _ = man.render_version_section(&mut version);
    page.push_str(&String::from_utf8_lossy(&version));
    page
}

/// EXAMPLES and EXIT STATUS in roff, from the text `--help` ends with.
fn man_sections() -> String {
    let (examples, exit_codes) = EXAMPLES_AND_EXIT_CODES
        .split_once("\n\nExit codes:\n")
        .expect("the help text has both parts");
    let roff_text = |line: &str| line.replace('\\', "\\\\").replace('-', "\\-");
    let mut out = String::from(".SH EXAMPLES\n.nf\n");
    for line in examples.lines().skip(1) {
        // The help indents each example by two; continuations by more.
        out.push_str(&roff_text(line.strip_prefix("  ").unwrap_or(line)));
        out.push('\n');
    }
    out.push_str(".fi\n.SH \"EXIT STATUS\"\n");
    for line in exit_codes.lines() {
        let (code, meaning) = line.trim().split_once("  ").unwrap_or((line.trim(), ""));
        out.push_str(&format!(".TP\n.B {code}\n{}\n", roff_text(meaning.trim())));
    }
    out
}
