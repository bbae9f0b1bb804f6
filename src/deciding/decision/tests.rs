//! The decision tree's tests, named after the spec step they pin down.

use super::*;

fn t() -> Thresholds {
    Thresholds::default()
}

fn interval(lower: f64, center: f64, upper: f64) -> Interval {
    Interval {
        lower,
        upper,
        center,
    }
}

/// Robust summaries: interval `[min, q3]` around `median`, IQR noise.
fn robust(min: f64, median: f64, q3: f64, noise: f64, clock: Option<f64>) -> Timing {
    Timing {
        minimum: Some(min),
        first_quartile: Some(min),
        median: Some(median),
        third_quartile: Some(q3),
        interquartile_range_relative: Some(noise),
        sm_clock_rate_mean: clock,
        ..Timing::default()
    }
}

fn compare(reference: &Timing, compare: &Timing) -> Comparison {
    compare_timings(
        &Side {
            timing: reference,
            bulk: &NoBulk,
        },
        &Side {
            timing: compare,
            bulk: &NoBulk,
        },
        &t(),
    )
}

// Step 1: the gap must reach clear_gap.relative of the lower side
// (0.25 here, so that the boundary is exact in binary floating point).
#[test]
fn step1_clear_gap_boundary() {
    let quarter = Thresholds {
        clear_gap_relative: 0.25,
        ..t()
    };
    let reference = interval(5.0, 6.0, 7.0);
    let at = interval(3.0, 3.5, 4.0);
    assert_eq!(
        clear_gap_status(&reference, &at, &quarter),
        Some(Status::Fast)
    );
    let below = interval(3.0, 3.5, 4.001);
    assert_eq!(clear_gap_status(&reference, &below, &quarter), None);
    let above = interval(3.0, 3.5, 3.999);
    assert_eq!(
        clear_gap_status(&reference, &above, &quarter),
        Some(Status::Fast)
    );
    let slow_at = interval(8.75, 9.0, 10.0);
    assert_eq!(
        clear_gap_status(&reference, &slow_at, &quarter),
        Some(Status::Slow)
    );
    let slow_below = interval(8.749, 9.0, 10.0);
    assert_eq!(clear_gap_status(&reference, &slow_below, &quarter), None);
    let overlapping = interval(6.5, 7.5, 8.0);
    assert_eq!(clear_gap_status(&reference, &overlapping, &quarter), None);
    // The default threshold is 0.5%.
    assert_eq!(
        clear_gap_status(&interval(1.0, 1.01, 1.02), &interval(0.9, 0.95, 0.99), &t()),
        Some(Status::Fast)
    );
}

// Step 2 without bulk data: the summary clock rate must confirm the gap.
#[test]
fn step2_summary_clock_confirms_or_not() {
    let reference = robust(1.0e-3, 1.01e-3, 1.02e-3, 0.01, Some(1.5e9));
    let faster = robust(0.9e-3, 0.91e-3, 0.92e-3, 0.01, Some(1.5e9));
    let result = compare(&reference, &faster);
    assert_eq!(result.status, Status::Fast);
    assert_eq!(
        result.reason.code,
        ReasonCode::ClearGapConfirmedBySummaryCycles
    );

    // The compare run was clocked 12% higher: in cycles it is not faster.
    let throttled = robust(0.9e-3, 0.91e-3, 0.92e-3, 0.01, Some(1.68e9));
    let result = compare(&reference, &throttled);
    assert_eq!(
        (result.status, result.reason.code),
        (Status::Undecided, ReasonCode::SummaryCycleGapNotConfirmed)
    );

    let no_clock = robust(0.9e-3, 0.91e-3, 0.92e-3, 0.01, None);
    assert_eq!(
        compare(&reference, &no_clock).reason.code,
        ReasonCode::MissingClockRate
    );
    let zero_clock = robust(0.9e-3, 0.91e-3, 0.92e-3, 0.01, Some(0.0));
    assert_eq!(
        compare(&reference, &zero_clock).reason.code,
        ReasonCode::InvalidClockRate
    );
}

/// Bulk evidence held in memory.
struct InMemory(Option<BulkSamples>, bool);

impl BulkEvidence for InMemory {
    fn has_material_cycle_sources(&self) -> bool {
        self.1
    }
    fn time_and_cycles(&self) -> Option<&BulkSamples> {
        self.0.as_ref()
    }
}

fn samples(times: &[f64], clock: f64) -> InMemory {
    // Sidecars hold float32: the times are rounded to it.
    let times: Vec<f32> = times.iter().map(|&t| t as f32).collect();
    let frequencies = vec![clock as f32; times.len()];
    InMemory(BulkSamples::new(times, frequencies), true)
}

