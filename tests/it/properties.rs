//! Property tests of the decision tree (`compare::compare_timings`) on
//! generated timing summaries and bulk samples:
//!
//! - swapping reference and compare turns FAST into SLOW and back, and keeps
//!   SAME, AMBG and `????` (and the reason code);
//! - scaling every time on both sides by the same positive factor changes no
//!   status;
//! - a state compared with itself is never FAST or SLOW;
//! - tightening the thresholds (`strict` after `default` or `permissive`, or
//!   any random tightening of `default`) never turns a non-gap into a gap
//!   and never turns an AMBG into a SAME, except through the rare-support
//!   filter, where the reference itself breaks monotonicity: the property
//!   allows AMBG -> SAME only when that filter is on under the looser and
//!   off under the tighter thresholds, and
//!   `strict_can_turn_ambg_into_same_via_rare_support` pins an example;
//! - `permissive` is not a loosening of `default` in the reference (its
//!   `bulk.sample_coverage` is higher), so that pair is not checked;
//!   `permissive_demands_more_sample_coverage_than_default` pins it.
//!
//! Both pinned examples give the same verdicts in nvbench_compare.py
//! (tests/regressions/, checked byte for byte by tests/it/regressions.rs).
//!
//! Inputs: "realistic" runs (samples on a grid, NVBench-like summaries
//! computed from them, some summaries dropped, clock summaries missing or
//! invalid, bulk evidence absent, unusable or present) and "wild" runs
//! (independent summaries, including missing, NaN, infinite, zero and
//! negative values).
//!
//! The runs are deterministic (fixed seed, 256 cases per property); set
//! `PROPTEST_RNG_SEED` and/or `PROPTEST_CASES` to explore further.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use nvbench_compare::deciding::config::{Thresholds, preset};
use nvbench_compare::deciding::decision::{
    BulkEvidence, BulkSamples, Comparison, NoBulk, Side, compare_timings,
};
use nvbench_compare::deciding::status::{ReasonCode, Status};
use nvbench_compare::loading::timing::Timing;

fn config() -> ProptestConfig {
    let base = ProptestConfig::default();
    let explore_seed = std::env::var_os("PROPTEST_RNG_SEED").is_some();
    let explore_cases = std::env::var_os("PROPTEST_CASES").is_some();
    ProptestConfig {
        cases: if explore_cases { base.cases } else { 256 },
        rng_seed: if explore_seed {
            base.rng_seed
        } else {
            RngSeed::Fixed(0x6e76_6263)
        },
        failure_persistence: None,
        ..base
    }
}

// ---------------------------------------------------------------------------
// Bulk evidence held in memory
// ---------------------------------------------------------------------------

/// What a sidecar pair looks like to the decision tree.
#[derive(Debug, Clone)]
enum Bulk {
    /// No sidecars (or empty ones): `NoBulk`.
    Absent,
    /// Non-empty sidecars that failed to load or validate.
    Unusable,
    /// Loaded samples.
    Samples(BulkSamples),
}

impl BulkEvidence for Bulk {
    fn has_material_cycle_sources(&self) -> bool {
        !matches!(self, Bulk::Absent)
    }
    fn time_and_cycles(&self) -> Option<&BulkSamples> {
        match self {
            Bulk::Samples(samples) => Some(samples),
            _ => None,
        }
    }
}

/// One side of a comparison.
#[derive(Debug, Clone)]
struct Run {
    timing: Timing,
    bulk: Bulk,
}

fn decide(reference: &Run, compare: &Run, t: &Thresholds) -> Comparison {
    compare_timings(
        &Side {
            timing: &reference.timing,
            bulk: &reference.bulk,
        },
        &Side {
            timing: &compare.timing,
            bulk: &compare.bulk,
        },
        t,
    )
}

