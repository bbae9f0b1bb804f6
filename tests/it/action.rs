//! The composite GitHub Action's script (`.github/action/run.sh`, run by
//! action.yml), as a runner would run it: inputs in `INPUT_*`, a step
//! summary and an output file of its own, the binary built for these tests
//! (the `binary` input) or a release installed from a fake server
//! (`file://`, so nothing is downloaded).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::util::{BIN, Need, Scratch, copy_dir, project, require, root};

/// A run of the script: its runner files and what it was given.
struct Runner {
    dir: PathBuf,
    summary: PathBuf,
    output: PathBuf,
    path_file: PathBuf,
    inputs: Vec<(String, String)>,
    env: Vec<(String, String)>,
}

impl Runner {
    /// A runner in `dir`, whose step summary already holds an earlier
    /// step's text; the `binary` input is the tests' binary.
    fn new(dir: &Path) -> Runner {
        let summary = dir.join("step summary.md");
        std::fs::write(&summary, "# An earlier step\n\n").unwrap();
        let output = dir.join("github output");
        std::fs::write(&output, "").unwrap();
        let path_file = dir.join("github path");
        std::fs::write(&path_file, "").unwrap();
        std::fs::create_dir_all(dir.join("runner temp")).unwrap();
        Runner {
            dir: dir.to_path_buf(),
            summary,
            output,
            path_file,
            inputs: vec![("BINARY".into(), BIN.into())],
            env: Vec::new(),
        }
    }

    fn input(mut self, name: &str, value: &str) -> Runner {
        let name = name.to_uppercase().replace('-', "_");
        self.inputs.retain(|(n, _)| *n != name);
        self.inputs.push((name, value.to_string()));
        self
    }

    fn env(mut self, name: &str, value: &str) -> Runner {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    fn run(&self) -> Output {
        let mut command = Command::new("bash");
        command
            .arg(root().join(".github/action/run.sh"))
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        // Nothing of a real runner (when the tests run in GitHub's CI).
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy().into_owned();
            if ["GITHUB_", "RUNNER_", "INPUT_", "NVBC_ACTION"]
                .iter()
                .any(|prefix| name.starts_with(prefix))
            {
                command.env_remove(name);
            }
        }
        command
            .env("GITHUB_STEP_SUMMARY", &self.summary)
            .env("GITHUB_OUTPUT", &self.output)
            .env("GITHUB_PATH", &self.path_file)
            .env("RUNNER_TEMP", self.dir.join("runner temp"))
            .env_remove("NO_COLOR")
            .env("LC_ALL", "C.UTF-8");
        for (name, value) in &self.inputs {
            command.env(format!("INPUT_{name}"), value);
        }
        for (name, value) in &self.env {
            command.env(name, value);
        }
        command.output().unwrap()
    }

    /// The outputs the script set, read as the runner reads the delimiter
    /// form (`NAME<<DELIMITER`, the value's lines, `DELIMITER`).
    fn outputs(&self) -> BTreeMap<String, String> {
        let text = std::fs::read_to_string(&self.output).unwrap();
        let mut outputs = BTreeMap::new();
        let mut lines = text.split('\n');
        while let Some(line) = lines.next() {
            if line.is_empty() {
                continue;
            }
            let (name, delimiter) = line
                .split_once("<<")
                .unwrap_or_else(|| panic!("not the delimiter form: {line:?} in {text:?}"));
            let mut value = Vec::new();
            for line in lines.by_ref() {
                if line == delimiter {
                    break;
                }
                value.push(line);
            }
            outputs.insert(name.to_string(), value.join("\n"));
        }
        outputs
    }

