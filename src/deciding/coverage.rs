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

#[cfg(test)]
use std::cmp::Ordering;

use super::radix::{LARGE_LEN, RadixKey, give_back, lsd_sort, sort_huge, take_buffer};
use super::value_stats::BitStats;
#[cfg(test)]
use super::value_stats::float32_bit_stats;

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

/// Distinct values in ascending order with their occurrence counts, like
/// `np.unique(values, return_counts=True)`. Compute it once per array.
#[derive(Clone, Debug, PartialEq)]
pub struct SortedUnique {
    pub values: Vec<f64>,
    pub counts: Vec<u64>,
}

/// Sort and count distinct values of any float64 array (tests build their
/// inputs with it; bulk samples take [`sorted_unique_of_bits`]). As in
/// NumPy, `-0.0 == 0.0` share one entry and NaNs sort last and collapse
/// into one entry.
#[cfg(test)]
pub fn sorted_unique(values: &[f64]) -> SortedUnique {
    match SortedBits::of(values) {
        Some(sorted) => sorted.unique(),
        // Not positive and finite: the comparison sort as it always was.
        None => oracle::sorted_unique(values),
    }
}

/// An ascending copy of `values`. Bulk samples are positive and finite,
/// and for those the IEEE bit patterns sort like the numbers, so a radix
/// sort on the bits (linear, and far faster than comparisons for the 10^4+
/// samples per run NVBench records) gives the same order. Anything else is
/// sorted by comparison.
#[cfg(test)]
fn sorted_copy(values: &[f64]) -> Vec<f64> {
    match SortedBits::of(values) {
        Some(sorted) => match &sorted.keys {
            Reduced::Narrow(keys) => keys.iter().map(|&r| sorted.value(r.into())).collect(),
            Reduced::Wide(keys) => keys.iter().map(|&r| sorted.value(r)).collect(),
        },
        None => sorted_by_comparison(values),
    }
}

#[cfg(test)]
fn sorted_by_comparison(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(nan_last);
    sorted
}

/// Minimum, maximum, AND and OR of a set of keys.
type KeyStats = BitStats;

#[cfg(test)]
impl KeyStats {
    const EMPTY: KeyStats = KeyStats {
        min: u64::MAX,
        max: 0,
        all: u64::MAX,
        any: 0,
    };

    fn add(&mut self, key: u64) {
        self.min = self.min.min(key);
        self.max = self.max.max(key);
        self.all &= key;
        self.any |= key;
    }
}

/// Ascending positive finite values as reduced keys: the value of reduced
/// key `r` has the bit pattern `(r << shift) + min` (as float32 bits when
/// `float32`). Only the bits that vary are kept: the low `shift` bits are
/// the same in every key (cycles, products of two float32 values, end in
/// zero bits), and subtracting the minimum keeps the order.
struct SortedBits {
    keys: Reduced,
    shift: u32,
    min: u64,
    float32: bool,
}

