//! Quantiles as NumPy's default `linear` method computes them, and the
//! robust `[min, q3]` interval of bulk cycles built from them (spec step 2).

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
pub(super) fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let span = b - a;
    if t >= 0.5 {
        b - span * (1.0 - t)
    } else {
        a + span * t
    }
}