    fn summary(&self) -> String {
        std::fs::read_to_string(&self.summary).unwrap()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn shown(output: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// The example files (and their sidecars) copied to `dir/name`.
fn examples_in(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    copy_dir(&project("testdata/examples"), &to);
    to
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_passing_gate_appends_the_summary_and_sets_the_outputs() {
    let scratch = Scratch::new("action-pass");
    let dir: &Path = scratch.as_ref();
    let base = examples_in(dir, "base results");
    examples_in(dir, "pr results");
    let runner = Runner::new(dir)
        .input(
            "baseline",
            &format!("{}\n", base.join("reference.json").display()),
        )
        // Relative to the workspace, with a blank line and a CR (a YAML
        // block written on Windows).
        .input("candidate", "\npr results/reference.json\r\n")
        .input("fail-on", "slow,missing");
    let output = runner.run();
    assert_eq!(output.status.code(), Some(0), "{}", shown(&output));
    let summary = runner.summary();
    assert!(
        summary.starts_with("# An earlier step\n\n## nvbench-compare\n"),
        "{summary}"
    );
    assert!(summary.contains("**Gate: passed**"), "{summary}");
    let outputs = runner.outputs();
    assert_eq!(outputs["verdict"], "passed");
    assert_eq!(outputs["exit-code"], "0");
    let report = json(&outputs["report"]);
    assert_eq!(report["gate"]["verdict"], "passed");
    assert_eq!(
        report["gate"]["fail_on"],
        serde_json::json!(["slow", "missing"])
    );
    assert!(report["summary"]["total"].as_u64().unwrap() > 0);
    let markdown = std::fs::read_to_string(&outputs["markdown"]).unwrap();
    assert!(summary.ends_with(&markdown));
    // The reports are in a directory of their own under RUNNER_TEMP.
    assert!(Path::new(&outputs["report"]).starts_with(dir.join("runner temp")));
    assert!(!text(&output.stdout).contains("::error"));
}

#[test]
fn a_failing_gate_exits_3_with_the_summary_and_the_outputs() {
    let scratch = Scratch::new("action-fail");
    let dir: &Path = scratch.as_ref();
    examples_in(dir, "examples");
    let runner = Runner::new(dir)
        .input("baseline", "examples/reference.json")
        .input("candidate", "examples/compare.json")
        .input("fail-on", "slow");
    let output = runner.run();
    assert_eq!(output.status.code(), Some(3), "{}", shown(&output));
    let summary = runner.summary();
    assert!(summary.starts_with("# An earlier step\n\n"));
    assert!(
        summary.contains("**Gate: failed** (`--fail-on slow`): 2 slow"),
        "{summary}"
    );
    let outputs = runner.outputs();
    assert_eq!(outputs["verdict"], "failed");
    assert_eq!(outputs["exit-code"], "3");
    assert_eq!(json(&outputs["report"])["gate"]["verdict"], "failed");
    assert!(text(&output.stderr).contains("gate failed: 2 slow (--fail-on slow)"));
    // The tables are printed between a stop-commands marker and its end,
    // so that no name in the inputs acts as a workflow command; then an
    // error annotation.
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let token = lines[0].strip_prefix("::stop-commands::").expect(&stdout);
    assert!(token.len() >= 32);
    let end = lines
        .iter()
        .position(|l| *l == format!("::{token}::"))
        .expect(&stdout);
    assert!(lines[1..end].iter().any(|l| l.contains("copy_type_sweep")));
    assert!(lines[end + 1].starts_with("::error title=nvbench-compare::gate failed"));
}

#[test]
fn not_gated_the_robust_personality_and_more_options() {
    let scratch = Scratch::new("action-robust");
    let dir: &Path = scratch.as_ref();
    examples_in(dir, "examples");
    let runner = Runner::new(dir)
        .input("baseline", "examples/reference.json")
        .input("candidate", "examples/compare.json")
        .input("fail-on", "none")
        .input("personality", "robust")
        .input("args", "--preset\nstrict\n");
    let output = runner.run();
    assert_eq!(output.status.code(), Some(0), "{}", shown(&output));
    assert!(text(&output.stdout).contains("Unchanged   (classified as SAME)"));
    let outputs = runner.outputs();
    assert_eq!(outputs["verdict"], "not gated");
    let report = json(&outputs["report"]);
    assert_eq!(report["gate"]["verdict"], "not gated");
    assert_eq!(report["thresholds"]["preset"], "strict");
    assert_eq!(
        report["thresholds"]["rules"],
        "nvbench_compare_robust.py@66212f1"
    );
    assert!(runner.summary().contains("**Gate: not gated**"));
}

#[test]
fn repetition_groups_and_several_candidates() {
    let scratch = Scratch::new("action-groups");
    let dir: &Path = scratch.as_ref();
    examples_in(dir, "runs");
    // Two runs a side: repetition mode.
    let runner = Runner::new(dir)
        .input("baseline", "runs/reference.json\nruns/compare-fix.json")
        .input("candidate", "runs/compare.json\nruns/compare-fix.json");
    let output = runner.run();
    assert_eq!(output.status.code(), Some(0), "{}", shown(&output));
    let report = json(&runner.outputs()["report"]);
    assert_eq!(report["schema_version"], 1);
    assert!(report["states"][0]["repetitions"].is_object());
    // A `--vs` line starts another candidate: N-way.
    let runner = Runner::new(dir)
        .input("baseline", "runs/reference.json")
        .input(
            "candidate",
            "runs/compare.json\n--vs\nruns/compare-fix.json",
        )
        .input("fail-on", "");
    let output = runner.run();
    assert_eq!(output.status.code(), Some(0), "{}", shown(&output));
    let outputs = runner.outputs();
    assert_eq!(outputs["verdict"], "not gated");
    let report = json(&outputs["report"]);
    assert_eq!(report["schema_version"], 2);
    assert_eq!(report["candidates"].as_array().unwrap().len(), 2);
}

#[test]
fn an_output_directory_with_a_newline_is_set_whole() {
    let scratch = Scratch::new("action-newline");
    let dir: &Path = scratch.as_ref();
    examples_in(dir, "examples");
    let out = dir.join("reports\nof the run");
    let runner = Runner::new(dir)
        .input("baseline", "examples/reference.json")
        .input("candidate", "examples/compare.json")
        .input("output-dir", out.to_str().unwrap());
    let output = runner.run();
    assert_eq!(output.status.code(), Some(3), "{}", shown(&output));
    let outputs = runner.outputs();
    assert_eq!(
        outputs["report"],
        out.join("nvbench-compare.json").to_str().unwrap()
    );
    assert!(Path::new(&outputs["report"]).is_file());
    assert_eq!(outputs["exit-code"], "3");
}

#[test]
fn invalid_inputs_are_refused_before_anything_runs() {
    let scratch = Scratch::new("action-invalid");
    let dir: &Path = scratch.as_ref();
    for (inputs, message) in [
        (
            vec![("personality", "legacy")],
            "personality: legacy is NVBench's classic script",
        ),
        (
            vec![("personality", "fastest")],
            "personality is compare or robust",
        ),
        (vec![("baseline", "\n \n")], "the baseline input is empty"),
        (vec![("candidate", "")], "the candidate input is empty"),
        (vec![("candidate", "b.json\n--vs")], "ends with a --vs line"),
        (vec![("candidate", "--vs\nb.json")], "an empty group"),
        (
            vec![("baseline", "--json")],
            "has an option, not a path: --json",
        ),
        (
            vec![("fail-on", "slow; rm -rf /")],
            "fail-on is a comma-separated list",
        ),
        (
            vec![("binary", "/nowhere/nvbench-compare")],
            "not an executable file",
        ),
        (
            vec![("binary", ""), ("version", "latest")],
            "version is a release",
        ),
    ] {
        let mut runner = Runner::new(dir)
            .input("baseline", "a.json")
            .input("candidate", "b.json");
        for (name, value) in inputs {
            runner = runner.input(name, value);
        }
        let output = runner.run();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{message}: {}",
            shown(&output)
        );
        assert!(
            text(&output.stderr).contains(message),
            "{message}: {}",
            shown(&output)
        );
        assert!(text(&output.stdout).starts_with("::error title=nvbench-compare::"));
        assert_eq!(std::fs::read_to_string(&runner.output).unwrap(), "");
    }
}

/// The release archive's target for this machine, as the script names it.
fn release_target() -> String {
    let arch = std::env::consts::ARCH;
    match std::env::consts::OS {
        "macos" => format!("{arch}-apple-darwin"),
        _ => format!("{arch}-unknown-linux-musl"),
    }
}

/// A release `version` of `owner/name` under `server`, as the release
/// workflow makes it: the archive of the three commands and SHA256SUMS.
/// Returns the archive's SHA-256.
fn fake_release(server: &Path, version: &str) -> String {
    let release = server.join(format!("owner/name/releases/download/v{version}"));
    let name = format!("nvbench-compare-v{version}-{}", release_target());
    let contents = release.join(&name);
    std::fs::create_dir_all(&contents).unwrap();
    for command in [
        "nvbench-compare",
        "nvbench-compare-robust",
        "nvbench-compare-legacy",
    ] {
        std::fs::copy(BIN, contents.join(command)).unwrap();
    }
    std::fs::copy(root().join("LICENSE"), contents.join("LICENSE")).unwrap();
    let script = format!(
        "tar -czf '{name}.tar.gz' '{name}' && rm -r '{name}' \
         && echo 0000000000000000000000000000000000000000000000000000000000000000 '  other.tar.gz' >SHA256SUMS \
         && (sha256sum '{name}.tar.gz' 2>/dev/null || shasum -a 256 '{name}.tar.gz') >>SHA256SUMS \
         && cut -d' ' -f1 <SHA256SUMS | tail -n 1"
    );
    let output = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(&release)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", shown(&output));
    text(&output.stdout).trim().to_string()
}

#[test]
fn a_release_is_installed_once_its_checksum_is_verified() {
    if !require(Need::Curl) {
        return;
    }
    let scratch = Scratch::new("action-release");
    let dir: &Path = scratch.as_ref();
    examples_in(dir, "examples");
    let server = dir.join("server");
    let sha256 = fake_release(&server, "9.8.7");
    let server_url = format!("file://{}", server.display());
    let tools = dir.join("tool cache");
    let release_runner = |version: &str| {
        Runner::new(dir)
            .input("binary", "")
            .input("version", version)
            .input("repository", "owner/name")
            .input("baseline", "examples/reference.json")
            .input("candidate", "examples/compare.json")
            .env("GITHUB_SERVER_URL", &server_url)
            .env("RUNNER_TOOL_CACHE", tools.to_str().unwrap())
    };

    // No such release: nothing is installed.
    let missing = release_runner("9.8.6").run();
    assert_eq!(missing.status.code(), Some(1), "{}", shown(&missing));
    assert!(text(&missing.stderr).contains("cannot download"));
    assert!(text(&missing.stderr).contains("is there a release v9.8.6 of owner/name?"));
    // A sha256 input that is not the archive's.
    let pinned = release_runner("v9.8.7")
        .input("sha256", &"f".repeat(64))
        .run();
    assert_eq!(pinned.status.code(), Some(1), "{}", shown(&pinned));
    assert!(text(&pinned.stderr).contains("the sha256 input says ffff"));
    assert!(!tools.exists());

    // The release, its checksum verified and pinned.
    let runner = release_runner("v9.8.7").input("sha256", &sha256);
    let output = runner.run();
    assert_eq!(output.status.code(), Some(3), "{}", shown(&output));
    assert!(text(&output.stderr).contains(&format!("SHA-256 verified: {sha256}")));
    let installed = tools.join(format!(
        "nvbench-compare/9.8.7/{0}/nvbench-compare-v9.8.7-{0}",
        release_target()
    ));
    assert!(installed.join("nvbench-compare").is_file());
    // The later steps of the job get the commands.
    let path_file = std::fs::read_to_string(&runner.path_file).unwrap();
    assert_eq!(path_file, format!("{}\n", installed.display()));
    assert_eq!(runner.outputs()["verdict"], "failed");

    // An archive that is not the one SHA256SUMS lists.
    let release = server.join("owner/name/releases/download/v9.8.7");
    let archive = release.join(format!(
        "nvbench-compare-v9.8.7-{}.tar.gz",
        release_target()
    ));
    let mut bytes = std::fs::read(&archive).unwrap();
    bytes.extend_from_slice(b"tampered");
    std::fs::write(&archive, bytes).unwrap();
    std::fs::remove_dir_all(&tools).unwrap();
    let tampered = release_runner("9.8.7").run();
    assert_eq!(tampered.status.code(), Some(1), "{}", shown(&tampered));
    assert!(
        text(&tampered.stderr).contains(&format!("SHA256SUMS says {sha256}")),
        "{}",
        shown(&tampered)
    );
    assert!(!installed.exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("github output")).unwrap(),
        ""
    );
}

/// The action's inputs are the script's: every `inputs.X` of action.yml
/// reaches the script as `INPUT_X`, and the script reads no other input.
#[test]
fn action_yml_passes_every_input_to_the_script() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let script = std::fs::read_to_string(root().join(".github/action/run.sh")).unwrap();
    let mut inputs = Vec::new();
    let mut in_inputs = false;
    for line in action.lines() {
        if !line.starts_with(' ') {
            in_inputs = line == "inputs:";
            continue;
        }
        if in_inputs
            && let Some(name) = line.strip_prefix("  ").and_then(|l| l.strip_suffix(':'))
            && !name.starts_with(' ')
        {
            inputs.push(name.to_string());
        }
    }
    assert!(inputs.len() >= 5, "{inputs:?}");
    for name in &inputs {
        let variable = format!("INPUT_{}", name.to_uppercase().replace('-', "_"));
        assert!(
            action.contains(&format!("{variable}: ${{{{ inputs.{name} }}}}")),
            "action.yml does not pass {name} as {variable}"
        );
        assert!(
            script.contains(&variable),
            "run.sh does not read {variable}"
        );
    }
    let read: std::collections::BTreeSet<&str> = script
        .match_indices("INPUT_")
        .map(|(at, _)| {
            let rest = &script[at..];
            let end = rest
                .find(|c: char| !(c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit()))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|v| v.len() > "INPUT_".len())
        .collect();
    for variable in read {
        let name = variable["INPUT_".len()..].to_lowercase().replace('_', "-");
        assert!(
            inputs.contains(&name),
            "run.sh reads {variable}, not an input of action.yml"
        );
    }
}
