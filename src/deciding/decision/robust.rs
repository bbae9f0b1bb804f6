//! The decision tree of the robust command (NVBench 66212f1's
//! `nvbench_compare_robust.py`), beside 4fabe3f's in the parent module,
//! whose steps it reuses. What differs:
//!
//! - both sides' estimate and interval come from the same kind of input:
//!   the robust summaries (else the sample times' nearest-rank quartiles)
//!   on both sides, else mean and standard deviation on both, else no
//!   interval; a mean interval is `mean -/+ stdev` kept above
//!   `mean * 0.001` and clipped to `[min, max]` where they are known, and a
//!   missing stdev is `stdev/relative * mean`;
//! - bulk cycle intervals take nearest-rank quartiles, as NVBench does;
//! - SAME is first tested on the summary intervals, and only then on the
//!   bulk samples, which decide even when the noise is above its ceiling;
//!   sample times without frequencies decide alone (`bt-same-no-cyc`,
//!   confirmed by the SM clock summaries where there are some: `bt-same-sc`);
//! - noise must be non-negative as well as finite;
//! - the Change column is a symmetric fraction (see `Comparison`).

use super::*;
use crate::deciding::coverage::bits_at_ranks;

/// `(p * (n - 1) + 50) // 100`: NVBench's nearest rank, rounding half up.
fn percentile_rank(percentile: usize, count: usize) -> usize {
    (percentile * (count - 1) + 50) / 100
}

/// `[min, q3]` around the median of positive finite values, given as their
/// bit patterns (which order like the numbers), their quartiles taken at
/// nearest ranks, and the relative IQR.
fn nearest_rank_input(
    bits: impl ExactSizeIterator<Item = u64> + Clone,
) -> Option<(Estimate, Interval)> {
    let n = bits.len();
    if n == 0 {
        return None;
    }
    let ranks = [25, 50, 75].map(|percentile| percentile_rank(percentile, n));
    let [minimum, q1, median, q3] =
        bits_at_ranks(bits, &[0, ranks[0], ranks[1], ranks[2]]).map(f64::from_bits);
    let interval = make_interval(minimum, q3, median)?;
    let noise = relative_dispersion(Some(q3 - q1), Some(median))?;
    Some((
        Estimate {
            center: Some(median),
            relative_dispersion: Some(noise),
        },
        interval,
    ))
}

/// The robust summaries' interval: `[min, q3]` around the median.
fn robust_summary_input(timing: &Timing) -> Option<(Estimate, Interval)> {
    if !has_robust_estimate(timing) {
        return None;
    }
    Some((robust_estimate(timing), robust_summary_interval(timing)?))
}

/// The sample times' input, when there are usable sample times.
fn samples_input(bulk: &dyn BulkEvidence) -> Option<(Estimate, Interval)> {
    nearest_rank_input(bulk.times()?.times_f64().map(f64::to_bits))
}

/// The standard deviation, or `stdev/relative * mean` where it is missing.
fn stdev_of(timing: &Timing) -> Option<f64> {
    timing.stdev.or_else(|| {
        let (relative, mean) = (timing.stdev_relative?, timing.mean?);
        let usable = relative.is_finite() && relative >= 0.0 && is_positive_finite(Some(mean));
        usable.then_some(relative * mean)
    })
}

fn mean_summary_interval(timing: &Timing) -> Option<Interval> {
    let mean = timing.mean.filter(|m| is_positive_finite(Some(*m)))?;
    let stdev = stdev_of(timing).filter(|s| s.is_finite() && *s >= 0.0)?;
    // A positive lower bound keeps the later ratios defined.
    let mut lower = (mean - stdev).max(mean * 0.001);
    let mut upper = mean + stdev;
    if let Some(minimum) = timing.minimum.filter(|v| is_positive_finite(Some(*v))) {
        lower = lower.max(minimum);
    }
    if let Some(maximum) = timing.maximum.filter(|v| is_positive_finite(Some(*v))) {
        upper = upper.min(maximum);
    }
    make_interval(lower, upper, mean)
}

