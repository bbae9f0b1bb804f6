//! The decision tree (spec "Decision Tree"): plain timing values and bulk
//! evidence in, a status with a named reason out. No I/O, no formatting.

use crate::deciding::config::{Thresholds, WithoutClock};
use crate::deciding::coverage::{self, CoverageOutcome};
use crate::deciding::status::{Reason, ReasonCode, Status};
use crate::loading::timing::Timing;

mod comparison;
mod robust;
pub use comparison::{Comparison, SideNumbers};

use crate::personality::Rules;

#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub status: Status,
    pub reason: Reason,
}

fn decision(
    status: Status,
    code: ReasonCode,
    message: impl Into<std::borrow::Cow<'static, str>>,
) -> Decision {
    Decision {
        status,
        reason: Reason::new(code, message),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lower: f64,
    pub upper: f64,
    pub center: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    pub center: Option<f64>,
    pub relative_dispersion: Option<f64>,
}

/// Bulk sample evidence of one side of a comparison, loaded on demand.
pub trait BulkEvidence {
    /// Both sidecars are advertised with a positive count and are non-empty files.
    fn has_material_cycle_sources(&self) -> bool;
    /// Positive, finite sample times and cycles (time x frequency) of equal
    /// length, or `None` when unavailable or unusable.
    fn time_and_cycles(&self) -> Option<&BulkSamples>;
    /// Whether the summaries name a sample times and a frequencies sidecar.
    fn sources(&self) -> [bool; 2] {
        [self.has_material_cycle_sources(); 2]
    }
    /// Positive, finite sample times, whether or not the frequencies are
    /// usable (the robust command's tree reads them alone): only their
    /// times are read.
    fn times(&self) -> Option<&BulkSamples> {
        self.time_and_cycles()
    }
}

pub use super::samples::BulkSamples;

/// No sidecars at all.
pub struct NoBulk;

impl BulkEvidence for NoBulk {
    fn has_material_cycle_sources(&self) -> bool {
        false
    }
    fn time_and_cycles(&self) -> Option<&BulkSamples> {
        None
    }
}

/// One side of a comparison: its summaries and its bulk evidence.
pub struct Side<'a> {
    pub timing: &'a Timing,
    pub bulk: &'a dyn BulkEvidence,
}

/// A side's interval in cycle space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CycleInterval {
    /// No clock-rate summary.
    Missing,
    /// An input without any clock domain (Google Benchmark): time is all
    /// there is (`clear_gap.without_clock` says what a gap needs then).
    TimeOnly,
    /// A clock rate that is not positive and finite, or an invalid scaled interval.
    Invalid,
    Scaled(Interval),
}

/// What the decision tree reads of one side: one run's summaries (see
/// [`Evidence::of_timing`]) or the merged runs of a side (`crate::repeat`).
pub struct Evidence<'a> {
    pub estimate: Estimate,
    pub interval: Option<Interval>,
    pub cycles: CycleInterval,
    pub bulk: &'a dyn BulkEvidence,
}

impl<'a> Evidence<'a> {
    /// One run's evidence, with the estimate chosen jointly with the other side.
    pub fn of_timing(timing: &Timing, estimate: Estimate, bulk: &'a dyn BulkEvidence) -> Self {
        let interval = timing_interval(timing);
        Evidence {
            estimate,
            interval,
            cycles: summary_cycle_interval(timing, interval.as_ref()),
            bulk,
        }
    }
}

/// The timing interval scaled by `sm_clock_rate/mean`.
pub fn summary_cycle_interval(timing: &Timing, interval: Option<&Interval>) -> CycleInterval {
    if timing.repetitions.is_some() {
        return CycleInterval::TimeOnly;
    }
    let Some(clock) = timing.sm_clock_rate_mean else {
        return CycleInterval::Missing;
    };
    match interval.and_then(|i| scale_interval(i, Some(clock))) {
        Some(scaled) => CycleInterval::Scaled(scaled),
        None => CycleInterval::Invalid,
    }
}

