//! Regression tests for malformed, oversized and hostile inputs: fuzzer
//! crash inputs, resource limits (huge sidecar counts, deep nesting, special
//! files, memory amplification), output safety of hostile names, and the
//! places where the reference's presets are not monotone.
//!
//! Every test runs the built binary in a child process, with a timeout and
//! (where it matters) a virtual-memory limit set by `ulimit -v`, and asserts
//! a clean exit: no signal, no panic message, the expected exit code.
//!
//! Tests of problems not fixed yet are `#[ignore = "...: awaiting fix"]`
//! (run them with `cargo test --test it regressions:: -- --ignored`); none is
//! left:
//!
//! | id | test | problem |
//! | --- | --- | --- |
//! | crash 1 (fixed) | `unread_arrays_do_not_amplify_memory` | `meta` / `devices` were kept as `serde_json::Value`: ~70 bytes per element, a 32 MB array aborted under a 1 GiB limit; now `meta` keeps only its version and devices their JSON text |
//! | divergence 1 (fixed) | `huge_sidecar_sizes_match_the_reference` | sidecar `size` beyond i64 was clamped (bulk-debug rows), beyond i128 rejected; now kept exactly |
//! | divergence 2 (fixed) | `nesting_within_pythons_limit_is_accepted` | device sections nested beyond serde_json's limit of 128 read as `null` (compared equal); now parsed up to 1,000 levels, an error deeper |
//! | divergence 3 (fixed) | `invalid_utf8_anywhere_is_a_clean_error` | invalid UTF-8 in skipped fields was accepted; now an error, as in the reference |
//! | divergence 4 (fixed) | `loosely_typed_fields_match_the_reference` | wrongly typed or duplicate fields rejected the whole file; now numbers as names, integral floats as ids, duplicates (last wins), a non-list `summaries` and missing `states` fail where the reference fails |
//! | divergence 5 (fixed) | `inputs_the_reference_fails_on_fail` | a state without `axis_values` (broken row, exit 0), arrays read positionally as objects; now errors where the reference fails |
//! | output 1 (fixed) | `hostile_names_stay_on_one_line_in_the_missing_section` | `--report-missing` prints control characters raw |
//! | output 2 (fixed) | `hostile_names_keep_svg_charts_well_formed` | control characters make SVG charts ill-formed XML |
//!
//! The fuzz targets (fuzz/) found no crash in their first campaign; every
//! future crash input goes here.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use crate::util::{BIN, Bench, Doc, Scratch, State, Times, limited as run, plain_env, project};

/// 1 GiB, in the KiB units of `ulimit -v`.
const ONE_GIB_KB: u64 = 1 << 20;

fn regressions_dir() -> PathBuf {
    project("tests/regressions")
}

// ---------------------------------------------------------------------------
// NVBench JSON documents
// ---------------------------------------------------------------------------

/// Robust summaries `[min, q3]` around `median`, 1% noise, a 1.5 GHz clock.
fn times(min: f64, median: f64, q3: f64) -> Times {
    Times::quartiles(min, min, median, q3)
        .max(q3 * 1.01)
        .iqr(0.01)
        .clock(1.5e9)
}

/// A state `S=name` of the benchmark of [`document`].
fn state(name: &str, times: Times) -> State {
    State::on(0).at("S", name).times(times)
}

/// A one-benchmark, one-device document of `states`.
fn document(states: Vec<State>) -> Value {
    let bench = Bench::new("bench").axis("S", "string").states(states);
    Doc::new()
        .device(0, "NVIDIA H100 80GB HBM3")
        .bench(bench)
        .json()
}

fn simple_document() -> Value {
    document(vec![state("a", times(1.0e-3, 1.01e-3, 1.02e-3))])
}

fn float32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

// ---------------------------------------------------------------------------
// Presets that are not monotone in the reference (see tests/it/properties.rs)
// ---------------------------------------------------------------------------

#[track_caller]
fn assert_fixture_matches_reference(fixture: &str, preset: &str) {
    let dir = regressions_dir().join(fixture);
    let outcome = run(&[
        "--display",
        "explain",
        "--no-color",
        "--preset",
        preset,
        "ref.json",
        "cmp.json",
    ])
    .cwd(&dir)
    .go();
    outcome.assert_clean_exit(0);
    let expected = std::fs::read(dir.join(format!("expected_{preset}.stdout"))).unwrap();
    assert_eq!(
        outcome.stdout_text(),
        String::from_utf8(expected).unwrap(),
        "{fixture} --preset {preset}"
    );
}

