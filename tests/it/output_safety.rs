//! What the output owner guarantees, on the built binary: no output
//! replaces an input (the config file included) or another output (chart
//! names chosen during the run included), stdout carries one document
//! whatever name it goes by, write errors on stdout fail the run, a file
//! size limit is an error that leaves the destination as it was, and a file
//! that cannot be replaced atomically is written in place with a warning.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::util::{
    BIN, Doc, Need, Scratch, Times, permissions_enforced, plain_env, require, run, stderr, stdout,
};

/// A pair `r.json`, `c.json` of one benchmark `x` (axis N = 1, 2) in `dir`.
fn pair(dir: &Path) {
    let times = |seconds: f64| {
        Times::around(seconds, [0.998, 0.999, 1.002])
            .iqr(0.003)
            .clock(1.5e9)
    };
    let write = |name: &str, factor: f64| {
        let doc = Doc::n_sweep("GPU", "x", &[(1, 1e-3 * factor), (2, 2e-3 * factor)], times);
        std::fs::write(dir.join(name), doc.text()).unwrap();
    };
    write("r.json", 1.0);
    write("c.json", 1.2);
}

fn scratch(name: &str) -> Scratch {
    let dir = Scratch::new(&format!("output-safety-{name}"));
    pair(&dir);
    dir
}

/// Runs `sh -c script` in `dir` with `$BIN` set; its output.
fn shell(dir: &Path, script: &str) -> Output {
    let mut command = Command::new("sh");
    plain_env(&mut command)
        .current_dir(dir)
        .env("BIN", BIN)
        .args(["-c", script])
        .output()
        .unwrap()
}

#[test]
fn the_config_file_is_an_input_for_every_document() {
    let dir = scratch("config");
    std::fs::write(dir.join("cfg.toml"), "version = 1\n").unwrap();
    std::os::unix::fs::symlink("cfg.toml", dir.join("link.toml")).unwrap();
    for option in ["--json", "--markdown-summary", "--bulk-debug-python"] {
        for output in ["cfg.toml", "link.toml", "./cfg.toml"] {
            let args = ["--config", "cfg.toml", option, output, "r.json", "c.json"];
            let out = run(&dir, &args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains("would overwrite the config file cfg.toml"),
                "{}",
                stderr(&out)
            );
            assert_eq!(
                std::fs::read_to_string(dir.join("cfg.toml")).unwrap(),
                "version = 1\n"
            );
        }
    }
}