enum Reduced {
    /// At most 32 varying bits (sample times, float32 patterns).
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl SortedBits {
    /// `None` unless every value is positive and finite. Widened float32
    /// values are sorted on their 32-bit patterns, as sample times are.
    #[cfg(test)]
    fn of(values: &[f64]) -> Option<SortedBits> {
        if values.is_empty() || !values.iter().all(|v| v.is_finite() && *v > 0.0) {
            return None;
        }
        if values.iter().all(|&v| f64::from(v as f32) == v) {
            let narrow: Vec<f32> = values.iter().map(|&v| v as f32).collect();
            let bits = narrow.iter().map(|v| u64::from(v.to_bits()));
            return Some(sort_bits(bits, float32_bit_stats(&narrow), true));
        }
        let mut stats = KeyStats::EMPTY;
        values.iter().for_each(|v| stats.add(v.to_bits()));
        Some(sort_bits(values.iter().map(|v| v.to_bits()), stats, false))
    }

    fn value(&self, reduced: u64) -> f64 {
        let bits = (reduced << self.shift) + self.min;
        if self.float32 {
            f64::from(f32::from_bits(bits as u32))
        } else {
            f64::from_bits(bits)
        }
    }

    fn unique(mut self) -> SortedUnique {
        if let Reduced::Wide(keys) = &mut self.keys
            && keys.len() > LARGE_LEN
        {
            let keys = std::mem::take(keys);
            return unique_in_place(keys, |r| self.value(r));
        }
        match (&self.keys, self.float32) {
            (Reduced::Narrow(keys), true) => unique_keys(keys, |r| {
                f64::from(f32::from_bits(
                    ((u64::from(r) << self.shift) + self.min) as u32,
                ))
            }),
            (Reduced::Narrow(keys), false) => unique_keys(keys, |r| {
                f64::from_bits((u64::from(r) << self.shift) + self.min)
            }),
            (Reduced::Wide(keys), _) => unique_keys(keys, |r| self.value(r)),
        }
    }
}

impl Drop for SortedBits {
    fn drop(&mut self) {
        match &mut self.keys {
            Reduced::Narrow(keys) => give_back(u32::pool(), std::mem::take(keys)),
            Reduced::Wide(keys) => give_back(u64::pool(), std::mem::take(keys)),
        }
    }
}

/// `np.unique(values, return_counts=True)` of positive finite values given
/// as their bit patterns (float32 patterns when `float32`), with the
/// patterns' statistics.
pub(super) fn sorted_unique_of_bits(
    bits: impl ExactSizeIterator<Item = u64>,
    stats: BitStats,
    float32: bool,
) -> SortedUnique {
    if bits.len() == 0 {
        return SortedUnique {
            values: Vec::new(),
            counts: Vec::new(),
        };
    }
    sort_bits(bits, stats, float32).unique()
}

/// Radix sorts the reduced keys of the bit patterns `bits`.
fn sort_bits(bits: impl Iterator<Item = u64>, stats: KeyStats, float32: bool) -> SortedBits {
    let shift = ((stats.any ^ stats.all) | 1 << 63).trailing_zeros();
    let (min, span) = (stats.min, (stats.max - stats.min) >> shift);
    let width = u64::BITS - span.leading_zeros();
    let reduce = |key: u64| (key - min) >> shift;
    let keys = if width <= 32 {
        let mut keys = take_buffer(u32::pool());
        keys.extend(bits.map(|key| reduce(key) as u32));
        sort_reduced(&mut keys, width);
        Reduced::Narrow(keys)
    } else {
        let mut keys = take_buffer(u64::pool());
        keys.extend(bits.map(reduce));
        sort_reduced(&mut keys, width);
        Reduced::Wide(keys)
    };
    SortedBits {
        keys,
        shift,
        min,
        float32,
    }
}

fn sort_reduced<K: RadixKey>(keys: &mut Vec<K>, width: u32) {
    if keys.len() > LARGE_LEN {
        sort_huge(keys);
    } else {
        lsd_sort(keys, width);
    }
}

/// Runs of equal keys in ascending `keys`, without a data-dependent branch.
/// Only the last key of each run is turned into its value.
fn unique_keys<K: Copy + PartialEq>(keys: &[K], value: impl Fn(K) -> f64) -> SortedUnique {
    let n = keys.len();
    if n == 0 {
        return SortedUnique {
            values: Vec::new(),
            counts: Vec::new(),
        };
    }
    // Counting the runs first sizes the outputs exactly, so no buffer of
    // one slot per sample is needed (with 10^8 distinct samples that buffer
    // alone was 800 MB).
    let runs = 1 + keys.windows(2).filter(|pair| pair[0] != pair[1]).count();
    // `ends[u]` is one past the last index of run `u`; every slot is written
    // before it is read.
    let mut ends = vec![0u64; runs];
    let mut run = 0;
    for (i, pair) in keys.windows(2).enumerate() {
        ends[run] = i as u64 + 1;
        run += usize::from(pair[0] != pair[1]);
    }
    ends[run] = n as u64;
    let values = ends
        .iter()
        .map(|&end| value(keys[end as usize - 1]))
        .collect();
    // The run ends become the counts in place, from the back.
    for u in (1..runs).rev() {
        ends[u] -= ends[u - 1];
    }
    SortedUnique {
        values,
        counts: ends,
    }
}

/// [`unique_keys`] of a huge run, reusing the keys' buffer for the values:
/// with every value distinct, a second buffer would add a sidecar's worth.
fn unique_in_place(mut keys: Vec<u64>, value: impl Fn(u64) -> f64) -> SortedUnique {
    let runs = 1 + keys.windows(2).filter(|pair| pair[0] != pair[1]).count();
    let mut counts = Vec::with_capacity(runs);
    let mut run_start = 0;
    for i in 1..=keys.len() {
        if i == keys.len() || keys[i] != keys[i - 1] {
            // The run's key moves down to its slot: `counts.len() <= i - 1`.
            keys[counts.len()] = keys[i - 1];
            counts.push((i - run_start) as u64);
            run_start = i;
        }
    }
    keys.truncate(runs);
    keys.shrink_to_fit();
    // Same size and alignment: collected in place.
    let values = keys.into_iter().map(value).collect();
    SortedUnique { values, counts }
}

/// Sorts `keys` ascending, on the bits that vary only (tests use this).
#[cfg(test)]
fn radix_sort<K: RadixKey>(keys: &mut Vec<K>) {
    let mut stats = KeyStats::EMPTY;
    for key in keys.iter() {
        stats.add(key.to_u64());
    }
    if keys.is_empty() {
        return;
    }
    let shift = ((stats.any ^ stats.all) | 1 << 63).trailing_zeros();
    let span = (stats.max - stats.min) >> shift;
    let bits = u64::BITS - span.leading_zeros();
    let mut reduced: Vec<u64> = keys
        .iter()
        .map(|k| (k.to_u64() - stats.min) >> shift)
        .collect();
    lsd_sort(&mut reduced, bits);
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    // The reduced keys map back onto the sorted keys.
    assert!(
        reduced
            .iter()
            .zip(&sorted)
            .all(|(r, k)| (r << shift) + stats.min == k.to_u64())
    );
    *keys = sorted;
}

/// A total order for sorting: numeric order, all NaNs equal and greatest.
#[cfg(test)]
fn nan_last(a: &f64, b: &f64) -> Ordering {
    a.partial_cmp(b)
        .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

#[cfg(test)]
fn same_value(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
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
    let (ref_mask, ref_filter) = support_filter(&reference.counts, t);
    let (cmp_mask, cmp_filter) = support_filter(&compare.counts, t);
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
    let (ref_hits, cmp_hits) = hits_by_ratio(&ref_side, &cmp_side, t.center_relative, tolerance)
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

/// One run's unique values, their counts and the support filter's mask.
struct Side<'a> {
    values: &'a [f64],
    counts: &'a [u64],
    retained: &'a [bool],
}

/// What the coverages need of the covered flags: the covered samples
/// (saturating sum of their counts, as before) and the covered retained
/// values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Hits {
    samples: u64,
    support: u64,
}

impl Side<'_> {
    fn hits(&self, covered: &[bool]) -> Hits {
        let fits = self
            .counts
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .is_some();
        if fits {
            // No partial sum can saturate: plain sums, which vectorize.
            let samples = covered
                .iter()
                .zip(self.counts)
                .map(|(&c, &n)| n * u64::from(c))
                .sum();
            let support = covered
                .iter()
                .zip(self.retained)
                .map(|(&c, &keep)| u64::from(c & keep))
                .sum();
            return Hits { samples, support };
        }
        let mut hits = Hits::default();
        for ((&c, &n), &keep) in covered.iter().zip(self.counts).zip(self.retained) {
            hits.samples = hits.samples.saturating_add(n * u64::from(c));
            hits.support += u64::from(c & keep);
        }
        hits
    }

    /// Covered samples over all samples: integer sums, then one division
    /// (NumPy `int64 / int64`).
    fn sample_coverage(&self, hits: &Hits) -> f64 {
        hits.samples as f64 / saturating_sum(self.counts.iter().copied()) as f64
    }

    /// Mean of the covered flags over the retained values; NaN when none are
    /// retained, like `np.mean` of an empty selection.
    fn support_coverage(&self, hits: &Hits) -> f64 {
        let kept = self.retained.iter().filter(|&&keep| keep).count();
        hits.support as f64 / kept as f64
    }
}

/// Adjacent values of one run closer than this ratio need their logs
/// compared before the fast path takes the run ([`logs_ascend`]).
const SEPARATION: f64 = 1.0 + 1e-12;
/// Ratios within this relative distance of `1 + center_relative` are
/// decided with the logs.
const RATIO_MARGIN: f64 = 1e-9;
/// The fast path takes values in `[SMALLEST, LARGEST]` and
/// `center_relative` in `[MIN_CENTER_RELATIVE, MAX_CENTER_RELATIVE]` only.
const SMALLEST: f64 = 1e-300;
const LARGEST: f64 = 1e300;
const MIN_CENTER_RELATIVE: f64 = 1e-8;
const MAX_CENTER_RELATIVE: f64 = 1e6;