fn decide_summaries(reference: &Timing, compare: &Timing, t: &Thresholds) -> Comparison {
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

fn mirrored(status: Status) -> Status {
    match status {
        Status::Fast => Status::Slow,
        Status::Slow => Status::Fast,
        other => other,
    }
}

fn is_gap(status: Status) -> bool {
    matches!(status, Status::Fast | Status::Slow)
}

// ---------------------------------------------------------------------------
// Realistic runs: samples on a multiplicative grid, summaries computed from them
// ---------------------------------------------------------------------------

/// Sample times and clock frequencies are `base * GRID^k`. Every ratio of two
/// samples (and of two cycle counts) is then within rounding of an integer
/// power of GRID, so every log-space nearest-neighbour distance is close to a
/// multiple of ln(1.003) = 0.0030 and far (> 4e-4) from each preset's
/// tolerance ln(1 + same.center_relative): 0.0025, 0.0050, 0.0100. Coverage
/// flags therefore cannot flip under the last-bit differences of `ln` that
/// scaling by 2^k introduces.
const GRID: f64 = 1.003;

const TIME_BASE: f64 = 1.0e-3;
const CLOCK_BASE: f64 = 1.5e9;

fn grid(base: f64, k: i32) -> f64 {
    base * GRID.powi(k)
}

/// NumPy's default (`linear`) quantile of a sorted slice.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let index = (sorted.len() - 1) as f64 * q;
    let below = index.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let fraction = index - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * fraction
}

/// NVBench-like summaries of samples (sample standard deviation).
fn summaries_of(times: &[f64], frequencies: &[f64]) -> Timing {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len() as f64;
    let mean = sorted.iter().sum::<f64>() / n;
    let stdev = if sorted.len() > 1 {
        (sorted.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let (q1, median, q3) = (
        quantile(&sorted, 0.25),
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.75),
    );
    Timing {
        minimum: Some(sorted[0]),
        maximum: Some(sorted[sorted.len() - 1]),
        mean: Some(mean),
        stdev: Some(stdev),
        stdev_relative: Some(stdev / mean),
        first_quartile: Some(q1),
        median: Some(median),
        third_quartile: Some(q3),
        interquartile_range: Some(q3 - q1),
        interquartile_range_relative: Some((q3 - q1) / median),
        sm_clock_rate_mean: Some(frequencies.iter().sum::<f64>() / n),
        samples: None,
        frequencies: None,
        repetitions: None,
    }
}

/// Which summaries a run lacks (as if NVBench or an editor dropped them) and
/// what its clock summary looks like.
#[derive(Debug, Clone, Copy)]
struct Damage {
    missing: u16,
    clock: u8,
}

fn damage() -> impl Strategy<Value = Damage> {
    // Each summary is missing with probability 1/8; the clock summary is
    // kept 3 times in 4.
    (
        prop::collection::vec(prop::bool::weighted(0.125), 10),
        0u8..16,
    )
        .prop_map(|(missing, clock)| Damage {
            missing: missing
                .iter()
                .enumerate()
                .fold(0, |bits, (i, m)| bits | (u16::from(*m) << i)),
            clock,
        })
}

fn apply(damage: Damage, mut timing: Timing) -> Timing {
    let fields: [&mut Option<f64>; 10] = [
        &mut timing.minimum,
        &mut timing.maximum,
        &mut timing.mean,
        &mut timing.stdev,
        &mut timing.stdev_relative,
        &mut timing.first_quartile,
        &mut timing.median,
        &mut timing.third_quartile,
        &mut timing.interquartile_range,
        &mut timing.interquartile_range_relative,
    ];
    for (i, field) in fields.into_iter().enumerate() {
        if damage.missing & (1 << i) != 0 {
            *field = None;
        }
    }
    timing.sm_clock_rate_mean = match damage.clock {
        0..=11 => timing.sm_clock_rate_mean,
        12 | 13 => None,
        14 => Some(0.0),
        _ => Some(f64::INFINITY),
    };
    timing
}

/// Grid exponents of the samples of a run: up to three modes (a kernel with
/// one or more typical durations), each with a little jitter, plus an offset
/// that shifts the whole run (the "regression" or "improvement").
fn exponents(offset: std::ops::RangeInclusive<i32>) -> impl Strategy<Value = Vec<i32>> {
    (
        offset,
        prop::collection::vec(0i32..12, 1..=3),
        prop::collection::vec((0usize..3, -2i32..=2), 4..160),
    )
        .prop_map(|(offset, modes, picks)| {
            picks
                .into_iter()
                .map(|(mode, jitter)| offset + modes[mode % modes.len()] + jitter)
                .collect()
        })
}

/// Clock exponents: a steady clock, or one that wanders a few grid steps.
fn clock_exponents(n: usize) -> impl Strategy<Value = Vec<i32>> {
    (
        -3i32..=3,
        prop::bool::ANY,
        prop::collection::vec(-2i32..=2, n),
    )
        .prop_map(|(level, steady, jitter)| {
            jitter
                .into_iter()
                .map(|j| if steady { level } else { level + j })
                .collect()
        })
}

/// How the bulk evidence of a realistic run is presented.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BulkKind {
    Absent,
    Unusable,
    Samples,
}

