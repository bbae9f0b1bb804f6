//! Helpers shared by the fuzz targets (included with `mod common;`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use nvbench_compare::deciding::decision::{BulkEvidence, Comparison, NoBulk, Side, compare_timings};
use nvbench_compare::deciding::status::Status;
use nvbench_compare::deciding::config::Thresholds;
use nvbench_compare::loading::timing::Timing;

/// A scratch directory of this fuzzing process (in /dev/shm when it exists,
/// so that writing the input files each run stays cheap).
pub fn scratch_dir(target: &str) -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let base = if Path::new("/dev/shm").is_dir() {
            PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("nvbc-fuzz-{target}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("cannot create the fuzz scratch directory");
        dir
    })
}

/// Splits `data` at every occurrence of `separator`.
pub fn split<'a>(data: &'a [u8], separator: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = data;
    while let Some(at) = rest.windows(separator.len()).position(|w| w == separator) {
        parts.push(&rest[..at]);
        rest = &rest[at + separator.len()..];
    }
    parts.push(rest);
    parts
}

fn mirrored(status: Status) -> Status {
    match status {
        Status::Fast => Status::Slow,
        Status::Slow => Status::Fast,
        other => other,
    }
}

/// Decides `reference` vs `compare` both ways and checks the decision-tree
/// invariants that hold for any input: swapping the sides mirrors FAST and
/// SLOW and keeps every other status and the reason; a state compared with
/// itself is never FAST or SLOW.
pub fn check_decisions(
    reference: (&Timing, &dyn BulkEvidence),
    compare: (&Timing, &dyn BulkEvidence),
    thresholds: &Thresholds,
) -> Comparison {
    let forward = compare_timings(
        &Side {
            timing: reference.0,
            bulk: reference.1,
        },
        &Side {
            timing: compare.0,
            bulk: compare.1,
        },
        thresholds,
    );
    let backward = compare_timings(
        &Side {
            timing: compare.0,
            bulk: compare.1,
        },
        &Side {
            timing: reference.0,
            bulk: reference.1,
        },
        thresholds,
    );
    assert_eq!(
        (mirrored(forward.status), forward.reason.code),
        (backward.status, backward.reason.code),
        "swapping reference and compare changed the decision:\n{:?}\n{:?}",
        reference.0,
        compare.0
    );
    for (timing, bulk) in [reference, compare] {
        let itself = compare_timings(&Side { timing, bulk }, &Side { timing, bulk }, thresholds);
        assert!(
            !matches!(itself.status, Status::Fast | Status::Slow),
            "a state compared with itself is {:?}: {timing:?}",
            itself.status
        );
    }
    forward
}

/// `check_decisions` without bulk evidence.
pub fn check_summary_decisions(reference: &Timing, compare: &Timing, thresholds: &Thresholds) {
    check_decisions((reference, &NoBulk), (compare, &NoBulk), thresholds);
}
