//! The command line of `nvbench-compare-legacy`, as NVBench's classic
//! `nvbench_compare.py` declares it: argparse's `parse_known_args`, so
//! every argument it does not know (unknown options included) is one of
//! the files or directories, and `nvbench_compare` as the program's name
//! in the usage, the help and the errors, whatever argv[0] is.

use std::ffi::OsString;
use std::io::Write;

use crate::cli::argparse::{Kind, Opt, Outcome, Spec};
use crate::settings::LegacySettings;

pub const SPEC: Spec = Spec {
    prog: "nvbench_compare",
    usage: "nvbench_compare [reference.json compare.json | reference_dir/ compare_dir/]",
    positionals: &[],
    options: &[
        Opt {
            strings: &["-h", "--help"],
            dest: "help",
            kind: Kind::Help,
            help: "show this help message and exit",
        },
        Opt {
            strings: &["--ignore-devices"],
            dest: "ignore_devices",
            kind: Kind::Flag,
            help: "Ignore differences in the device sections and compare anyway",
        },
        Opt {
            strings: &["--threshold-diff"],
            dest: "threshold",
            kind: Kind::Value { float: true },
            help: "only show benchmarks where percentage diff is >= THRESHOLD",
        },
        Opt {
            strings: &["--plot-along"],
            dest: "plot_along",
            kind: Kind::Value { float: false },
            help: "plot results",
        },
        Opt {
            strings: &["--plot"],
            dest: "plot",
            kind: Kind::Flag,
            help: "plot comparison summary",
        },
        Opt {
            strings: &["--dark"],
            dest: "dark",
            kind: Kind::Flag,
            help: "Use dark theme (black background, white text)",
        },
        Opt {
            strings: &["--no-color"],
            dest: "no_color",
            kind: Kind::Flag,
            help: "Use emoji instead of ANSI color codes (useful for GitHub issues/PRs)",
        },
        Opt {
            strings: &["-a", "--axis"],
            dest: "axis",
            kind: Kind::Append,
            help: "Filter on axis value, e.g. -a Elements{io}=2^20 (can repeat)",
        },
        Opt {
            strings: &["-b", "--benchmark"],
            dest: "benchmark",
            kind: Kind::Append,
            help: "Filter by benchmark name (can repeat)",
        },
    ],
};

/// Parses `args` (argv[0] first). `Err` is the exit status once argparse's
/// help (stdout) or error (stderr) is printed.
pub fn parse(args: Vec<OsString>) -> Result<LegacySettings, u8> {
    let args: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| crate::text::path_text::to_text(a))
        .collect();
    let help = || SPEC.help_text(crate::cli::argparse::terminal_columns());
    match SPEC.parse_known(&args) {
        Outcome::Help => match std::io::stdout().lock().write_all(help().as_bytes()) {
            Ok(()) => Err(0),
            Err(e) => {
                crate::messages::error(format_args!("cannot write to stdout: {e}"));
                Err(1)
            }
        },
        Outcome::Error(message) => {
            crate::messages::verbatim(&SPEC.error_text(&message));
            Err(2)
        }
        Outcome::Parsed(known) => Ok(LegacySettings {
            paths: known.extras.clone(),
            ignore_devices: known.flag(&SPEC, "ignore_devices"),
            threshold: known.float(&SPEC, "threshold").unwrap_or(0.0),
            plot_along: known.last(&SPEC, "plot_along").map(str::to_string),
            plot: known.flag(&SPEC, "plot"),
            dark: known.flag(&SPEC, "dark"),
            no_color: known.flag(&SPEC, "no_color"),
            axis: known.all(&SPEC, "axis").to_vec(),
            benchmark: known.all(&SPEC, "benchmark").to_vec(),
            help: help(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Outcome {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        SPEC.parse_known(&args)
    }

    fn extras(args: &[&str]) -> Vec<String> {
        match parsed(args) {
            Outcome::Parsed(known) => known.extras,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    fn error(args: &[&str]) -> String {
        match parsed(args) {
            Outcome::Error(message) => message,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    // Every expectation below is what Python 3.11's argparse gives for
    // the script's parser.
    #[test]
    fn unknown_arguments_stay_in_order() {
        assert_eq!(extras(&["--", "-a", "x"]), ["--", "-a", "x"]);
        assert_eq!(extras(&["a", "--", "b", "--"]), ["a", "--", "b", "--"]);
        assert_eq!(extras(&["--foo=bar", "-5", "a"]), ["--foo=bar", "-5", "a"]);
        assert_eq!(extras(&["-x", "y"]), ["-x", "y"]);
        assert_eq!(extras(&["---x"]), ["---x"]);
        assert_eq!(extras(&["-a", "x", "--"]), ["--"]);
        assert_eq!(extras(&["--thr", "1e3", "a", "b"]), ["a", "b"]);
    }

    #[test]
    fn values_abbreviations_and_clusters() {
        let Outcome::Parsed(known) = parsed(&[
            "-aT=F32",
            "-a=T",
            "--ax=U=1",
            "--axis=",
            "-bx",
            "-a",
            "-1",
            "-a",
            "-x y",
            "--no",
            "--d",
            "--threshold-diff",
            "-5",
        ]) else {
            panic!()
        };
        assert_eq!(
            known.all(&SPEC, "axis"),
            ["T=F32", "T", "U=1", "", "-1", "-x y"]
        );
        assert_eq!(known.all(&SPEC, "benchmark"), ["x"]);
        assert!(known.flag(&SPEC, "no_color") && known.flag(&SPEC, "dark"));
        assert!(!known.flag(&SPEC, "plot"));
        assert_eq!(known.float(&SPEC, "threshold"), Some(-5.0));
        assert!(known.extras.is_empty());
    }

    #[test]
    fn errors_as_argparse_words_them() {
        assert_eq!(
            error(&["-a", "--", "x"]),
            "argument -a/--axis: expected one argument"
        );
        assert_eq!(
            error(&["--threshold-diff", "--foo"]),
            "argument --threshold-diff: expected one argument"
        );
        assert_eq!(
            error(&["--p", "a"]),
            "ambiguous option: --p could match --plot-along, --plot"
        );
        assert_eq!(
            error(&["--plot=1"]),
            "argument --plot: ignored explicit argument '1'"
        );
        assert_eq!(
            error(&["-hx"]),
            "argument -h/--help: ignored explicit argument 'x'"
        );
        assert_eq!(
            error(&["--threshold-diff", "x"]),
            "argument --threshold-diff: invalid float value: 'x'"
        );
        assert_eq!(parsed(&["a", "-h", "--threshold-diff", "x"]), Outcome::Help);
    }

    #[test]
    fn the_help_at_80_columns() {
        let help = SPEC.help_text(80);
        assert!(help.starts_with(
            "usage: nvbench_compare [reference.json compare.json | reference_dir/ compare_dir/]\n\noptions:\n  -h, --help            show this help message and exit\n"
        ));
        assert!(help.contains(
            "  --threshold-diff THRESHOLD\n                        only show benchmarks where percentage diff is >=\n                        THRESHOLD\n"
        ));
        assert!(help.ends_with("  -b BENCHMARK, --benchmark BENCHMARK\n                        Filter by benchmark name (can repeat)\n"));
    }

    #[test]
    fn the_help_at_30_columns() {
        let help = SPEC.help_text(30);
        assert!(help.contains("  -a AXIS, --axis AXIS\n        Filter on axis\n        value, e.g. -a\n        Elements{io}=2^20\n        (can repeat)\n"));
    }
}
