//! Unit tests of the coverage statistics, with expectations produced by the
//! reference (numpy 2.4); [`differential`] checks the optimized code
//! against the [`oracle`].

mod differential;
pub(crate) mod oracle;
mod simple_paths;
mod streaming;
pub(crate) mod support;

use super::hits::Side;
use super::log_walk::{covered_flags_by_logs, nan_min};
use super::support_filter::support_filter;
use super::*;
use support::{
    covered_flags, positive_finite, sample_interval, sorted_copy, sorted_unique, time_and_cycles,
};

#[test]
fn radix_order_matches_comparison_order() {
    let mut state = 0x2545F4914F6CDD1Du64;
    let mut next = || {
        crate::testing::xorshift_step(&mut state);
        state
    };
    for size in [0, 1, 2, 3, 100, 5000] {
        let values: Vec<f64> = (0..size)
            .map(|i| match i % 4 {
                0 => f64::from((next() % 1000 + 1) as f32 * 1e-6),
                1 => (next() % 1_000_000) as f64 * 1e-9 + 1e-12,
                2 => f64::from(f32::from_bits((next() as u32 & 0x3fff_ffff) | 0x0080_0000)),
                _ => 1e-3,
            })
            .collect();
        let mut expected = values.clone();
        expected.sort_by(f64::total_cmp);
        assert_eq!(sorted_copy(&values), expected, "size {size}");
    }
    let with_nan = [2.0, f64::NAN, 1.0, -1.0];
    let sorted = sorted_copy(&with_nan);
    assert_eq!(&sorted[..3], &[-1.0, 1.0, 2.0]);
    assert!(sorted[3].is_nan());
}

/// Bit-exact float equality (NaN equals NaN of the same payload).
#[track_caller]
fn assert_bits(got: f64, expected: f64) {
    assert_eq!(
        got.to_bits(),
        expected.to_bits(),
        "got {got:?}, expected {expected:?}"
    );
}

fn default_thresholds() -> CoverageThresholds {
    CoverageThresholds {
        center_relative: 0.005,
        sample_coverage: 0.97,
        support_coverage: 0.80,
        rare_sample_fraction: 0.001,
        rare_max_removed_sample_fraction: 0.01,
    }
}

fn repeat(value: f64, n: usize) -> Vec<f64> {
    vec![value; n]
}

fn coverages(reference: &[f64], compare: &[f64], t: &CoverageThresholds) -> Coverages {
    nearest_neighbor_coverages(&sorted_unique(reference), &sorted_unique(compare), t)
        .expect("non-empty inputs")
}

#[track_caller]
fn assert_coverages(c: &Coverages, expected: [f64; 4]) {
    assert_bits(c.ref_sample, expected[0]);
    assert_bits(c.cmp_sample, expected[1]);
    assert_bits(c.ref_support, expected[2]);
    assert_bits(c.cmp_support, expected[3]);
}

// Expected coverages, filters, severities and messages below were
// produced by the reference nvbench_compare.py with numpy 2.4.

#[test]
fn all_unique_values() {
    let t = default_thresholds();
    let c = coverages(&[1.0, 2.0, 3.0, 4.0], &[1.004, 2.5, 3.0, 4.1], &t);
    assert_coverages(&c, [0.5, 0.5, 0.5, 0.5]);
    assert_eq!(c.ref_filter, SupportFilter::AllValuesUnique);
    assert_eq!(c.cmp_filter, SupportFilter::AllValuesUnique);
    assert!(!coverages_support_same(&c, &t));
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=50.0%, cmp=50.0%) >= 97.0%; support: min(ref=50.0%, cmp=50.0%) >= 80.0%"
    );
    assert_bits(severity, 0.47);
}

#[test]
fn heavy_ties() {
    let t = default_thresholds();
    let reference = [repeat(1.0, 50), repeat(2.0, 50)].concat();
    let compare = [repeat(1.0, 70), repeat(1.003, 30)].concat();
    let unique = sorted_unique(&reference);
    assert_eq!(unique.values, vec![1.0, 2.0]);
    assert_eq!(unique.counts, vec![50, 50]);
    let c = coverages(&reference, &compare, &t);
    assert_coverages(&c, [0.5, 1.0, 0.5, 1.0]);
    assert_eq!(c.ref_filter, SupportFilter::NoRareValues);
    assert_eq!(c.cmp_filter, SupportFilter::NoRareValues);
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=50.0%, cmp=100.0%) >= 97.0%; support: min(ref=50.0%, cmp=100.0%) >= 80.0%"
    );
    assert_bits(severity, 0.47);
}

