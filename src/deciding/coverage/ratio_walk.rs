//! The ratio walk: the nearest-neighbour coverage flags of the log merge
//! ([`covered_flags_by_logs`](super::log_walk::covered_flags_by_logs)),
//! decided for almost every value by comparing ratios, with logs taken only
//! near the threshold.

use super::hits::{Hits, Side, Totals};
use super::log_walk::nan_min;

/// Adjacent values of one run closer than this ratio need their logs
/// compared before the fast path takes the run ([`logs_ascend`]).
const SEPARATION: f64 = 1.0 + 1e-12;
/// Ratios within this relative distance of `1 + center_relative` are
/// decided with the logs.
pub(super) const RATIO_MARGIN: f64 = 1e-9;
/// The fast path takes values in `[SMALLEST, LARGEST]` and
/// `center_relative` in `[MIN_CENTER_RELATIVE, MAX_CENTER_RELATIVE]` only.
const SMALLEST: f64 = 1e-300;
const LARGEST: f64 = 1e300;
pub(super) const MIN_CENTER_RELATIVE: f64 = 1e-8;
pub(super) const MAX_CENTER_RELATIVE: f64 = 1e6;

/// The hits of both runs as the log merge (`covered_flags_by_logs`)
/// computes them, but deciding most values by ratio and taking the logs
/// only near the threshold. `None` (use the logs) when the argument
/// below does not apply, and on the simple paths.
///
/// Why the results are identical: `f64::ln` (glibc's `log`) is within one
/// ulp of the true logarithm, i.e. within 1.6e-13 for values in
/// `[1e-300, 1e300]` (|ln| < 691), and `ln_1p` within one ulp too.
/// - The computed logs of each run never decrease (checked by
///   [`logs_ascend`]: adjacent values more than `1 + 1e-12` apart have true
///   logs more than 1e-12 apart, so their computed logs increase; closer
///   pairs, rare, take their logs): the log merge stops at the first value
///   whose log is not below the target's. Source values with equal logs
///   are within `1 + 1e-12`: a target far from them gets the same
///   neighbours, one near them is covered either way. A target whose log
///   is below the previous target's (within `1 + 1e-12` of it) can only
///   start its merge late past a source value within `1 + 1e-12` of both,
///   and is then covered either way too.
/// - If the other run has no value within ratio `1 + 1e-12` of a value,
///   the computed log of the value lies strictly between the same two
///   neighbours' logs as the value itself between their values (equal
///   values have equal logs), so the log merge picks the same neighbours
///   `below` and `above` as a value search. If it does have one, both
///   find a neighbour within a log distance of ~1.3e-12, below the
///   tolerance (c >= 1e-8), and the ratio test below declares it covered.
/// - A neighbour with `larger <= smaller * (1 + c) * (1 - 1e-9)` has a true
///   log distance at least ~1e-9 below `ln(1 + c)`, far more than the
///   rounding of logs, ratio and tolerance (< 1e-12), so its computed
///   distance is `<= tolerance`; with `larger >= smaller * (1 + c) *
///   (1 + 1e-9)` it is `> tolerance`.
/// - Anything else (ratios within 1e-9 of the threshold, e.g. 201/200 for
///   c = 0.005) is decided by the logs with the very expression of
///   `covered_flags_by_logs`.
pub(super) fn hits_by_ratio(
    (a, a_totals): (&Side, Totals),
    (b, b_totals): (&Side, Totals),
    center_relative: f64,
    tolerance: f64,
) -> Option<(Hits, Hits)> {
    if crate::fast_paths::simple_paths() {
        return None;
    }
    let usable = (MIN_CENTER_RELATIVE..=MAX_CENTER_RELATIVE).contains(&center_relative)
        && tolerance > 0.0
        && in_fast_range(a.values)
        && in_fast_range(b.values)
        && logs_ascend(a.values)
        && logs_ascend(b.values);
    if !usable {
        return None;
    }
    let ratio = RatioTest {
        inside: (1.0 + center_relative) * (1.0 - RATIO_MARGIN),
        outside: (1.0 + center_relative) * (1.0 + RATIO_MARGIN),
        tolerance,
    };
    let a_uncovered = ratio.uncovered(a.values, b.values);
    let b_uncovered = ratio.uncovered(b.values, a.values);
    Some((
        a.hits_except(&a_uncovered, a_totals),
        b.hits_except(&b_uncovered, b_totals),
    ))
}

/// Adjacent pairs of source values tested at once for a wide gap.
const GAP_BLOCK: usize = 16;

pub(super) struct RatioTest {
    pub(super) inside: f64,
    pub(super) outside: f64,
    pub(super) tolerance: f64,
}

