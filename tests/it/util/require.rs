//! What a test needs from outside the project (python3 and its modules,
//! `../shared`, a few tools), and what it does when that is missing: it
//! says so where `cargo test` shows it and is skipped, or, when
//! `NVBC_REQUIRE` names the need, it fails.
//!
//! `NVBC_REQUIRE` is a comma-separated list of the names of [`Need`]:
//! `python3`, `numpy`, `tabulate` (all three: `python`), `shared`,
//! `strace`, `zsh`, `man`, `permissions`, `actionlint`, `shellcheck`,
//! `curl`. `.ci/run` sets
//! `python,shared,permissions,actionlint,shellcheck,curl`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Something a test needs that the project does not ship.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Need {
    Python3,
    /// python3 with numpy.
    Numpy,
    /// python3 with python-tabulate 0.10.0, the reference's version.
    Tabulate,
    /// The shared directory beside the checkout ([`shared_dir`]).
    Shared,
    Strace,
    Zsh,
    Man,
    /// File permissions that hold for the binary: the tests do not run as
    /// root, or `setpriv` can take root's override of them away
    /// ([`crate::util::permissions_enforced`]).
    Permissions,
    /// actionlint, the GitHub workflows' checker ([`tool`] finds it).
    Actionlint,
    /// shellcheck ([`tool`] finds it).
    Shellcheck,
    /// curl, which the action's script downloads releases with.
    Curl,
}

/// Every need, for the names `NVBC_REQUIRE` may list.
const NEEDS: [Need; 11] = [
    Need::Python3,
    Need::Numpy,
    Need::Tabulate,
    Need::Shared,
    Need::Strace,
    Need::Zsh,
    Need::Man,
    Need::Permissions,
    Need::Actionlint,
    Need::Shellcheck,
    Need::Curl,
];

impl Need {
    fn name(self) -> &'static str {
        match self {
            Need::Python3 => "python3",
            Need::Numpy => "numpy",
            Need::Tabulate => "tabulate",
            Need::Shared => "shared",
            Need::Strace => "strace",
            Need::Zsh => "zsh",
            Need::Man => "man",
            Need::Permissions => "permissions",
            Need::Actionlint => "actionlint",
            Need::Shellcheck => "shellcheck",
            Need::Curl => "curl",
        }
    }

    /// The `NVBC_REQUIRE` names that require it.
    fn required_by(self, name: &str) -> bool {
        let python = matches!(self, Need::Python3 | Need::Numpy | Need::Tabulate);
        name == self.name() || (python && name == "python")
    }

    /// `Err` says what is missing.
    fn check(self) -> Result<(), String> {
        match self {
            Need::Python3 => python("pass", "python3 is not installed"),
            Need::Numpy => {
                Need::Python3.check()?;
                python("import numpy", "python3 has no numpy")
            }
            Need::Tabulate => {
                Need::Python3.check()?;
                python(
                    "import tabulate; assert tabulate.__version__ == '0.10.0'",
                    "python3 has no python-tabulate 0.10.0",
                )
            }
            Need::Shared => {
                let dir = shared_dir();
                if dir.is_dir() {
                    Ok(())
                } else {
                    Err(format!(
                        "the shared directory {} does not exist",
                        dir.display()
                    ))
                }
            }
            Need::Strace => runs("strace", &["-V"]),
            Need::Zsh => runs("zsh", &["--version"]),
            Need::Man => runs("man", &["--version"]),
            Need::Permissions => match super::run::running_as_root() {
                false => Ok(()),
                true => runs("setpriv", &[super::run::DROP_PERMISSION_OVERRIDES, "true"])
                    .map_err(|e| format!("running as root, and {e}")),
            },
            Need::Actionlint => found_tool("actionlint", "-version"),
            Need::Shellcheck => found_tool("shellcheck", "--version"),
            Need::Curl => runs("curl", &["--version"]),
        }
    }
}

/// `name` runs with `version_flag`, found by [`tool`].
fn found_tool(name: &str, version_flag: &str) -> Result<(), String> {
    let Some(path) = tool(name) else {
        return Err(format!(
            "{name} is neither in PATH nor in python3's scripts directory"
        ));
    };
    runs(path.to_str().unwrap_or(name), &[version_flag])
}

/// Where the command `name` is: in `PATH`, or else in python3's scripts
/// directory, where `.ci/run`'s `python3 -m pip install` puts the
/// commands of a wheel (a shim manager's `PATH` may not list them yet).
pub fn tool(name: &str) -> Option<PathBuf> {
    let in_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    let scripts = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('scripts'))",
        ])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()));
    in_path
        .into_iter()
        .chain(scripts)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn python(code: &str, missing: &str) -> Result<(), String> {
    match runs("python3", &["-c", code]) {
        Ok(()) => Ok(()),
        Err(_) => Err(missing.to_string()),
    }
}

/// `program` with `args` starts and exits 0.
fn runs(program: &str, args: &[&str]) -> Result<(), String> {
    let status = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("`{program} {}` failed ({status})", args.join(" "))),
        Err(e) => Err(format!("{program} cannot be run: {e}")),
    }
}

/// `true` when `need` is there. Otherwise the test that asks is skipped:
/// `false` and a `SKIPPED` line on stderr; or, when `NVBC_REQUIRE` names
/// the need, the test fails saying what is missing.
#[track_caller]
pub fn require(need: Need) -> bool {
    let listed = std::env::var("NVBC_REQUIRE").unwrap_or_default();
    let names: Vec<&str> = listed
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    for name in &names {
        assert!(
            NEEDS.iter().any(|n| n.required_by(name)),
            "NVBC_REQUIRE={listed}: unknown name {name:?} (known: python, {})",
            NEEDS.map(Need::name).join(", ")
        );
    }
    let Err(missing) = need.check() else {
        return true;
    };
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    assert!(
        !names.iter().any(|n| need.required_by(n)),
        "{test}: {missing}, and NVBC_REQUIRE={listed} requires {}",
        need.name()
    );
    announce(&format!(
        "SKIPPED what needs {0} in {test}: {missing} (NVBC_REQUIRE={0} makes this a failure)",
        need.name()
    ));
    false
}

/// Writes `line` where `cargo test` shows it even when it captures the
/// test's output: libtest captures `print!` and `eprint!`, not writes to
/// the process's stderr handle.
pub fn announce(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The shared directory beside the checkout (`../shared`), where CI puts
/// the shared corpora and foreign data; `NVBENCH_COMPARE_SHARED` names
/// another.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("NVBENCH_COMPARE_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}