/// The hits of both runs as the log merge ([`covered_flags_by_logs`])
/// computes them,
/// but deciding most values by ratio and taking the logs only near the
/// threshold. `None` (use the logs) when the argument below does not apply.
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
///   [`covered_flags_by_logs`].
fn hits_by_ratio(a: &Side, b: &Side, center_relative: f64, tolerance: f64) -> Option<(Hits, Hits)> {
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
    let a_flags = ratio.covered_flags(a.values, b.values);
    let b_flags = ratio.covered_flags(b.values, a.values);
    Some((a.hits(&a_flags), b.hits(&b_flags)))
}

struct RatioTest {
    inside: f64,
    outside: f64,
    tolerance: f64,
}

impl RatioTest {
    /// Whether each of the ascending `targets` has a neighbour in the
    /// ascending `source` within tolerance. The neighbours of a target are
    /// `source[q - 1] < target <= source[q]` (0 and +inf beyond the ends:
    /// never within tolerance and at an infinite log distance, so the
    /// nearest neighbour is the end value, as in the clamped log merge).
    ///
    /// Source values are dense where samples are: a target between two
    /// source values at most `inside` apart is covered by the lower one
    /// (`target <= above <= below * inside`). Only targets in the few wider
    /// gaps, and beyond the ends, are tested one by one.
    fn covered_flags(&self, targets: &[f64], source: &[f64]) -> Vec<bool> {
        let mut flags = vec![true; targets.len()];
        let mut from = 0;
        let mut gap = |below: f64, above: f64| {
            // The targets in (below, above].
            let start = from + gallop(&targets[from..], |v| v <= below);
            let end = start + gallop(&targets[start..], |v| v <= above);
            for (flag, &value) in flags[start..end].iter_mut().zip(&targets[start..end]) {
                *flag = self.covered(value, below, above);
            }
            from = end;
        };
        gap(0.0, source[0]);
        for pair in source.windows(2) {
            if pair[1] > pair[0] * self.inside {
                gap(pair[0], pair[1]);
            }
        }
        gap(source[source.len() - 1], f64::INFINITY);
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
fn in_fast_range(values: &[f64]) -> bool {
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else {
        return false;
    };
    first >= SMALLEST && last <= LARGEST
}

/// Whether the computed logs of the ascending `values` never decrease:
/// certain for neighbours more than `SEPARATION` apart, checked with the
/// logs for closer ones (pooled runs often have a few).
fn logs_ascend(values: &[f64]) -> bool {
    well_separated(values)
        || values
            .windows(2)
            .all(|w| w[1] > w[0] * SEPARATION || !log_is_less(w[1], w[0]))
}

/// Adjacent values more than `SEPARATION` apart in ratio.
fn well_separated(values: &[f64]) -> bool {
    values
        .windows(2)
        .fold(true, |ok, w| ok & (w[1] > w[0] * SEPARATION))
}

/// Whether each sorted `target` value lies within `tolerance` of some value
/// in the sorted, non-empty `source`, by the reference's distance: `pos` is
/// the `searchsorted(side="left")` insertion point and the distance is the
/// smaller of the gaps to `source[pos - 1]` and `source[pos]`, both clamped
/// into range. The targets are sorted (and `ln` is monotone), so `pos` only
/// moves forward and the whole pass is a linear merge.
#[cfg(test)]
fn covered_flags(target: &[f64], source: &[f64], tolerance: f64) -> Vec<bool> {
    let last = source.len().saturating_sub(1);
    let mut pos = 0;
    target
        .iter()
        .map(|&value| {
            while pos < source.len() && source[pos] < value {
                pos += 1;
            }
            let below = source[pos.saturating_sub(1).min(last)];
            let above = source[pos.min(last)];
            nan_min((value - below).abs(), (value - above).abs()) <= tolerance
        })
        .collect()
}

/// Whether each of the ascending `target` values lies within `tolerance` of
/// `source` in log space, by the reference's distance (see
/// `covered_flags`, the same merge over arrays of logs), each log taken
/// once as the merge reaches it: two arrays of logs would cost as much
/// memory as the values.
fn covered_flags_by_logs(target: &[f64], source: &[f64], tolerance: f64) -> Vec<bool> {
    let last = source.len().saturating_sub(1);
    let mut pos = 0;
    // The logs of `source[pos - 1]` and `source[pos]`, both clamped.
    let mut below = source.first().map_or(f64::NAN, |v| v.ln());
    let mut above = below;
    target
        .iter()
        .map(|&value| {
            let log = value.ln();
            while pos < source.len() && above < log {
                pos += 1;
                below = above;
                if pos <= last {
                    above = source[pos].ln();
                }
            }
            nan_min((log - below).abs(), (log - above).abs()) <= tolerance
        })
        .collect()
}

/// `np.minimum`: NaN wins, unlike `f64::min`.
fn nan_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if b < a {
        b
    } else {
        a
    }
}

/// Rare-value filter (spec `bulk.rare_support.*`): values seen fewer than
/// `max(2, ceil(sample_fraction * total))` times are dropped from support
/// coverage, but only when that removes some values, keeps some, and removes
/// at most `max_removed_sample_fraction` of the samples.
fn support_filter(counts: &[u64], t: &CoverageThresholds) -> (Vec<bool>, SupportFilter) {
    let keep_all = || vec![true; counts.len()];
    let total = saturating_sum(counts.iter().copied());
    if counts.is_empty()
        || total == 0
        || t.rare_sample_fraction <= 0.0
        || t.rare_max_removed_sample_fraction <= 0.0
    {
        return (keep_all(), SupportFilter::Disabled);
    }
    if counts.iter().all(|&c| c == 1) {
        return (keep_all(), SupportFilter::AllValuesUnique);
    }
    // Compared as f64: exact for any realistic count (< 2^53).
    let min_count = (t.rare_sample_fraction * total as f64).ceil().max(2.0);
    let keep = |c: u64| c as f64 >= min_count;
    let kept = counts.iter().fold(0usize, |n, &c| n + usize::from(keep(c)));
    if kept == counts.len() {
        return (keep_all(), SupportFilter::NoRareValues);
    }
    if kept == 0 {
        return (keep_all(), SupportFilter::WouldRemoveAllSupport);
    }
    let removed = saturating_sum(counts.iter().copied().filter(|&c| !keep(c)));
    let removed_sample_fraction = removed as f64 / total as f64;
    if removed_sample_fraction > t.rare_max_removed_sample_fraction {
        return (keep_all(), SupportFilter::WouldRemoveTooMuchMass);
    }
    (
        counts.iter().map(|&c| keep(c)).collect(),
        SupportFilter::Filtered {
            removed_sample_fraction,
        },
    )
}

fn saturating_sum(counts: impl Iterator<Item = u64>) -> u64 {
    counts.fold(0, u64::saturating_add)
}

/// Both directions must reach both thresholds (spec step 3). NaN fails.
pub fn coverages_support_same(c: &Coverages, t: &CoverageThresholds) -> bool {
    c.ref_sample >= t.sample_coverage
        && c.cmp_sample >= t.sample_coverage
        && c.ref_support >= t.support_coverage
        && c.cmp_support >= t.support_coverage
}

/// The reference's AMBG message for a coverage mismatch, e.g.
/// `sample: min(ref=99.0%, cmp=95.2%) >= 97.0%; support: min(ref=88.0%, cmp=81.3%) >= 80.0%`,
/// and its severity: the largest shortfall below either threshold (0 if none).
pub fn mismatch_message(c: &Coverages, t: &CoverageThresholds) -> (String, f64) {
    let message = format!(
        "sample: min(ref={}, cmp={}) >= {}; support: min(ref={}, cmp={}) >= {}",
        format_percent(c.ref_sample),
        format_percent(c.cmp_sample),
        format_percent(t.sample_coverage),
        format_percent(c.ref_support),
        format_percent(c.cmp_support),
        format_percent(t.support_coverage),
    );
    let sample_deficit = py_max(&[
        t.sample_coverage - c.ref_sample,
        t.sample_coverage - c.cmp_sample,
        0.0,
    ]);
    let support_deficit = py_max(&[
        t.support_coverage - c.ref_support,
        t.support_coverage - c.cmp_support,
        0.0,
    ]);
    (message, py_max(&[sample_deficit, support_deficit]))
}

/// Python's builtin `max`: the first item unless a later one compares
/// greater, so NaN handling depends on position exactly as in the reference.
fn py_max(items: &[f64]) -> f64 {
    let Some((&first, rest)) = items.split_first() else {
        return f64::NAN;
    };
    rest.iter()
        .fold(first, |best, &x| if x > best { x } else { best })
}

/// Python `f"{v * 100.0:.1f}%"`. Rust's `{:.1}` rounds the exact binary
/// value half-to-even like Python; only NaN is spelled differently.
pub fn format_percent(v: f64) -> String {
    let percent = v * 100.0;
    if percent.is_nan() {
        "nan%".to_string()
    } else {
        format!("{percent:.1}%")
    }
}

/// Widen float32 bulk samples to float64, or `None` when the array is empty
/// or holds any non-finite or non-positive value (spec "Timing Data Used":
/// such bulk data are unusable).
#[cfg(test)]
pub fn positive_finite(values: &[f32]) -> Option<Vec<f64>> {
    let usable = !values.is_empty()
        && values
            .iter()
            .fold(true, |ok, v| ok & v.is_finite() & (*v > 0.0));
    usable.then(|| values.iter().map(|&v| f64::from(v)).collect())
}

#[cfg(test)]
fn all_positive_finite(values: &[f64]) -> bool {
    !values.is_empty() && values.iter().all(|v| v.is_finite() && *v > 0.0)
}

/// A robust timing interval `[min, q3]` centred on the median (spec "Time
/// Estimates And Intervals").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleInterval {
    pub lower: f64,
    pub center: f64,
    pub upper: f64,
}

