//! TOML config parser: arbitrary bytes in a file -> `config::resolve`, with
//! and without a CLI preset. Every accepted config is dumped, and the dump
//! must read back to the same preset and thresholds.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use nvbench_compare::deciding::config::{dump, resolve};

fuzz_target!(|data: &[u8]| {
    let dir = common::scratch_dir("config");
    let path = dir.join("compare.toml");
    std::fs::write(&path, data).unwrap();
    let path = path.to_str().unwrap();
    for cli_preset in [None, Some("strict"), Some(""), Some("bogus")] {
        let Ok((name, thresholds)) = resolve(cli_preset, Some(path)) else {
            continue;
        };
        // `all`: also the keys of this tool's own at their preset values.
        for all in [false, true] {
            let text = dump(&name, &thresholds, all);
            let dumped = dir.join("dumped.toml");
            std::fs::write(&dumped, &text).unwrap();
            let again = resolve(None, Some(dumped.to_str().unwrap()));
            let same = again.as_ref().is_ok_and(|(n, t)| {
                *n == name
                    && [
                        (t.clear_gap_relative, thresholds.clear_gap_relative),
                        (t.clear_gap_without_clock, thresholds.clear_gap_without_clock),
                        (t.same_center_relative, thresholds.same_center_relative),
                        (t.same_overlap_fraction, thresholds.same_overlap_fraction),
                        (
                            t.same_relative_dispersion_ceiling,
                            thresholds.same_relative_dispersion_ceiling,
                        ),
                        (t.bulk_sample_coverage, thresholds.bulk_sample_coverage),
                        (t.bulk_support_coverage, thresholds.bulk_support_coverage),
                        (t.rare_sample_fraction, thresholds.rare_sample_fraction),
                        (
                            t.rare_max_removed_sample_fraction,
                            thresholds.rare_max_removed_sample_fraction,
                        ),
                    ]
                    .iter()
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            });
            assert!(
                same,
                "--dump-config output does not read back:\n{text}\n{again:?}"
            );
        }
    }
});
