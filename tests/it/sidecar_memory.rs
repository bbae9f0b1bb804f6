//! Peak memory of a bulk comparison stays near its sidecars' bytes: the
//! samples are kept as the sidecars' float32, cycles are
//! made where they are needed, huge runs are sorted in place and the log
//! fallback of the coverage takes its logs as it goes.
//!
//! One state per side with 2^22 samples per sidecar (64 MiB of sidecars in
//! all); the child's peak RSS comes from `wait4`. Before the fix, these
//! inputs took 4.0x (repeating times) and 7.4x (all distinct) the sidecar
//! bytes.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{Bench, Doc, Scratch, State, command};

const SAMPLES: usize = 1 << 22;
const SIDECAR_BYTES: f64 = (4 * 4 * SAMPLES) as f64;
/// What the process takes without any sidecar (binary, heap, threads).
const BASE_BYTES: f64 = 24.0 * 1024.0 * 1024.0;

/// One state, no axes, whose sidecars `SIDE.bin` and `SIDE.freqs` hold
/// [`SAMPLES`] values each.
fn document(side: &str) -> String {
    let count = SAMPLES.to_string();
    let state = State::on(0)
        .int("nv/cold/sample_size", 1000)
        .float("nv/cold/time/gpu/mean", 1e-4)
        .float("nv/cold/time/gpu/stdev/relative", 0.01)
        .float("nv/cold/time/gpu/min", 0.98e-4)
        .float("nv/cold/time/gpu/median", 1e-4)
        .float("nv/cold/time/gpu/q3", 1.01e-4)
        .float("nv/cold/sm_clock_rate/mean", 1.98e9)
        .sidecar(
            "nv/json/bin:nv/cold/sample_times",
            &format!("{side}.bin"),
            &count,
        )
        .sidecar(
            "nv/json/freqs-bin:nv/cold/sample_freqs",
            &format!("{side}.freqs"),
            &count,
        );
    Doc::new()
        .device(0, "Simulated GPU")
        .bench(Bench::new("bench").state(state))
        .text()
}

fn write_floats(path: &Path, values: impl Iterator<Item = f32>) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for v in values {
        out.write_all(&v.to_le_bytes()).unwrap();
    }
    out.flush().unwrap();
}

/// Both sides draw from one distribution, so the decision runs the whole
/// bulk SAME path: time coverage, then cycle coverage.
fn write_pair(dir: &Path, distinct: bool) {
    for (side, seed) in [("ref", 1u64), ("cmp", 2)] {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move || {
            crate::util::xorshift_step(&mut state);
            state
        };
        let times: Vec<f32> = (0..SAMPLES)
            .map(|i| {
                let step = if distinct {
                    // Nearly every float32 between 1e-4 and 1.25e-4 differs.
                    (i as u64 * 2_654_435_761) % (1 << 22)
                } else {
                    next() % 64
                };
                1.0e-4
                    * (1.0 + step as f32 / (1 << 22) as f32 * if distinct { 0.25 } else { 1024.0 })
            })
            .collect();
        write_floats(&dir.join(format!("{side}.bin")), times.into_iter());
        write_floats(
            &dir.join(format!("{side}.freqs")),
            (0..SAMPLES).map(|_| 1.98e9 * (1.0 + (next() % 32) as f32 / 4096.0)),
        );
        std::fs::write(dir.join(format!("{side}.json")), document(side)).unwrap();
    }
}

/// In a launched copy of this binary (see [`run_with_peak_rss`]): the
/// directory to compare in.
const LAUNCHED_IN: &str = "NVBC_PEAK_RSS_OF_RUN_IN";

/// How the launched copy reports: this marker, then JSON, on a line of
/// its stdout (behind libtest's `test NAME ... `).
const REPORT: &str = "nvbc-peak-rss: ";

/// Runs the comparison in `dir`; its stdout and peak RSS in bytes.
///
/// A child's `ru_maxrss` starts at the peak of the memory it was spawned
/// from (the kernel keeps the larger of the two across `exec`), and this
/// test binary's other tests make that peak hundreds of MiB. So a fresh,
/// small copy of the binary runs only `test` (`--exact`), which spawns the
/// comparison and reports what `wait4` says of it.
fn run_with_peak_rss(dir: &Path, test: &str) -> (String, f64) {
    // The test's name as libtest knows it (without the crate's name).
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &format!("{module}::{test}"), "--nocapture"])
        .args(["--test-threads=1"])
        .env(LAUNCHED_IN, dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = stdout
        .lines()
        .find_map(|l| l.split_once(REPORT).map(|(_, report)| report))
        .unwrap_or_else(|| panic!("no report from the launched test: {stdout}"));
    let (text, rss): (String, f64) = serde_json::from_str(report).unwrap();
    (text, rss)
}

/// In the launched copy, when it is one: runs the comparison in its
/// directory and prints the report; `true` if it did.
// The child is reaped by `wait4`, which also gives its rusage.
#[allow(clippy::zombie_processes)]
fn launched() -> bool {
    let Some(dir) = std::env::var_os(LAUNCHED_IN) else {
        return false;
    };
    let child = command(dir)
        .args(["--no-color", "ref.json", "cmp.json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    // The output is a few lines: it fits the pipe before the child exits.
    let mut stdout = child.stdout.unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain old data, filled in by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which std has not reaped.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    let rss = usage.ru_maxrss as f64 * 1024.0;
    println!("{REPORT}{}", serde_json::to_string(&(text, rss)).unwrap());
    true
}

fn check(test: &str, distinct: bool, max_ratio: f64) {
    if launched() {
        return;
    }
    let dir = Scratch::new("sidecar-memory");
    write_pair(&dir, distinct);
    let (stdout, rss) = run_with_peak_rss(&dir, test);
    assert!(stdout.contains("SAME"), "{stdout}");
    let ratio = (rss - BASE_BYTES).max(0.0) / SIDECAR_BYTES;
    eprintln!(
        "distinct {distinct}: peak RSS {:.0} MiB for {:.0} MiB of sidecars ({ratio:.2}x beyond the base)",
        rss / 1048576.0,
        SIDECAR_BYTES / 1048576.0
    );
    assert!(
        ratio <= max_ratio,
        "peak RSS {:.0} MiB is {ratio:.2}x the sidecar bytes (at most {max_ratio})",
        rss / 1048576.0
    );
}

#[test]
fn repeating_samples_take_about_their_sidecar_bytes() {
    check(
        "repeating_samples_take_about_their_sidecar_bytes",
        false,
        2.0,
    );
}

#[test]
fn distinct_samples_take_a_bounded_multiple_of_their_sidecar_bytes() {
    check(
        "distinct_samples_take_a_bounded_multiple_of_their_sidecar_bytes",
        true,
        3.8,
    );
}