#[test]
fn single_rare_outlier_is_filtered_from_support() {
    let t = default_thresholds();
    let reference = [repeat(1.0, 500), repeat(1.001, 499), vec![5.0]].concat();
    let compare = [repeat(1.0, 400), repeat(1.001, 600)].concat();
    let c = coverages(&reference, &compare, &t);
    assert_coverages(&c, [0.999, 1.0, 1.0, 1.0]);
    assert_eq!(
        c.ref_filter,
        SupportFilter::Filtered {
            removed_sample_fraction: 0.001
        }
    );
    assert_eq!(c.ref_filter.describe(), "on(0.1%)");
    assert_eq!(c.cmp_filter, SupportFilter::NoRareValues);
    assert!(coverages_support_same(&c, &t));
    assert_bits(mismatch_message(&c, &t).1, 0.0);
}

#[test]
fn filter_that_would_remove_all_support_keeps_everything() {
    let t = CoverageThresholds {
        rare_sample_fraction: 0.5,
        ..default_thresholds()
    };
    let c = coverages(
        &[1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0],
        &[1.0, 2.0, 3.0, 4.5],
        &t,
    );
    assert_coverages(&c, [0.75, 0.75, 0.75, 0.75]);
    assert_eq!(c.ref_filter, SupportFilter::WouldRemoveAllSupport);
    assert_eq!(c.ref_filter.describe(), "off(would remove all support)");
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=75.0%, cmp=75.0%) >= 97.0%; support: min(ref=75.0%, cmp=75.0%) >= 80.0%"
    );
    assert_bits(severity, 0.21999999999999997);
}

#[test]
fn filter_that_would_remove_too_much_mass_keeps_everything() {
    let t = default_thresholds();
    let reference = [repeat(1.0, 95), vec![2.0, 3.0, 4.0, 5.0, 6.0]].concat();
    let c = coverages(&reference, &repeat(1.0, 100), &t);
    assert_coverages(&c, [0.95, 1.0, 0.16666666666666666, 1.0]);
    assert_eq!(c.ref_filter, SupportFilter::WouldRemoveTooMuchMass);
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=95.0%, cmp=100.0%) >= 97.0%; support: min(ref=16.7%, cmp=100.0%) >= 80.0%"
    );
    assert_bits(severity, 0.6333333333333334);
}

#[test]
fn zero_sample_fraction_disables_filter() {
    let t = CoverageThresholds {
        rare_sample_fraction: 0.0,
        ..default_thresholds()
    };
    let reference = [repeat(1.0, 95), vec![2.0, 3.0, 4.0, 5.0, 6.0]].concat();
    let c = coverages(&reference, &repeat(1.0, 100), &t);
    assert_coverages(&c, [0.95, 1.0, 0.16666666666666666, 1.0]);
    assert_eq!(c.ref_filter, SupportFilter::Disabled);
    assert_eq!(c.cmp_filter.describe(), "off(disabled)");
}

#[test]
fn empty_inputs_are_unusable() {
    let t = default_thresholds();
    let empty = sorted_unique(&[]);
    let one = sorted_unique(&[1.0]);
    assert!(nearest_neighbor_coverages(&empty, &one, &t).is_none());
    assert!(nearest_neighbor_coverages(&one, &empty, &t).is_none());
    let (mask, filter, _) = support_filter(&[], &t);
    assert!(mask.is_empty());
    assert_eq!(filter, SupportFilter::Disabled);
}

#[test]
fn empty_support_selection_is_nan_and_prints_nan() {
    // The public path never yields an empty mask, but np.mean of an
    // empty selection is NaN and the reference would print "nan%".
    let side = Side {
        values: &[1.0, 2.0],
        counts: &[1, 1],
        retained: &[false, false],
    };
    assert!(side.support_coverage(&side.hits(&[true, false])).is_nan());
    let t = default_thresholds();
    let c = Coverages {
        ref_sample: 1.0,
        cmp_sample: 1.0,
        ref_support: f64::NAN,
        cmp_support: 1.0,
        ref_filter: SupportFilter::Disabled,
        cmp_filter: SupportFilter::Disabled,
    };
    assert!(!coverages_support_same(&c, &t));
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=100.0%, cmp=100.0%) >= 97.0%; support: min(ref=nan%, cmp=100.0%) >= 80.0%"
    );
    // Python's max(nan, -0.2, 0.0) keeps the leading NaN, but the outer
    // max(0.0, nan) keeps 0.0 (the reference prints 0.0 here)...
    assert_bits(severity, 0.0);
    // ...while a NaN sample deficit comes first and survives (nan).
    let c = Coverages {
        ref_sample: f64::NAN,
        ref_support: 1.0,
        cmp_support: 0.5,
        ..c
    };
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=nan%, cmp=100.0%) >= 97.0%; support: min(ref=100.0%, cmp=50.0%) >= 80.0%"
    );
    assert!(severity.is_nan());
}

