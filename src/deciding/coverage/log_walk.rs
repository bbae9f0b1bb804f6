//! The log merge: the reference's nearest-neighbour distance in log space
//! (`np.searchsorted(side="left")` on the logs of the sorted unique values),
//! computed as one linear merge.

/// Whether each of the ascending `target` values lies within `tolerance` of
/// `source` in log space, by the reference's distance (see
/// `covered_flags`, the same merge over arrays of logs), each log taken
/// once as the merge reaches it: two arrays of logs would cost as much
/// memory as the values.
pub(super) fn covered_flags_by_logs(target: &[f64], source: &[f64], tolerance: f64) -> Vec<bool> {
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
pub(super) fn nan_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if b < a {
        b
    } else {
        a
    }
}
