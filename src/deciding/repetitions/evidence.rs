//! The decision of one state in repetition mode: every run's summaries are
//! read as for one run, merged per side, and the merged evidence goes
//! through the usual decision tree (`decision::compare_evidence`); with
//! three runs or more in all, only the tests on the run centers
//! ([`super::center_test`]) call FAST or SLOW.

use std::cell::RefCell;

use super::center_test::{CONFIRMED_DF, RunPoint, TestKind, Verdict, center_tests, verdict};
use super::merge::{PooledBulk, cycle_hull, hull, median, merged_noise};
use super::student_t::two_sided_critical;
use super::{RepetitionStats, RunCenter, SideStats};
use crate::deciding::config::Thresholds;
use crate::deciding::decision::{
    self, Comparison, Estimate, EstimateKind, Evidence, Presence, Side, common_estimate_kind,
    estimate_of, is_positive_finite, summary_cycle_interval, timing_interval,
};
use crate::deciding::report::SidecarFile;
use crate::deciding::sidecar_evidence::SidecarEvidence;
use crate::deciding::status::{Reason, ReasonCode, Status};
use crate::failure::Failure;
use crate::loading::model::State;
use crate::loading::sidecar::Lookup;
use crate::loading::timing::{Timing, extract_timing};
use crate::matching::RunState;
use crate::personality::SidecarSearch;

/// What each run of a side gives a state's decision, in place up to three
/// runs: a state's decision made a dozen small allocations otherwise.
type RunsOf<T> = smallvec::SmallVec<[T; 3]>;

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
    /// The reference runs' and the compare runs' files (empty unless asked for).
    pub run_files: [Vec<RunFiles>; 2],
}

/// Skipped when any run is, without summaries when any run lacks them:
/// a data-collection problem in one process stays visible.
fn side_presence(runs: &[RunState], presence: impl Fn(&State) -> Presence) -> Presence {
    let all: RunsOf<Presence> = runs.iter().map(|r| presence(r.state)).collect();
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
    points: RunsOf<RunPoint>,
}

impl<'w> MergedSide<'w> {
    fn new(
        runs: &[RunState],
        timings: &[Timing],
        kind: EstimateKind,
        search: SidecarSearch,
        warnings: &'w RefCell<Vec<String>>,
    ) -> Self {
        let estimates: RunsOf<Estimate> = timings.iter().map(|t| estimate_of(t, kind)).collect();
        let intervals: RunsOf<_> = timings.iter().map(timing_interval).collect();
        let cycles: RunsOf<_> = timings
            .iter()
            .zip(&intervals)
            .map(|(t, i)| summary_cycle_interval(t, i.as_ref()))
            .collect();
        let bulk = runs
            .iter()
            .zip(timings)
            .map(|(run, timing)| {
                SidecarEvidence::new(
                    timing,
                    (run.dir(), Lookup::of(search, run.path())),
                    warnings,
                )
            })
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
                    run: run.run(),
                    center: e.center,
                })
                .collect(),
            points: run_points(&estimates, timings),
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

    /// Each run's files (`runs`: the runs the side was merged from).
    fn files(&self, runs: &[RunState]) -> Vec<RunFiles> {
        runs.iter()
            .zip(self.bulk.runs())
            .map(|(run, bulk)| RunFiles {
                run: run.run(),
                json: run.path().to_string(),
                sidecars: bulk
                    .paths()
                    .map(|file| file.map(|(path, count)| (path.to_string(), count.to_string()))),
            })
            .collect()
    }
}

