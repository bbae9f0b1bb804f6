//! Picks the personality from how the binary was started, before any option
//! is parsed (each personality parses the rest as its script does):
//!
//! 1. `--personality=NAME` or `--personality NAME` as the very first
//!    argument (for those who cannot rename or link the binary); only
//!    there, so that it never collides with the scripts' own options;
//! 2. the interpreter form: a first argument whose file name is exactly
//!    `nvbench_compare_robust.py` or `nvbench_compare.py` (the path need not
//!    exist), as in `python3 path/to/nvbench_compare.py a.json b.json`;
//! 3. the file name of argv[0]: `nvbench-compare-robust`,
//!    `nvbench-compare-legacy`;
//! 4. otherwise the binary's own personality.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use crate::personality::Personality;

/// The personality chosen and the command line it parses: argv[0] then the
/// arguments left once the choice was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    pub personality: Personality,
    pub args: Vec<OsString>,
}

const OPTION: &str = "--personality";

/// The choice for `args` (argv[0] first) of a binary whose own
/// personality is `own`. `Err` is a usage error's message.
pub fn select(args: Vec<OsString>, own: Personality) -> Result<Invocation, String> {
    let mut args = args.into_iter();
    let program = args
        .next()
        .unwrap_or_else(|| OsString::from(own.profile().command));
    let mut rest: Vec<OsString> = args.collect();
    let chosen = match rest.first().map(|first| first.to_str()) {
        Some(Some(first)) if first == OPTION || first.starts_with("--personality=") => {
            let (name, taken) = match first.strip_prefix("--personality=") {
                Some(name) => (Some(name.to_string()), 1),
                None => (rest.get(1).map(|n| n.to_string_lossy().into_owned()), 2),
            };
            let name = name.ok_or_else(|| format!("{OPTION} needs a value: {}", names()))?;
            let personality = Personality::from_name(&name).ok_or_else(|| {
                format!(
                    "{OPTION}: unknown personality {}: {}",
                    crate::text::printable::printable(&name),
                    names()
                )
            })?;
            rest.drain(..taken);
            personality
        }
        Some(_) => match rest.first().and_then(|first| script_personality(first)) {
            Some(personality) => {
                rest.remove(0);
                personality
            }
            None => command_personality(&program).unwrap_or(own),
        },
        None => command_personality(&program).unwrap_or(own),
    };
    let mut args = vec![program];
    args.extend(rest);
    Ok(Invocation {
        personality: chosen,
        args,
    })
}

fn names() -> String {
    let names: Vec<&str> = Personality::ALL.iter().map(|p| p.profile().name).collect();
    format!("one of {}", names.join(", "))
}

fn file_name(path: &OsStr) -> Option<&str> {
    Path::new(path).file_name()?.to_str()
}

fn script_personality(first: &OsStr) -> Option<Personality> {
    Personality::from_script(file_name(first)?)
}

fn command_personality(program: &OsStr) -> Option<Personality> {
    Personality::from_command(file_name(program)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(args: &[&str]) -> (Personality, Vec<String>) {
        let args = args.iter().map(OsString::from).collect();
        let invocation = select(args, Personality::Compare).unwrap();
        let args = invocation
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        (invocation.personality, args)
    }

    #[test]
    fn by_the_program_name() {
        assert_eq!(
            chosen(&["/usr/bin/nvbench-compare-robust", "a", "b"]),
            (
                Personality::Robust,
                vec![
                    "/usr/bin/nvbench-compare-robust".into(),
                    "a".into(),
                    "b".into()
                ]
            )
        );
        assert_eq!(
            chosen(&["nvbench-compare-legacy", "a"]).0,
            Personality::Legacy
        );
        assert_eq!(chosen(&["nvbench-compare", "a"]).0, Personality::Compare);
        assert_eq!(chosen(&["my-compare", "a"]).0, Personality::Compare);
        // A name that only contains a command's name is another name.
        assert_eq!(
            chosen(&["nvbench-compare-legacy.old", "a"]).0,
            Personality::Compare
        );
        let own = select(vec!["renamed".into()], Personality::Legacy).unwrap();
        assert_eq!(own.personality, Personality::Legacy);
    }

    #[test]
    fn by_the_interpreter_form() {
        assert_eq!(
            chosen(&["nvbench-compare", "scripts/nvbench_compare.py", "a", "b"]),
            (
                Personality::Legacy,
                vec!["nvbench-compare".into(), "a".into(), "b".into()]
            )
        );
        assert_eq!(
            chosen(&["x", "/no/such/dir/nvbench_compare_robust.py"]).0,
            Personality::Robust
        );
        // Before the program name's choice.
        assert_eq!(
            chosen(&["nvbench-compare-robust", "nvbench_compare.py", "a"]).0,
            Personality::Legacy
        );
    }

    #[test]
    fn another_script_is_an_ordinary_argument() {
        for script in [
            "nvbench_histogram.py",
            "nvbench_compare.py.bak",
            "my_nvbench_compare.py",
            "NVBENCH_COMPARE.PY",
        ] {
            assert_eq!(
                chosen(&["nvbench-compare", script, "b"]),
                (
                    Personality::Compare,
                    vec!["nvbench-compare".into(), script.into(), "b".into()]
                )
            );
        }
        // Only the first argument is looked at.
        assert_eq!(
            chosen(&["nvbench-compare", "a", "nvbench_compare.py"]).0,
            Personality::Compare
        );
    }

    #[test]
    fn by_the_option_first() {
        assert_eq!(
            chosen(&["nvbench-compare", "--personality=legacy", "a", "b"]),
            (
                Personality::Legacy,
                vec!["nvbench-compare".into(), "a".into(), "b".into()]
            )
        );
        assert_eq!(
            chosen(&["nvbench-compare-legacy", "--personality", "compare", "a"]),
            (
                Personality::Compare,
                vec!["nvbench-compare-legacy".into(), "a".into()]
            )
        );
        // The option wins over the interpreter form, whose script is then a path.
        assert_eq!(
            chosen(&["x", "--personality=robust", "nvbench_compare.py"]),
            (
                Personality::Robust,
                vec!["x".into(), "nvbench_compare.py".into()]
            )
        );
        // Anywhere else it is the personality's own argument.
        assert_eq!(
            chosen(&["nvbench-compare", "a", "--personality=legacy"]),
            (
                Personality::Compare,
                vec![
                    "nvbench-compare".into(),
                    "a".into(),
                    "--personality=legacy".into()
                ]
            )
        );
    }

    #[test]
    fn a_bad_option_value_is_a_usage_error() {
        let bad = |args: &[&str]| {
            select(
                args.iter().map(OsString::from).collect(),
                Personality::Compare,
            )
        };
        assert!(
            bad(&["x", "--personality=fast"])
                .unwrap_err()
                .contains("unknown personality fast")
        );
        assert!(
            bad(&["x", "--personality"])
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(bad(&["x", "--personality="]).is_err());
    }
}