pub fn is_positive_finite(value: Option<f64>) -> bool {
    value.is_some_and(|v| v > 0.0 && v.is_finite())
}

fn make_interval(lower: f64, upper: f64, center: f64) -> Option<Interval> {
    let valid = [lower, upper, center]
        .iter()
        .all(|v| is_positive_finite(Some(*v)))
        && lower <= center
        && center <= upper;
    valid.then_some(Interval {
        lower,
        upper,
        center,
    })
}

/// Spec "Time Estimates And Intervals": `[min, q3]` around the median when
/// the robust summaries are consistent, else `mean -/+ stdev` clipped to `[min, max]`.
pub fn timing_interval(timing: &Timing) -> Option<Interval> {
    if let Some(interval) = robust_summary_interval(timing) {
        return Some(interval);
    }
    if let (Some(min), Some(max), Some(mean), Some(stdev)) =
        (timing.minimum, timing.maximum, timing.mean, timing.stdev)
    {
        let all_positive = [min, max, mean, stdev]
            .iter()
            .all(|v| is_positive_finite(Some(*v)));
        if all_positive && min <= mean && mean <= max {
            return make_interval(min.max(mean - stdev), max.min(mean + stdev), mean);
        }
    }
    None
}

/// `[min, q3]` around the median, when the robust summaries are consistent.
fn robust_summary_interval(timing: &Timing) -> Option<Interval> {
    let (min, q1, median, q3) = (
        timing.minimum?,
        timing.first_quartile?,
        timing.median?,
        timing.third_quartile?,
    );
    let all_positive = [min, q1, median, q3]
        .iter()
        .all(|v| is_positive_finite(Some(*v)));
    if all_positive && min <= q1 && q1 <= median && median <= q3 {
        return make_interval(min, q3, median);
    }
    None
}

fn relative_dispersion(dispersion: Option<f64>, center: Option<f64>) -> Option<f64> {
    let (dispersion, center) = (dispersion?, center?);
    let usable = center > 0.0 && center.is_finite() && dispersion >= 0.0;
    usable.then(|| dispersion / center)
}

fn has_robust_estimate(timing: &Timing) -> bool {
    timing.median.is_some()
        && (timing.interquartile_range_relative.is_some() || timing.interquartile_range.is_some())
}

fn has_mean_estimate(timing: &Timing) -> bool {
    timing.mean.is_some() && (timing.stdev_relative.is_some() || timing.stdev.is_some())
}

fn robust_estimate(timing: &Timing) -> Estimate {
    Estimate {
        center: timing.median,
        relative_dispersion: timing
            .interquartile_range_relative
            .or_else(|| relative_dispersion(timing.interquartile_range, timing.median)),
    }
}

fn mean_estimate(timing: &Timing) -> Estimate {
    Estimate {
        center: timing.mean,
        relative_dispersion: timing
            .stdev_relative
            .or_else(|| relative_dispersion(timing.stdev, timing.mean)),
    }
}

/// Which summaries give the center and noise of every run of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EstimateKind {
    /// Median and IQR.
    Robust,
    /// Mean and standard deviation.
    Mean,
    /// Mean and `stdev/absolute` only.
    Fallback,
}

/// Robust only if every timing is robust, else mean if every one has it.
pub fn common_estimate_kind<'t>(timings: impl Iterator<Item = &'t Timing> + Clone) -> EstimateKind {
    if timings.clone().all(has_robust_estimate) {
        EstimateKind::Robust
    } else if timings.into_iter().all(has_mean_estimate) {
        EstimateKind::Mean
    } else {
        EstimateKind::Fallback
    }
}

pub fn estimate_of(timing: &Timing, kind: EstimateKind) -> Estimate {
    match kind {
        EstimateKind::Robust => robust_estimate(timing),
        EstimateKind::Mean => mean_estimate(timing),
        EstimateKind::Fallback => Estimate {
            center: timing.mean,
            relative_dispersion: relative_dispersion(timing.stdev, timing.mean),
        },
    }
}