fn bulk_kind() -> impl Strategy<Value = BulkKind> {
    prop_oneof![
        2 => Just(BulkKind::Absent),
        1 => Just(BulkKind::Unusable),
        3 => Just(BulkKind::Samples),
    ]
}

/// Sample times and their cycle counts (time x clock), with the clocks.
#[derive(Debug, Clone)]
struct Samples {
    times: Vec<f64>,
    frequencies: Vec<f64>,
}

impl Samples {
    fn bulk(&self) -> BulkSamples {
        bulk_samples(&self.times, &self.frequencies)
    }
}

/// Bulk samples as the sidecars hold them: float32 times and frequencies.
fn bulk_samples(times: &[f64], frequencies: &[f64]) -> BulkSamples {
    let float32 = |v: &[f64]| v.iter().map(|&x| x as f32).collect();
    BulkSamples::new(float32(times), float32(frequencies)).expect("usable samples")
}

fn samples(offset: std::ops::RangeInclusive<i32>) -> impl Strategy<Value = Samples> {
    exponents(offset)
        .prop_flat_map(|ks| {
            let n = ks.len();
            (Just(ks), clock_exponents(n))
        })
        .prop_map(|(ks, ms)| Samples {
            times: ks.iter().map(|&k| grid(TIME_BASE, k)).collect(),
            frequencies: ms.iter().map(|&m| grid(CLOCK_BASE, m)).collect(),
        })
}

fn bulk_of(kind: BulkKind, samples: &Samples) -> Bulk {
    match kind {
        BulkKind::Absent => Bulk::Absent,
        BulkKind::Unusable => Bulk::Unusable,
        BulkKind::Samples => Bulk::Samples(samples.bulk()),
    }
}

/// A run whose summaries are computed from its samples (then possibly
/// damaged), with or without the samples as bulk evidence.
fn realistic_run(offset: std::ops::RangeInclusive<i32>) -> impl Strategy<Value = Run> {
    (samples(offset), damage(), bulk_kind()).prop_map(|(samples, damage, kind)| Run {
        timing: apply(damage, summaries_of(&samples.times, &samples.frequencies)),
        bulk: bulk_of(kind, &samples),
    })
}

/// Two realistic runs, the compare run shifted by up to ±10 grid steps (3%).
fn realistic_pair() -> impl Strategy<Value = (Run, Run)> {
    (realistic_run(0..=0), realistic_run(-10..=10))
}

// ---------------------------------------------------------------------------
// Wild summaries: any combination of missing, non-finite, non-positive and
// unordered values (bulk samples stay on the grid, see GRID)
// ---------------------------------------------------------------------------

fn wild_value(extreme: bool) -> BoxedStrategy<Option<f64>> {
    let ordinary = (-40i32..=40).prop_map(|k| Some(grid(TIME_BASE, k)));
    if extreme {
        prop_oneof![
            6 => ordinary,
            1 => Just(None),
            1 => prop::sample::select(vec![
                Some(f64::NAN),
                Some(f64::INFINITY),
                Some(f64::NEG_INFINITY),
                Some(0.0),
                Some(-0.0),
                Some(-1.0e-3),
                Some(f64::MIN_POSITIVE),
                Some(5e-324),
                Some(f64::MAX),
                Some(1.0e300),
            ]),
            1 => any::<f64>().prop_map(Some),
        ]
        .boxed()
    } else {
        prop_oneof![
            6 => ordinary,
            1 => Just(None),
            1 => prop::sample::select(vec![
                Some(f64::NAN),
                Some(f64::INFINITY),
                Some(f64::NEG_INFINITY),
                Some(0.0),
                Some(-1.0e-3),
            ]),
        ]
        .boxed()
    }
}

fn wild_relative() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        4 => (0u32..60).prop_map(|p| Some(f64::from(p) / 1000.0)),
        1 => Just(None),
        1 => prop::sample::select(vec![Some(f64::NAN), Some(f64::INFINITY), Some(-0.01)]),
    ]
}

