//! Sidecar loader: arbitrary bytes in two sidecar files, arbitrary claimed
//! counts (including 10^12) and special paths (directory, FIFO, /dev/zero,
//! missing) -> `sidecar_evidence::SidecarEvidence` and `read_float32_file` -> the
//! bulk steps of the decision tree (with the swap and self-comparison
//! invariants checked).
//!
//! Input layout: flags (1 byte), two claimed counts (8 bytes each, LE),
//! split point (2 bytes, LE), then the bytes of both files.

#![no_main]

mod common;

use std::cell::RefCell;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nvbench_compare::deciding::config::preset;
use nvbench_compare::deciding::sidecar_evidence::SidecarEvidence;
use nvbench_compare::loading::sidecar::read_float32_file;
use nvbench_compare::loading::timing::{SidecarRef, Timing};

fn robust(min: f64, median: f64, q3: f64) -> Timing {
    Timing {
        minimum: Some(min),
        first_quartile: Some(min),
        median: Some(median),
        third_quartile: Some(q3),
        interquartile_range_relative: Some(0.01),
        sm_clock_rate_mean: Some(1.5e9),
        ..Timing::default()
    }
}

/// A FIFO in the scratch directory (made once; `None` without mkfifo).
fn fifo() -> Option<&'static str> {
    static FIFO: OnceLock<Option<String>> = OnceLock::new();
    FIFO.get_or_init(|| {
        let path = common::scratch_dir("sidecar").join("fifo.bin");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        made.is_ok_and(|s| s.success())
            .then(|| path.to_str().unwrap().to_string())
    })
    .as_deref()
}

fn claimed(mode: u8, raw: u64, length: usize) -> u64 {
    let exact = (length / 4) as u64;
    match mode & 3 {
        0 => exact,
        1 => raw,
        2 => 1_000_000_000_000,
        _ => exact.wrapping_add((raw as i8) as i64 as u64),
    }
}

fn special_path(mode: u8, file: &str, dir: &str) -> String {
    match mode & 7 {
        4 => dir.to_string(),
        5 => fifo().unwrap_or("/dev/zero").to_string(),
        6 => "/dev/zero".to_string(),
        7 => "missing.bin".to_string(),
        _ => file.to_string(),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 19 {
        return;
    }
    let flags = data[0];
    let count_a = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let count_b = u64::from_le_bytes(data[9..17].try_into().unwrap());
    let split = u16::from_le_bytes([data[17], data[18]]) as usize;
    let body = &data[19..];
    let split = if body.is_empty() {
        0
    } else {
        split % (body.len() + 1)
    };
    let (bytes_a, bytes_b) = body.split_at(split);

    let dir = common::scratch_dir("sidecar");
    let dir_text = dir.to_str().unwrap();
    std::fs::write(dir.join("a.bin"), bytes_a).unwrap();
    std::fs::write(dir.join("b.bin"), bytes_b).unwrap();

    let path_a = special_path(flags >> 4, "a.bin", dir_text);
    let path_b = special_path(flags >> 1 & 7, "b.bin", dir_text);
    let full = |p: &str| {
        if p.starts_with('/') {
            p.to_string()
        } else {
            format!("{dir_text}/{p}")
        }
    };
    for (path, bytes) in [(full(&path_a), bytes_a), (full(&path_b), bytes_b)] {
        let read = read_float32_file(&path);
        if path.ends_with(".bin") && !path.ends_with("fifo.bin") && !path.ends_with("missing.bin") {
            // A regular file: every complete little-endian float32, bit for bit.
            let values = read.unwrap();
            assert_eq!(values.len(), bytes.len() / 4, "{path}");
            for (value, chunk) in values.iter().zip(bytes.chunks_exact(4)) {
                assert_eq!(
                    value.to_bits(),
                    u32::from_le_bytes(chunk.try_into().unwrap())
                );
            }
        } else {
            assert!(read.is_err(), "{path} is not a regular file but was read");
        }
    }

    let sidecar = |count: u64, path: &str| {
        Some(SidecarRef {
            count,
            count_text: count.to_string(),
            filename: path.to_string(),
        })
    };
    let count_a = claimed(flags, count_a, bytes_a.len());
    let count_b = claimed(flags >> 2, count_b, bytes_b.len());
    let with_sidecars = |timing: Timing, samples: (u64, &str), frequencies: (u64, &str)| Timing {
        samples: sidecar(samples.0, samples.1),
        frequencies: sidecar(frequencies.0, frequencies.1),
        ..timing
    };

    let thresholds = preset(if flags & 1 == 0 { "default" } else { "strict" }).unwrap();
    // Overlapping summaries reach the bulk SAME step; a clear gap reaches
    // the bulk cycle confirmation.
    for (reference, compare) in [
        (
            robust(1.0e-3, 1.01e-3, 1.02e-3),
            robust(1.0e-3, 1.01e-3, 1.02e-3),
        ),
        (
            robust(1.0e-3, 1.01e-3, 1.02e-3),
            robust(0.9e-3, 0.91e-3, 0.92e-3),
        ),
    ] {
        let reference = with_sidecars(reference, (count_a, &path_a), (count_b, &path_b));
        let compare = with_sidecars(compare, (count_b, &path_b), (count_a, &path_a));
        // Whatever the warning sink's type, it starts empty.
        let warnings = RefCell::new(Default::default());
        let ref_bulk = SidecarEvidence::new(&reference, dir_text, &warnings);
        let cmp_bulk = SidecarEvidence::new(&compare, dir_text, &warnings);
        let _ = ref_bulk.paths();
        common::check_decisions((&reference, &ref_bulk), (&compare, &cmp_bulk), &thresholds);
    }
});
