//! Running the built binary: in a directory, in an environment of its own
//! (nothing of the caller's color, width or GitHub settings), with or
//! without a time and memory limit.

use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The nvbench-compare binary that cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_nvbench-compare");

/// Clears what the caller's environment could change in the output (color
/// and width settings, a GitHub step summary), reads nothing from stdin
/// and speaks UTF-8. For the binary and for shells that run it.
pub fn plain_env(command: &mut Command) -> &mut Command {
    for name in [
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "COLUMNS",
        "GITHUB_STEP_SUMMARY",
    ] {
        command.env_remove(name);
    }
    command.env("LC_ALL", "C.UTF-8").stdin(Stdio::null())
}

/// The binary, to run in `dir` in the plain environment.
pub fn command(dir: impl AsRef<Path>) -> Command {
    let mut command = Command::new(BIN);
    plain_env(&mut command).current_dir(dir);
    command
}

/// Runs the binary in `dir` with `args`; its exit status and output.
pub fn run<S: AsRef<OsStr>>(dir: impl AsRef<Path>, args: &[S]) -> Output {
    command(dir)
        .args(args)
        .output()
        .expect("cannot start nvbench-compare")
}

/// `setpriv`'s option that takes from root the capabilities that override
/// file permissions (for the program it starts).
pub const DROP_PERMISSION_OVERRIDES: &str = "--bounding-set=-dac_override,-dac_read_search,-fowner";

pub fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The binary, to run in `dir` in the plain environment with file
/// permissions enforced: as root, through `setpriv` without the overrides
/// (check `require(Need::Permissions)` first).
pub fn permissions_enforced(dir: impl AsRef<Path>) -> Command {
    if !running_as_root() {
        return command(dir);
    }
    let mut command = Command::new("setpriv");
    plain_env(&mut command)
        .current_dir(dir)
        .args([DROP_PERMISSION_OVERRIDES, BIN]);
    command
}

/// The stdout of a run as text (invalid UTF-8 replaced).
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The stderr of a run as text (invalid UTF-8 replaced).
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// How a run under [`Limited`] ended.
#[derive(Debug)]
pub struct Outcome {
    /// `None` when a signal ended the process (or it timed out).
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Outcome {
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Exited by itself with `code`, without a panic or a Rust abort.
    #[track_caller]
    pub fn assert_clean_exit(&self, code: i32) {
        assert!(!self.timed_out, "timed out; stderr:\n{}", self.stderr);
        assert!(
            !self.stderr.contains("panicked at") && !self.stderr.contains("memory allocation of"),
            "crashed; stderr:\n{}",
            self.stderr
        );
        assert_eq!(
            self.code,
            Some(code),
            "stdout:\n{}\nstderr:\n{}",
            self.stdout_text(),
            self.stderr
        );
    }
}

/// A run of the binary with a timeout (60 s unless set) and, if set, a
/// virtual-memory limit (`ulimit -v`), 80 columns wide.
pub struct Limited<'a> {
    args: Vec<String>,
    cwd: Option<&'a Path>,
    timeout: Duration,
    memory_limit_kb: Option<u64>,
}

/// A [`Limited`] run of the binary with `args`, in the current directory.
pub fn limited<S: AsRef<str>>(args: &[S]) -> Limited<'static> {
    Limited {
        args: args.iter().map(|a| a.as_ref().to_string()).collect(),
        cwd: None,
        timeout: Duration::from_secs(60),
        memory_limit_kb: None,
    }
}

impl<'a> Limited<'a> {
    pub fn cwd(self, cwd: &'a Path) -> Limited<'a> {
        Limited {
            cwd: Some(cwd),
            ..self
        }
    }

    pub fn timeout(self, seconds: u64) -> Limited<'a> {
        Limited {
            timeout: Duration::from_secs(seconds),
            ..self
        }
    }

    pub fn memory_limit_kb(self, kb: u64) -> Limited<'a> {
        Limited {
            memory_limit_kb: Some(kb),
            ..self
        }
    }

    pub fn go(self) -> Outcome {
        let mut command = match self.memory_limit_kb {
            // `exec` keeps the limit and makes the binary the child we wait for.
            Some(kb) => {
                let mut c = Command::new("bash");
                c.arg("-c")
                    .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
                    .arg(BIN);
                c
            }
            None => Command::new(BIN),
        };
        plain_env(&mut command)
            .args(&self.args)
            .env("COLUMNS", "80")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(cwd) = self.cwd {
            command.current_dir(cwd);
        }
        let mut child = command.spawn().expect("cannot start nvbench-compare");
        let mut stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let out_reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stdout.read_to_end(&mut bytes);
            bytes
        });
        let err_reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stderr.read_to_end(&mut bytes);
            bytes
        });
        let start = Instant::now();
        let (status, timed_out) = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break (Some(status), false);
            }
            if start.elapsed() > self.timeout {
                let _ = child.kill();
                let _ = child.wait();
                break (None, true);
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Outcome {
            code: status.and_then(|s| s.code()),
            timed_out,
            stdout: out_reader.join().unwrap(),
            stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        }
    }
}
