//! The decision of one state in repetition mode: every run's summaries are
//! read as for one run, merged per side, and the merged evidence goes
//! through the usual decision tree (`decision::compare_evidence`).

use std::cell::RefCell;

use super::merge::{PooledBulk, cycle_hull, hull, median, merged_noise};
use super::process_gap::{ProcessCenters, centers_change_bounds, process_gap};
use super::{RepetitionStats, RunCenter, SideStats};
use crate::deciding::config::Thresholds;
use crate::deciding::decision::{
    self, Comparison, Estimate, EstimateKind, Evidence, Presence, common_estimate_kind,
    estimate_of, is_positive_finite, summary_cycle_interval, timing_interval,
};
use crate::deciding::report::SidecarFile;
use crate::deciding::sidecar_evidence::SidecarEvidence;
use crate::deciding::status::Status;
use crate::failure::Failure;
use crate::loading::model::State;
use crate::loading::timing::{Timing, extract_timing};
use crate::matching::RunState;

/// The runs of one side that have the state, and how many runs the side has.
#[derive(Debug, Clone, Copy)]
pub struct SideRuns<'r, 'a> {
    pub runs: &'r [RunState<'a>],
    pub total_runs: usize,
}

/// One run's JSON file and the sidecars it advertises for a state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunFiles {
    pub run: usize,
    pub json: String,
    /// Samples and frequencies.
    pub sidecars: [SidecarFile; 2],
}

/// A repeated state's decision, its repetition figures and each run's files.
pub struct RepeatedDecision {
    pub comparison: Comparison,
    pub stats: RepetitionStats,
    /// The reference runs' and the compare runs' files.
    pub run_files: [Vec<RunFiles>; 2],
}

/// Skipped when any run is, without summaries when any run lacks them:
/// a data-collection problem in one process stays visible.
fn side_presence(runs: &[RunState], presence: impl Fn(&State) -> Presence) -> Presence {
    let all: Vec<Presence> = runs.iter().map(|r| presence(r.state)).collect();
    let first_where = |test: fn(&Presence) -> bool| all.iter().find(|p| test(p)).cloned();
    first_where(|p| p.skipped)
        .or_else(|| first_where(|p| !p.has_summaries))
        .or_else(|| all.first().cloned())
        .unwrap_or_default()
}

fn extract(state: &State, warnings: &RefCell<Vec<String>>) -> Result<Timing, Failure> {
    match &state.summaries {
        Some(summaries) if state.has_summaries() => {
            extract_timing(summaries, &mut warnings.borrow_mut())
        }
        _ => Ok(Timing::default()),
    }
}

/// One side merged: its evidence for the tree and its figures.
struct MergedSide<'w> {
    estimate: Estimate,
    interval: Option<decision::Interval>,
    cycles: decision::CycleInterval,
    bulk: PooledBulk<SidecarEvidence<'w>>,
    runs: Vec<RunCenter>,
    jsons: Vec<String>,
    process: ProcessCenters,
}

impl<'w> MergedSide<'w> {
    fn new(
        runs: &[RunState],
        timings: &[Timing],
        (kind, time_only_gaps): (EstimateKind, bool),
        warnings: &'w RefCell<Vec<String>>,
    ) -> Self {
        let estimates: Vec<Estimate> = timings.iter().map(|t| estimate_of(t, kind)).collect();
        let intervals: Vec<_> = timings.iter().map(timing_interval).collect();
        let cycles: Vec<_> = timings
            .iter()
            .zip(&intervals)
            .map(|(t, i)| summary_cycle_interval(t, i.as_ref()))
            .collect();
        let bulk = runs
            .iter()
            .zip(timings)
            .map(|(run, timing)| SidecarEvidence::new(timing, run.dir, warnings))
            .collect();
        MergedSide {
            estimate: merged_estimate(&estimates),
            interval: hull(&intervals),
            cycles: cycle_hull(&cycles),
            bulk: PooledBulk::new(bulk),
            runs: runs
                .iter()
                .zip(&estimates)
                .map(|(run, e)| RunCenter {
                    run: run.run,
                    center: e.center,
                })
                .collect(),
            jsons: runs.iter().map(|run| run.path.to_string()).collect(),
            process: process_centers(&estimates, timings, time_only_gaps),
        }
    }

    fn evidence(&self) -> Evidence<'_> {
        Evidence {
            estimate: self.estimate,
            interval: self.interval,
            cycles: self.cycles,
            bulk: &self.bulk,
        }
    }

    fn stats(&self, total_runs: usize) -> SideStats {
        SideStats {
            runs: self.runs.clone(),
            total_runs,
            noise: self.estimate.relative_dispersion,
        }
    }

    fn files(&self) -> Vec<RunFiles> {
        self.runs
            .iter()
            .zip(self.bulk.runs())
            .zip(&self.jsons)
            .map(|((run, bulk), json)| RunFiles {
                run: run.run,
                json: json.clone(),
                sidecars: bulk
                    .paths()
                    .map(|file| file.map(|(path, count)| (path.to_string(), count.to_string()))),
            })
            .collect()
    }
}