fn wild_clock() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        4 => (-6i32..=6).prop_map(|m| Some(grid(CLOCK_BASE, m))),
        1 => Just(None),
        1 => prop::sample::select(vec![Some(0.0), Some(f64::INFINITY), Some(f64::NAN), Some(-1.5e9)]),
    ]
}

/// Summaries drawn independently of each other. `extreme` adds values whose
/// scaling by 2^k overflows or underflows (only for the properties that do
/// not scale).
fn wild_timing(extreme: bool) -> impl Strategy<Value = Timing> {
    (
        prop::collection::vec(wild_value(extreme), 8),
        wild_relative(),
        wild_relative(),
        wild_clock(),
    )
        .prop_map(|(v, stdev_relative, iqr_relative, clock)| Timing {
            minimum: v[0],
            maximum: v[1],
            mean: v[2],
            stdev: v[3],
            stdev_relative,
            first_quartile: v[4],
            median: v[5],
            third_quartile: v[6],
            interquartile_range: v[7],
            interquartile_range_relative: iqr_relative,
            sm_clock_rate_mean: clock,
            samples: None,
            frequencies: None,
            repetitions: None,
        })
}

/// A wild run: sometimes ordered summaries (so that the deeper steps are
/// reached), sometimes anything; bulk evidence of any kind.
fn wild_run(extreme: bool) -> impl Strategy<Value = Run> {
    (
        wild_timing(extreme),
        prop::bool::weighted(0.5),
        samples(-10..=10),
        bulk_kind(),
    )
        .prop_map(|(mut timing, order, samples, kind)| {
            if order {
                let mut v: Vec<f64> = [
                    timing.minimum,
                    timing.first_quartile,
                    timing.median,
                    timing.third_quartile,
                    timing.maximum,
                ]
                .iter()
                .flatten()
                .copied()
                .filter(|v| v.is_finite())
                .collect();
                v.sort_by(f64::total_cmp);
                if v.len() == 5 {
                    timing.minimum = Some(v[0]);
                    timing.first_quartile = Some(v[1]);
                    timing.median = Some(v[2]);
                    timing.third_quartile = Some(v[3]);
                    timing.maximum = Some(v[4]);
                }
            }
            Run {
                timing,
                bulk: bulk_of(kind, &samples),
            }
        })
}

fn any_pair(extreme: bool) -> impl Strategy<Value = (Run, Run)> {
    prop_oneof![
        realistic_pair(),
        (wild_run(extreme), wild_run(extreme)),
        (realistic_run(0..=0), wild_run(extreme)),
    ]
}

// ---------------------------------------------------------------------------
// Scaling
// ---------------------------------------------------------------------------

/// Every time (and so every cycle count) times `factor`; relative
/// dispersions and clock rates are unchanged.
fn scaled(run: &Run, factor: f64) -> Run {
    let s = |v: Option<f64>| v.map(|v| v * factor);
    let t = &run.timing;
    Run {
        timing: Timing {
            minimum: s(t.minimum),
            maximum: s(t.maximum),
            mean: s(t.mean),
            stdev: s(t.stdev),
            first_quartile: s(t.first_quartile),
            median: s(t.median),
            third_quartile: s(t.third_quartile),
            interquartile_range: s(t.interquartile_range),
            ..t.clone()
        },
        bulk: match &run.bulk {
            Bulk::Samples(b) => {
                // A power of two scales float32 times exactly too.
                let times = b.times().iter().map(|&t| (f64::from(t) * factor) as f32);
                let frequencies = b.frequencies().to_vec();
                Bulk::Samples(BulkSamples::new(times.collect(), frequencies).unwrap())
            }
            other => other.clone(),
        },
    }
}

// ---------------------------------------------------------------------------
// Threshold tightening
// ---------------------------------------------------------------------------