/// Each run's center and clock, for the tests (empty when a run's center
/// is unusable: the state is then `????`).
fn run_points(estimates: &[Estimate], timings: &[Timing]) -> RunsOf<RunPoint> {
    let usable = |v: Option<f64>| v.filter(|v| is_positive_finite(Some(*v)));
    estimates
        .iter()
        .zip(timings)
        .map(|(estimate, timing)| {
            Some(RunPoint {
                time: usable(estimate.center)?,
                clock: usable(timing.sm_clock_rate_mean),
            })
        })
        .collect::<Option<_>>()
        .unwrap_or_default()
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

/// The warning of `--vs` with one run a side.
pub const SINGLE_RUN_WARNING: &str = "--vs with one run a side compares two files, as a pair does: one run cannot tell a change from the scatter between processes; run the benchmark 3 times a side and give every run (a1.json a2.json a3.json --vs b1.json b2.json b3.json)";

/// The warning of a comparison whose run counts give the tests little to
/// go on: one run a side decides as a pair of files does, by the
/// single-run rule; fewer than five runs in all give the tests few degrees
/// of freedom. It concerns every state the runs decide, so the caller
/// gives it once a comparison, after the first decided state's own
/// warnings (`decide_repeated` does not raise it).
pub fn run_counts_warning(reference_runs: usize, compare_runs: usize) -> Option<String> {
    if reference_runs == 1 && compare_runs == 1 {
        return Some(SINGLE_RUN_WARNING.to_string());
    }
    let df = (reference_runs + compare_runs).saturating_sub(2);
    (df < CONFIRMED_DF).then(|| {
        let threshold = |kind: TestKind| two_sided_critical(kind.share(), df as f64);
        format!(
            "--vs with {reference_runs} reference and {compare_runs} compare run(s): too few runs to tell most changes from the scatter between processes, so they stay AMBG (FAST or SLOW needs the time and the cycles tests both to pass: |t| >= {:.1} and >= {:.1}, with {df} degree(s) of freedom; never without SM clocks); run each side a third time and compare again",
            threshold(TestKind::Time),
            threshold(TestKind::Cycles),
        )
    })
}

fn reason(code: ReasonCode, message: impl Into<std::borrow::Cow<'static, str>>) -> Reason {
    Reason::new(code, message)
}

/// What the tests' verdict makes of the tree's decision: only a test calls
/// FAST or SLOW, and the Change column then holds its confidence bounds.
fn apply_verdict(comparison: &mut Comparison, verdict: &Verdict) {
    match verdict {
        Verdict::Called(status, test) => {
            comparison.status = *status;
            comparison.reason = reason(
                test.kind.reason(),
                match test.kind {
                    TestKind::Time => {
                        "the run centers differ beyond their scatter between processes (t-test on the time centers)"
                    }
                    TestKind::Cycles => {
                        "the run centers differ beyond their scatter between processes (t-test on the cycle centers: each run's time x its SM clock)"
                    }
                    TestKind::ClockAdjusted => {
                        "the run centers differ beyond their scatter between processes (t-test on the time centers adjusted for each run's SM clock)"
                    }
                },
            );
            let (lower, upper) = test.change_bounds();
            comparison.set_change_bounds(lower, upper);
        }
        Verdict::Conflict(..) => {
            comparison.status = Status::Undecided;
            comparison.reason = reason(
                ReasonCode::CenterTestsDisagree,
                "tests on the run centers pass in opposite directions: the SM clocks of the processes differed",
            );
        }
        Verdict::Opposed(passing, opposing) => {
            comparison.status = Status::Undecided;
            comparison.reason = reason(
                ReasonCode::CenterTestsDisagree,
                format!(
                    "the {} test on the run centers passes, but the {} test points the other way ({:.1} standard errors): the measures of the runs disagree on the direction",
                    passing.kind.label(),
                    opposing.kind.label(),
                    opposing.significance(),
                ),
            );
        }
        Verdict::Unconfirmed(test) => {
            comparison.status = Status::Undecided;
            comparison.reason = reason(
                ReasonCode::CenterTestUnconfirmed,
                format!(
                    "the {} test on the run centers passes, but with {} degree(s) of freedom FAST or SLOW needs the time and cycles tests both to pass",
                    test.kind.label(),
                    test.df,
                ),
            );
        }
        Verdict::NotCalled(_) => {
            if matches!(comparison.status, Status::Fast | Status::Slow) {
                comparison.status = Status::Undecided;
                comparison.reason = reason(
                    ReasonCode::CenterTestNotSignificant,
                    "the intervals separate, but no test on the run centers passes its threshold: the change is within the scatter between processes",
                );
            }
        }
    }
}

/// Decides one state from the runs of both sides (each side has at least one).
pub fn decide_repeated(
    reference: SideRuns,
    compare: SideRuns,
    t: &Thresholds,
    search: SidecarSearch,
    presence: impl Fn(&State) -> Presence,
    warnings: &RefCell<Vec<String>>,
    with_files: bool,
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
        .collect::<Result<RunsOf<_>, _>>()?;
    let ref_timings = reference
        .runs
        .iter()
        .map(|r| extract(r.state, warnings))
        .collect::<Result<RunsOf<_>, _>>()?;
    let kind = common_estimate_kind(ref_timings.iter().chain(&cmp_timings));
    let time_only_gaps = t.without_clock() == crate::deciding::config::WithoutClock::Confirm;
    let ref_side = MergedSide::new(reference.runs, &ref_timings, kind, search, warnings);
    let cmp_side = MergedSide::new(compare.runs, &cmp_timings, kind, search, warnings);
    let summarized = missing.is_none();
    let mut comparison = match (&ref_timings[..], &cmp_timings[..]) {
        // One run a side is a pair of files: the pair's decision.
        ([ref_timing], [cmp_timing]) => {
            let reference = Side {
                timing: ref_timing,
                bulk: &ref_side.bulk,
            };
            let compare = Side {
                timing: cmp_timing,
                bulk: &cmp_side.bulk,
            };
            match missing {
                Some(decision) => {
                    decision::unavailable_comparison(decision, &reference, &compare, t)
                }
                None => decision::compare_timings(&reference, &compare, t),
            }
        }
        _ => {
            let (ref_evidence, cmp_evidence) = (ref_side.evidence(), cmp_side.evidence());
            match missing {
                Some(decision) => decision::unavailable_evidence_comparison(
                    decision,
                    &ref_evidence,
                    &cmp_evidence,
                ),
                None => decision::compare_evidence(&ref_evidence, &cmp_evidence, t),
            }
        }
    };
    // The comparison's warning about its run counts (`run_counts_warning`)
    // is the caller's to give, once.
    // One run a side (also when the others lack the state) is the pair's
    // decision; three runs in all leave at least one degree of freedom.
    // Without a clock (Google Benchmark), the tests on the run centers call
    // only where `clear_gap.without_clock` confirms gaps in time alone.
    let clocked = |side: &MergedSide| side.points.iter().all(|p| p.clock.is_some());
    let tested = ref_side.runs.len() + cmp_side.runs.len() >= 3
        && (time_only_gaps || (clocked(&ref_side) && clocked(&cmp_side)))
        && summarized
        && comparison.status != Status::Unknown;
    let shown = if tested {
        let tests = center_tests(&ref_side.points, &cmp_side.points);
        let verdict = verdict(&tests, t.clear_gap_relative);
        apply_verdict(&mut comparison, &verdict);
        verdict.shown().copied()
    } else {
        None
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
        comparison.frac_diff(),
        shown,
    );
    Ok(RepeatedDecision {
        // Paths copied for every run of every state: only when asked for.
        run_files: if with_files {
            [ref_side.files(reference.runs), cmp_side.files(compare.runs)]
        } else {
            Default::default()
        },
        comparison,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_run_a_side_warns_it_is_the_single_run_rule() {
        assert_eq!(
            run_counts_warning(1, 1).as_deref(),
            Some(SINGLE_RUN_WARNING)
        );
    }

    #[test]
    fn fewer_than_three_degrees_of_freedom_are_flagged() {
        let two = run_counts_warning(2, 2).unwrap();
        assert!(two.starts_with("--vs with 2 reference and 2 compare run(s): too few runs to tell most changes from the scatter between processes, so they stay AMBG (FAST or SLOW needs the time and the cycles tests both to pass: |t| >= 8.9 and >= 28.3, with 2 degree(s) of freedom; never without SM clocks); run each side a third time"), "{two}");
        assert!(run_counts_warning(1, 3).unwrap().contains("2 degree(s)"));
        assert!(
            run_counts_warning(2, 1)
                .unwrap()
                .contains(": |t| >= 50.9 and >= 509.3,")
        );
        assert_eq!(run_counts_warning(2, 3), None);
        assert_eq!(run_counts_warning(3, 3), None);
        assert_eq!(run_counts_warning(1, 4), None);
    }
}