/// The center/noise estimate is chosen jointly: robust only if both sides are robust.
pub fn common_estimates(reference: &Timing, compare: &Timing) -> (Estimate, Estimate) {
    let kind = common_estimate_kind([reference, compare].into_iter());
    (estimate_of(reference, kind), estimate_of(compare, kind))
}

fn unusable_center_decision(ref_time: Option<f64>, cmp_time: Option<f64>) -> Option<Decision> {
    let (Some(r), Some(c)) = (ref_time, cmp_time) else {
        return Some(decision(
            Status::Unknown,
            ReasonCode::TimingCenterMissing,
            "timing center is missing",
        ));
    };
    if !r.is_finite() || !c.is_finite() {
        return Some(decision(
            Status::Unknown,
            ReasonCode::TimingCenterNonfinite,
            "timing center is non-finite",
        ));
    }
    if r <= 0.0 || c <= 0.0 {
        return Some(decision(
            Status::Unknown,
            ReasonCode::TimingCenterNonpositive,
            "timing center is non-positive",
        ));
    }
    None
}

/// Step 1: a clear gap between the intervals, relative to the lower side.
pub fn clear_gap_status(
    reference: &Interval,
    compare: &Interval,
    t: &Thresholds,
) -> Option<Status> {
    if compare.upper < reference.lower
        && (reference.lower - compare.upper) / compare.upper >= t.clear_gap_relative
    {
        return Some(Status::Fast);
    }
    if compare.lower > reference.upper
        && (compare.lower - reference.upper) / reference.upper >= t.clear_gap_relative
    {
        return Some(Status::Slow);
    }
    None
}

pub fn scale_interval(interval: &Interval, scale: Option<f64>) -> Option<Interval> {
    let scale = scale.filter(|s| is_positive_finite(Some(*s)))?;
    make_interval(
        interval.lower * scale,
        interval.upper * scale,
        interval.center * scale,
    )
}

/// Both intervals in cycle space (time x `sm_clock_rate/mean`).
enum CycleIntervals {
    /// A side has no clock-rate summary.
    Missing,
    /// Neither side has a clock domain.
    TimeOnly,
    /// A clock rate is not positive and finite, or a scaled interval is invalid.
    Invalid,
    Scaled(Interval, Interval),
}

fn cycle_intervals(reference: &Evidence, compare: &Evidence) -> CycleIntervals {
    use CycleInterval::{Missing, Scaled, TimeOnly};
    match (reference.cycles, compare.cycles) {
        (TimeOnly, TimeOnly) => CycleIntervals::TimeOnly,
        (Missing | TimeOnly, _) | (_, Missing | TimeOnly) => CycleIntervals::Missing,
        (Scaled(r), Scaled(c)) => CycleIntervals::Scaled(r, c),
        _ => CycleIntervals::Invalid,
    }
}

/// Step 2 without bulk data: confirm the gap with `sm_clock_rate/mean`.
fn confirm_gap_with_clock_rate(
    status: Status,
    reference: &Evidence,
    compare: &Evidence,
    t: &Thresholds,
) -> Decision {
    let (ref_cycles, cmp_cycles) = match cycle_intervals(reference, compare) {
        CycleIntervals::TimeOnly if t.without_clock() == WithoutClock::Confirm => {
            return decision(
                status,
                ReasonCode::ClearGapTimeOnly,
                "clear timing gap was confirmed by the time intervals alone (the input has no clock domain)",
            );
        }
        CycleIntervals::Missing | CycleIntervals::TimeOnly => {
            return decision(
                Status::Undecided,
                ReasonCode::MissingClockRate,
                "clear timing gap was not confirmed because SM clock summaries are unavailable",
            );
        }
        CycleIntervals::Invalid => {
            return decision(
                Status::Undecided,
                ReasonCode::InvalidClockRate,
                "clear timing gap was not confirmed because SM clock summaries are invalid",
            );
        }
        CycleIntervals::Scaled(r, c) => (r, c),
    };
    if clear_gap_status(&ref_cycles, &cmp_cycles, t) == Some(status) {
        decision(
            status,
            ReasonCode::ClearGapConfirmedBySummaryCycles,
            "clear timing gap was confirmed by SM-clock-adjusted cycle intervals",
        )
    } else {
        decision(
            Status::Undecided,
            ReasonCode::SummaryCycleGapNotConfirmed,
            "clear timing gap was not confirmed by SM-clock-adjusted cycle intervals",
        )
    }
}