/// `tight` is at least as demanding as `loose` in every threshold (the rare
/// support sample fraction, whose direction is not a tightening, is equal).
fn is_tightening(loose: &Thresholds, tight: &Thresholds) -> bool {
    tight.clear_gap_relative >= loose.clear_gap_relative
        && tight.same_center_relative <= loose.same_center_relative
        && tight.same_overlap_fraction >= loose.same_overlap_fraction
        && tight.same_relative_dispersion_ceiling <= loose.same_relative_dispersion_ceiling
        && tight.bulk_sample_coverage >= loose.bulk_sample_coverage
        && tight.bulk_support_coverage >= loose.bulk_support_coverage
        && tight.rare_sample_fraction == loose.rare_sample_fraction
        && tight.rare_max_removed_sample_fraction <= loose.rare_max_removed_sample_fraction
}

/// A random tightening of the default thresholds.
fn tightened_default() -> impl Strategy<Value = Thresholds> {
    prop::collection::vec(0u32..=100, 7).prop_map(|p| {
        let f = |i: usize| f64::from(p[i]) / 100.0;
        let d = Thresholds::default();
        Thresholds {
            clear_gap_relative: d.clear_gap_relative * (1.0 + 3.0 * f(0)),
            clear_gap_without_clock: d.clear_gap_without_clock,
            same_center_relative: d.same_center_relative * (1.0 - f(1)),
            same_overlap_fraction: d.same_overlap_fraction + (1.0 - d.same_overlap_fraction) * f(2),
            same_relative_dispersion_ceiling: d.same_relative_dispersion_ceiling * (1.0 - f(3)),
            bulk_sample_coverage: d.bulk_sample_coverage + (1.0 - d.bulk_sample_coverage) * f(4),
            bulk_support_coverage: d.bulk_support_coverage + (1.0 - d.bulk_support_coverage) * f(5),
            rare_sample_fraction: d.rare_sample_fraction,
            rare_max_removed_sample_fraction: d.rare_max_removed_sample_fraction * (1.0 - f(6)),
            rules: d.rules,
        }
    })
}

/// Whether the rare-support filter (spec `bulk.rare_support.*`) drops the
/// rare values of `values` from support coverage under `t`.
fn rare_filter_active(values: &[f64], t: &Thresholds) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut counts: Vec<u64> = Vec::new();
    for (i, v) in sorted.iter().enumerate() {
        if i > 0 && sorted[i - 1] == *v {
            *counts.last_mut().unwrap() += 1;
        } else {
            counts.push(1);
        }
    }
    let total: u64 = counts.iter().sum();
    if total == 0
        || t.rare_sample_fraction <= 0.0
        || t.rare_max_removed_sample_fraction <= 0.0
        || counts.iter().all(|&c| c == 1)
    {
        return false;
    }
    let min_count = (t.rare_sample_fraction * total as f64).ceil().max(2.0);
    let removed: u64 = counts.iter().filter(|&&c| (c as f64) < min_count).sum();
    let kept = counts.iter().any(|&c| c as f64 >= min_count);
    removed > 0 && kept && removed as f64 / total as f64 <= t.rare_max_removed_sample_fraction
}

/// The rare-support filter is on under `loose` and off under `tight` for
/// some sample array of the pair: then support coverage is computed over
/// different value sets, and the reference's verdict is not monotone.
fn rare_filter_differs(pair: (&Run, &Run), loose: &Thresholds, tight: &Thresholds) -> bool {
    [pair.0, pair.1].iter().any(|run| match &run.bulk {
        Bulk::Samples(b) => [b.times_f64().collect::<Vec<_>>(), b.cycles().collect()]
            .iter()
            .any(|v| rare_filter_active(v, loose) && !rare_filter_active(v, tight)),
        _ => false,
    })
}