fn mean_summary_input(timing: &Timing) -> Option<(Estimate, Interval)> {
    if !has_mean_estimate(timing) {
        return None;
    }
    Some((mean_estimate(timing), mean_summary_interval(timing)?))
}

type Input = (Estimate, Option<Interval>);

/// Both sides' estimates and intervals, each pair from the same kind of
/// input, and whether each side's came from its samples.
fn inputs(reference: &Side, compare: &Side) -> ([Input; 2], [bool; 2]) {
    let robust = |side: &Side| match robust_summary_input(side.timing) {
        Some(input) => Some((input, false)),
        None => samples_input(side.bulk).map(|input| (input, true)),
    };
    let (ref_robust, cmp_robust) = (robust(reference), robust(compare));
    if let (Some(((re, ri), rs)), Some(((ce, ci), cs))) = (ref_robust, cmp_robust) {
        return ([(re, Some(ri)), (ce, Some(ci))], [rs, cs]);
    }
    let means = mean_summary_input(reference.timing).zip(mean_summary_input(compare.timing));
    if let Some(((re, ri), (ce, ci))) = means {
        return ([(re, Some(ri)), (ce, Some(ci))], [false; 2]);
    }
    let [re, ce] = common_estimates_without_intervals(reference.timing, compare.timing);
    ([(re, None), (ce, None)], [false; 2])
}

fn common_estimates_without_intervals(reference: &Timing, compare: &Timing) -> [Estimate; 2] {
    match common_estimate_kind([reference, compare].into_iter()) {
        EstimateKind::Fallback => [reference, compare].map(|timing| Estimate {
            center: timing.mean,
            relative_dispersion: relative_dispersion(stdev_of(timing), timing.mean),
        }),
        kind => [estimate_of(reference, kind), estimate_of(compare, kind)],
    }
}

fn evidence<'a>(
    side: &Side<'a>,
    (estimate, interval): (Estimate, Option<Interval>),
) -> Evidence<'a> {
    Evidence {
        estimate,
        interval,
        cycles: summary_cycle_interval(side.timing, interval.as_ref()),
        bulk: side.bulk,
    }
}

/// Both sides' evidence as the robust command reads it, and whether each
/// side's center came from its samples.
fn both_evidence<'a>(reference: &Side<'a>, compare: &Side<'a>) -> ([Evidence<'a>; 2], [bool; 2]) {
    let ([ref_input, cmp_input], from_samples) = inputs(reference, compare);
    (
        [evidence(reference, ref_input), evidence(compare, cmp_input)],
        from_samples,
    )
}

/// A comparison that could not be made, with the inputs both sides show.
pub fn unavailable_comparison(decision: Decision, reference: &Side, compare: &Side) -> Comparison {
    let ([ref_evidence, cmp_evidence], from_samples) = both_evidence(reference, compare);
    unavailable_evidence_comparison(decision, &ref_evidence, &cmp_evidence)
        .with_numpy_times(from_samples)
}

/// The cycles' nearest-rank interval.
pub(super) fn bulk_cycle_interval(samples: &BulkSamples) -> Option<Interval> {
    nearest_rank_input(samples.cycles().map(f64::to_bits)).map(|(_, interval)| interval)
}

/// The bulk SAME test: `None` when a side has no sample times sidecar.
fn decide_bulk_same(reference: &Evidence, compare: &Evidence, t: &Thresholds) -> Option<Decision> {
    let (ref_bulk, cmp_bulk) = (reference.bulk, compare.bulk);
    // Both sides are loaded (and warned about) before either is judged.
    let (ref_times, cmp_times) = (ref_bulk.times(), cmp_bulk.times());
    let (Some(ref_times), Some(cmp_times)) = (ref_times, cmp_times) else {
        let advertised = ref_bulk.sources()[0] && cmp_bulk.sources()[0];
        return advertised.then(|| {
            decision(
                Status::Undecided,
                ReasonCode::BulkTimeDataUnusable,
                "bulk time data is empty or unusable",
            )
        });
    };
    let times = bulk_values_same(ref_times, cmp_times, false, t);
    if times.status != Status::Same {
        return Some(times);
    }
    if !(ref_bulk.sources()[1] && cmp_bulk.sources()[1]) {
        return Some(same_without_cycles(reference, compare, t));
    }
    let (Some(ref_bulk), Some(cmp_bulk)) = (ref_bulk.time_and_cycles(), cmp_bulk.time_and_cycles())
    else {
        return Some(decision(
            Status::Undecided,
            ReasonCode::BulkCycleDataUnusable,
            "bulk cycle data is empty or unusable",
        ));
    };
    let cycles = bulk_values_same(ref_bulk, cmp_bulk, true, t);
    if cycles.status != Status::Same {
        return Some(cycles);
    }
    Some(decision(
        Status::Same,
        ReasonCode::BulkSame,
        "bulk time and cycle nearest-neighbor coverage both support same",
    ))
}

