//! How the tool is shipped: the workflows pass actionlint (their shell
//! steps shellcheck), the scripts of the action and of the release pass
//! shellcheck, the crate packages what it needs and nothing of the
//! corpora, and the release's installation check passes on the built
//! commands. (The action's script itself: `action`.)

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::util::{Need, Scratch, announce, require, root, tool};

fn shown(output: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The workflow files, by name.
fn workflows() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join(".github/workflows"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".yml") || name.ends_with(".yaml"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_workflow_passes_actionlint() {
    if !require(Need::Actionlint) {
        return;
    }
    let actionlint = tool("actionlint").unwrap();
    let version = Command::new(&actionlint).arg("-version").output().unwrap();
    announce(&format!(
        "actionlint: {}",
        String::from_utf8_lossy(&version.stdout)
            .lines()
            .next()
            .unwrap_or("?")
    ));
    // Shell steps are checked with shellcheck when there is one; pyflakes
    // is left out (no step is Python).
    let shellcheck = match require(Need::Shellcheck) {
        true => tool("shellcheck").unwrap().to_string_lossy().into_owned(),
        false => String::new(),
    };
    let names = workflows();
    assert!(names.contains(&"ci.yml".to_string()) && names.contains(&"release.yml".to_string()));
    let output = Command::new(&actionlint)
        .current_dir(root())
        .arg("-no-color")
        .arg(format!("-shellcheck={shellcheck}"))
        .arg("-pyflakes=")
        .args(names.iter().map(|name| format!(".github/workflows/{name}")))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "actionlint: {}", shown(&output));
}

#[test]
fn the_scripts_pass_shellcheck() {
    if !require(Need::Shellcheck) {
        return;
    }
    let output = Command::new(tool("shellcheck").unwrap())
        .current_dir(root())
        .args([
            ".github/action/run.sh",
            ".github/release/check-install.sh",
            ".ci/run",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "shellcheck: {}", shown(&output));
}

/// `cargo package --list`, offline: the program, its documentation and
/// licenses; no test corpus, example data, benchmark or CI file.
#[test]
fn the_crate_packages_the_program_and_no_corpus() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let scratch = Scratch::new("package-list");
    let target: &Path = scratch.as_ref();
    let output = Command::new(cargo)
        .current_dir(root())
        .args(["package", "--list", "--offline", "--allow-dirty"])
        .env("CARGO_TARGET_DIR", target)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo package --list: {}",
        shown(&output)
    );
    let listed = String::from_utf8(output.stdout).unwrap();
    let files: Vec<&str> = listed.lines().collect();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "LICENSE",
        "README.md",
        "src/main.rs",
        "src/bin/nvbench-compare-robust.rs",
        "src/bin/nvbench-compare-legacy.rs",
        "assets/fonts/DejaVuSans.ttf",
        "assets/fonts/DejaVuSans-LICENSE.txt",
        "docs/install.md",
    ] {
        assert!(
            files.contains(&needed),
            "{needed} is not packaged:\n{listed}"
        );
    }
    for file in &files {
        assert!(
            [
                "src/",
                "docs/",
                "assets/fonts/",
                "Cargo.",
                "LICENSE",
                "README.md",
                ".cargo_vcs_info.json"
            ]
            .iter()
            .any(|kept| file.starts_with(kept)),
            "{file} should not be packaged"
        );
    }
}

/// The release workflow's check of an installation, on the commands built
/// for these tests (debug builds: no size limit).
#[test]
fn the_installation_check_passes_on_the_built_commands() {
    let dir = Path::new(crate::util::BIN).parent().unwrap();
    let output = Command::new("bash")
        .current_dir(root())
        .arg(".github/release/check-install.sh")
        .arg(dir)
        .arg("100000000000")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "check-install.sh: {}",
        shown(&output)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("the three commands in"));
}
