//! The implementations as they were before the performance work, kept
//! verbatim as oracles: the optimized code must agree with them bit for bit.

#![allow(dead_code)]

// Functions this change left as they were are shared, not copied.
use super::super::log_walk::nan_min;
use super::super::quantiles::lerp;
use super::super::support_filter::saturating_sum;
use super::super::{CoverageThresholds, Coverages, SampleInterval, SortedUnique, SupportFilter};
use super::support::{all_positive_finite, nan_last, same_value};

#[inline(always)]
pub fn positive_finite(values: &[f32]) -> Option<Vec<f64>> {
    let widened: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    all_positive_finite(&widened).then_some(widened)
}

pub fn support_filter(counts: &[u64], t: &CoverageThresholds) -> (Vec<bool>, SupportFilter) {
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