/// The reference says AMBG with `default` and SAME with the stricter
/// `strict` here: `strict` lets the rare-support filter remove less sample
/// mass, and without the filter the covered rare values lift support
/// coverage over the threshold. We match it byte for byte (drop-in).
#[test]
fn presets_are_not_monotone_strict_can_turn_ambg_into_same() {
    assert_fixture_matches_reference("rare_support_nonmonotone", "default");
    assert_fixture_matches_reference("rare_support_nonmonotone", "strict");
}

/// `permissive` has a higher `bulk.sample_coverage` (0.98) than `default`
/// (0.97): SAME with `default`, AMBG with `permissive`, as in the reference.
#[test]
fn presets_are_not_monotone_permissive_can_turn_same_into_ambg() {
    assert_fixture_matches_reference("permissive_sample_coverage", "default");
    assert_fixture_matches_reference("permissive_sample_coverage", "permissive");
}

// ---------------------------------------------------------------------------
// Sidecars: huge claimed counts and special files
// ---------------------------------------------------------------------------

/// A pair of documents whose states advertise sidecars of `size` values at
/// `filename` (both the samples and the frequencies).
fn sidecar_documents(scratch: &Scratch, filename: &str, size: &str) -> (String, String) {
    let with_sidecars = |name: &str, min: f64| {
        state(name, times(min, min * 1.01, min * 1.02))
            .sidecar("nv/json/bin:nv/cold/sample_times", filename, size)
            .sidecar("nv/json/freqs-bin:nv/cold/sample_freqs", filename, size)
    };
    let reference = document(vec![
        with_sidecars("same", 1.0e-3),
        with_sidecars("gap", 1.0e-3),
    ]);
    let compare = document(vec![
        with_sidecars("same", 1.0e-3),
        with_sidecars("gap", 0.9e-3),
    ]);
    (
        scratch.write("ref.json", reference.to_string()),
        scratch.write("cmp.json", compare.to_string()),
    )
}

/// `size` claims 10^12 values (4 TB), or more than fits in any integer type,
/// but the file holds three: nothing may be allocated for the claim.
#[test]
fn sidecar_size_claiming_10_to_the_12_values_allocates_nothing() {
    for size in [
        "1000000000000",
        "9223372036854775807",
        "1000000000000000000000000000000",
    ] {
        let scratch = Scratch::new("regr-huge-size");
        scratch.write(
            "ref.json-bin/0.bin",
            float32_bytes(&[1.0e-3, 1.01e-3, 1.02e-3]),
        );
        let (reference, compare) = sidecar_documents(&scratch, "ref.json-bin/0.bin", size);
        for extra in [&[][..], &["--bulk-debug-python", "stdout"][..]] {
            let mut args: Vec<&str> = extra.to_vec();
            args.extend(["--no-color", &reference, &compare]);
            let outcome = run(&args)
                .cwd(&scratch)
                .memory_limit_kb(ONE_GIB_KB)
                .timeout(60)
                .go();
            outcome.assert_clean_exit(0);
            // (The count printed for sizes beyond u64 is wrong: see
            // `huge_sidecar_sizes_match_the_reference`.)
            assert!(
                outcome.stderr.contains(" values in ") && outcome.stderr.contains("found 3;"),
                "size {size}: {}",
                outcome.stderr
            );
        }
    }
}