/// Bulk times support SAME and there are no frequencies: the SM clock
/// summaries confirm it where there are some.
fn same_without_cycles(reference: &Evidence, compare: &Evidence, t: &Thresholds) -> Decision {
    let confirmed = confirm_same_with_clock_rate(reference, compare, t);
    match confirmed.reason.code {
        ReasonCode::SameWithoutClockRate => decision(
            Status::Same,
            ReasonCode::BulkTimeSameWithoutCycles,
            "bulk time nearest-neighbor coverage supports same; cycle data are unavailable",
        ),
        _ if confirmed.status == Status::Same => decision(
            Status::Same,
            ReasonCode::BulkTimeSameConfirmedBySummaryCycles,
            "bulk time nearest-neighbor coverage supports same and SM-clock-adjusted summary intervals confirm same",
        ),
        _ => confirmed,
    }
}

/// Steps 3 and 4: the summary intervals first, then the bulk samples,
/// then the SM clock.
fn decide_same(reference: &Evidence, compare: &Evidence, t: &Thresholds) -> Decision {
    let usable = |noise: Option<f64>| noise.filter(|n| n.is_finite() && *n >= 0.0);
    let (Some(ref_noise), Some(cmp_noise)) = (
        usable(reference.estimate.relative_dispersion),
        usable(compare.estimate.relative_dispersion),
    ) else {
        return decision(
            Status::Undecided,
            ReasonCode::NoiseUnavailable,
            "relative dispersion is unavailable, negative, or non-finite",
        );
    };
    let (Some(ref_interval), Some(cmp_interval)) = (reference.interval, compare.interval) else {
        return missing_interval_decision();
    };
    let same = intervals_support_same(&ref_interval, &cmp_interval, t);
    if same.status != Status::Same {
        return same;
    }
    if let Some(bulk) = decide_bulk_same(reference, compare, t) {
        return bulk;
    }
    if ref_noise.max(cmp_noise) > t.same_relative_dispersion_ceiling {
        return decision(
            Status::Undecided,
            ReasonCode::NoiseTooHigh,
            "relative dispersion is too high to declare same",
        );
    }
    confirm_same_with_clock_rate(reference, compare, t)
}

/// The robust command's tree for one matched state whose summaries are present.
pub fn compare_timings(reference: &Side, compare: &Side, t: &Thresholds) -> Comparison {
    let ([reference, compare], from_samples) = both_evidence(reference, compare);
    compare_evidence(&reference, &compare, t).with_numpy_times(from_samples)
}