/// The bulk cycles' interval, as the rules of `t` build it.
fn cycle_interval(samples: &BulkSamples, t: &Thresholds) -> Option<Interval> {
    match t.rules {
        Rules::Compare => {
            let interval = samples.cycle_interval()?;
            make_interval(interval.lower, interval.upper, interval.center)
        }
        Rules::Robust => robust::bulk_cycle_interval(samples),
    }
}

/// Step 2 with bulk data: `None` when either side lacks material sidecars
/// (then the summary clock rate decides); unusable sidecars stay AMBG.
fn confirm_gap_with_bulk_cycles(
    status: Status,
    reference: &dyn BulkEvidence,
    compare: &dyn BulkEvidence,
    t: &Thresholds,
) -> Option<Decision> {
    if !(reference.has_material_cycle_sources() && compare.has_material_cycle_sources()) {
        return None;
    }
    let (Some(ref_bulk), Some(cmp_bulk)) = (reference.time_and_cycles(), compare.time_and_cycles())
    else {
        return Some(decision(
            Status::Undecided,
            ReasonCode::BulkCycleDataUnusable,
            "bulk sample time and frequency data are present but unusable for cycle confirmation",
        ));
    };
    let (Some(ref_cycles), Some(cmp_cycles)) =
        (cycle_interval(ref_bulk, t), cycle_interval(cmp_bulk, t))
    else {
        return Some(decision(
            Status::Undecided,
            ReasonCode::BulkCycleDataUnusable,
            "bulk cycle intervals could not be constructed",
        ));
    };
    Some(
        if clear_gap_status(&ref_cycles, &cmp_cycles, t) == Some(status) {
            decision(
                status,
                ReasonCode::ClearGapConfirmedByBulkCycles,
                "clear timing gap was confirmed by bulk cycle intervals",
            )
        } else {
            decision(
                Status::Undecided,
                ReasonCode::BulkCycleGapNotConfirmed,
                "clear timing gap was not confirmed by bulk cycle intervals",
            )
        },
    )
}

/// Steps 1 and 2.
pub(super) fn decide_clear_gap(
    reference: &Evidence,
    compare: &Evidence,
    t: &Thresholds,
) -> Decision {
    let (Some(ref_interval), Some(cmp_interval)) = (reference.interval, compare.interval) else {
        return missing_interval_decision();
    };
    let Some(status) = clear_gap_status(&ref_interval, &cmp_interval, t) else {
        return decision(
            Status::Undecided,
            ReasonCode::NoClearGap,
            "timing intervals do not have a sufficient clear gap",
        );
    };
    if let Some(bulk) = confirm_gap_with_bulk_cycles(status, reference.bulk, compare.bulk, t) {
        return bulk;
    }
    confirm_gap_with_clock_rate(status, reference, compare, t)
}

fn missing_interval_decision() -> Decision {
    decision(
        Status::Undecided,
        ReasonCode::MissingInterval,
        "could not construct comparable timing intervals",
    )
}

pub fn centers_are_close(ref_center: f64, cmp_center: f64, t: &Thresholds) -> bool {
    if !is_positive_finite(Some(ref_center)) || !is_positive_finite(Some(cmp_center)) {
        return false;
    }
    (ref_center - cmp_center).abs() / ref_center.min(cmp_center) <= t.same_center_relative
}

