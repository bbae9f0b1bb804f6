//! Bulk-sample statistics for the decision tree: cycle intervals for
//! confirming a clear gap (spec "Decision Tree", step 2) and symmetric
//! nearest-neighbour coverage in log space for declaring SAME (step 3).
//!
//! Everything here must reproduce the reference's float64 NumPy arithmetic bit
//! for bit, because coverages are compared against thresholds and printed as
//! percentages:
//! - quantiles follow NumPy's default `linear` method, including its virtual
//!   index `(n - 1) * q` and its two-sided lerp;
//! - counts are summed as integers and divided once, as NumPy does;
//! - nearest-neighbour distances equal `np.searchsorted(side="left")` on the
//!   logs of the sorted unique values, but come from a linear merge.
//!
//! Logs use `f64::ln` (the C library's `log`). NumPy may use its own SIMD
//! `log` (AVX-512 builds), which differs from the C library in the last bit
//! for about one value in 10^4. A coverage flag can only flip when two samples
//! have a ratio exactly equal to `1 + same.center_relative` as float64 (e.g.
//! 201/200 for the default 0.005); only then does a 1-ulp log difference
//! decide `distance <= tolerance`.
//!
//! Parity is guaranteed for the inputs the reference actually sees: non-empty
//! arrays of positive finite values. Other inputs (empty, NaN, zero) never
//! panic and give NaN or `None` where NumPy would warn or raise.
//!
//! One job a file: [`same_bound`], bounds that prove step 3's SAME from one
//! pass over the samples, tried before anything is sorted; [`sorted`] runs
//! of unique values (arrays of few distinct values are counted by
//! [`few_distinct`] instead), the rare-value
//! [`support_filter`](mod@support_filter), the reference's [`log_walk`]
//! and the faster [`ratio_walk`] that gives the same flags, the [`hits`]
//! those flags count, [`quantiles`] for the cycle intervals, and the
//! step-3 [`verdict`]. Test-only code (the old implementation kept as an
//! oracle, and helpers) lives in [`tests`].

mod few_distinct;
mod hits;
mod log_walk;
mod quantiles;
mod ratio_walk;
mod same_bound;
mod sorted;
mod support_filter;
#[cfg(test)]
pub(crate) mod tests;
mod verdict;

pub use quantiles::{SampleInterval, quantile_linear};
pub(in crate::deciding) use quantiles::{bits_at_ranks, sample_interval_of_bits};
pub(in crate::deciding) use sorted::RunBits;
pub use sorted::SortedUnique;
pub use support_filter::SupportFilter;
pub use verdict::{coverages_support_same, format_percent, mismatch_message};

use super::value_stats::BitStats;
use hits::Side;
use log_walk::covered_flags_by_logs;
use ratio_walk::hits_by_ratio;
use same_bound::{FLOAT32, FLOAT64, bounds_prove_same};
use support_filter::support_filter;

/// The thresholds this module reads (spec "Configuration Keys").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoverageThresholds {
    /// `same.center_relative`; the log-space tolerance is `ln(1 + this)`.
    pub center_relative: f64,
    /// `bulk.sample_coverage`.
    pub sample_coverage: f64,
    /// `bulk.support_coverage`.
    pub support_coverage: f64,
    /// `bulk.rare_support.sample_fraction`.
    pub rare_sample_fraction: f64,
    /// `bulk.rare_support.max_removed_sample_fraction`.
    pub rare_max_removed_sample_fraction: f64,
}

/// Nearest-neighbour coverages of both runs against each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coverages {
    /// Fraction of reference samples whose value has a close compare value.
    pub ref_sample: f64,
    pub cmp_sample: f64,
    /// Fraction of retained reference unique values that are covered.
    pub ref_support: f64,
    pub cmp_support: f64,
    pub ref_filter: SupportFilter,
    pub cmp_filter: SupportFilter,
}

/// What step 3 found for one kind of values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::deciding) enum CoverageOutcome {
    /// Bounds showed that the coverages reach the thresholds, without
    /// counting them (see [`same_bound`]).
    ProvedSame,
    /// The exact coverages; `None` when either side has no values.
    Counted(Option<Coverages>),
}

/// Spec step 3 for one kind of values of both runs: arrays of few distinct
/// values are counted (cheaply, exactly); two runs of many are first tried
/// by the bounds, and sorted only when those do not settle it.
pub(in crate::deciding) fn step3_coverages<I, S>(
    reference: RunBits<I, S>,
    compare: RunBits<I, S>,
    t: &CoverageThresholds,
) -> CoverageOutcome
where
    I: ExactSizeIterator<Item = u64> + Clone,
    S: FnOnce() -> BitStats,
{
    let (ref_few, cmp_few) = (reference.counted_if_few(), compare.counted_if_few());
    let format = if reference.float32 { FLOAT32 } else { FLOAT64 };
    if ref_few.is_none()
        && cmp_few.is_none()
        && bounds_prove_same(reference.bits.clone(), compare.bits.clone(), format, t)
    {
        return CoverageOutcome::ProvedSame;
    }
    let ref_unique = ref_few.unwrap_or_else(|| reference.sorted());
    let cmp_unique = cmp_few.unwrap_or_else(|| compare.sorted());
    CoverageOutcome::Counted(nearest_neighbor_coverages(&ref_unique, &cmp_unique, t))
}

/// Spec step 3: a unique value is covered when its nearest unique value in
/// the other run lies within `ln(1 + same.center_relative)` in log space.
/// `None` when either side has no values (the reference's "unusable" case).
pub fn nearest_neighbor_coverages(
    reference: &SortedUnique,
    compare: &SortedUnique,
    t: &CoverageThresholds,
) -> Option<Coverages> {
    if reference.values.is_empty() || compare.values.is_empty() {
        return None;
    }
    let tolerance = t.center_relative.ln_1p();
    let (ref_mask, ref_filter, ref_totals) = support_filter(&reference.counts, t);
    let (cmp_mask, cmp_filter, cmp_totals) = support_filter(&compare.counts, t);
    let ref_side = Side {
        values: &reference.values,
        counts: &reference.counts,
        retained: &ref_mask,
    };
    let cmp_side = Side {
        values: &compare.values,
        counts: &compare.counts,
        retained: &cmp_mask,
    };
    let (ref_hits, cmp_hits) = hits_by_ratio(
        (&ref_side, ref_totals),
        (&cmp_side, cmp_totals),
        t.center_relative,
        tolerance,
    )
    .unwrap_or_else(|| {
        let (r, c) = (&reference.values, &compare.values);
        (
            ref_side.hits(&covered_flags_by_logs(r, c, tolerance)),
            cmp_side.hits(&covered_flags_by_logs(c, r, tolerance)),
        )
    });
    Some(Coverages {
        ref_sample: ref_side.sample_coverage(&ref_hits),
        cmp_sample: cmp_side.sample_coverage(&cmp_hits),
        ref_support: ref_side.support_coverage(&ref_hits),
        cmp_support: cmp_side.support_coverage(&cmp_hits),
        ref_filter,
        cmp_filter,
    })
}