// Step 2 with bulk data: bulk cycles decide; unusable data stays AMBG.
#[test]
fn step2_bulk_cycles() {
    let reference = robust(1.0e-3, 1.01e-3, 1.02e-3, 0.01, None);
    let faster = robust(0.9e-3, 0.91e-3, 0.92e-3, 0.01, None);
    let (ref_bulk, cmp_bulk) = (
        samples(&[1.0e-3, 1.01e-3, 1.02e-3], 1e9),
        samples(&[0.9e-3, 0.91e-3, 0.92e-3], 1e9),
    );
    let decide = |r: &dyn BulkEvidence, c: &dyn BulkEvidence| {
        compare_timings(
            &Side {
                timing: &reference,
                bulk: r,
            },
            &Side {
                timing: &faster,
                bulk: c,
            },
            &t(),
        )
    };
    assert_eq!(
        decide(&ref_bulk, &cmp_bulk).reason.code,
        ReasonCode::ClearGapConfirmedByBulkCycles
    );
    let throttled = samples(&[0.9e-3, 0.91e-3, 0.92e-3], 1.2e9);
    assert_eq!(
        decide(&ref_bulk, &throttled).reason.code,
        ReasonCode::BulkCycleGapNotConfirmed
    );
    let unusable = InMemory(None, true);
    let result = decide(&ref_bulk, &unusable);
    assert_eq!(
        (result.status, result.reason.code),
        (Status::Undecided, ReasonCode::BulkCycleDataUnusable)
    );
    // Sidecars that are absent or empty fall back to the clock summaries (absent here).
    assert_eq!(
        decide(&ref_bulk, &InMemory(None, false)).reason.code,
        ReasonCode::MissingClockRate
    );
}

// Step 3: identical bulk samples are SAME; shifted ones are a support mismatch.
#[test]
fn step3_bulk_same_and_mismatch() {
    let reference = robust(1.0e-3, 1.001e-3, 1.002e-3, 0.001, None);
    let times: Vec<f64> = (0..100).map(|i| 1.0e-3 + f64::from(i) * 1e-8).collect();
    let same = samples(&times, 1e9);
    let result = compare_timings(
        &Side {
            timing: &reference,
            bulk: &same,
        },
        &Side {
            timing: &reference,
            bulk: &same,
        },
        &t(),
    );
    assert_eq!(
        (result.status, result.reason.code),
        (Status::Same, ReasonCode::BulkSame)
    );

    let shifted: Vec<f64> = times.iter().map(|t| t * 1.003).collect();
    let other = samples(&shifted, 1e9);
    let shifted_timing = robust(1.003e-3, 1.004e-3, 1.005e-3, 0.001, None);
    let result = compare_timings(
        &Side {
            timing: &reference,
            bulk: &same,
        },
        &Side {
            timing: &shifted_timing,
            bulk: &other,
        },
        &t(),
    );
    assert_eq!(
        result.status,
        Status::Same,
        "0.3% apart is within same.center_relative"
    );
    let far: Vec<f64> = times.iter().map(|t| t * 1.004).collect();
    let far_bulk = samples(&far, 1e9);
    let mut spread = reference.clone();
    spread.minimum = Some(0.99e-3);
    spread.first_quartile = Some(0.99e-3);
    spread.third_quartile = Some(1.1e-3);
    let result = compare_timings(
        &Side {
            timing: &spread,
            bulk: &same,
        },
        &Side {
            timing: &spread,
            bulk: &far_bulk,
        },
        &t(),
    );
    assert_eq!(
        result.status,
        Status::Same,
        "0.4% is still inside log1p(0.005)"
    );
    let beyond: Vec<f64> = times.iter().map(|t| t * 1.006).collect();
    let beyond_bulk = samples(&beyond, 1e9);
    let result = compare_timings(
        &Side {
            timing: &spread,
            bulk: &same,
        },
        &Side {
            timing: &spread,
            bulk: &beyond_bulk,
        },
        &t(),
    );
    assert_eq!(
        (result.status, result.reason.code),
        (Status::Undecided, ReasonCode::BulkTimeSupportMismatch)
    );
    assert!(
        result
            .reason
            .message()
            .starts_with("sample: min(ref=0.0%, cmp=0.0%) >= 97.0%"),
        "{}",
        result.reason.message()
    );
}

