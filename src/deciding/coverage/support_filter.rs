//! The rare-value support filter (spec `bulk.rare_support.*`): which unique
//! values count towards support coverage, and why the filter was on or off.

use super::CoverageThresholds;
use super::hits::Totals;
use super::verdict::format_percent;

/// Outcome of the rare-value filter applied before unique-support coverage
/// (spec `bulk.rare_support.*`). Every variant except `Filtered` means the
/// full support was kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SupportFilter {
    /// Rare values were dropped; they held this fraction of all samples.
    Filtered {
        removed_sample_fraction: f64,
    },
    Disabled,
    AllValuesUnique,
    NoRareValues,
    WouldRemoveTooMuchMass,
    WouldRemoveAllSupport,
}

impl SupportFilter {
    /// The reference's short description, e.g. `on(0.3%)` or `off(disabled)`.
    pub fn describe(&self) -> String {
        match self {
            SupportFilter::Filtered {
                removed_sample_fraction,
            } => {
                format!("on({})", format_percent(*removed_sample_fraction))
            }
            SupportFilter::Disabled => "off(disabled)".to_string(),
            SupportFilter::AllValuesUnique => "off(all values unique)".to_string(),
            SupportFilter::NoRareValues => "off(no rare values)".to_string(),
            SupportFilter::WouldRemoveTooMuchMass => "off(would remove too much mass)".to_string(),
            SupportFilter::WouldRemoveAllSupport => "off(would remove all support)".to_string(),
        }
    }
}

/// Rare-value filter (spec `bulk.rare_support.*`): values seen fewer
/// than `max(2, ceil(sample_fraction * total))` times are dropped from
/// support coverage, but only when that removes some values, keeps
/// some, and removes at most `max_removed_sample_fraction` of the
/// samples. With the mask, the [`Totals`] the coverages divide by,
/// which this has on the way.
pub(super) fn support_filter(
    counts: &[u64],
    t: &CoverageThresholds,
) -> (Vec<bool>, SupportFilter, Totals) {
    let (exact_total, bound) = exact_sum_and_bound(counts);
    let all = Totals {
        samples: exact_total,
        retained: counts.len() as u64,
    };
    let keep_all = |filter| (vec![true; counts.len()], filter, all);
    let total = saturate(exact_total);
    if counts.is_empty() || total == 0 || filter_disabled(t) {
        return keep_all(SupportFilter::Disabled);
    }
    if all_ones(counts) {
        return keep_all(SupportFilter::AllValuesUnique);
    }
    let min_count = rare_below(t, total);
    if (bound as f64) < min_count {
        // `bound` is at least every count, so every value is rare (cycles,
        // nearly all distinct, mostly are): no count is kept, and the
        // counts need no other pass.
        return keep_all(SupportFilter::WouldRemoveAllSupport);
    }
    let (kept, removed) = if min_count <= EXACT_INTEGERS && exact_total == u128::from(total) {
        // The same counts are kept by the integer bound (below 2^53
        // `c as f64` is exact; above it both tests keep `c`), and no sum of
        // some of the counts wraps when their total fits: one fold of
        // integer compares and adds, where `u64 -> f64` does not vectorize.
        let min_count = min_count as u64;
        counts.iter().fold((0usize, 0u64), |(kept, removed), &c| {
            let keep = c >= min_count;
            (kept + usize::from(keep), removed + if keep { 0 } else { c })
        })
    } else {
        let keep = |c: u64| c as f64 >= min_count;
        let kept = counts.iter().fold(0usize, |n, &c| n + usize::from(keep(c)));
        let removed = saturating_sum(counts.iter().copied().filter(|&c| !keep(c)));
        (kept, removed)
    };
    if kept == counts.len() {
        return keep_all(SupportFilter::NoRareValues);
    }
    if kept == 0 {
        return keep_all(SupportFilter::WouldRemoveAllSupport);
    }
    let removed_sample_fraction = removed as f64 / total as f64;
    if removed_sample_fraction > t.rare_max_removed_sample_fraction {
        return keep_all(SupportFilter::WouldRemoveTooMuchMass);
    }
    (
        counts.iter().map(|&c| c as f64 >= min_count).collect(),
        SupportFilter::Filtered {
            removed_sample_fraction,
        },
        Totals {
            samples: exact_total,
            retained: kept as u64,
        },
    )
}

/// Whether the thresholds turn the filter off whatever the counts.
pub(super) fn filter_disabled(t: &CoverageThresholds) -> bool {
    t.rare_sample_fraction <= 0.0 || t.rare_max_removed_sample_fraction <= 0.0
}

/// The count below which a value of a run of `total` samples is rare,
/// compared as `f64`: exact for any realistic count (< 2^53).
pub(super) fn rare_below(t: &CoverageThresholds, total: u64) -> f64 {
    (t.rare_sample_fraction * total as f64).ceil().max(2.0)
}

/// Every integer up to 2^53 is exact in `f64`.
const EXACT_INTEGERS: f64 = (1u64 << 53) as f64;

/// Whether every count is one: a fold without a branch a count (arrays of
/// cycles are often all distinct), stopping at the first block that says
/// no (arrays of times rarely are).
#[inline(always)]
fn all_ones(counts: &[u64]) -> bool {
    counts
        .chunks(64)
        .all(|block| block.iter().fold(true, |all, &c| all & (c == 1)))
}

pub(super) fn saturating_sum(counts: impl Iterator<Item = u64>) -> u64 {
    counts.fold(0, u64::saturating_add)
}

/// A sum of `u64` counts, taken exactly in `u128` (no count array has
/// 2^64 entries), as the saturating sum gives it: the same value, or
/// `u64::MAX` once it would overflow.
pub(super) fn saturate(sum: u128) -> u64 {
    u64::try_from(sum).unwrap_or(u64::MAX)
}

/// The exact sum of `counts`.
#[cfg(test)]
pub(super) fn exact_sum(counts: &[u64]) -> u128 {
    exact_sum_and_bound(counts).0
}

/// The exact sum of `counts` and their OR, a bound of every count: a
/// wrapping `u64` sum beside the OR, so that the sum is known not to wrap
/// when `len * OR` fits (always, for counts of samples); both vectorize.
/// Otherwise the sum is taken again in `u128`.
#[inline(always)]
fn exact_sum_and_bound(counts: &[u64]) -> (u128, u64) {
    let (sum, any) = counts.iter().fold((0u64, 0u64), |(sum, any), &c| {
        (sum.wrapping_add(c), any | c)
    });
    let bound = u128::from(any) * counts.len() as u128;
    if bound <= u128::from(u64::MAX) {
        (u128::from(sum), any)
    } else {
        (counts.iter().map(|&c| u128::from(c)).sum(), any)
    }
}