impl RatioTest {
    /// Which of the ascending `targets` (their indices, ascending) have no
    /// neighbour in the ascending `source` within tolerance. The neighbours of a target are
    /// `source[q - 1] < target <= source[q]` (0 and +inf beyond the ends:
    /// never within tolerance and at an infinite log distance, so the
    /// nearest neighbour is the end value, as in the clamped log merge).
    ///
    /// Source values are dense where samples are: a target between two
    /// source values at most `inside` apart is covered by the lower one
    /// (`target <= above <= below * inside`). Only targets in the few wider
    /// gaps, and beyond the ends, are tested one by one.
    #[inline(always)]
    pub(super) fn uncovered(&self, targets: &[f64], source: &[f64]) -> Vec<usize> {
        let mut uncovered = Vec::new();
        let mut from = 0;
        let mut gap = |below: f64, above: f64| {
            // The targets in (below, above].
            let start = from + gallop(&targets[from..], |v| v <= below);
            let end = start + gallop(&targets[start..], |v| v <= above);
            for (i, &value) in targets.iter().enumerate().take(end).skip(start) {
                if !self.covered(value, below, above) {
                    uncovered.push(i);
                }
            }
            from = end;
        };
        gap(0.0, source[0]);
        // Wide gaps are rare: a block of pairs is tested by a fold without
        // early exit, which vectorizes, and walked only when it has one.
        let wide = |pair: &[f64]| pair[1] > pair[0] * self.inside;
        for start in (0..source.len() - 1).step_by(GAP_BLOCK) {
            let block = &source[start..source.len().min(start + GAP_BLOCK + 1)];
            if block.windows(2).fold(false, |any, pair| any | wide(pair)) {
                for pair in block.windows(2).filter(|pair| wide(pair)) {
                    gap(pair[0], pair[1]);
                }
            }
        }
        gap(source[source.len() - 1], f64::INFINITY);
        uncovered
    }

    /// [`Self::uncovered`] as flags, as the log merge gives them.
    #[cfg(test)]
    pub(super) fn covered_flags(&self, targets: &[f64], source: &[f64]) -> Vec<bool> {
        let mut flags = vec![true; targets.len()];
        for i in self.uncovered(targets, source) {
            flags[i] = false;
        }
        flags
    }

    /// `below < value <= above`, or within `SEPARATION` of that.
    fn covered(&self, value: f64, below: f64, above: f64) -> bool {
        let clearly_in = (value <= below * self.inside) | (above <= value * self.inside);
        let clearly_out = (value >= below * self.outside) & (above >= value * self.outside);
        if clearly_in | clearly_out {
            clearly_in
        } else {
            log_distance_within(value, below, above, self.tolerance)
        }
    }
}

/// The log-space test itself. Kept out of line: LLVM treats `ln` as free
/// of side effects and, inlined, hoisted the three logs above the ratio
/// tests that are meant to make them rare.
#[cold]
#[inline(never)]
fn log_distance_within(value: f64, below: f64, above: f64, tolerance: f64) -> bool {
    let log = value.ln();
    nan_min((log - below.ln()).abs(), (log - above.ln()).abs()) <= tolerance
}

/// `values.partition_point(pred)`, searching from the front in growing
/// steps: cheap when the answer is near the start.
fn gallop(values: &[f64], pred: impl Fn(f64) -> bool) -> usize {
    let mut end = 1;
    while end < values.len() && pred(values[end]) {
        end *= 2;
    }
    let start = end / 2;
    let end = end.min(values.len());
    start + values[start..end].partition_point(|&v| pred(v))
}

/// `ln(a) < ln(b)`, out of line for the reason given at
/// [`log_distance_within`].
#[cold]
#[inline(never)]
fn log_is_less(a: f64, b: f64) -> bool {
    a.ln() < b.ln()
}

/// Non-empty ascending values in `[SMALLEST, LARGEST]`.
#[inline(always)]
fn in_fast_range(values: &[f64]) -> bool {
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else {
        return false;
    };
    first >= SMALLEST && last <= LARGEST
}

/// Whether the computed logs of the ascending `values` never decrease:
/// certain for neighbours more than `SEPARATION` apart, checked with the
/// logs for closer ones (pooled runs often have a few).
#[inline(always)]
pub(super) fn logs_ascend(values: &[f64]) -> bool {
    well_separated(values)
        || values
            .windows(2)
            .all(|w| w[1] > w[0] * SEPARATION || !log_is_less(w[1], w[0]))
}

/// Adjacent values more than `SEPARATION` apart in ratio: zipped slices
/// (not `windows`), so that the pairs are loaded as whole vectors.
#[inline(always)]
fn well_separated(values: &[f64]) -> bool {
    let Some(next) = values.get(1..) else {
        return true;
    };
    next.iter()
        .zip(values)
        .fold(true, |ok, (&next, &value)| ok & (next > value * SEPARATION))
}
