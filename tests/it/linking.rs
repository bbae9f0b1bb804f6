//! How the executable is linked (build.rs): statically against glibc where
//! the machine has glibc's static libraries, which saves the dynamic
//! loader's half millisecond or more on every run.

use std::process::Command;

use crate::util::{BIN, Need, require};

/// glibc's dynamic loader prints its statistics for `LD_DEBUG=statistics`;
/// nothing reads that variable in a static executable.
fn dynamic_loader_ran() -> bool {
    let output = Command::new(BIN)
        .arg("--version")
        .env("LD_DEBUG", "statistics")
        .output()
        .expect("the executable runs");
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("nvbench-compare "));
    String::from_utf8_lossy(&output.stderr).contains("runtime linker statistics")
}

#[test]
fn no_dynamic_loader_runs_in_the_static_executable() {
    if require(Need::StaticLink) {
        assert!(
            !dynamic_loader_ran(),
            "build.rs said static, but the dynamic loader ran"
        );
    }
}

/// Only glibc's loader reads `LD_DEBUG`: elsewhere there is nothing to see.
#[test]
fn the_dynamic_executable_is_what_the_build_said() {
    let glibc = cfg!(all(target_os = "linux", target_env = "gnu"));
    if glibc && env!("NVBENCH_COMPARE_LINKING") != "static" {
        assert!(
            dynamic_loader_ran(),
            "build.rs said dynamic, but no dynamic loader ran"
        );
    }
}
