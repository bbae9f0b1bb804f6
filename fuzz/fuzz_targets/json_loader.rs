//! NVBench JSON loader: arbitrary bytes -> `model::Root` -> the timing of
//! every state -> the decision tree on neighbouring states (with the swap and
//! self-comparison invariants checked). Also checks the schema reader's
//! contract (`loading::schema`, with either classifier): whatever it
//! accepts, the full reader (serde_json with Python's leniencies) accepts
//! with the same model, also read as a later run anchored to itself
//! (`loading::anchor`).

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use nvbench_compare::deciding::config::{PRESET_NAMES, preset};
use nvbench_compare::loading::anchor::{AxisAnchor, Role};
use nvbench_compare::loading::model::Root;
use nvbench_compare::loading::schema::read_anchored;
use nvbench_compare::loading::timing::extract_timing;

fuzz_target!(|data: &[u8]| {
    let slow = serde_json::from_slice::<Root>(data);
    for allow_avx2 in [true, false] {
        if let Ok(fast) = nvbench_compare::loading::schema::read_with(data, allow_avx2) {
            let full = nvbench_compare::loading::inputs::read_full(data)
                .expect("the schema reader accepted what the full reader refuses");
            assert_eq!(format!("{fast:?}"), format!("{full:?}"));
            // Read again as a later run of a comparison whose first run is
            // this one: every ident is shared, and nothing read changes.
            let anchor = AxisAnchor::of(&full);
            if let Ok(later) = read_anchored(data, Role::Later(&anchor)) {
                assert_eq!(format!("{later:?}"), format!("{full:?}"));
            }
        }
    }
    let Ok(root) = slow else {
        return;
    };
    let mut warnings = Vec::new();
    let mut timings = Vec::new();
    for benchmark in root.benchmarks.iter().flatten() {
        for state in benchmark.states() {
            let _ = (state.is_skipped(), state.has_summaries());
            for value in state.axis_values() {
                if let Some(v) = &value.value {
                    let _ = (
                        v.py_str(),
                        v.py_repr(),
                        v.py_float(),
                        v.py_int(),
                        v.truthy(),
                    );
                }
            }
            if let Some(summaries) = &state.summaries {
                if let Ok(timing) = extract_timing(summaries, &mut warnings) {
                    timings.push(timing);
                }
            }
        }
    }
    for name in PRESET_NAMES {
        let thresholds = preset(name).unwrap();
        for pair in timings.windows(2) {
            common::check_summary_decisions(&pair[0], &pair[1], &thresholds);
        }
        if let [only] = timings.as_slice() {
            common::check_summary_decisions(only, only, &thresholds);
        }
    }
});
