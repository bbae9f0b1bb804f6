//! The command line: clap options mirroring the reference's, and their
//! conversion into validated settings in the reference's order of checks.

use std::ffi::OsString;
use std::io::Write;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, ValueEnum};

use crate::app::Settings;
use crate::failure::Failure;
use crate::filters::{FilterArg, build_filter_plan, parse_device_filter};
use crate::render::table::DisplayMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DisplayArg {
    Intervals,
    Legacy,
    Explain,
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

fn parse_threshold(text: &str) -> Result<f64, String> {
    crate::pyfmt::parse_py_float(text).ok_or_else(|| format!("invalid float value: '{text}'"))
}

/// Compare two NVBench JSON result files (or two directories of them) state
/// by state: SAME, FAST, SLOW, AMBG (not enough evidence) or ???? (unusable data).
#[derive(Debug, Parser)]
#[command(
    name = "nvbench-compare",
    version,
    override_usage = "nvbench-compare [OPTIONS] reference.json compare.json\n       nvbench-compare [OPTIONS] reference_dir/ compare_dir/",
    infer_long_args = true
)]
pub struct Cli {
    /// Reference and compare JSON files, or two directories
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,

    /// Ignore differences in the device sections and compare anyway
    #[arg(long)]
    pub ignore_devices: bool,

    /// Only show rows whose |fractional diff| is >= THRESHOLD (0.05 means 5%)
    #[arg(long = "threshold-diff", value_name = "THRESHOLD", default_value = "0.0",
          value_parser = parse_threshold, allow_negative_numbers = true)]
    pub threshold: f64,

    /// Comparison threshold preset
    #[arg(long, value_enum)]
    pub preset: Option<PresetArg>,

    /// Comparison threshold TOML config
    #[arg(long, value_name = "FILE")]
    pub config: Option<String>,

    /// Print the effective comparison threshold config and exit
    #[arg(long)]
    pub dump_config: bool,

    /// Comparison table display mode
    #[arg(long, value_enum, default_value = "intervals")]
    pub display: DisplayArg,

    /// Write Python code describing the bulk sample/frequency files of each
    /// displayed row ('stdout' prints it)
    #[arg(long, value_name = "PATH")]
    pub bulk_debug_python: Option<String>,

    /// Plot timings along a positive numeric axis
    #[arg(long, value_name = "AXIS")]
    pub plot_along: Option<String>,

    /// Plot the comparison summary
    #[arg(long)]
    pub plot: bool,

    /// Use a dark theme for --plot
    #[arg(long)]
    pub dark: bool,

    /// Use emoji instead of ANSI color codes (also when NO_COLOR is set)
    #[arg(long)]
    pub no_color: bool,

    /// Reference devices: all, a non-negative integer id, or comma-separated ids
    #[arg(
        long,
        value_name = "IDS",
        default_value = "all",
        allow_hyphen_values = true
    )]
    pub reference_devices: String,

    /// Compare devices: all, a non-negative integer id, or comma-separated ids
    #[arg(
        long,
        value_name = "IDS",
        default_value = "all",
        allow_hyphen_values = true
    )]
    pub compare_devices: String,

    /// Filter on an axis value, e.g. -a 'Elements{io}[pow2]=20'; applies to the
    /// most recent --benchmark, or to all benchmarks before any --benchmark
    #[arg(short = 'a', long = "axis", value_name = "NAME=VALUE", action = clap::ArgAction::Append,
          allow_hyphen_values = true)]
    pub axis: Vec<String>,

    /// Filter by benchmark name (can repeat)
    #[arg(short = 'b', long = "benchmark", value_name = "NAME", action = clap::ArgAction::Append,
          allow_hyphen_values = true)]
    pub benchmark: Vec<String>,
}

/// What the command line asks for.
pub enum Command {
    DumpConfig(String),
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
    let matches = Cli::command().try_get_matches_from(args).map_err(|error| {
        let _ = error.print();
        error.exit_code()
    })?;
    let cli = Cli::from_arg_matches(&matches).map_err(|error| {
        let _ = error.print();
        error.exit_code()
    })?;
    let filters = ordered_filter_args(&matches);
    Ok((cli, filters))
}

/// Validates the options in the reference's order: config, --dump-config,
/// filters and devices, then the number of paths.
pub fn into_command(cli: Cli, filter_args: &[FilterArg]) -> Result<Command, Failure> {
    let (preset, thresholds) =
        crate::config::resolve(cli.preset.map(PresetArg::name), cli.config.as_deref())
            .map_err(Failure::Reported)?;
    if cli.dump_config {
        return Ok(Command::DumpConfig(crate::config::dump(
            &preset,
            &thresholds,
        )));
    }
    let filters = build_filter_plan(filter_args).map_err(Failure::Reported)?;
    let reference_devices = parse_device_filter(&cli.reference_devices, "--reference-devices")
        .map_err(Failure::Reported)?;
    let compare_devices = parse_device_filter(&cli.compare_devices, "--compare-devices")
        .map_err(Failure::Reported)?;
    let [reference, compare] = <[String; 2]>::try_from(cli.paths).map_err(|_| Failure::Usage)?;
    Ok(Command::Compare(Box::new(Settings {
        reference,
        compare,
        threshold: cli.threshold,
        display: match cli.display {
            DisplayArg::Intervals => DisplayMode::Intervals,
            DisplayArg::Legacy => DisplayMode::Legacy,
            DisplayArg::Explain => DisplayMode::Explain,
        },
        no_color: cli.no_color || no_color_from_env(),
        ignore_devices: cli.ignore_devices,
        filters,
        reference_devices,
        compare_devices,
        thresholds,
        bulk_debug: cli.bulk_debug_python,
        report_missing: false,
        keep_records: false,
    })))
}

/// The help text, printed when the number of paths is wrong.
pub fn write_help(out: &mut dyn Write) -> std::io::Result<()> {
    write!(out, "{}", Cli::command().render_help())
}