/// Interval of bulk samples (spec step 2), or `None` when the samples are
/// empty, not all positive finite, or `min <= median <= q3` fails (tests;
/// bulk cycles take [`sample_interval_of_bits`]).
#[cfg(test)]
pub fn sample_interval(values: &[f64]) -> Option<SampleInterval> {
    if !all_positive_finite(values) {
        return None;
    }
    sample_interval_of_bits(values.iter().map(|v| v.to_bits()).collect())
}

/// The robust interval of non-empty positive finite values given as their
/// bit patterns, or `None` when `min <= median <= q3` fails.
pub(super) fn sample_interval_of_bits(mut keys: Vec<u64>) -> Option<SampleInterval> {
    if keys.is_empty() {
        return None;
    }
    // Only a few order statistics are needed: select them instead of
    // sorting. For positive finite values the bit patterns order like the
    // numbers, and selection yields the same values a sort would.
    let n = keys.len();
    let (b50, a50, w50) = linear_ranks(n, 0.5);
    let (b75, a75, w75) = linear_ranks(n, 0.75);
    let mut ranks = [0, b50, a50, b75, a75];
    ranks.sort_unstable();
    let mut at = [0u64; 5];
    let mut start = 0;
    for (slot, &rank) in at.iter_mut().zip(&ranks) {
        if rank >= start {
            keys[start..].select_nth_unstable(rank - start);
            start = rank + 1;
        }
        *slot = keys[rank];
    }
    let value =
        |rank: usize| f64::from_bits(at[ranks.iter().position(|&r| r == rank).unwrap_or(0)]);
    let interval = SampleInterval {
        lower: value(0),
        center: lerp(value(b50), value(a50), w50),
        upper: lerp(value(b75), value(a75), w75),
    };
    let positive_finite = |v: f64| v.is_finite() && v > 0.0;
    let valid = positive_finite(interval.lower)
        && positive_finite(interval.center)
        && positive_finite(interval.upper)
        && interval.lower <= interval.center
        && interval.center <= interval.upper;
    valid.then_some(interval)
}

/// `np.quantile(sorted, q)` with the default `linear` method, for an
/// ascending slice. NaN when the slice is empty or holds NaN, or `q` is
/// outside `[0, 1]` (NumPy raises or returns NaN there).
pub fn quantile_linear(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() || sorted.iter().any(|v| v.is_nan()) || !(0.0..=1.0).contains(&q) {
        return f64::NAN;
    }
    let (below, above, weight) = linear_ranks(sorted.len(), q);
    lerp(sorted[below], sorted[above], weight)
}