fn check_tightening(
    reference: &Run,
    compare: &Run,
    loose: &Thresholds,
    tight: &Thresholds,
) -> Result<(), TestCaseError> {
    prop_assert!(is_tightening(loose, tight));
    let before = decide(reference, compare, loose);
    let after = decide(reference, compare, tight);
    if !is_gap(before.status) {
        prop_assert!(
            !is_gap(after.status),
            "tightening turned {:?} ({:?}) into {:?} ({:?})",
            before.status,
            before.reason.code,
            after.status,
            after.reason.code
        );
    }
    if before.status == Status::Undecided && after.status == Status::Same {
        // The one way the reference breaks monotonicity: a stricter
        // `max_removed_sample_fraction` switches the rare-support filter off,
        // and support coverage over all values can be higher than over the
        // common ones. See `strict_can_turn_ambg_into_same_via_rare_support`.
        prop_assert!(
            rare_filter_differs((reference, compare), loose, tight),
            "tightening turned AMBG ({:?}) into SAME ({:?})",
            before.reason.code,
            after.reason.code
        );
        prop_assert_eq!(after.reason.code, ReasonCode::BulkSame);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn swapping_sides_mirrors_fast_and_slow((reference, compare) in any_pair(true)) {
        for name in ["default", "strict", "permissive"] {
            let t = preset(name).unwrap();
            let forward = decide(&reference, &compare, &t);
            let backward = decide(&compare, &reference, &t);
            prop_assert_eq!(mirrored(forward.status), backward.status, "preset {}", name);
            prop_assert_eq!(forward.reason.code, backward.reason.code, "preset {}", name);
        }
    }

    // Scaling by a power of two is exact in binary floating point (as long
    // as nothing overflows or underflows, which the generators rule out for
    // this property), so every ratio the decision tree forms is bit for bit
    // the same and any status change would be a real scale dependence. An
    // arbitrary factor (say 1.1) would round differently at the exact
    // threshold boundaries and flip a status legitimately.
    #[test]
    fn scaling_all_times_changes_no_status(
        (reference, compare) in any_pair(false),
        exponent in (-20i32..=20).prop_filter("a real scaling", |e| *e != 0),
    ) {
        let factor = 2f64.powi(exponent);
        let (scaled_ref, scaled_cmp) = (scaled(&reference, factor), scaled(&compare, factor));
        for name in ["default", "strict", "permissive"] {
            let t = preset(name).unwrap();
            let before = decide(&reference, &compare, &t);
            let after = decide(&scaled_ref, &scaled_cmp, &t);
            prop_assert_eq!(before.status, after.status, "preset {}, factor {}", name, factor);
            prop_assert_eq!(before.reason.code, after.reason.code, "preset {}", name);
        }
    }

    #[test]
    fn a_state_compared_with_itself_is_never_fast_or_slow(run in prop_oneof![
        realistic_run(-10..=10),
        wild_run(true),
    ]) {
        for name in ["default", "strict", "permissive"] {
            let t = preset(name).unwrap();
            let itself = decide(&run, &run, &t);
            prop_assert!(!is_gap(itself.status), "preset {}: {:?}", name, itself.status);
            let summaries_only = decide_summaries(&run.timing, &run.timing, &t);
            prop_assert!(!is_gap(summaries_only.status));
        }
    }

    #[test]
    fn strict_preset_never_adds_a_gap_or_a_same((reference, compare) in realistic_pair()) {
        let (permissive, default, strict) = (
            preset("permissive").unwrap(),
            preset("default").unwrap(),
            preset("strict").unwrap(),
        );
        // `permissive` -> `default` is not a tightening: see
        // `permissive_demands_more_sample_coverage_than_default`.
        check_tightening(&reference, &compare, &default, &strict)?;
        check_tightening(&reference, &compare, &permissive, &strict)?;
    }

    #[test]
    fn any_tightening_never_adds_a_gap_or_a_same(
        (reference, compare) in realistic_pair(),
        tight in tightened_default(),
    ) {
        check_tightening(&reference, &compare, &Thresholds::default(), &tight)?;
    }
}

// ---------------------------------------------------------------------------
// Pinned behaviour of the reference
// ---------------------------------------------------------------------------

/// The reference breaks "tightening never turns AMBG into SAME": support
/// coverage is computed after the rare-support filter, and `strict` allows
/// that filter to remove less mass (0.5% instead of 1%). When it is off,
/// covered rare values count in support coverage and can lift it over the
/// stricter threshold. nvbench_compare.py gives the same two verdicts on
/// these samples (tests/regressions/rare_support_nonmonotone/, checked
/// byte for byte in tests/it/regressions.rs).
#[test]
fn strict_can_turn_ambg_into_same_via_rare_support() {
    let (a, b, c, d) = (1.000e-3, 1.010e-3, 1.020e-3, 1.500e-3);
    let singletons: Vec<f64> = (0..8).map(|i| 1.030e-3 * 1.01f64.powi(i)).collect();
    let repeat = |v: f64, n: usize| vec![v; n];
    let ref_times = [
        repeat(a, 330),
        repeat(b, 330),
        repeat(c, 330),
        repeat(d, 2),
        singletons.clone(),
    ]
    .concat();
    let cmp_times = [repeat(a, 333), repeat(b, 333), repeat(c, 326), singletons].concat();
    let run = |times: Vec<f64>| {
        let frequencies = vec![CLOCK_BASE; times.len()];
        Run {
            timing: summaries_of(&times, &frequencies),
            bulk: Bulk::Samples(bulk_samples(&times, &frequencies)),
        }
    };
    let (reference, compare) = (run(ref_times), run(cmp_times));

    let default = decide(&reference, &compare, &preset("default").unwrap());
    assert_eq!(
        (default.status, default.reason.code),
        (Status::Undecided, ReasonCode::BulkTimeSupportMismatch)
    );
    assert_eq!(
        default.reason.message(),
        "sample: min(ref=99.8%, cmp=100.0%) >= 97.0%; support: min(ref=75.0%, cmp=100.0%) >= 80.0%"
    );
    let strict = decide(&reference, &compare, &preset("strict").unwrap());
    assert_eq!(
        (strict.status, strict.reason.code),
        (Status::Same, ReasonCode::BulkSame)
    );
    assert!(rare_filter_differs(
        (&reference, &compare),
        &preset("default").unwrap(),
        &preset("strict").unwrap()
    ));
}

/// The generators reach every status and the deeper steps of the tree, so
/// the properties above are not vacuous.
#[test]
fn generators_reach_every_status() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(config());
    let mut seen = std::collections::BTreeSet::new();
    let t = Thresholds::default();
    for _ in 0..2000 {
        let (reference, compare) = any_pair(true).new_tree(&mut runner).unwrap().current();
        let outcome = decide(&reference, &compare, &t);
        seen.insert(format!("{:?}", outcome.status));
        seen.insert(format!("{:?}", outcome.reason.code));
    }
    for wanted in [
        "Fast",
        "Slow",
        "Same",
        "Undecided",
        "Unknown",
        "BulkSame",
        "ClearGapConfirmedByBulkCycles",
        "ClearGapConfirmedBySummaryCycles",
        "BulkTimeSupportMismatch",
        "SameConfirmedByCycles",
        "NoiseTooHigh",
        "MissingInterval",
    ] {
        assert!(seen.contains(wanted), "never reached {wanted}: {seen:?}");
    }
}