#[test]
fn identical_arrays_are_fully_covered() {
    let t = default_thresholds();
    let values = [1.5, 1.5, 2.5, 3.5];
    let c = coverages(&values, &values, &t);
    assert_coverages(&c, [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(c.ref_filter, SupportFilter::WouldRemoveTooMuchMass);
    assert!(coverages_support_same(&c, &t));
}

#[test]
fn disjoint_arrays_are_not_covered() {
    let t = default_thresholds();
    let c = coverages(&[1.0, 2.0, 3.0], &[10.0, 20.0], &t);
    assert_coverages(&c, [0.0, 0.0, 0.0, 0.0]);
    let (message, severity) = mismatch_message(&c, &t);
    assert_eq!(
        message,
        "sample: min(ref=0.0%, cmp=0.0%) >= 97.0%; support: min(ref=0.0%, cmp=0.0%) >= 80.0%"
    );
    assert_bits(severity, 0.97);
}

#[test]
fn no_rare_values_when_every_value_repeats() {
    let t = default_thresholds();
    let c = coverages(&[1.0, 1.0, 2.0, 2.0], &[1.0, 2.0], &t);
    assert_eq!(c.ref_filter, SupportFilter::NoRareValues);
    assert_eq!(c.cmp_filter, SupportFilter::AllValuesUnique);
    assert!(coverages_support_same(&c, &t));
}

/// Tiny deterministic generator so the merge can be checked on many
/// arrays without extra crates.
fn xorshift(state: &mut u64) -> u64 {
    crate::testing::xorshift_step(state)
}

/// The reference's formulation: binary search, clamp, take the minimum.
fn searchsorted_distances(target: &[f64], source: &[f64]) -> Vec<f64> {
    let last = source.len() - 1;
    target
        .iter()
        .map(|&v| {
            let pos = source.partition_point(|&s| s < v);
            let left = (v - source[pos.saturating_sub(1).min(last)]).abs();
            let right = (v - source[pos.min(last)]).abs();
            nan_min(left, right)
        })
        .collect()
}

#[test]
fn merge_matches_searchsorted_including_ties_and_ends() {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for round in 0..2000 {
        // Small value pools force duplicates, exact matches and targets
        // beyond either end of the source.
        let pool = 1 + (round % 40) as u64;
        let mut draw = |n: u64| -> Vec<f64> {
            let mut v: Vec<f64> = (0..n)
                .map(|_| (xorshift(&mut state) % pool) as f64 * 0.25)
                .collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let n = 1 + round as u64 % 17;
        let m = 1 + (round as u64 * 7) % 13;
        let (target, source) = (draw(n), draw(m));
        for tolerance in [0.0, 0.2, 0.25, 0.5] {
            let merged = covered_flags(&target, &source, tolerance);
            let searched: Vec<bool> = searchsorted_distances(&target, &source)
                .iter()
                .map(|d| *d <= tolerance)
                .collect();
            assert_eq!(merged, searched, "target {target:?} source {source:?}");
            // The same walk over values whose logs are (about) these,
            // taking the logs as it goes.
            let (exp_t, exp_s): (Vec<f64>, Vec<f64>) = (
                target.iter().map(|v| v.exp()).collect(),
                source.iter().map(|v| v.exp()).collect(),
            );
            let logs = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
            assert_eq!(
                covered_flags_by_logs(&exp_t, &exp_s, tolerance),
                covered_flags(&logs(&exp_t), &logs(&exp_s), tolerance),
                "target {exp_t:?} source {exp_s:?}"
            );
        }
    }
}

#[test]
fn sorted_unique_merges_signed_zeros_and_nans() {
    let unique = sorted_unique(&[f64::NAN, 2.0, -0.0, 0.0, 2.0, f64::NAN]);
    assert_eq!(unique.counts, vec![2, 2, 2]);
    assert_eq!(unique.values[1], 2.0);
    assert!(unique.values[2].is_nan());
}

#[test]
fn nan_and_zero_inputs_do_not_panic() {
    let t = default_thresholds();
    let weird = sorted_unique(&[f64::NAN, 0.0, -1.0, 1.0]);
    let c = nearest_neighbor_coverages(&weird, &weird, &t).expect("non-empty");
    assert!(c.ref_sample <= 1.0 || c.ref_sample.is_nan());
    let nan_thresholds = CoverageThresholds {
        center_relative: f64::NAN,
        sample_coverage: f64::NAN,
        support_coverage: f64::NAN,
        rare_sample_fraction: f64::NAN,
        rare_max_removed_sample_fraction: f64::NAN,
    };
    let c = coverages(&[1.0, 1.0, 2.0], &[1.0], &nan_thresholds);
    assert!(!coverages_support_same(&c, &nan_thresholds));
    // A NaN tolerance covers nothing; Python's max keeps the leading NaN.
    let (message, severity) = mismatch_message(&c, &nan_thresholds);
    assert_eq!(
        message,
        "sample: min(ref=0.0%, cmp=0.0%) >= nan%; support: min(ref=0.0%, cmp=0.0%) >= nan%"
    );
    assert!(severity.is_nan());
}

// Quantile expectations are numpy 2.4 `np.quantile` results.

#[test]
fn quantiles_of_small_arrays_match_numpy() {
    for q in [0.0, 0.25, 0.5, 0.75, 1.0] {
        assert_bits(quantile_linear(&[1.0], q), 1.0);
    }
    assert_bits(quantile_linear(&[1.0, 2.0], 0.25), 1.25);
    assert_bits(quantile_linear(&[1.0, 2.0], 0.5), 1.5);
    assert_bits(quantile_linear(&[1.0, 2.0], 0.75), 1.75);
    let fractions = [0.1, 0.2, 0.3, 0.7];
    assert_bits(quantile_linear(&fractions, 0.25), 0.17500000000000002);
    assert_bits(quantile_linear(&fractions, 0.5), 0.25);
    assert_bits(quantile_linear(&fractions, 0.75), 0.39999999999999997);
}

#[test]
fn quantile_uses_numpy_upper_lerp_when_fraction_is_large() {
    // Here `a + (b - a) * t` would give 102.38693008422851.
    let sorted = [31.25909423828125, 53.34477615356445, 114.64746856689453];
    assert_bits(quantile_linear(&sorted, 0.9), 102.38693008422852);
    let sorted = [0.013708611950278282, 1.2723194360733032];
    assert_bits(quantile_linear(&sorted, 0.7), 0.8947361888363956);
}

#[test]
fn quantile_degenerate_inputs_are_nan() {
    assert!(quantile_linear(&[], 0.5).is_nan());
    assert!(quantile_linear(&[1.0, f64::NAN], 0.5).is_nan());
    assert!(quantile_linear(&[1.0, 2.0], 1.5).is_nan());
    assert!(quantile_linear(&[1.0, 2.0], f64::NAN).is_nan());
}

#[test]
fn sample_interval_of_float32_samples_matches_numpy() {
    let samples: Vec<f32> = vec![3.3, 1.1, 2.2, 5.5, 4.4, 1.1, 9.9];
    let values = positive_finite(&samples).expect("usable");
    let interval = sample_interval(&values).expect("valid");
    assert_bits(interval.lower, 1.100000023841858);
    assert_bits(interval.center, 3.299999952316284);
    assert_bits(interval.upper, 4.950000047683716);
    let mut sorted = values.clone();
    sorted.sort_by(f64::total_cmp);
    assert_bits(quantile_linear(&sorted, 0.25), 1.6500000357627869);
    assert_bits(quantile_linear(&sorted, 0.9), 7.259999847412111);
}

#[test]
fn sample_interval_rejects_unusable_samples() {
    assert!(sample_interval(&[]).is_none());
    assert!(sample_interval(&[1.0, 0.0]).is_none());
    assert!(sample_interval(&[1.0, f64::NAN]).is_none());
    assert!(sample_interval(&[1.0, f64::INFINITY]).is_none());
    let same = sample_interval(&[2.0; 5]).expect("all-equal samples are valid");
    assert_eq!((same.lower, same.center, same.upper), (2.0, 2.0, 2.0));
}

#[test]
fn bulk_arrays_must_be_positive_finite_and_paired() {
    assert!(positive_finite(&[]).is_none());
    assert!(positive_finite(&[1.0, -0.0]).is_none());
    assert!(positive_finite(&[1.0, f32::NAN]).is_none());
    assert_eq!(positive_finite(&[0.5, 2.0]), Some(vec![0.5, 2.0]));
    let (times, cycles) =
        time_and_cycles(vec![1.1e-5, 2.0e-5], vec![1.41e9, 1.5e9]).expect("usable");
    assert_bits(times[0], f64::from(1.1e-5_f32));
    // float32 * float32 is exact in float64.
    assert_bits(cycles[0], f64::from(1.1e-5_f32) * f64::from(1.41e9_f32));
}

#[test]
fn percent_formatting_follows_python() {
    assert_eq!(format_percent(0.1225), "12.2%");
    assert_eq!(format_percent(0.1275), "12.8%");
    assert_eq!(format_percent(0.9995), "100.0%");
    assert_eq!(format_percent(f64::NAN), "nan%");
    assert_eq!(format_percent(f64::INFINITY), "inf%");
    for filter in [
        SupportFilter::AllValuesUnique,
        SupportFilter::NoRareValues,
        SupportFilter::WouldRemoveTooMuchMass,
    ] {
        assert!(filter.describe().starts_with("off("));
    }
}