/// The two ranks `np.quantile(..., q)` interpolates between in a sorted
/// array of `len >= 1` values, and the weight of the upper one, for `q` in
/// `[0, 1]`.
fn linear_ranks(len: usize, q: f64) -> (usize, usize, f64) {
    let last = len - 1;
    // NumPy's virtual index for `linear` is `(n - 1) * q`, not `n * q + ...`.
    let virtual_index = last as f64 * q;
    // At or past the last index NumPy pins both neighbours to the last value
    // and records the floor as -1, so the weight becomes `index + 1`.
    let (below, floor) = if virtual_index >= last as f64 {
        (last, -1.0)
    } else {
        let floor = virtual_index.floor();
        (floor as usize, floor)
    };
    let above = if floor < 0.0 { last } else { below + 1 };
    (below, above, virtual_index - floor)
}

/// NumPy's `_lerp`: interpolate from whichever end is nearer, so the result
/// is exact at `t == 1` and monotone around `t == 0.5`.
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let span = b - a;
    if t >= 0.5 {
        b - span * (1.0 - t)
    } else {
        a + span * t
    }
}

/// The implementations as they were before the performance work, kept
/// verbatim as oracles: the optimized code must agree with them bit for bit.
#[cfg(test)]
#[allow(dead_code)]
pub(crate) mod oracle {
    #[inline(always)]
    pub fn positive_finite(values: &[f32]) -> Option<Vec<f64>> {
        let widened: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        all_positive_finite(&widened).then_some(widened)
    }

    // Functions this change left as they were are shared, not copied.
    use super::{
        CoverageThresholds, Coverages, SampleInterval, SortedUnique, SupportFilter,
        all_positive_finite, lerp, nan_last, nan_min, same_value, saturating_sum,
    };

    fn support_filter(counts: &[u64], t: &CoverageThresholds) -> (Vec<bool>, SupportFilter) {
        let keep_all = vec![true; counts.len()];
        let total = saturating_sum(counts.iter().copied());
        if counts.is_empty()
            || total == 0
            || t.rare_sample_fraction <= 0.0
            || t.rare_max_removed_sample_fraction <= 0.0
        {
            return (keep_all, SupportFilter::Disabled);
        }
        if counts.iter().all(|&c| c == 1) {
            return (keep_all, SupportFilter::AllValuesUnique);
        }
        // Compared as f64: exact for any realistic count (< 2^53).
        let min_count = (t.rare_sample_fraction * total as f64).ceil().max(2.0);
        let mask: Vec<bool> = counts.iter().map(|&c| c as f64 >= min_count).collect();
        if mask.iter().all(|&keep| keep) {
            return (keep_all, SupportFilter::NoRareValues);
        }
        if !mask.iter().any(|&keep| keep) {
            return (keep_all, SupportFilter::WouldRemoveAllSupport);
        }
        let removed = saturating_sum(
            counts
                .iter()
                .zip(&mask)
                .filter(|(_, keep)| !**keep)
                .map(|(c, _)| *c),
        );
        let removed_sample_fraction = removed as f64 / total as f64;
        if removed_sample_fraction > t.rare_max_removed_sample_fraction {
            return (keep_all, SupportFilter::WouldRemoveTooMuchMass);
        }
        (
            mask,
            SupportFilter::Filtered {
                removed_sample_fraction,
            },
        )
    }

    pub fn sorted_unique(values: &[f64]) -> SortedUnique {
        let sorted = sorted_copy(values);
        let mut unique = SortedUnique {
            values: Vec::new(),
            counts: Vec::new(),
        };
        for value in sorted {
            match (unique.values.last(), unique.counts.last_mut()) {
                (Some(&last), Some(count)) if same_value(last, value) => *count += 1,
                _ => {
                    unique.values.push(value);
                    unique.counts.push(1);
                }
            }
        }
        unique
    }

    pub(super) fn sorted_copy(values: &[f64]) -> Vec<f64> {
        if values.iter().all(|v| v.is_finite() && *v > 0.0) {
            // Sample times are float32 values: their 32-bit patterns sort in
            // fewer passes than the widened 64-bit ones.
            if values.iter().all(|v| f64::from(*v as f32) == *v) {
                let keys: Vec<u32> = values.iter().map(|v| (*v as f32).to_bits()).collect();
                return radix_sort(keys, 32)
                    .into_iter()
                    .map(|k| f64::from(f32::from_bits(k)))
                    .collect();
            }
            let keys: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
            return radix_sort(keys, 64)
                .into_iter()
                .map(f64::from_bits)
                .collect();
        }
        let mut sorted = values.to_vec();
        sorted.sort_unstable_by(nan_last);
        sorted
    }

    const RADIX_BITS: u32 = 11;
    const RADIX_BUCKETS: usize = 1 << RADIX_BITS;

    /// Unsigned keys a radix sort can take apart.
    trait RadixKey: Copy + Default {
        fn digit(self, shift: u32) -> usize;
    }

    impl RadixKey for u32 {
        fn digit(self, shift: u32) -> usize {
            ((self >> shift) as usize) & (RADIX_BUCKETS - 1)
        }
    }

    impl RadixKey for u64 {
        fn digit(self, shift: u32) -> usize {
            ((self >> shift) as usize) & (RADIX_BUCKETS - 1)
        }
    }

    /// LSD radix sort on 11-bit digits. Passes whose digit is the same in every
    /// key are skipped (nearby values share their exponent bits).
    fn radix_sort<K: RadixKey>(mut keys: Vec<K>, key_bits: u32) -> Vec<K> {
        let shifts: Vec<u32> = (0..key_bits).step_by(RADIX_BITS as usize).collect();
        let mut histograms = vec![[0u32; RADIX_BUCKETS]; shifts.len()];
        for key in &keys {
            for (histogram, shift) in histograms.iter_mut().zip(&shifts) {
                histogram[key.digit(*shift)] += 1;
            }
        }
        let mut scratch = vec![K::default(); keys.len()];
        for (histogram, shift) in histograms.iter().zip(&shifts) {
            if histogram.iter().any(|&n| n as usize == keys.len()) {
                continue;
            }
            let mut offsets = [0u32; RADIX_BUCKETS];
            let mut total = 0;
            for (offset, &n) in offsets.iter_mut().zip(histogram.iter()) {
                *offset = total;
                total += n;
            }
            for &key in &keys {
                let slot = &mut offsets[key.digit(*shift)];
                scratch[*slot as usize] = key;
                *slot += 1;
            }
            std::mem::swap(&mut keys, &mut scratch);
        }
        keys
    }