// Step 4: noise ceiling, center closeness and overlap, each at the boundary.
#[test]
fn step4_summary_same_boundaries() {
    let reference = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.02, None);
    let at_ceiling = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.02, None);
    assert_eq!(
        compare(&reference, &at_ceiling).reason.code,
        ReasonCode::SameWithoutClockRate
    );
    let above_ceiling = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.0201, None);
    assert_eq!(
        compare(&reference, &above_ceiling).reason.code,
        ReasonCode::NoiseTooHigh
    );
    let infinite = robust(0.99e-3, 1.0e-3, 1.01e-3, f64::INFINITY, None);
    assert_eq!(
        compare(&reference, &infinite).reason.code,
        ReasonCode::NoiseUnavailable
    );

    let quiet = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, None);
    let center_at = robust(0.99e-3, 1.004e-3, 1.01e-3, 0.01, None);
    assert_eq!(compare(&quiet, &center_at).status, Status::Same);
    let center_beyond = robust(0.99e-3, 1.0051e-3, 1.01e-3, 0.01, None);
    assert_eq!(
        compare(&quiet, &center_beyond).reason.code,
        ReasonCode::CentersNotClose
    );

    assert!(centers_are_close(1.0, 1.005, &t()));
    assert!(!centers_are_close(1.0, 1.00501, &t()));
    // Overlap relative to the narrower interval: exactly 0.5 passes.
    assert_eq!(
        overlap_fraction(&interval(1.0, 1.5, 2.0), &interval(1.5, 1.6, 2.5)),
        0.5
    );
    let weak = robust(1.0e-3, 1.004e-3, 1.05e-3, 0.01, None);
    let other = robust(0.95e-3, 1.0e-3, 1.002e-3, 0.01, None);
    assert_eq!(
        compare(&weak, &other).reason.code,
        ReasonCode::WeakIntervalOverlap
    );
}

#[test]
fn step4_cycle_confirmation() {
    let reference = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, Some(1.5e9));
    let same_clock = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, Some(1.5e9));
    assert_eq!(
        compare(&reference, &same_clock).reason.code,
        ReasonCode::SameConfirmedByCycles
    );
    let other_clock = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, Some(1.6e9));
    assert_eq!(
        compare(&reference, &other_clock).reason.code,
        ReasonCode::CycleSameNotConfirmed
    );
    let bad_clock = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, Some(f64::INFINITY));
    let result = compare(&reference, &bad_clock);
    assert_eq!(
        (result.status, result.reason.code),
        (Status::Undecided, ReasonCode::InvalidClockRate)
    );
}

/// Evidence that fails the test if a decision reads the samples.
struct Tripwire {
    material: bool,
}

impl BulkEvidence for Tripwire {
    fn has_material_cycle_sources(&self) -> bool {
        self.material
    }
    fn time_and_cycles(&self) -> Option<&BulkSamples> {
        panic!("the samples were read although summaries settle this decision");
    }
}

#[test]
fn decisions_settled_by_summaries_do_not_read_samples() {
    let reference = robust(1.0e-3, 1.01e-3, 1.02e-3, 0.01, Some(1.5e9));
    let faster = robust(0.9e-3, 0.91e-3, 0.92e-3, 0.01, Some(1.5e9));
    let (material, absent) = (Tripwire { material: true }, Tripwire { material: false });
    // A clear gap with sidecars missing on one side: the clock summaries decide.
    let result = compare_timings(
        &Side {
            timing: &reference,
            bulk: &material,
        },
        &Side {
            timing: &faster,
            bulk: &absent,
        },
        &t(),
    );
    assert_eq!(
        result.reason.code,
        ReasonCode::ClearGapConfirmedBySummaryCycles
    );
    // An unusable center is `????` before any evidence is looked at.
    let result = compare_timings(
        &Side {
            timing: &reference,
            bulk: &material,
        },
        &Side {
            timing: &Timing::default(),
            bulk: &material,
        },
        &t(),
    );
    assert_eq!(result.status, Status::Unknown);
}

#[test]
fn unusable_centers_are_unknown() {
    let good = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, None);
    let missing = Timing::default();
    assert_eq!(
        compare(&good, &missing).reason.code,
        ReasonCode::TimingCenterMissing
    );
    let nan = robust(0.99e-3, f64::NAN, 1.01e-3, 0.01, None);
    assert_eq!(
        compare(&good, &nan).reason.code,
        ReasonCode::TimingCenterNonfinite
    );
    let negative = robust(0.99e-3, -1.0, 1.01e-3, 0.01, None);
    let result = compare(&negative, &good);
    assert_eq!(
        (result.status, result.reason.code),
        (Status::Unknown, ReasonCode::TimingCenterNonpositive)
    );
    assert_eq!(result.frac_diff(), None);
}

