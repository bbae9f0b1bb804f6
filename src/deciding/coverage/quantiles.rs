//! Quantiles as NumPy's default `linear` method computes them, and the
//! robust `[min, q3]` interval of bulk cycles built from them (spec step 2).
//! NumPy's arithmetic itself is `crate::pycompat::numpy_quantile`.

pub(super) use crate::pycompat::numpy_quantile::lerp;
use crate::pycompat::numpy_quantile::linear_ranks;
pub use crate::pycompat::numpy_quantile::quantile_linear;

use super::few_distinct::unique_if_few;
use super::sorted::SortedUnique;

/// A robust timing interval `[min, q3]` centred on the median (spec "Time
/// Estimates And Intervals").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleInterval {
    pub lower: f64,
    pub center: f64,
    pub upper: f64,
}

/// The robust interval of non-empty positive finite values given as their
/// bit patterns, or `None` when `min <= median <= q3` fails.
pub(in crate::deciding) fn sample_interval_of_bits(
    bits: impl ExactSizeIterator<Item = u64> + Clone,
) -> Option<SampleInterval> {
    let n = bits.len();
    if n == 0 {
        return None;
    }
    let (b50, a50, w50) = linear_ranks(n, 0.5);
    let (b75, a75, w75) = linear_ranks(n, 0.75);
    let mut ranks = [0, b50, a50, b75, a75];
    ranks.sort_unstable();
    let at = bits_at_ranks(bits, &ranks);
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

/// The patterns at the ascending `ranks` of the sorted patterns: counted
/// when there are few distinct values, selected otherwise.
pub(in crate::deciding) fn bits_at_ranks<const N: usize>(
    bits: impl ExactSizeIterator<Item = u64> + Clone,
    ranks: &[usize; N],
) -> [u64; N] {
    match unique_if_few(bits.clone(), false) {
        Some(few) => at_ranks_of_counts(&few, ranks),
        None => at_ranks_by_selection(bits.collect(), ranks),
    }
}

/// The patterns at the ascending `ranks`: only a few order statistics are
/// needed, so they are selected instead of sorted. For positive finite
/// values the bit patterns order like the numbers, and selection yields
/// the same values a sort would.
fn at_ranks_by_selection<const N: usize>(mut keys: Vec<u64>, ranks: &[usize; N]) -> [u64; N] {
    let mut at = [0u64; N];
    let mut start = 0;
    for (slot, &rank) in at.iter_mut().zip(ranks) {
        if rank >= start {
            keys[start..].select_nth_unstable(rank - start);
            start = rank + 1;
        }
        *slot = keys[rank];
    }
    at
}

/// The patterns at the ascending `ranks` of the sorted array that `unique`
/// counts: the value whose run of counts covers each rank.
fn at_ranks_of_counts<const N: usize>(unique: &SortedUnique, ranks: &[usize; N]) -> [u64; N] {
    let mut at = [0u64; N];
    let (mut index, mut end) = (0, unique.counts[0]);
    for (slot, &rank) in at.iter_mut().zip(ranks) {
        while end <= rank as u64 {
            index += 1;
            end += unique.counts[index];
        }
        *slot = unique.values[index].to_bits();
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_statistics_of_counts_match_the_selection() {
        let mut state = 0x853c_49e6_748f_ea9bu64;
        let mut next = move || {
            crate::testing::xorshift_step(&mut state);
            state
        };
        for round in 0..2000 {
            let n = 1 + (next() % [3, 40, 2000][round % 3]) as usize;
            let distinct = 1 + next() % [2, 20, 300][round / 3 % 3];
            let keys: Vec<u64> = (0..n)
                .map(|_| (1.0e4 + (next() % distinct) as f64 * 0.75).to_bits())
                .collect();
            let (b50, a50, _) = linear_ranks(n, 0.5);
            let (b75, a75, _) = linear_ranks(n, 0.75);
            let mut ranks = [0, b50, a50, b75, a75];
            ranks.sort_unstable();
            let selected = at_ranks_by_selection(keys.clone(), &ranks);
            if let Some(few) = unique_if_few(keys.iter().copied(), false) {
                assert_eq!(at_ranks_of_counts(&few, &ranks), selected, "{keys:?}");
            }
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            assert_eq!(selected, ranks.map(|r| sorted[r]));
        }
    }
}