/// Overlap relative to the narrower interval; degenerate (zero-width)
/// intervals overlap fully when they contain each other's point.
pub fn overlap_fraction(reference: &Interval, compare: &Interval) -> f64 {
    let lower = reference.lower.max(compare.lower);
    let upper = reference.upper.min(compare.upper);
    if upper < lower {
        return 0.0;
    }
    let ref_width = reference.upper - reference.lower;
    let cmp_width = compare.upper - compare.lower;
    let min_width = ref_width.min(cmp_width);
    if min_width > 0.0 {
        return (upper - lower) / min_width;
    }
    let contains = |outer: &Interval, point: f64| outer.lower <= point && point <= outer.upper;
    let overlapping = if ref_width == 0.0 && cmp_width == 0.0 {
        reference.lower == compare.lower
    } else if ref_width == 0.0 {
        contains(compare, reference.lower)
    } else {
        contains(reference, compare.lower)
    };
    if overlapping { 1.0 } else { 0.0 }
}

fn intervals_support_same(reference: &Interval, compare: &Interval, t: &Thresholds) -> Decision {
    if !centers_are_close(reference.center, compare.center, t) {
        return decision(
            Status::Undecided,
            ReasonCode::CentersNotClose,
            "timing centers are not close enough to declare same",
        );
    }
    if overlap_fraction(reference, compare) < t.same_overlap_fraction {
        return decision(
            Status::Undecided,
            ReasonCode::WeakIntervalOverlap,
            "timing intervals do not overlap strongly enough to declare same",
        );
    }
    decision(
        Status::Same,
        ReasonCode::SameSummary,
        "timing centers are close and intervals overlap strongly",
    )
}

/// Step 4's cycle-space confirmation.
fn confirm_same_with_clock_rate(
    reference: &Evidence,
    compare: &Evidence,
    t: &Thresholds,
) -> Decision {
    let (ref_cycles, cmp_cycles) = match cycle_intervals(reference, compare) {
        CycleIntervals::Missing | CycleIntervals::TimeOnly => {
            return decision(
                Status::Same,
                ReasonCode::SameWithoutClockRate,
                "timing centers are close and intervals overlap strongly; SM clock summaries are unavailable",
            );
        }
        CycleIntervals::Invalid => {
            return decision(
                Status::Undecided,
                ReasonCode::InvalidClockRate,
                "same decision was not confirmed because SM clock summaries are invalid",
            );
        }
        CycleIntervals::Scaled(r, c) => (r, c),
    };
    if intervals_support_same(&ref_cycles, &cmp_cycles, t).status == Status::Same {
        decision(
            Status::Same,
            ReasonCode::SameConfirmedByCycles,
            "timing and SM-clock-adjusted cycle intervals both support same",
        )
    } else {
        decision(
            Status::Undecided,
            ReasonCode::CycleSameNotConfirmed,
            "same decision was not confirmed by SM-clock-adjusted cycle intervals",
        )
    }
}

/// Step 4: summary SAME.
fn decide_summary_same(reference: &Evidence, compare: &Evidence, t: &Thresholds) -> Decision {
    let (Some(ref_noise), Some(cmp_noise)) = (
        reference
            .estimate
            .relative_dispersion
            .filter(|n| n.is_finite()),
        compare
            .estimate
            .relative_dispersion
            .filter(|n| n.is_finite()),
    ) else {
        return decision(
            Status::Undecided,
            ReasonCode::NoiseUnavailable,
            "relative dispersion is unavailable or non-finite",
        );
    };
    if ref_noise.max(cmp_noise) > t.same_relative_dispersion_ceiling {
        return decision(
            Status::Undecided,
            ReasonCode::NoiseTooHigh,
            "relative dispersion is too high to declare same",
        );
    }
    let (Some(ref_interval), Some(cmp_interval)) = (reference.interval, compare.interval) else {
        return missing_interval_decision();
    };
    let same = intervals_support_same(&ref_interval, &cmp_interval, t);
    if same.status != Status::Same {
        return same;
    }
    confirm_same_with_clock_rate(reference, compare, t)
}

