//! The whole pipeline on a pair of arbitrary JSON documents (plus optional
//! sidecar files), through the library entry point `nvbench_compare::run`
//! with option variants chosen by the input.
//!
//! Input layout: two option bytes (a bit set, see `OPTIONS`), then parts
//! separated by `SEPARATOR`: ref.json, cmp.json, and up to four sidecar
//! files (`SIDECARS`, in that order).
//!
//! Oracles besides "no panic, no hang": `--json -` output parses as JSON
//! (when it is the last `--json`), the markdown summary respects
//! `--max-bytes`, exit codes are 0, 1, 2 (an output named as a sidecar) or 3.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

pub const SEPARATOR: &[u8] = b"\n--8<--\n";

const SIDECARS: [&str; 4] = [
    "ref.json-bin/0.bin",
    "ref.json-freqs-bin/0.bin",
    "cmp.json-bin/0.bin",
    "cmp.json-freqs-bin/0.bin",
];

const MAX_BYTES: usize = 2000;

/// Option variants, one per bit of the two option bytes (`{DIR}` is the
/// scratch directory).
const OPTIONS: [&[&str]; 16] = [
    &["--display", "explain"],
    &["--display", "legacy"],
    &["--no-color"],
    &["--json", "-"],
    &["--bulk-debug-python", "stdout"],
    &["--report-missing"],
    &["--preset", "strict"],
    &["--ignore-devices"],
    &["--threshold-diff", "0.05"],
    &["--explain-ambg"],
    &[
        "--markdown-summary",
        "{DIR}/summary.md",
        "--max-bytes",
        "2000",
    ],
    &["--fail-on", "slow,ambg,unknown,missing"],
    &["-a", "Elements{io}[pow2]=20"],
    &["--reference-devices", "0", "--compare-devices", "0"],
    &["--bulk-debug-python", "{DIR}/bulk.py"],
    &["--json", "{DIR}/report.json"],
];

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let bits = u16::from_le_bytes([data[0], data[1]]);
    let parts = common::split(&data[2..], SEPARATOR);
    if parts.len() < 2 {
        return;
    }
    let dir = common::scratch_dir("pipeline");
    let dir_text = dir.to_str().unwrap();
    for sub in [
        "ref.json-bin",
        "ref.json-freqs-bin",
        "cmp.json-bin",
        "cmp.json-freqs-bin",
    ] {
        let _ = std::fs::remove_dir_all(dir.join(sub));
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for name in ["summary.md", "bulk.py", "report.json"] {
        let _ = std::fs::remove_file(dir.join(name));
    }
    std::fs::write(dir.join("ref.json"), parts[0]).unwrap();
    std::fs::write(dir.join("cmp.json"), parts[1]).unwrap();
    for (bytes, name) in parts[2..].iter().zip(SIDECARS) {
        std::fs::write(dir.join(name), bytes).unwrap();
    }

    let mut args = vec!["nvbench-compare".to_string()];
    for (bit, option) in OPTIONS.iter().enumerate() {
        if bits & (1 << bit) != 0 {
            args.extend(option.iter().map(|a| a.replace("{DIR}", dir_text)));
        }
    }
    args.push(format!("{dir_text}/ref.json"));
    args.push(format!("{dir_text}/cmp.json"));
    // The last `--json` wins (a later `--json FILE` overrides `--json -`).
    let json_to_stdout = args
        .windows(2)
        .filter(|pair| pair[0] == "--json")
        .last()
        .is_some_and(|pair| pair[1] == "-");

    let Ok((cli, filters)) = nvbench_compare::cli::parse(args.iter().map(Into::into)) else {
        return;
    };
    let mut out = Vec::new();
    let code = nvbench_compare::run(cli, &filters, &mut out);
    // 2: options that contradict each other, or an output naming an input
    // (refused before any work, so no JSON is written).
    assert!(matches!(code, 0 | 1 | 2 | 3), "exit code {code}");
    // 0 and 3: the run went through and wrote its report.
    if matches!(code, 0 | 3) && json_to_stdout {
        if let Err(error) = serde_json::from_slice::<serde_json::Value>(&out) {
            panic!(
                "--json - wrote invalid JSON ({error}):\n{}",
                String::from_utf8_lossy(&out)
            );
        }
    }
    if let Ok(markdown) = std::fs::read(dir.join("summary.md")) {
        assert!(
            markdown.len() <= MAX_BYTES,
            "markdown summary of {} bytes",
            markdown.len()
        );
    }
});
