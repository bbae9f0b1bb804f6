//! Spec step 3's verdict on the coverages: whether they support SAME, and
//! the reference's AMBG message and severity when they do not.

use super::{CoverageThresholds, Coverages};
use crate::pycompat::pyfmt::format_f;

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

/// Python `f"{v * 100.0:.1f}%"`.
pub fn format_percent(v: f64) -> String {
    format!("{}%", format_f(v * 100.0, 1))
}