/// The reference's `permissive` preset is not a loosening of `default`: its
/// `bulk.sample_coverage` is 0.98, above the default 0.97 (every other
/// threshold is looser). So `permissive` can say AMBG where `default` says
/// SAME; nvbench_compare.py does the same on these samples
/// (tests/regressions/permissive_sample_coverage/).
#[test]
fn permissive_demands_more_sample_coverage_than_default() {
    let (permissive, default) = (preset("permissive").unwrap(), preset("default").unwrap());
    assert!(permissive.bulk_sample_coverage > default.bulk_sample_coverage);
    assert!(!is_tightening(&permissive, &default));

    let common: Vec<f64> = (0..9).map(|i| 1.000e-3 * 1.01f64.powi(i)).collect();
    let ref_times: Vec<f64> = common
        .iter()
        .flat_map(|v| vec![*v; 108])
        .chain(vec![1.5e-3; 28])
        .collect();
    let cmp_times: Vec<f64> = common
        .iter()
        .flat_map(|v| vec![*v; 111])
        .chain([common[0]])
        .collect();
    let run = |times: Vec<f64>| {
        let frequencies = vec![CLOCK_BASE; times.len()];
        Run {
            timing: summaries_of(&times, &frequencies),
            bulk: Bulk::Samples(bulk_samples(&times, &frequencies)),
        }
    };
    let (reference, compare) = (run(ref_times), run(cmp_times));
    let with_default = decide(&reference, &compare, &default);
    assert_eq!(
        (with_default.status, with_default.reason.code),
        (Status::Same, ReasonCode::BulkSame)
    );
    let with_permissive = decide(&reference, &compare, &permissive);
    assert_eq!(
        (with_permissive.status, with_permissive.reason.code),
        (Status::Undecided, ReasonCode::BulkTimeSupportMismatch)
    );
    assert_eq!(
        with_permissive.reason.message(),
        "sample: min(ref=97.2%, cmp=100.0%) >= 98.0%; support: min(ref=90.0%, cmp=100.0%) >= 60.0%"
    );
}