fn coverage_thresholds(t: &Thresholds) -> coverage::CoverageThresholds {
    coverage::CoverageThresholds {
        center_relative: t.same_center_relative,
        sample_coverage: t.bulk_sample_coverage,
        support_coverage: t.bulk_support_coverage,
        rare_sample_fraction: t.rare_sample_fraction,
        rare_max_removed_sample_fraction: t.rare_max_removed_sample_fraction,
    }
}

/// Step 3 for one kind of values (`label` is "time" or "cycle").
fn bulk_values_same(
    reference: &BulkSamples,
    compare: &BulkSamples,
    cycles: bool,
    t: &Thresholds,
) -> Decision {
    let (unusable, same, mismatch, label) = if cycles {
        (
            ReasonCode::BulkCycleDataUnusable,
            ReasonCode::BulkCycleSame,
            ReasonCode::BulkCycleSupportMismatch,
            "cycle",
        )
    } else {
        (
            ReasonCode::BulkTimeDataUnusable,
            ReasonCode::BulkTimeSame,
            ReasonCode::BulkTimeSupportMismatch,
            "time",
        )
    };
    let thresholds = coverage_thresholds(t);
    let outcome = if cycles {
        coverage::step3_coverages(reference.cycle_bits(), compare.cycle_bits(), &thresholds)
    } else {
        coverage::step3_coverages(reference.time_bits(), compare.time_bits(), &thresholds)
    };
    let same_decision = || {
        decision(
            Status::Same,
            same,
            format!("bulk {label} nearest-neighbor coverage supports same"),
        )
    };
    let coverages = match outcome {
        CoverageOutcome::ProvedSame => return same_decision(),
        CoverageOutcome::Counted(Some(coverages)) => coverages,
        CoverageOutcome::Counted(None) => {
            return decision(
                Status::Undecided,
                unusable,
                format!("bulk {label} data is empty or unusable"),
            );
        }
    };
    if coverage::coverages_support_same(&coverages, &thresholds) {
        return same_decision();
    }
    let (message, severity) = coverage::mismatch_message(&coverages, &thresholds);
    Decision {
        status: Status::Undecided,
        reason: Reason::with_severity(mismatch, message, severity),
    }
}