    pub fn nearest_neighbor_coverages(
        reference: &SortedUnique,
        compare: &SortedUnique,
        t: &CoverageThresholds,
    ) -> Option<Coverages> {
        if reference.values.is_empty() || compare.values.is_empty() {
            return None;
        }
        let ref_logs: Vec<f64> = reference.values.iter().map(|v| v.ln()).collect();
        let cmp_logs: Vec<f64> = compare.values.iter().map(|v| v.ln()).collect();
        let tolerance = t.center_relative.ln_1p();
        let ref_covered = covered_flags(&ref_logs, &cmp_logs, tolerance);
        let cmp_covered = covered_flags(&cmp_logs, &ref_logs, tolerance);
        let (ref_mask, ref_filter) = support_filter(&reference.counts, t);
        let (cmp_mask, cmp_filter) = support_filter(&compare.counts, t);
        Some(Coverages {
            ref_sample: sample_coverage(&reference.counts, &ref_covered),
            cmp_sample: sample_coverage(&compare.counts, &cmp_covered),
            ref_support: support_coverage(&ref_covered, &ref_mask),
            cmp_support: support_coverage(&cmp_covered, &cmp_mask),
            ref_filter,
            cmp_filter,
        })
    }

    pub(super) fn covered_flags(target: &[f64], source: &[f64], tolerance: f64) -> Vec<bool> {
        let last = source.len().saturating_sub(1);
        let mut pos = 0;
        target
            .iter()
            .map(|&value| {
                while pos < source.len() && source[pos] < value {
                    pos += 1;
                }
                let below = source[pos.saturating_sub(1).min(last)];
                let above = source[pos.min(last)];
                nan_min((value - below).abs(), (value - above).abs()) <= tolerance
            })
            .collect()
    }

    pub(super) fn sample_coverage(counts: &[u64], covered: &[bool]) -> f64 {
        let hit = saturating_sum(
            counts
                .iter()
                .zip(covered)
                .filter(|(_, c)| **c)
                .map(|(n, _)| *n),
        );
        let total = saturating_sum(counts.iter().copied());
        hit as f64 / total as f64
    }

    /// Mean of the covered flags over the retained values; NaN when none are
    /// retained, like `np.mean` of an empty selection.
    pub(super) fn support_coverage(covered: &[bool], retained: &[bool]) -> f64 {
        let kept = retained.iter().filter(|&&keep| keep).count();
        let hit = covered
            .iter()
            .zip(retained)
            .filter(|(c, keep)| **c && **keep)
            .count();
        hit as f64 / kept as f64
    }

    pub fn sample_interval(values: &[f64]) -> Option<SampleInterval> {
        if !all_positive_finite(values) {
            return None;
        }
        let sorted = sorted_copy(values);
        let interval = SampleInterval {
            lower: sorted[0],
            center: quantile_linear(&sorted, 0.5),
            upper: quantile_linear(&sorted, 0.75),
        };
        let positive_finite = |v: f64| v.is_finite() && v > 0.0;
        let valid = positive_finite(interval.lower)
            && positive_finite(interval.center)
            && positive_finite(interval.upper)
            && interval.lower <= interval.center
            && interval.center <= interval.upper;
        valid.then_some(interval)
    }

    /// Bulk times and cycles (`time * frequency` in float64, spec step 2), or
    /// `None` when either array is unusable or their lengths differ.
    pub fn time_and_cycles(times: &[f32], frequencies: &[f32]) -> Option<(Vec<f64>, Vec<f64>)> {
        let times = positive_finite(times)?;
        let frequencies = positive_finite(frequencies)?;
        if times.len() != frequencies.len() {
            return None;
        }
        let cycles = times.iter().zip(&frequencies).map(|(t, f)| t * f).collect();
        Some((times, cycles))
    }

    pub fn quantile_linear(sorted: &[f64], q: f64) -> f64 {
        if sorted.is_empty() || sorted.iter().any(|v| v.is_nan()) || !(0.0..=1.0).contains(&q) {
            return f64::NAN;
        }
        let last = sorted.len() - 1;
        // NumPy's virtual index for `linear` is `(n - 1) * q`, not `n * q + ...`.
        let virtual_index = last as f64 * q;
        // At or past the last index NumPy pins both neighbours to the last value
        // and records the floor as -1, so the weight becomes `index + 1`.
        let (below, floor) = if virtual_index >= last as f64 {
            (last, -1.0)
        } else {
            let floor = virtual_index.floor();
            (floor as usize, floor)
        };
        let above = if floor < 0.0 { last } else { below + 1 };
        lerp(sorted[below], sorted[above], virtual_index - floor)
    }
}

/// What [`crate::deciding::samples::BulkSamples`] gives for these sidecar
/// arrays, widened.
#[cfg(test)]
fn time_and_cycles(times: Vec<f32>, frequencies: Vec<f32>) -> Option<(Vec<f64>, Vec<f64>)> {
    let bulk = crate::deciding::samples::BulkSamples::new(times, frequencies)?;
    Some((bulk.times_f64().collect(), bulk.cycles().collect()))
}

#[cfg(test)]
mod radix_tests {
    use super::*;

    #[test]
    fn radix_order_matches_comparison_order() {
        let mut state = 0x2545F4914F6CDD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (mask, filter) = support_filter(&[], &t);
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
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
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
        let _ = mismatch_message(&c, &nan_thresholds);
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
}

/// The optimized functions against the [`oracle`] copies of the previous
/// implementation, bit for bit, on many generated inputs.
#[cfg(test)]
mod differential_tests {
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Sample-like arrays: float32 times, cycles (float32 x float32), small
    /// pools with many duplicates and exact ratio ties, tiny and huge
    /// magnitudes, and occasional non-positive or NaN values.
    fn draw(rng: &mut Rng, kind: u64) -> Vec<f64> {
        let n = match rng.below(6) {
            0 => 1 + rng.below(3),
            1 => 1 + rng.below(40),
            _ => 1 + rng.below(1200),
        } as usize;
        let base = match rng.below(6) {
            0 => 1e-6,
            1 => 1e4,
            2 => 1e-290,
            3 => 1e290,
            4 => 1.0,
            _ => f64::from(f32::MIN_POSITIVE),
        };
        let spread = [1e-7, 1e-4, 1e-2, 0.3, 3.0][rng.below(5) as usize];
        let freqs: Vec<f32> = (0..1 + rng.below(10))
            .map(|i| 1.97e9 + 1.98e6 * i as f32)
            .collect();
        let pool: Vec<f64> = (0..1 + rng.below(50))
            .map(|i| {
                base * [1.0, 1.005, 1.01, 201.0 / 200.0, 0.995][i as usize % 5] * (1.0 + i as f64)
            })
            .collect();
        (0..n)
            .map(|_| {
                let x = base * (1.0 + spread * rng.unit());
                match kind {
                    0 => f64::from(x as f32),
                    1 => {
                        let t = f64::from(x as f32);
                        t * f64::from(freqs[rng.below(freqs.len() as u64) as usize])
                    }
                    2 => pool[rng.below(pool.len() as u64) as usize],
                    3 => x,
                    _ => match rng.below(60) {
                        0 => f64::NAN,
                        1 => 0.0,
                        2 => -x,
                        3 => f64::INFINITY,
                        4 => -0.0,
                        _ => x,
                    },
                }
            })
            .collect()
    }

