//! The help the robust command's script prints (argparse's, at the
//! terminal's width) when it is not given exactly two paths. Only the help
//! is taken from argparse here: the command line itself is parsed by this
//! tool's own parser, as for `nvbench-compare`.

use crate::cli::argparse::{Kind, Opt, Spec};

const fn flag(strings: &'static [&'static str], dest: &'static str, help: &'static str) -> Opt {
    Opt {
        strings,
        dest,
        kind: Kind::Flag,
        help,
    }
}

const fn value(strings: &'static [&'static str], dest: &'static str, help: &'static str) -> Opt {
    Opt {
        strings,
        dest,
        kind: Kind::Value { float: false },
        help,
    }
}

const fn choice(
    strings: &'static [&'static str],
    dest: &'static str,
    choices: &'static [&'static str],
    help: &'static str,
) -> Opt {
    Opt {
        strings,
        dest,
        kind: Kind::Choice(choices),
        help,
    }
}

/// The script's parser, in its order; `-a` and `-b` share one destination.
pub const SPEC: Spec = Spec {
    prog: "nvbench_compare_robust.py",
    usage: "nvbench_compare_robust.py [reference.json compare.json | reference_dir/ compare_dir/]",
    positionals: &["files_or_dirs"],
    options: &[
        Opt {
            strings: &["-h", "--help"],
            dest: "help",
            kind: Kind::Help,
            help: "show this help message and exit",
        },
        flag(
            &["--ignore-devices"],
            "ignore_devices",
            "Ignore differences in the device sections and compare anyway",
        ),
        Opt {
            strings: &["--threshold-diff"],
            dest: "threshold",
            kind: Kind::Value { float: true },
            help: "only show rows where abs(%Diff) is >= THRESHOLD percent",
        },
        choice(
            &["--preset"],
            "preset",
            &["default", "permissive", "strict"],
            "comparison threshold preset",
        ),
        value(&["--config"], "config", "comparison threshold TOML config"),
        flag(
            &["--dump-config"],
            "dump_config",
            "print the effective comparison threshold config and exit",
        ),
        choice(
            &["--display"],
            "display",
            &["simple", "intervals", "explain"],
            "comparison table display mode",
        ),
        value(
            &["--bulk-debug-python"],
            "bulk_debug_python",
            "Write Python code that describes bulk sample/frequency files for each displayed row. Use 'stdout' to print the code to stdout.",
        ),
        value(&["--plot-along"], "plot_along", "plot results"),
        flag(&["--plot"], "plot", "plot comparison summary"),
        value(
            &["--plot-output"],
            "plot_output",
            "save --plot output to this path instead of showing it interactively",
        ),
        value(
            &["--plot-along-output"],
            "plot_along_output",
            "save --plot-along output to this path or filename template instead of showing it interactively",
        ),
        flag(
            &["--dark"],
            "dark",
            "Use dark theme (black background, white text)",
        ),
        flag(
            &["--no-color"],
            "no_color",
            "Use emoji instead of ANSI color codes (useful for GitHub issues/PRs)",
        ),
        value(
            &["--reference-devices"],
            "reference_devices",
            "Reference devices to compare: all, a non-negative integer id, or comma-separated ids",
        ),
        value(
            &["--compare-devices"],
            "compare_devices",
            "Compare devices to compare: all, a non-negative integer id, or comma-separated ids",
        ),
        Opt {
            strings: &["-a", "--axis"],
            dest: "filter_actions",
            kind: Kind::Append,
            help: "Filter on axis value, e.g. -a 'Elements{io}[pow2]=20'. Applies to the most recent --benchmark, or all benchmarks if specified before any --benchmark arguments.",
        },
        Opt {
            strings: &["-b", "--benchmark"],
            dest: "filter_actions",
            kind: Kind::Append,
            help: "Filter by benchmark name (can repeat)",
        },
    ],
};

/// `parser.print_help()` at the terminal's width.
pub fn help_text() -> String {
    SPEC.help_text(crate::cli::argparse::terminal_columns())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positionals_and_choices_are_shown_as_argparse_shows_them() {
        let help = SPEC.help_text(80);
        assert!(help.starts_with(
            "usage: nvbench_compare_robust.py [reference.json compare.json | reference_dir/ compare_dir/]\n\npositional arguments:\n  files_or_dirs\n\noptions:\n"
        ));
        assert!(help.contains("\n  --preset {default,permissive,strict}\n                        comparison threshold preset\n"));
        assert!(help.contains("\n  -a FILTER_ACTIONS, --axis FILTER_ACTIONS\n"));
    }
}