/// Sidecar `size` values beyond i64, u64 and i128, and hugely negative:
/// Python integers are unbounded, so the reference prints them exactly in
/// the bulk-debug rows (and warns "expected N values ... found 3", or
/// "negative value count" and `None`). We clamp them to i64::MAX, or
/// (beyond i128) fail with "is not an int64" and exit 1.
#[test]
fn huge_sidecar_sizes_match_the_reference() {
    for case in [
        "above_i64",
        "above_u64",
        "above_i128",
        "negative_above_i128",
    ] {
        let dir = regressions_dir().join("huge_sidecar_size").join(case);
        let outcome = run(&[
            "--no-color",
            "--bulk-debug-python",
            "stdout",
            "ref.json",
            "cmp.json",
        ])
        .cwd(&dir)
        .memory_limit_kb(ONE_GIB_KB)
        .go();
        let exit: i32 = std::fs::read_to_string(dir.join("expected_exit"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        outcome.assert_clean_exit(exit);
        let expected = std::fs::read_to_string(dir.join("expected_stdout")).unwrap();
        assert_eq!(outcome.stdout_text(), expected, "{case}");
    }
}

/// Sidecar paths naming a directory, a FIFO (opening it for reading would
/// block forever) or /dev/zero (endless): rejected with a warning, never read.
#[test]
fn sidecar_paths_to_a_directory_fifo_or_dev_zero_are_rejected() {
    let scratch = Scratch::new("regr-special-sidecars");
    let fifo = scratch.join("fifo.bin");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
    let targets = [
        scratch.to_str().unwrap(),
        "/dev/zero",
        fifo.to_str().unwrap(),
    ];
    for target in targets {
        for size in ["3", "1000000000000"] {
            let (reference, compare) = sidecar_documents(&scratch, target, size);
            let outcome = run(&["--no-color", &reference, &compare])
                .memory_limit_kb(ONE_GIB_KB)
                .timeout(30)
                .go();
            outcome.assert_clean_exit(0);
            assert!(
                outcome
                    .stderr
                    .contains("Could not use NVBench sample time data"),
                "{target}: {}",
                outcome.stderr
            );
        }
    }
}

// ---------------------------------------------------------------------------
// JSON inputs: nesting, size, special files
// ---------------------------------------------------------------------------

/// 100,000 nested arrays or objects, at the top or inside the fields the
/// model reads: a clean "not a valid NVBench JSON file" error, no stack
/// overflow.
#[test]
fn deeply_nested_json_is_a_clean_error() {
    let scratch = Scratch::new("regr-deep-json");
    let good = scratch.write("good.json", simple_document().to_string());
    let deep = 100_000;
    let inputs = [
        "[".repeat(deep),
        "{\"a\":".repeat(deep),
        format!("{{\"meta\": {}", "[".repeat(deep)),
        format!("{{\"devices\": [{}", "{\"x\":".repeat(deep)),
        format!(
            "{{\"benchmarks\": [{{\"name\": \"b\", \"devices\": [0], \"states\": [{{\"name\": \"s\", \"device\": 0, \"summaries\": [{{\"tag\": \"nv/cold/time/gpu/min\", \"data\": [{{\"name\": \"value\", \"value\": {}",
            "[".repeat(deep)
        ),
        format!(
            "{{\"benchmarks\": [{{\"name\": \"b\", \"devices\": [0], \"states\": [{{\"name\": \"s\", \"device\": 0, \"axis_values\": [{{\"name\": \"x\", \"value\": {}",
            "{\"a\":".repeat(deep)
        ),
        format!("{}{}", "[".repeat(deep), "]".repeat(deep)),
    ];
    for (i, input) in inputs.iter().enumerate() {
        let deep_path = scratch.write(format!("deep{i}.json"), input);
        for args in [[&deep_path, &good], [&good, &deep_path]] {
            let outcome = run(&args).timeout(60).go();
            outcome.assert_clean_exit(1);
            assert!(
                outcome.stderr.contains("not a valid NVBench JSON file"),
                "input {i}: {}",
                outcome.stderr
            );
        }
    }
}

/// 100,000 nested TOML arrays or inline tables in a config: a clean error.
#[test]
fn deeply_nested_toml_config_is_a_clean_error() {
    let scratch = Scratch::new("regr-deep-toml");
    let good = scratch.write("good.json", simple_document().to_string());
    let deep = 100_000;
    for (i, text) in [
        format!("x = {}", "[".repeat(deep)),
        format!("x = {}{}", "[".repeat(deep), "]".repeat(deep)),
        format!("x = {}", "{a = ".repeat(deep)),
    ]
    .iter()
    .enumerate()
    {
        let config = scratch.write(format!("deep{i}.toml"), text);
        let outcome = run(&["--config", &config, &good, &good]).timeout(60).go();
        outcome.assert_clean_exit(1);
        assert!(
            outcome
                .stdout_text()
                .contains("failed to parse comparison config"),
            "config {i}: {}",
            outcome.stdout_text()
        );
    }
}

/// Nesting deeper than serde_json's limit of 128 but within Python's (the
/// reference's `json.load` accepts a total depth of about 990). In parts of
/// the file the comparison skips this is fine (skipping does not recurse);
/// in device sections, which are compared, the reference prints the diff of
/// the deep field, while we fail to parse the device and print a wrong diff
/// (`{insert: [(0, {...})], delete: [(0, None)]}`).
#[test]
fn nesting_within_pythons_limit_is_accepted() {
    // Skipped: `meta` beyond its version.
    let scratch = Scratch::new("regr-nesting-200");
    let base = simple_document();
    let plain = scratch.write("plain.json", base.to_string());
    let expected = run(&["--no-color", &plain, &plain]).go();
    expected.assert_clean_exit(0);
    let depth = 200;
    let nested = base.to_string().replacen(
        "\"meta\":{",
        &format!(
            "\"meta\":{{\"x\":{}{},",
            "[".repeat(depth),
            "]".repeat(depth)
        ),
        1,
    );
    let path = scratch.write("nested.json", nested);
    let outcome = run(&["--no-color", &path, &path]).go();
    outcome.assert_clean_exit(0);
    let strip = |s: String| s.replace(&path, "X").replace(&plain, "X");
    assert_eq!(strip(outcome.stdout_text()), strip(expected.stdout_text()));

    // Read: a device field, in a device-section diff.
    let dir = regressions_dir().join("deep_device_nesting");
    let outcome = run(&["--no-color", "ref.json", "cmp.json"]).cwd(&dir).go();
    outcome.assert_clean_exit(1);
    let expected = std::fs::read_to_string(dir.join("expected_stdout")).unwrap();
    assert_eq!(outcome.stdout_text(), expected);
}

/// Runs `tests/regressions/loose_types/<case>/ref.json` against itself and
/// compares stdout and exit code with the reference's.
#[track_caller]
fn assert_loose_types_case(case: &str) {
    let dir = regressions_dir().join("loose_types").join(case);
    // A case with a `cmp.json` compares the two files, others a file with itself.
    let compare = if dir.join("cmp.json").exists() {
        "cmp.json"
    } else {
        "ref.json"
    };
    let outcome = run(&["--no-color", "ref.json", compare]).cwd(&dir).go();
    let exit: i32 = std::fs::read_to_string(dir.join("expected_exit"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    outcome.assert_clean_exit(exit);
    let expected = std::fs::read_to_string(dir.join("expected_stdout")).unwrap();
    assert_eq!(outcome.stdout_text(), expected, "{case}");
}

/// Fields of JSON types NVBench never writes but the reference copes with,
/// because it reads plain Python objects and fails (if at all) only where
/// a value is used: a benchmark name that is a number (`# 5`), device ids
/// written as floats (`0.0 == 0`), a state whose `summaries` is a number
/// after an earlier state's schema error (the reference prints the earlier
/// error first), and duplicate keys (Python keeps the last value; serde's
/// derived structs fail with "duplicate field"), and a second benchmark
/// without `states` (the reference prints the first benchmark's report, then
/// fails with a KeyError). The model reads them loosely and fails where the
/// reference fails. Found by the differential run over the `json_loader`
/// corpus (fuzz/differential.py).
#[test]
fn loosely_typed_fields_match_the_reference() {
    for case in [
        "benchmark_name_int",
        "state_device_float",
        "benchmark_devices_float",
        "summaries_number_after_schema_error",
        "duplicate_keys",
        "second_benchmark_without_states",
    ] {
        assert_loose_types_case(case);
    }
}

/// More of what Python's `json` reads and a strict parser refuses (issue
/// 26, item 8): a number beyond the float range (Python's inf), and a
/// state's `device` of another type, compared as Python's `==` compares it
/// with the device ids: `"0"`, `null`, 1.5 and 2**63 equal no id (the state
/// is never compared), `true` equals 1, and `0.0` equals 0 but keeps its
/// `Device=0` key (the prefix dropped is `Device=0.0`), so on one side only
/// the state sets differ and both fail on mismatched occurrences.
#[test]
fn python_json_values_match_the_reference() {
    for case in [
        "summary_value_overflow",
        "state_device_string",
        "state_device_true",
        "state_device_null",
        "state_device_fraction",
        "state_device_big",
        "state_device_float_one_side",
    ] {
        assert_loose_types_case(case);
    }
}

/// A lone surrogate escape in a name (`"bench\udcff"`) is read, as Python
/// reads it; the reference prints it through surrogateescape as the raw
/// byte 0xff, this tool as `\xff`, as it prints every byte of a name that
/// is not UTF-8 (no raw bytes on a terminal). Otherwise the same output.
#[test]
fn a_lone_surrogate_in_a_name_is_read_and_printed_escaped() {
    let dir = regressions_dir()
        .join("loose_types")
        .join("benchmark_name_lone_surrogate");
    let outcome = run(&["--no-color", "ref.json", "ref.json"]).cwd(&dir).go();
    outcome.assert_clean_exit(0);
    let expected = std::fs::read(dir.join("expected_stdout")).unwrap();
    assert!(
        expected.starts_with(b"# bench\xff\n"),
        "the reference prints the raw byte"
    );
    let mut escaped = b"# bench\\xff\n".to_vec();
    escaped.extend_from_slice(&expected[b"# bench\xff\n".len()..]);
    assert_eq!(outcome.stdout_text(), String::from_utf8(escaped).unwrap());
}

/// The other way round: inputs the reference fails on (an uncaught
/// exception: exit 1, and only the output printed before it), which we
/// used to accept. A compare state without an `axis_values` key (KeyError
/// after `# bench`; `null` is fine); an array where an object belongs,
/// which serde's derived structs read positionally (`[meta, devices,
/// benchmarks]`, `[]`); a state written as `[name, device, axis_values,
/// summaries]`. Each now fails at the point where the reference does.
#[test]
fn inputs_the_reference_fails_on_fail() {
    for case in [
        "state_without_axis_values",
        "empty_array_root",
        "positional_array_root",
        "positional_array_state",
    ] {
        assert_loose_types_case(case);
    }
}

/// Bytes that are not UTF-8 make a file that is not JSON; the reference
/// fails to decode it (exit 1). In a field the model skips (here an unknown
/// state key) we never look at them and compare normally (exit 0). Found by
/// the differential run over the `json_loader` corpus (fuzz/differential.py).
#[test]
fn invalid_utf8_anywhere_is_a_clean_error() {
    let scratch = Scratch::new("regr-invalid-utf8");
    let text = simple_document().to_string();
    // A lone 0xCF (a two-byte lead byte followed by '(') in an unknown key's string.
    let at = text.find("\"device\":0").unwrap();
    let mut bytes = text.as_bytes()[..at].to_vec();
    bytes.extend_from_slice(b"\"junk\":\"\xcf(\",");
    bytes.extend_from_slice(&text.as_bytes()[at..]);
    let path = scratch.write("bad.json", &bytes);
    assert!(std::str::from_utf8(&std::fs::read(&path).unwrap()).is_err());
    let good = scratch.write("good.json", simple_document().to_string());
    for args in [[&path, &good], [&good, &path]] {
        let outcome = run(&args).go();
        outcome.assert_clean_exit(1);
        assert!(outcome.stderr.contains("bad.json"), "{}", outcome.stderr);
    }
}

/// A 1 GiB input (a sparse file: a small document, then NUL bytes) under a
/// 1 GiB address-space limit: a clean error, not an allocation abort.
#[test]
fn a_sparse_1_gib_json_file_is_a_clean_error() {
    let scratch = Scratch::new("regr-sparse-json");
    let good = scratch.write("good.json", simple_document().to_string());
    let big = scratch.write("big.json", simple_document().to_string());
    let file = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
    file.set_len(1 << 30).unwrap();
    drop(file);
    for args in [[&big, &good], [&good, &big]] {
        let outcome = run(&args).memory_limit_kb(ONE_GIB_KB).timeout(120).go();
        outcome.assert_clean_exit(1);
        assert!(outcome.stderr.contains("big.json"), "{}", outcome.stderr);
    }
}

/// Address-space limits (`ulimit -v`) that let a 1 GiB input be mapped but
/// not the tool's own large buffers beside it: the heap room reserved for
/// the parsed model (30 MiB blocks, taken as far as they go), and the copy
/// of the file made to read a `NaN` literal as Python does (its size,
/// reserved up front). Each run is a clean error naming the file, never an
/// aborted allocation (`memory allocation of N bytes failed`, exit 134).
#[test]
fn a_1_gib_input_beside_the_tools_own_buffers_is_a_clean_error_under_a_memory_limit() {
    let scratch = Scratch::new("regr-oom");
    let good = scratch.write("good.json", simple_document().to_string());
    let text = simple_document().to_string();
    let with_nan = text.replacen("\"meta\":{", "\"meta\":{\"junk\":NaN,", 1);
    assert_ne!(with_nan, text);
    let sparse = |name: &str, text: &str| {
        let path = scratch.write(name, text);
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(1 << 30).unwrap();
        path
    };
    let plain = sparse("plain.json", &text);
    let nan = sparse("nan.json", &with_nan);
    let runs = [
        (
            &plain,
            &[1_100_000, 1_150_000, 1_200_000, 1_250_000, 1_300_000][..],
        ),
        // The map fits, the copy beside it never does (2 GiB and more).
        (&nan, &[1_200_000, 1_600_000, 2_000_000][..]),
    ];
    for (path, limits) in runs {
        for &kb in limits {
            let outcome = run(&[path, &good]).memory_limit_kb(kb).timeout(120).go();
            outcome.assert_clean_exit(1);
            assert!(
                outcome.stderr.contains(path.as_str()),
                "{kb} KB: {}",
                outcome.stderr
            );
        }
    }
}

/// /dev/zero as the reference or compare file: a clean error under a 1 GiB
/// limit (the reference reads it until memory runs out); a device is
/// refused before anything is read.
#[test]
fn dev_zero_as_a_json_input_is_a_clean_error() {
    let scratch = Scratch::new("regr-dev-zero-json");
    let good = scratch.write("good.json", simple_document().to_string());
    for args in [["/dev/zero", good.as_str()], [good.as_str(), "/dev/zero"]] {
        let outcome = run(&args).memory_limit_kb(ONE_GIB_KB).timeout(60).go();
        outcome.assert_clean_exit(1);
        assert!(
            outcome
                .stderr
                .contains("cannot read /dev/zero: it is a character device, not a regular file"),
            "{}",
            outcome.stderr
        );
    }
}

/// /dev/zero as the config: a clean error under a 1 GiB limit.
#[test]
fn dev_zero_as_the_config_is_a_clean_error() {
    let scratch = Scratch::new("regr-dev-zero-config");
    let good = scratch.write("good.json", simple_document().to_string());
    let outcome = run(&["--config", "/dev/zero", &good, &good])
        .memory_limit_kb(ONE_GIB_KB)
        .timeout(60)
        .go();
    outcome.assert_clean_exit(1);
    assert!(outcome.stdout_text().contains("/dev/zero"), "{outcome:?}");
}

/// An endless pipe (`<(cat /dev/zero)`), which is read, as the input or
/// as the config under a 1 GiB limit: the buffer grows by fallible
/// reservations, and the end of memory is a clean error naming the pipe.
#[test]
fn an_endless_pipe_is_a_clean_error_under_a_memory_limit() {
    let scratch = Scratch::new("regr-endless-pipe");
    let good = scratch.write("good.json", simple_document().to_string());
    // The config's message goes to stdout, as the reference prints it.
    let inputs = [
        ("<(cat /dev/zero) \"$1\"", false),
        ("--config <(cat /dev/zero) \"$1\" \"$1\"", true),
    ];
    for (pipe, on_stdout) in inputs {
        let script = format!("ulimit -v {ONE_GIB_KB} && exec \"$0\" {pipe}");
        let output = plain_env(&mut Command::new("bash"))
            .args(["-c", &script, BIN, &good])
            .output()
            .unwrap();
        let message = if on_stdout {
            &output.stdout
        } else {
            &output.stderr
        };
        let text = String::from_utf8_lossy(message);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{pipe}: {stderr}");
        assert!(!stderr.contains("memory allocation of"), "{stderr}");
        // The config's message is Python's words, the input's the tool's own.
        let expected = if on_stdout {
            "[Errno 12] Cannot allocate memory"
        } else {
            "not enough memory to read it"
        };
        assert!(text.contains(expected), "{pipe}: {text}");
        assert!(text.contains("/dev/fd/"), "{pipe}: {text}");
    }
}

/// JSON inputs that are pipes (`<(...)`, as `nvbench-compare <(gunzip -c
/// a.json.gz) b.json` does) keep working: only sidecars must be regular.
#[test]
fn json_inputs_from_process_substitution_work() {
    let scratch = Scratch::new("regr-fifo-json");
    let reference = scratch.write("ref.json", simple_document().to_string());
    let compare = scratch.write(
        "cmp.json",
        document(vec![state("a", times(0.9e-3, 0.91e-3, 0.92e-3))]).to_string(),
    );
    let direct = run(&["--no-color", &reference, &compare]).go();
    direct.assert_clean_exit(0);
    let piped = plain_env(&mut Command::new("bash"))
        .arg("-c")
        .arg("exec \"$0\" --no-color <(cat \"$1\") <(cat \"$2\")")
        .args([BIN, &reference, &compare])
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    let text = String::from_utf8_lossy(&piped.stdout);
    assert!(text.contains("FAST"), "{text}");
    // Same table; only the file names in the version warnings could differ.
    let tables = |s: &str| s[s.find("# bench").unwrap()..].to_string();
    assert_eq!(tables(&text), tables(&direct.stdout_text()));
}

/// A FIFO given as a JSON input (either side, either display) or as the
/// config: opening it for reading would wait for a writer forever. It is
/// opened without blocking and refused, naming the file, with no writer.
#[test]
fn fifo_inputs_and_configs_are_refused_without_waiting() {
    let scratch = Scratch::new("regr-fifo-inputs");
    let good = scratch.write("good.json", simple_document().to_string());
    let fifo = scratch.join("fifo.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
    let fifo = fifo.to_str().unwrap();
    let refused = format!("cannot read {fifo}: it is a FIFO, not a regular file");
    for (args, exit) in [
        (vec![fifo, &good], 1),
        (vec![&good, fifo], 1),
        (vec!["--display", "gbench", fifo, &good], 2),
    ] {
        let outcome = run(&args).timeout(20).go();
        outcome.assert_clean_exit(exit);
        assert!(
            outcome.stderr.contains(&refused),
            "{args:?}: {}",
            outcome.stderr
        );
    }
    let outcome = run(&["--config", fifo, &good, &good]).timeout(20).go();
    outcome.assert_clean_exit(1);
    assert_eq!(
        outcome.stdout_text(),
        format!("failed to read comparison config '{fifo}': a FIFO, not a regular file\n")
    );
}

/// Large arrays in parts of the file the comparison never reads (`meta`,
/// extra device fields) must not multiply memory: 32 MB of `0,` costs
/// gigabytes as `serde_json::Value`s (about 70 bytes per 2-byte element).
/// The output must equal that of the same documents without the arrays.
#[test]
fn unread_arrays_do_not_amplify_memory() {
    let scratch = Scratch::new("regr-amplification");
    let base = simple_document();
    let plain = scratch.write("plain.json", base.to_string());
    let expected = run(&["--no-color", &plain, &plain]).go();
    expected.assert_clean_exit(0);
    let zeros = format!("[{}0]", "0,".repeat(16_000_000));
    let text = base.to_string();
    let in_meta = text.replacen("\"meta\":{", &format!("\"meta\":{{\"argv\":{zeros},"), 1);
    let in_device = text.replacen("\"id\":0", &format!("\"id\":0,\"junk\":{zeros}"), 1);
    assert_ne!(in_meta, text);
    assert_ne!(in_device, text);
    for (name, text) in [("meta", in_meta), ("device", in_device)] {
        let path = scratch.write(format!("{name}.json"), text);
        let outcome = run(&["--no-color", &path, &path])
            .memory_limit_kb(ONE_GIB_KB)
            .timeout(300)
            .go();
        outcome.assert_clean_exit(0);
        let strip = |s: String| s.replace(&path, "X").replace(&plain, "X");
        assert_eq!(
            strip(outcome.stdout_text()),
            strip(expected.stdout_text()),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------
// Output safety: hostile benchmark, axis, value and device names
// ---------------------------------------------------------------------------

/// The names in tests/regressions/output_safety/ hold `|`, newlines, ANSI
/// escapes (SGR, clear screen, an OSC title) and markdown. The reference
/// prints them raw: its tables get extra lines and misaligned cells, the
/// escapes reach the terminal, and a newline can forge a bulk-debug marker
/// line. We print control characters escaped (`\n`, `\u{1b}`): the output
/// is the reference's for the same names escaped beforehand, byte for byte
/// (see make_output_safety.py); the generated Python keeps the names exact.
#[test]
fn hostile_names_match_the_reference_byte_for_byte() {
    let dir = regressions_dir().join("output_safety");
    for (name, args) in [
        ("intervals", &[][..]),
        ("intervals_nocolor", &["--no-color"][..]),
        ("legacy", &["--display", "legacy"][..]),
        ("explain", &["--display", "explain", "--no-color"][..]),
        (
            "bulk_debug",
            &["--bulk-debug-python", "stdout", "--no-color"][..],
        ),
    ] {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["ref.json", "cmp.json"]);
        let outcome = run(&all).cwd(&dir).go();
        outcome.assert_clean_exit(0);
        let expected = std::fs::read(dir.join(format!("expected_{name}.stdout"))).unwrap();
        assert!(
            outcome.stdout == expected,
            "{name}: differs from the reference\n--- expected\n{}\n--- actual\n{}",
            String::from_utf8_lossy(&expected).escape_debug(),
            outcome.stdout_text().escape_debug()
        );
    }
}

/// Unescaped `|` of a markdown table line.
fn cell_separators(line: &str) -> usize {
    let mut count = 0;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => count += 1,
            _ => escaped = false,
        }
        if c != '\\' {
            escaped = false;
        }
    }
    count
}

/// The markdown summary (ours): every table row has as many cells as its
/// header, and no control character (ESC, BEL, CR) survives.
#[test]
fn hostile_names_cannot_break_the_markdown_summary() {
    let dir = regressions_dir().join("output_safety");
    let scratch = Scratch::new("regr-hostile-markdown");
    let markdown = scratch.join("summary.md");
    let outcome = run(&[
        "--no-color",
        "--markdown-summary",
        markdown.to_str().unwrap(),
        "ref.json",
        "cmp.json",
    ])
    .cwd(&dir)
    .go();
    outcome.assert_clean_exit(0);
    let text = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "control characters in:\n{}",
        text.escape_debug()
    );
    let mut header_cells = None;
    let mut rows = 0;
    for line in text.lines() {
        if !line.starts_with('|') {
            header_cells = None;
            continue;
        }
        let cells = cell_separators(line);
        match header_cells {
            None => header_cells = Some(cells),
            Some(expected) => {
                assert_eq!(cells, expected, "broken row: {line}");
                rows += 1;
            }
        }
    }
    assert!(rows >= 3, "{text}");
}

/// The JSON report (ours) keeps every name exactly, properly escaped.
#[test]
fn hostile_names_survive_the_json_report() {
    let dir = regressions_dir().join("output_safety");
    let outcome = run(&["--json", "-", "ref.json", "cmp.json"]).cwd(&dir).go();
    outcome.assert_clean_exit(0);
    assert!(
        !outcome.stdout.contains(&0x1b),
        "raw ESC in the JSON report"
    );
    let report: Value = serde_json::from_slice(&outcome.stdout).unwrap();
    let source: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ref.json")).unwrap()).unwrap();
    let states = report["states"].as_array().unwrap();
    assert_eq!(states.len(), 3);
    assert_eq!(states[0]["benchmark"], source["benchmarks"][0]["name"]);
    let source_values: Vec<&Value> = source["benchmarks"][0]["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["axis_values"][0]["value"])
        .collect();
    for state in states {
        let axis = &state["axis_values"][0];
        assert_eq!(axis["name"], source["benchmarks"][0]["axes"][0]["name"]);
        assert!(source_values.contains(&&axis["value"]), "{axis}");
    }
}

/// The NEW / DROPPED lines of `--report-missing` (ours, not the
/// reference's) say "one line" per item, but print names raw: a newline in
/// a name starts a fake line (`# Summary`...), an escape sequence reaches
/// the terminal. They should show control characters escaped.
#[test]
fn hostile_names_stay_on_one_line_in_the_missing_section() {
    let dir = regressions_dir().join("output_safety");
    let scratch = Scratch::new("regr-hostile-missing");
    let mut compare: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cmp.json")).unwrap()).unwrap();
    let mut extra = compare["benchmarks"][0].clone();
    extra["name"] = json!("new\x1b[31m|bench\n# Summary");
    compare["benchmarks"].as_array_mut().unwrap().push(extra);
    let compare = scratch.write("cmp.json", compare.to_string());
    let reference = dir.join("ref.json");
    let outcome = run(&[
        "--no-color",
        "--report-missing",
        reference.to_str().unwrap(),
        &compare,
    ])
    .go();
    outcome.assert_clean_exit(0);
    let text = outcome.stdout_text();
    let missing = &text[text.find("# Missing").unwrap()..text.rfind("# Summary").unwrap()];
    for line in missing
        .lines()
        .filter(|l| !l.is_empty() && *l != "# Missing")
    {
        assert!(
            line.starts_with("- NEW ") || line.starts_with("- DROPPED "),
            "{line:?}"
        );
        assert!(!line.contains('\x1b'), "{line:?}");
    }
}

/// `--plot` charts (ours): an SVG chart must stay well-formed XML whatever
/// the names hold. Markup is escaped, but control characters (ESC, BEL) are
/// copied into the text, and XML 1.0 forbids them even as character
/// references: browsers refuse the whole file.
#[test]
fn hostile_names_keep_svg_charts_well_formed() {
    let dir = regressions_dir().join("output_safety");
    let scratch = Scratch::new("regr-hostile-svg");
    let chart = scratch.join("chart.svg");
    let outcome = run(&[
        "--no-color",
        "--plot",
        "--plot-output",
        chart.to_str().unwrap(),
        "ref.json",
        "cmp.json",
    ])
    .cwd(&dir)
    .go();
    outcome.assert_clean_exit(0);
    let svg = std::fs::read_to_string(&chart).unwrap();
    if let Err(error) = roxmltree::Document::parse(&svg) {
        panic!("the chart is not well-formed XML: {error}");
    }
}