#[test]
fn estimates_are_robust_only_when_both_sides_are() {
    let robust_side = robust(0.99e-3, 1.0e-3, 1.01e-3, 0.01, None);
    let mut mean_side = Timing {
        minimum: Some(0.25),
        maximum: Some(2.0),
        mean: Some(1.0),
        stdev: Some(0.5),
        ..Timing::default()
    };
    let (r, c) = common_estimates(&robust_side, &mean_side);
    assert_eq!((r.center, c.center), (None, Some(1.0)));
    assert_eq!(c.relative_dispersion, Some(0.5));
    mean_side.median = Some(1.0);
    mean_side.interquartile_range = Some(0.125);
    let (_, c) = common_estimates(&robust_side, &mean_side);
    assert_eq!((c.center, c.relative_dispersion), (Some(1.0), Some(0.125)));
    // mean -/+ stdev, clipped to [min, max].
    let interval = timing_interval(&Timing {
        median: None,
        ..mean_side.clone()
    })
    .unwrap();
    assert_eq!((interval.lower, interval.upper), (0.5, 1.5));
    let clipped = timing_interval(&Timing {
        median: None,
        stdev: Some(1.5),
        ..mean_side
    })
    .unwrap();
    assert_eq!((clipped.lower, clipped.upper), (0.25, 2.0));
}

#[test]
fn skipped_and_missing_summaries() {
    let present = Presence {
        has_summaries: true,
        ..Presence::default()
    };
    let skipped = Presence {
        skipped: true,
        skip_reason: Some("too slow".into()),
        has_summaries: true,
    };
    let decision = missing_summaries_decision(
        skipped.clone(),
        Presence {
            skipped: true,
            ..Presence::default()
        },
    )
    .unwrap();
    assert_eq!(
        decision.reason.message(),
        "reference state skipped: too slow; compare state skipped"
    );
    let decision = missing_summaries_decision(present.clone(), Presence::default()).unwrap();
    assert_eq!(
        decision.reason.message(),
        "compare GPU timing summaries are missing"
    );
    assert!(missing_summaries_decision(present.clone(), present).is_none());
}

// Step 2 for an input without a clock domain (Google Benchmark):
// `clear_gap.without_clock` confirms a gap in time alone, or never.
fn time_only(min: f64, median: f64, q3: f64, noise: f64, reps: usize) -> Timing {
    Timing {
        repetitions: Some(reps),
        ..robust(min, median, q3, noise, None)
    }
}

fn decide_with(reference: &Timing, compare: &Timing, t: &Thresholds) -> Comparison {
    compare_timings(
        &Side {
            timing: reference,
            bulk: &NoBulk,
        },
        &Side {
            timing: compare,
            bulk: &NoBulk,
        },
        t,
    )
}

#[test]
fn step2_time_only_gap_is_confirmed_in_time_or_stays_ambg() {
    let (reference, slower) = (
        time_only(1.0, 1.01, 1.02, 0.01, 10),
        time_only(1.2, 1.21, 1.22, 0.01, 10),
    );
    let confirmed = decide_with(&reference, &slower, &t());
    assert_eq!(confirmed.status, Status::Slow);
    assert_eq!(confirmed.reason.code, ReasonCode::ClearGapTimeOnly);
    let strict = crate::deciding::config::preset("strict").unwrap();
    let ambg = decide_with(&reference, &slower, &strict);
    assert_eq!(
        (ambg.status, ambg.reason.code),
        (Status::Undecided, ReasonCode::MissingClockRate)
    );
    // NVBench summaries without a clock rate never confirm in time alone.
    let nvbench = decide_with(
        &robust(1.0, 1.01, 1.02, 0.01, None),
        &robust(1.2, 1.21, 1.22, 0.01, None),
        &t(),
    );
    assert_eq!(nvbench.reason.code, ReasonCode::MissingClockRate);
    // Summary SAME is unchanged: same_without_clock_rate.
    let same = decide_with(&reference, &time_only(1.0, 1.011, 1.02, 0.01, 10), &t());
    assert_eq!(
        (same.status, same.reason.code),
        (Status::Same, ReasonCode::SameWithoutClockRate)
    );
}

#[test]
fn one_repetition_a_side_is_too_few() {
    let (one, many) = (
        time_only(1.0, 1.0, 1.0, 0.0, 1),
        time_only(1.5, 1.5, 1.5, 0.0, 5),
    );
    let mut gap = decide_with(&one, &many, &t());
    assert_eq!(gap.status, Status::Slow);
    too_few_repetitions(&mut gap, [Some(1), Some(5)]);
    assert_eq!(
        (gap.status, gap.reason.code),
        (Status::Undecided, ReasonCode::TooFewRepetitions)
    );
    // Two a side, uncounted inputs, and `????` rows stay as they are.
    let mut decided = decide_with(&one, &many, &t());
    too_few_repetitions(&mut decided, [Some(2), Some(2)]);
    assert_eq!(decided.status, Status::Slow);
    too_few_repetitions(&mut decided, [None, None]);
    assert_eq!(decided.status, Status::Slow);
    let mut unknown = decided.clone();
    unknown.status = Status::Unknown;
    too_few_repetitions(&mut unknown, [Some(1), Some(1)]);
    assert_eq!(unknown.status, Status::Unknown);
}
