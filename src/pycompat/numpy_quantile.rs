//! Quantiles as NumPy's default `linear` method computes them
//! (`np.quantile`, `np.percentile`), to the last bit.

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
pub fn linear_ranks(len: usize, q: f64) -> (usize, usize, f64) {
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
pub fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let span = b - a;
    if t >= 0.5 {
        b - span * (1.0 - t)
    } else {
        a + span * t
    }
}
