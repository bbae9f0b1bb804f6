//! What the coverage tests build their inputs and expectations with: the
//! sorts of any float64 array (bulk samples take the bit-pattern entry
//! points), the reference's plain merge over logs, and small predicates the
//! [`super::oracle`] shares.

use std::cmp::Ordering;

use super::super::log_walk::nan_min;
use super::super::quantiles::{SampleInterval, sample_interval_of_bits};
use super::super::sorted::{KeyStats, Reduced, SortedBits, SortedUnique, sort_bits};
use super::oracle;
use crate::deciding::radix::{RadixKey, lsd_sort};
use crate::deciding::value_stats::float32_bit_stats;

/// Sort and count distinct values of any float64 array (tests build their
/// inputs with it; bulk samples take `RunBits::sorted_unique`). As in
/// NumPy, `-0.0 == 0.0` share one entry and NaNs sort last and collapse
/// into one entry.
pub fn sorted_unique(values: &[f64]) -> SortedUnique {
    match sorted_bits(values) {
        Some(sorted) => sorted.unique(),
        // Not positive and finite: the comparison sort as it always was.
        None => oracle::sorted_unique(values),
    }
}

/// `None` unless every value is positive and finite. Widened float32
/// values are sorted on their 32-bit patterns, as sample times are.
fn sorted_bits(values: &[f64]) -> Option<SortedBits> {
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

/// An ascending copy of `values`. Bulk samples are positive and finite,
/// and for those the IEEE bit patterns sort like the numbers, so a radix
/// sort on the bits (linear, and far faster than comparisons for the 10^4+
/// samples per run NVBench records) gives the same order. Anything else is
/// sorted by comparison.
pub fn sorted_copy(values: &[f64]) -> Vec<f64> {
    match sorted_bits(values) {
        Some(sorted) => match &sorted.keys {
            Reduced::Narrow(keys) => keys.iter().map(|&r| sorted.value(r.into())).collect(),
            Reduced::Wide(keys) => keys.iter().map(|&r| sorted.value(r)).collect(),
        },
        None => sorted_by_comparison(values),
    }
}

pub fn sorted_by_comparison(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(nan_last);
    sorted
}

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

/// Sorts `keys` ascending, on the bits that vary only (tests use this).
pub fn radix_sort<K: RadixKey>(keys: &mut Vec<K>) {
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
pub fn nan_last(a: &f64, b: &f64) -> Ordering {
    a.partial_cmp(b)
        .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

pub fn same_value(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Whether each sorted `target` value lies within `tolerance` of some value
/// in the sorted, non-empty `source`, by the reference's distance: `pos` is
/// the `searchsorted(side="left")` insertion point and the distance is the
/// smaller of the gaps to `source[pos - 1]` and `source[pos]`, both clamped
/// into range. The targets are sorted (and `ln` is monotone), so `pos` only
/// moves forward and the whole pass is a linear merge.
pub fn covered_flags(target: &[f64], source: &[f64], tolerance: f64) -> Vec<bool> {
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

/// Widen float32 bulk samples to float64, or `None` when the array is empty
/// or holds any non-finite or non-positive value (spec "Timing Data Used":
/// such bulk data are unusable).
pub fn positive_finite(values: &[f32]) -> Option<Vec<f64>> {
    let usable = !values.is_empty()
        && values
            .iter()
            .fold(true, |ok, v| ok & v.is_finite() & (*v > 0.0));
    usable.then(|| values.iter().map(|&v| f64::from(v)).collect())
}

pub fn all_positive_finite(values: &[f64]) -> bool {
    !values.is_empty() && values.iter().all(|v| v.is_finite() && *v > 0.0)
}

/// Interval of bulk samples (spec step 2), or `None` when the samples are
/// empty, not all positive finite, or `min <= median <= q3` fails (tests;
/// bulk cycles take `sample_interval_of_bits`).
pub fn sample_interval(values: &[f64]) -> Option<SampleInterval> {
    if !all_positive_finite(values) {
        return None;
    }
    sample_interval_of_bits(values.iter().map(|v| v.to_bits()))
}

/// What [`crate::deciding::samples::BulkSamples`] gives for these sidecar
/// arrays, widened.
pub fn time_and_cycles(times: Vec<f32>, frequencies: Vec<f32>) -> Option<(Vec<f64>, Vec<f64>)> {
    let bulk = crate::deciding::samples::BulkSamples::new(times, frequencies)?;
    Some((bulk.times_f64().collect(), bulk.cycles().collect()))
}

/// The coverage tests' random numbers (xorshift, reproducible by seed).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        crate::testing::xorshift_step(&mut self.0);
        self.0
    }
    /// Below `n` (zero when `n` is zero).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// In `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}