/// The robust command's tree on the evidence of both sides (one run's
/// inputs, or several runs merged).
pub fn compare_evidence(reference: &Evidence, compare: &Evidence, t: &Thresholds) -> Comparison {
    let (ref_time, cmp_time) = (reference.estimate.center, compare.estimate.center);
    if let Some(unusable) = unusable_center_decision(ref_time, cmp_time) {
        return unavailable_evidence_comparison(unusable, reference, compare);
    }
    let mut outcome = decide_clear_gap(reference, compare, t);
    if matches!(
        outcome.reason.code,
        ReasonCode::NoClearGap | ReasonCode::MissingInterval
    ) {
        outcome = decide_same(reference, compare, t);
    }
    Comparison::new(
        SideNumbers::of(reference),
        SideNumbers::of(compare),
        outcome,
    )
    .with_differences()
    .with_symmetric_change()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(timing: &Timing) -> Side<'_> {
        Side {
            timing,
            bulk: &NoBulk,
        }
    }

    fn decide(reference: &Timing, compare: &Timing) -> Comparison {
        compare_timings(&side(reference), &side(compare), &Thresholds::default())
    }

    fn mean_only(mean: f64, stdev: f64) -> Timing {
        Timing {
            mean: Some(mean),
            stdev: Some(stdev),
            ..Timing::default()
        }
    }

    // Robust summaries on one side only: both sides use their means (the
    // 4fabe3f tree would set the reference's median 1.0 against 2.0).
    #[test]
    fn both_sides_use_the_same_kind_of_estimate() {
        let reference = Timing {
            minimum: Some(0.9),
            first_quartile: Some(0.95),
            median: Some(1.0),
            third_quartile: Some(1.1),
            interquartile_range_relative: Some(0.01),
            ..mean_only(2.0, 0.01)
        };
        let result = decide(&reference, &mean_only(2.0, 0.01));
        assert_eq!(
            (result.status, result.reason.code),
            (Status::Same, ReasonCode::SameWithoutClockRate)
        );
        assert_eq!(result.ref_time(), Some(2.0));
    }

    // A mean interval: `mean -/+ stdev` (the stdev from its relative value
    // where it is missing), clipped to `[min, max]`; the noise ceiling is
    // only checked once the intervals support SAME.
    #[test]
    fn mean_intervals_are_clipped_and_noise_is_checked_last() {
        let timing = Timing {
            mean: Some(1.0),
            stdev_relative: Some(0.5),
            minimum: Some(0.8),
            maximum: Some(1.2),
            ..Timing::default()
        };
        let result = decide(&timing, &timing);
        assert_eq!(
            (result.status, result.reason.code),
            (Status::Undecided, ReasonCode::NoiseTooHigh)
        );
        let interval = result.ref_interval().unwrap();
        assert_eq!((interval.lower, interval.upper), (0.8, 1.2));
    }

    // The lower bound of a mean interval stays above a thousandth of the mean.
    #[test]
    fn mean_interval_lower_bound_stays_positive() {
        let timing = mean_only(1.0, 5.0);
        let interval = mean_summary_interval(&timing).unwrap();
        assert_eq!(interval.lower, 0.001);
        assert_eq!(interval.upper, 6.0);
    }

    // NVBench's nearest rank rounds half up: of 5 values, q1 is the 2nd.
    #[test]
    fn nearest_rank_quartiles() {
        assert_eq!(percentile_rank(25, 5), 1);
        assert_eq!(percentile_rank(50, 4), 2);
        let values = [5.0f64, 1.0, 4.0, 2.0, 3.0];
        let (estimate, interval) = nearest_rank_input(values.iter().map(|v| v.to_bits())).unwrap();
        assert_eq!(estimate.center, Some(3.0));
        assert_eq!((interval.lower, interval.upper), (1.0, 4.0));
        assert_eq!(estimate.relative_dispersion, Some(2.0 / 3.0));
    }

    /// The counted or selected order statistics are those of a sort, for
    /// few and for many distinct values.
    #[test]
    fn nearest_ranks_are_those_of_a_sort() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..600 {
            let n = 1 + (round * 7919) % [5, 90, 3000][round % 3];
            let distinct = [3u64, 50, 1 << 40][round / 3 % 3];
            let values: Vec<f64> = (0..n)
                .map(|_| {
                    crate::testing::xorshift_step(&mut state);
                    1.0e-6 * (1 + state % distinct) as f64
                })
                .collect();
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let at = |p| sorted[percentile_rank(p, n)];
            let (estimate, interval) =
                nearest_rank_input(values.iter().map(|v| v.to_bits())).unwrap();
            assert_eq!(estimate.center, Some(at(50)));
            assert_eq!((interval.lower, interval.upper), (sorted[0], at(75)));
            let noise = relative_dispersion(Some(at(75) - at(25)), Some(at(50)));
            assert_eq!(estimate.relative_dispersion, noise);
        }
    }
}
