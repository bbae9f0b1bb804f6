//! The streaming count pass (one pass for the hits and the totals they are
//! divided by) against the separate sums it replaced, and the support
//! filter against the oracle's on counts of every kind, saturating ones
//! included.

use super::super::hits::{Side, Totals};
use super::super::support_filter::{exact_sum, saturating_sum, support_filter};
use super::super::{CoverageThresholds, SupportFilter};
use super::oracle;

fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        crate::testing::xorshift_step(&mut state);
        state
    }
}

/// Counts of every kind: small, ones, rare among frequent, and huge ones
/// whose sums saturate.
fn counts(next: &mut impl FnMut() -> u64) -> Vec<u64> {
    // Mostly short, some long enough for whole vectorized blocks.
    let len = (next() % if next().is_multiple_of(4) { 300 } else { 40 }) as usize;
    let kind = next() % 6;
    (0..len)
        .map(|_| match kind {
            0 => 1,
            1 => 1 + next() % 3,
            2 if next().is_multiple_of(8) => 1 + next() % 2,
            2 => 500 + next() % 5000,
            3 => u64::MAX / (1 + next() % 4) - next() % 7,
            // Around 2^53, where a count's f64 stops being exact.
            4 => (1 << 52) + next() % (1 << 54),
            _ => next() % 6,
        })
        .collect()
}

fn thresholds(next: &mut impl FnMut() -> u64) -> CoverageThresholds {
    let fractions = [0.0, -1.0, 0.0005, 0.001, 0.01, 0.2, 1.0];
    let pick = |n: u64| fractions[(n % fractions.len() as u64) as usize];
    CoverageThresholds {
        center_relative: 0.005,
        sample_coverage: 0.97,
        support_coverage: 0.8,
        rare_sample_fraction: pick(next()),
        rare_max_removed_sample_fraction: pick(next()),
    }
}

#[test]
fn support_filter_agrees_with_the_oracle() {
    let mut next = xorshift(0x5DEE_CE66_D1CE_4E5B);
    let mut filtered = 0;
    for _ in 0..50_000 {
        let counts = counts(&mut next);
        let t = thresholds(&mut next);
        let (mask, filter, totals) = support_filter(&counts, &t);
        let values = vec![1.0; counts.len()];
        let side = Side {
            values: &values,
            counts: &counts,
            retained: &mask,
        };
        assert_eq!(totals, Totals::of(&side), "{counts:?} {t:?}");
        let (oracle_mask, oracle_filter) = oracle::support_filter(&counts, &t);
        assert_eq!(mask, oracle_mask, "{counts:?} {t:?}");
        match (filter, oracle_filter) {
            (
                SupportFilter::Filtered {
                    removed_sample_fraction: a,
                },
                SupportFilter::Filtered {
                    removed_sample_fraction: b,
                },
            ) => {
                assert_eq!(a.to_bits(), b.to_bits(), "{counts:?} {t:?}");
                filtered += 1;
            }
            (a, b) => assert_eq!(a, b, "{counts:?} {t:?}"),
        }
    }
    assert!(filtered > 1000, "{filtered}");
}

/// The coverages as the separate sums gave them: a checked sum to choose
/// plain or saturating sums of the covered counts, a saturating sum of all
/// counts, and a count of the retained values.
fn separate_sums(counts: &[u64], retained: &[bool], covered: &[bool]) -> (f64, f64) {
    let fits = counts
        .iter()
        .try_fold(0u64, |sum, &n| sum.checked_add(n))
        .is_some();
    let mut samples = 0u64;
    let mut support = 0u64;
    for ((&c, &n), &keep) in covered.iter().zip(counts).zip(retained) {
        samples = if fits {
            samples + n * u64::from(c)
        } else {
            samples.saturating_add(n * u64::from(c))
        };
        support += u64::from(c & keep);
    }
    let total = saturating_sum(counts.iter().copied());
    let kept = retained.iter().filter(|&&keep| keep).count();
    (samples as f64 / total as f64, support as f64 / kept as f64)
}

#[test]
fn one_pass_hits_agree_with_the_separate_sums() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    for _ in 0..50_000 {
        let counts = counts(&mut next);
        let values: Vec<f64> = (0..counts.len()).map(|i| i as f64 + 1.0).collect();
        let retained: Vec<bool> = counts.iter().map(|_| !next().is_multiple_of(4)).collect();
        let covered: Vec<bool> = counts.iter().map(|_| !next().is_multiple_of(3)).collect();
        let side = Side {
            values: &values,
            counts: &counts,
            retained: &retained,
        };
        let hits = side.hits(&covered);
        let got = (side.sample_coverage(&hits), side.support_coverage(&hits));
        let expected = separate_sums(&counts, &retained, &covered);
        // Bit for bit, but any NaN (0 / 0 of empty arrays; its sign bit
        // depends on constant folding) for a NaN.
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        assert!(
            same(got.0, expected.0),
            "{counts:?} {covered:?}: {got:?} {expected:?}"
        );
        assert!(
            same(got.1, expected.1),
            "{retained:?} {covered:?}: {got:?} {expected:?}"
        );
    }
}

#[test]
fn hits_of_the_uncovered_indices_agree_with_the_flags() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut some_uncovered = 0;
    for _ in 0..50_000 {
        let counts = counts(&mut next);
        let values: Vec<f64> = (0..counts.len()).map(|i| i as f64 + 1.0).collect();
        let retained: Vec<bool> = counts.iter().map(|_| !next().is_multiple_of(4)).collect();
        // Mostly covered, as the ratio walk finds them, or any mix.
        let rare = next().is_multiple_of(2);
        let covered: Vec<bool> = counts
            .iter()
            .map(|_| {
                if rare {
                    !next().is_multiple_of(16)
                } else {
                    !next().is_multiple_of(3)
                }
            })
            .collect();
        let uncovered: Vec<usize> = (0..covered.len()).filter(|&i| !covered[i]).collect();
        some_uncovered += usize::from(!uncovered.is_empty());
        let side = Side {
            values: &values,
            counts: &counts,
            retained: &retained,
        };
        assert_eq!(
            side.hits_except(&uncovered, Totals::of(&side)),
            side.hits(&covered),
            "{counts:?} {covered:?} {retained:?}"
        );
    }
    assert!(some_uncovered > 10_000, "{some_uncovered}");
}

#[test]
fn exact_sums_agree_with_u128_sums() {
    let mut next = xorshift(0x1234_5678_9ABC_DEF1);
    for _ in 0..50_000 {
        let counts = counts(&mut next);
        let expected: u128 = counts.iter().map(|&c| u128::from(c)).sum();
        assert_eq!(exact_sum(&counts), expected, "{counts:?}");
    }
}