/// Step 3: `None` when bulk data are unavailable on either side.
fn decide_bulk_same(
    reference: &dyn BulkEvidence,
    compare: &dyn BulkEvidence,
    t: &Thresholds,
) -> Option<Decision> {
    // Both sides are loaded (and warned about) before either is judged.
    let (ref_bulk, cmp_bulk) = (reference.time_and_cycles(), compare.time_and_cycles());
    let (ref_bulk, cmp_bulk) = (ref_bulk?, cmp_bulk?);
    let times = bulk_values_same(ref_bulk, cmp_bulk, false, t);
    if times.status != Status::Same {
        return Some(times);
    }
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

/// A comparison that could not be made; the intervals and estimates are
/// still shown, as the rules of `t` build them.
pub fn unavailable_comparison(
    decision: Decision,
    reference: &Side,
    compare: &Side,
    t: &Thresholds,
) -> Comparison {
    match t.rules {
        Rules::Compare => unavailable_timing_comparison(decision, reference.timing, compare.timing),
        Rules::Robust => robust::unavailable_comparison(decision, reference, compare),
    }
}

fn unavailable_timing_comparison(
    decision: Decision,
    reference: &Timing,
    compare: &Timing,
) -> Comparison {
    let (ref_estimate, cmp_estimate) = common_estimates(reference, compare);
    unavailable_evidence_comparison(
        decision,
        &Evidence::of_timing(reference, ref_estimate, &NoBulk),
        &Evidence::of_timing(compare, cmp_estimate, &NoBulk),
    )
}

/// [`unavailable_comparison`] of any evidence.
pub fn unavailable_evidence_comparison(
    decision: Decision,
    reference: &Evidence,
    compare: &Evidence,
) -> Comparison {
    Comparison::new(
        SideNumbers::of(reference),
        SideNumbers::of(compare),
        decision,
    )
}

/// The whole decision tree for one matched state whose summaries are
/// present, by the rules of `t`.
pub fn compare_timings(reference: &Side, compare: &Side, t: &Thresholds) -> Comparison {
    if t.rules == Rules::Robust {
        return robust::compare_timings(reference, compare, t);
    }
    let (ref_estimate, cmp_estimate) = common_estimates(reference.timing, compare.timing);
    compare_evidence(
        &Evidence::of_timing(reference.timing, ref_estimate, reference.bulk),
        &Evidence::of_timing(compare.timing, cmp_estimate, compare.bulk),
        t,
    )
}

/// The decision tree on the evidence of both sides, by the rules of `t`.
pub fn compare_evidence(reference: &Evidence, compare: &Evidence, t: &Thresholds) -> Comparison {
    if t.rules == Rules::Robust {
        return robust::compare_evidence(reference, compare, t);
    }
    let (ref_time, cmp_time) = (reference.estimate.center, compare.estimate.center);
    if let Some(unusable) = unusable_center_decision(ref_time, cmp_time) {
        return unavailable_evidence_comparison(unusable, reference, compare);
    }
    let mut outcome = decide_clear_gap(reference, compare, t);
    if matches!(
        outcome.reason.code,
        ReasonCode::NoClearGap | ReasonCode::MissingInterval
    ) {
        outcome = decide_bulk_same(reference.bulk, compare.bulk, t)
            .unwrap_or_else(|| decide_summary_same(reference, compare, t));
    }
    Comparison::new(
        SideNumbers::of(reference),
        SideNumbers::of(compare),
        outcome,
    )
    .with_differences()
}

/// A decision on a side with a single repetition (of one file) is AMBG
/// `too_few_repetitions`: one sample shows nothing of how much the result
/// moves between repetitions (its IQR is 0). `repetitions` is each side's
/// count, `None` for inputs that are not counted in repetitions (NVBench).
pub fn too_few_repetitions(comparison: &mut Comparison, repetitions: [Option<usize>; 2]) {
    let decided = matches!(
        comparison.status,
        Status::Same | Status::Fast | Status::Slow
    );
    if decided && repetitions.iter().any(|r| r.is_some_and(|n| n < 2)) {
        comparison.status = Status::Undecided;
        comparison.reason = Reason::new(
            ReasonCode::TooFewRepetitions,
            "a side has a single repetition: no run-to-run variation to judge the change by",
        );
    }
}

/// Whether a state can be compared at all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Presence {
    pub skipped: bool,
    pub skip_reason: Option<String>,
    pub has_summaries: bool,
}

/// `????` for skipped states and states without summaries (`None` when both have summaries).
pub fn missing_summaries_decision(reference: Presence, compare: Presence) -> Option<Decision> {
    // Nearly every state: nothing skipped, summaries on both sides.
    if !reference.skipped && !compare.skipped && reference.has_summaries && compare.has_summaries {
        return None;
    }
    let skipped: Vec<String> = [("reference", &reference), ("compare", &compare)]
        .into_iter()
        .filter(|(_, presence)| presence.skipped)
        .map(|(side, presence)| match &presence.skip_reason {
            Some(reason) => format!("{side} state skipped: {reason}"),
            None => format!("{side} state skipped"),
        })
        .collect();
    if !skipped.is_empty() {
        return Some(decision(
            Status::Unknown,
            ReasonCode::StateSkipped,
            skipped.join("; "),
        ));
    }
    let message = match (reference.has_summaries, compare.has_summaries) {
        (true, true) => return None,
        (false, false) => "reference and compare GPU timing summaries are missing",
        (false, true) => "reference GPU timing summaries are missing",
        (true, false) => "compare GPU timing summaries are missing",
    };
    Some(decision(
        Status::Unknown,
        ReasonCode::GpuTimingSummariesMissing,
        message,
    ))
}

#[cfg(test)]
mod tests;