    /// Bit patterns, so NaN equals NaN and -0.0 differs from 0.0.
    fn bits(values: &[f64]) -> Vec<u64> {
        values.iter().map(|v| v.to_bits()).collect()
    }

    fn same_unique(a: &SortedUnique, b: &SortedUnique) -> bool {
        bits(&a.values) == bits(&b.values) && a.counts == b.counts
    }

    fn same_coverages(a: &Option<Coverages>, b: &Option<Coverages>) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                bits(&[a.ref_sample, a.cmp_sample, a.ref_support, a.cmp_support])
                    == bits(&[b.ref_sample, b.cmp_sample, b.ref_support, b.cmp_support])
                    && format!("{:?}{:?}", a.ref_filter, a.cmp_filter)
                        == format!("{:?}{:?}", b.ref_filter, b.cmp_filter)
            }
            _ => false,
        }
    }

    fn thresholds(center_relative: f64) -> CoverageThresholds {
        CoverageThresholds {
            center_relative,
            sample_coverage: 0.97,
            support_coverage: 0.80,
            rare_sample_fraction: 0.001,
            rare_max_removed_sample_fraction: 0.01,
        }
    }

    const CENTER_RELATIVES: [f64; 9] = [0.005, 0.0, 1e-10, 1e-9, 0.01, 0.3, 2.0, -0.5, f64::NAN];

    #[test]
    fn sorted_unique_and_sorted_copy_match_the_oracle() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..3000 {
            let values = draw(&mut rng, round % 5);
            assert_eq!(
                bits(&sorted_copy(&values)),
                bits(&oracle::sorted_copy(&values)),
                "{values:?}"
            );
            assert!(
                same_unique(&sorted_unique(&values), &oracle::sorted_unique(&values)),
                "{values:?}"
            );
        }
    }

    #[test]
    fn sample_interval_matches_the_oracle() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..3000 {
            let values = draw(&mut rng, round % 5);
            let (new, old) = (sample_interval(&values), oracle::sample_interval(&values));
            assert_eq!(
                new.map(|i| bits(&[i.lower, i.center, i.upper])),
                old.map(|i| bits(&[i.lower, i.center, i.upper])),
                "{values:?}"
            );
        }
        for n in 1..12 {
            let values: Vec<f64> = (0..n).map(|i| f64::from(n - i)).collect();
            assert_eq!(sample_interval(&values), oracle::sample_interval(&values));
        }
    }

    #[test]
    fn coverages_match_the_oracle() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for round in 0..3000u64 {
            let kind = round % 5;
            let reference = draw(&mut rng, kind);
            let compare = match rng.below(4) {
                0 => reference.clone(),
                // The same values scaled by the threshold ratio and nearby.
                1 => reference
                    .iter()
                    .map(|v| v * [1.005, 201.0 / 200.0, 0.995, 1.0 + 1e-12][rng.below(4) as usize])
                    .collect(),
                _ => draw(&mut rng, kind),
            };
            let c = CENTER_RELATIVES[rng.below(CENTER_RELATIVES.len() as u64) as usize];
            let t = thresholds(c);
            let (ru, cu) = (sorted_unique(&reference), sorted_unique(&compare));
            let new = nearest_neighbor_coverages(&ru, &cu, &t);
            let old = nearest_neighbor_coverages_oracle(&reference, &compare, &t);
            assert!(
                same_coverages(&new, &old),
                "c {c} ref {reference:?} cmp {compare:?}: {new:?} vs {old:?}"
            );
        }
    }

    fn nearest_neighbor_coverages_oracle(
        reference: &[f64],
        compare: &[f64],
        t: &CoverageThresholds,
    ) -> Option<Coverages> {
        oracle::nearest_neighbor_coverages(
            &oracle::sorted_unique(reference),
            &oracle::sorted_unique(compare),
            t,
        )
    }

    /// Both runs' flags from the ratio merge equal the log merge's flags,
    /// including values exactly at the threshold ratio.
    #[test]
    fn ratio_flags_match_log_flags_at_the_threshold() {
        let mut rng = Rng(0xdead_beef_cafe_f00d);
        let mut decided = 0;
        for round in 0..4000u64 {
            let scale = [1.0, 1e-6, 3.7e4, 1e-299, 1e299][round as usize % 5];
            let n = 1 + rng.below(30) as usize;
            let mut a: Vec<f64> = (0..n)
                .map(|_| scale * (1 + rng.below(400)) as f64)
                .collect();
            let mut b: Vec<f64> = a
                .iter()
                .map(|v| {
                    v * [201.0 / 200.0, 200.0 / 201.0, 1.0, 1.0051, 1.0049][rng.below(5) as usize]
                })
                .collect();
            if rng.below(3) == 0 {
                b.truncate(1 + rng.below(n as u64) as usize);
            }
            for v in [&mut a, &mut b] {
                v.sort_by(f64::total_cmp);
                v.dedup();
            }
            for c in CENTER_RELATIVES {
                let tolerance = c.ln_1p();
                let logs = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
                let (la, lb) = (logs(&a), logs(&b));
                let counts = |v: &[f64], rng: &mut Rng| -> Vec<u64> {
                    v.iter().map(|_| 1 + rng.below(3)).collect()
                };
                let (ca, cb) = (counts(&a, &mut rng), counts(&b, &mut rng));
                let keep = |v: &[f64], rng: &mut Rng| -> Vec<bool> {
                    v.iter().map(|_| rng.below(4) != 0).collect()
                };
                let (ka, kb) = (keep(&a, &mut rng), keep(&b, &mut rng));
                let side_a = Side {
                    values: &a,
                    counts: &ca,
                    retained: &ka,
                };
                let side_b = Side {
                    values: &b,
                    counts: &cb,
                    retained: &kb,
                };
                let expected = (
                    side_a.hits(&covered_flags(&la, &lb, tolerance)),
                    side_b.hits(&covered_flags(&lb, &la, tolerance)),
                );
                if let Some(got) = hits_by_ratio(&side_a, &side_b, c, tolerance) {
                    decided += 1;
                    assert_eq!(got, expected, "c {c} a {a:?} b {b:?}");
                }
            }
        }
        assert!(decided > 10_000, "the fast path ran only {decided} times");
    }

    /// Runs with values closer than `SEPARATION`, at the threshold ratio and
    /// on both sides of each other: the galloping ratio flags (where the
    /// source's logs ascend) and the log walk equal the log merge's flags.
    #[test]
    fn ratio_flags_match_log_flags_with_close_values() {
        let mut rng = Rng(0x0bad_5eed_1234_5678);
        let mut galloped = 0;
        for round in 0..4000u64 {
            let scale = [1.0, 1e-6, 3.7e4, 1e-299, 1e299][round as usize % 5];
            let n = 1 + rng.below(30) as usize;
            let base: Vec<f64> = (0..n).map(|_| scale * (1 + rng.below(60)) as f64).collect();
            // Neighbours 1-20 ulps away, and the threshold ratio.
            let near = |v: f64, rng: &mut Rng| {
                let ulps = rng.below(41) as i64 - 20;
                f64::from_bits((v.to_bits() as i64 + ulps) as u64)
            };
            let factors = [201.0 / 200.0, 200.0 / 201.0, 1.0, 1.0 + 1e-12, 1.0 - 1e-12];
            let mut a: Vec<f64> = base.iter().map(|&v| near(v, &mut rng)).collect();
            a.extend(base.iter().map(|&v| near(v, &mut rng)));
            let mut b: Vec<f64> = base
                .iter()
                .map(|&v| near(v * factors[rng.below(5) as usize], &mut rng))
                .collect();
            for v in [&mut a, &mut b] {
                v.sort_by(f64::total_cmp);
                v.dedup();
            }
            for c in CENTER_RELATIVES {
                let ratio = RatioTest {
                    inside: (1.0 + c) * (1.0 - RATIO_MARGIN),
                    outside: (1.0 + c) * (1.0 + RATIO_MARGIN),
                    tolerance: c.ln_1p(),
                };
                let logs = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
                for (x, y) in [(&a, &b), (&b, &a)] {
                    let expected = covered_flags(&logs(x), &logs(y), ratio.tolerance);
                    // Where the galloping path does not apply, the logs decide.
                    assert_eq!(
                        covered_flags_by_logs(x, y, ratio.tolerance),
                        expected,
                        "c {c} targets {x:?} source {y:?}"
                    );
                    // The galloping path, whenever the source's logs ascend
                    // and the threshold is one the fast path takes.
                    let fast = (MIN_CENTER_RELATIVE..=MAX_CENTER_RELATIVE).contains(&c);
                    if fast && logs_ascend(y) {
                        galloped += 1;
                        assert_eq!(
                            ratio.covered_flags(x, y),
                            expected,
                            "gallop: c {c} targets {x:?} source {y:?}"
                        );
                    }
                }
            }
        }
        // Most sources have close pairs whose logs still ascend.
        assert!(galloped > 20_000, "the galloping path ran {galloped} times");
    }

    #[test]
    fn threshold_ratio_is_decided_by_the_logs() {
        // 201/200 is exactly 1 + 0.005 as float64 ratio of the two values.
        let t = thresholds(0.005);
        for scale in [1.0, 1e-6, 1e6, 7.0] {
            let a = sorted_unique(&[200.0 * scale]);
            let b = sorted_unique(&[201.0 * scale]);
            let old = oracle::nearest_neighbor_coverages(&a, &b, &t);
            assert!(same_coverages(
                &nearest_neighbor_coverages(&a, &b, &t),
                &old
            ));
        }
    }

    #[test]
    fn time_and_cycles_match_the_oracle() {
        let mut rng = Rng(0x5151_7272_9393_b4b4);
        let specials = [
            0.0f32,
            -0.0,
            -1.0,
            f32::NAN,
            f32::INFINITY,
            f32::MIN_POSITIVE,
            1e-45,
        ];
        for _ in 0..2000 {
            let draw = |rng: &mut Rng| -> Vec<f32> {
                (0..rng.below(6))
                    .map(|_| match rng.below(10) {
                        0 => specials[rng.below(specials.len() as u64) as usize],
                        _ => (rng.unit() * 1e-5 + 1e-7) as f32 * [1.0, 2e14][rng.below(2) as usize],
                    })
                    .collect()
            };
            let (times, frequencies) = (draw(&mut rng), draw(&mut rng));
            let new = time_and_cycles(times.clone(), frequencies.clone());
            let old = oracle::time_and_cycles(&times, &frequencies);
            assert_eq!(
                new.map(|(t, c)| (bits(&t), bits(&c))),
                old.map(|(t, c)| (bits(&t), bits(&c))),
                "{times:?} {frequencies:?}"
            );
        }
    }

    #[test]
    fn radix_sort_handles_every_key_width() {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        // A far outlier: every other key shares the sorted prefix, so the
        // insertion sort runs out of moves and hands over to sort_unstable.
        for n in [10usize, 100, 3000] {
            let mut keys: Vec<u64> = (0..n).map(|_| rng.below(1 << 20)).collect();
            keys.push(1 << 50);
            let mut expected = keys.clone();
            expected.sort_unstable();
            radix_sort(&mut keys);
            assert_eq!(keys, expected);
        }
        for bits in 1..=64u32 {
            for n in [2usize, 3, 17, 500] {
                let mask = if bits == 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                let low = rng.below(8) as u32;
                let mut keys: Vec<u64> = (0..n)
                    .map(|_| (rng.next() & mask) << low.min(64 - bits))
                    .collect();
                let mut expected = keys.clone();
                expected.sort_unstable();
                radix_sort(&mut keys);
                assert_eq!(keys, expected, "bits {bits} n {n}");
                let mut narrow: Vec<u32> = expected
                    .iter()
                    .map(|k| (*k >> 32) as u32 ^ *k as u32)
                    .collect();
                let mut expected: Vec<u32> = narrow.clone();
                expected.sort_unstable();
                radix_sort(&mut narrow);
                assert_eq!(narrow, expected);
            }
        }
    }
}