#[test]
fn a_templated_chart_name_may_not_replace_another_output() {
    let dir = scratch("chart-template");
    let args = [
        "--json",
        "x.svg",
        "--plot-along",
        "N",
        "--plot-along-output",
        "{benchmark}.svg",
        "r.json",
        "c.json",
    ];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--plot-along-output x.svg and --json x.svg name the same file"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("Saved"), "{}", stderr(&out));
    // The name of an input is refused as well (any name can be an input).
    let args = [
        "--plot-along",
        "N",
        "--plot-along-output",
        "{benchmark}.svg",
    ];
    std::fs::copy(dir.join("r.json"), dir.join("x.svg")).unwrap();
    let out = run(&dir, &[&args[..], &["x.svg", "c.json"]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("would overwrite the input file x.svg"));
    let input = std::fs::read_to_string(dir.join("x.svg")).unwrap();
    assert!(input.starts_with('{'), "the input was replaced");
}

#[test]
fn dev_null_is_no_file_two_outputs_could_share() {
    let dir = scratch("dev-null");
    let args = ["--json", "/dev/null", "--markdown-summary", "/dev/null"];
    let out = run(&dir, &[&args[..], &["r.json", "c.json"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("# x"), "{}", stdout(&out));
}

#[test]
fn stdout_carries_one_document_whatever_its_name() {
    let dir = scratch("one-stdout");
    for (option, name) in [
        ("--markdown-summary", "/dev/stdout"),
        ("--markdown-summary", "/proc/self/fd/1"),
        ("--markdown-summary", "/dev/fd/1"),
        ("--bulk-debug-python", "/dev/stdout"),
    ] {
        // Stdout a file, as in `> report.json`.
        let script = format!("\"$BIN\" --json - {option} {name} r.json c.json > report.json");
        let out = shell(&dir, &script);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{option} {name}: {}",
            stderr(&out)
        );
        let message = format!("--json - and {option} {name} cannot both write to stdout");
        assert!(stderr(&out).contains(&message), "{}", stderr(&out));
        // A pipe.
        let script = format!("\"$BIN\" --json - {option} {name} r.json c.json | cat > piped.json");
        let out = shell(&dir, &script);
        assert!(stderr(&out).contains(&message), "{}", stderr(&out));
    }
    // Another file is another document's own.
    let script = "\"$BIN\" --json - --markdown-summary summary.md r.json c.json > report.json";
    let out = shell(&dir, script);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = std::fs::read_to_string(dir.join("report.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&report).expect("stdout holds the JSON alone");
}

#[test]
fn a_write_error_on_stdout_fails_the_run() {
    if !Path::new("/dev/full").exists() {
        panic!("/dev/full is missing: the test needs it");
    }
    let dir = scratch("dev-full");
    for args in [
        "--json - r.json c.json",
        "r.json c.json",
        "--markdown-summary - r.json c.json",
        "--bulk-debug-python stdout r.json c.json",
        "--dump-config",
        "--generate-man",
        "--generate-completions bash",
        "--help",
    ] {
        let out = shell(&dir, &format!("\"$BIN\" {args} > /dev/full"));
        assert_eq!(out.status.code(), Some(1), "{args}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot write to stdout: No space left on device"),
            "{args}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_closed_pipe_is_no_error() {
    let dir = scratch("closed-pipe");
    let mut child = Command::new(BIN)
        .args(["--display", "explain", "r.json", "c.json"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_file_size_limit_is_an_error_that_keeps_the_destination() {
    let dir = scratch("ulimit");
    std::fs::write(dir.join("report.json"), "earlier\n").unwrap();
    // One block: the inputs can be read, the report (a few kB) not written.
    let out = shell(
        &dir,
        "ulimit -f 1 && exec \"$BIN\" --json report.json r.json c.json 2>err.txt >/dev/null",
    );
    let err = std::fs::read_to_string(dir.join("err.txt")).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write report.json: File too large"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("report.json")).unwrap(),
        "earlier\n"
    );
    let left: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// A writable output in a directory where no file can be created cannot be
/// replaced by a rename: it is written in place, every kind of output,
/// each with a warning that says the write was not atomic. As root the
/// binary runs without the capabilities that override permissions.
#[test]
fn a_writable_file_in_a_read_only_directory_is_written_in_place_with_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    if !require(Need::Permissions) {
        return;
    }
    let dir = scratch("read-only-dir");
    let locked = dir.join("locked");
    let outputs = ["report.json", "summary.md", "rows.py", "chart.svg"];
    std::fs::create_dir(&locked).unwrap();
    for name in outputs {
        std::fs::write(locked.join(name), "earlier\n").unwrap();
        // Writable by whoever runs the binary, root without its overrides too.
        std::fs::set_permissions(locked.join(name), std::fs::Permissions::from_mode(0o666))
            .unwrap();
    }
    let set_mode = |mode| std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(mode));
    set_mode(0o555).unwrap();
    let out = permissions_enforced(&dir)
        .args(["--json", "locked/report.json"])
        .args(["--markdown-summary", "locked/summary.md"])
        .args(["--bulk-debug-python", "locked/rows.py"])
        .args(["--plot", "--plot-output", "locked/chart.svg"])
        .args(["r.json", "c.json"])
        .output()
        .unwrap();
    set_mode(0o755).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for name in outputs {
        let text = std::fs::read_to_string(locked.join(name)).unwrap();
        assert!(
            text.len() > 100 && !text.contains("earlier"),
            "{name}: {text}"
        );
        let warning = format!(
            "nvbench-compare: warning: locked/{name} was written in place, not atomically: no temporary file can be created beside it ([Errno 13] Permission denied)"
        );
        assert!(stderr(&out).contains(&warning), "{name}: {}", stderr(&out));
    }
    assert_eq!(crate::util::entries(&locked).len(), outputs.len());
}
