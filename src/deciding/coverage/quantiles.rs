//! Quantiles as NumPy's default `linear` method computes them, and the
//! robust `[min, q3]` interval of bulk cycles built from them (spec step 2).
//! NumPy's arithmetic itself is `crate::pycompat::numpy_quantile`.

pub(super) use crate::pycompat::numpy_quantile::lerp;
use crate::pycompat::numpy_quantile::linear_ranks;
pub use crate::pycompat::numpy_quantile::quantile_linear;

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
pub(in crate::deciding) fn sample_interval_of_bits(mut keys: Vec<u64>) -> Option<SampleInterval> {
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