/// Each run's center in time and in cycles, when every run has them. An
/// input without a clock domain has its times for cycles when
/// `clear_gap.without_clock` confirms gaps in time (`time_only_gaps`).
fn process_centers(
    estimates: &[Estimate],
    timings: &[Timing],
    time_only_gaps: bool,
) -> ProcessCenters {
    let usable = |v: Option<f64>| v.filter(|v| is_positive_finite(Some(*v)));
    let times: Option<Vec<f64>> = estimates.iter().map(|e| usable(e.center)).collect();
    if !timings.is_empty() && timings.iter().all(|t| t.repetitions.is_some()) {
        let cycles = times.clone().filter(|_| time_only_gaps);
        return ProcessCenters { times, cycles };
    }
    let cycles = times.as_ref().and_then(|times| {
        times
            .iter()
            .zip(timings)
            .map(|(time, timing)| usable(timing.sm_clock_rate_mean.map(|clock| time * clock)))
            .collect()
    });
    ProcessCenters { times, cycles }
}

/// The median of the run centers and the merged noise. A run with an
/// unusable center makes the side's center unusable in the same way (so
/// the state is `????` for the same reason as with one run).
fn merged_estimate(estimates: &[Estimate]) -> Estimate {
    if let [only] = estimates {
        return *only;
    }
    if let Some(bad) = estimates.iter().find(|e| !is_positive_finite(e.center)) {
        return *bad;
    }
    let centers: Vec<f64> = estimates.iter().filter_map(|e| e.center).collect();
    let noises: Vec<Option<f64>> = estimates.iter().map(|e| e.relative_dispersion).collect();
    let center = median(&centers);
    Estimate {
        center,
        relative_dispersion: center.and_then(|c| merged_noise(&centers, &noises, c)),
    }
}

/// An AMBG whose processes separate becomes FAST or SLOW (see
/// [`super::process_gap`]); its Change then bounds the change between the
/// run centers.
fn apply_process_gap(
    comparison: &mut Comparison,
    (reference, compare): (&MergedSide, &MergedSide),
    stats: &RepetitionStats,
    t: &Thresholds,
) {
    let Some(decision) = process_gap(&reference.process, &compare.process, stats.significance, t)
    else {
        return;
    };
    comparison.status = decision.status;
    comparison.reason = decision.reason;
    if let (Some(r), Some(c)) = (&reference.process.times, &compare.process.times) {
        comparison.frac_diff_interval = centers_change_bounds(r, c);
    }
}

/// Decides one state from the runs of both sides (each side has at least one).
pub fn decide_repeated(
    reference: SideRuns,
    compare: SideRuns,
    t: &Thresholds,
    presence: impl Fn(&State) -> Presence,
    warnings: &RefCell<Vec<String>>,
) -> Result<RepeatedDecision, Failure> {
    let missing = decision::missing_summaries_decision(
        side_presence(reference.runs, &presence),
        side_presence(compare.runs, &presence),
    );
    // The compare side is read first, so its schema errors win (as for one run).
    let cmp_timings = compare
        .runs
        .iter()
        .map(|r| extract(r.state, warnings))
        .collect::<Result<Vec<_>, _>>()?;
    let ref_timings = reference
        .runs
        .iter()
        .map(|r| extract(r.state, warnings))
        .collect::<Result<Vec<_>, _>>()?;
    let kind = common_estimate_kind(ref_timings.iter().chain(&cmp_timings));
    let time_only_gaps = t.without_clock() == crate::deciding::config::WithoutClock::Confirm;
    let ref_side = MergedSide::new(
        reference.runs,
        &ref_timings,
        (kind, time_only_gaps),
        warnings,
    );
    let cmp_side = MergedSide::new(compare.runs, &cmp_timings, (kind, time_only_gaps), warnings);
    let (ref_evidence, cmp_evidence) = (ref_side.evidence(), cmp_side.evidence());
    let mut comparison = match missing {
        Some(decision) => {
            decision::unavailable_evidence_comparison(decision, &ref_evidence, &cmp_evidence)
        }
        None => decision::compare_evidence(&ref_evidence, &cmp_evidence, t),
    };
    // One file of one repetition is too few; several files (processes) of
    // one repetition each are repetitions (google/benchmark#1796).
    let single = |runs: &[RunState], timings: &[Timing]| match (runs, timings) {
        ([_], [timing]) => timing.repetitions,
        _ => None,
    };
    decision::too_few_repetitions(
        &mut comparison,
        [
            single(reference.runs, &ref_timings),
            single(compare.runs, &cmp_timings),
        ],
    );
    let stats = RepetitionStats::new(
        ref_side.stats(reference.total_runs),
        cmp_side.stats(compare.total_runs),
        comparison.frac_diff,
    );
    if comparison.status == Status::Undecided {
        apply_process_gap(&mut comparison, (&ref_side, &cmp_side), &stats, t);
    }
    Ok(RepeatedDecision {
        run_files: [ref_side.files(), cmp_side.files()],
        comparison,
        stats,
    })
}
