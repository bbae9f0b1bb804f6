//! The rule that calls FAST or SLOW in repetition mode: t-tests on the
//! runs' centers, whose threshold follows the number of runs and the
//! scatter between them, so that the false-call rate on unchanged code is
//! bounded by construction whatever the drift between processes.
//!
//! Each run (one process) gives one center (the run's median, or mean, as
//! for one run) and its SM clock (`sm_clock_rate/mean`). On the logs of
//! the centers, three two-sample t-tests with the variance pooled over both
//! sides (df = runs - 2), each at its share of the false-call budget:
//!
//! - `time`: the centers as measured (1.25 %);
//! - `cycles`: each center times its run's clock, as step 2 of the tree
//!   does for one run, so that a process whose clock explains its time
//!   (throttled, boosted) does not scatter the runs (0.125 %: on
//!   memory-bound kernels the cycles scatter with the clock, and a larger
//!   share made wrong-direction calls there);
//! - `clock-adjusted`: the centers with the time a run's clock explains
//!   regressed out, the slope fitted within the sides (analysis of
//!   covariance, df = runs - 3): for kernels that are only partly
//!   clock-bound, where neither time nor cycles are free of the clock
//!   (0.875 %, needs df >= 2).
//!
//! FAST or SLOW when a test passes its threshold (and the change is at
//! least `clear_gap.relative`) and two guards hold:
//!
//! - no test that can be made points the other way by [`OPPOSED_T`]
//!   standard errors or more (AMBG `center_tests_disagree`; also when two
//!   tests pass in opposite directions). A clock-bound kernel's time test
//!   is not such a veto when one throttled process scatters its runs: its
//!   `|t|` then stays small;
//! - with fewer than [`CONFIRMED_DF`] degrees of freedom (two runs a side),
//!   every test that can be made, at least two, passes in the same
//!   direction (AMBG `center_test_unconfirmed` otherwise): at df 2, t's
//!   heavy tails let a single test call a change the size of the drift in
//!   the wrong direction now and then.
//!
//! Under unchanged code each test errs with at most its share (the t
//! distribution is exact for normally scattered processes), so the rule,
//! whose guards only take calls away, errs with at most the sum,
//! [`FALSE_CALL_BOUND`] (the union bound): no choice between the tests is
//! made from the data, which would make the bound leak (measured: picking
//! the space with the smaller scatter raised 2 % to 4 %). The shares and
//! their power are measured in `benches/decision_quality.py`
//! (docs/repetitions.md, "Decision quality under drift").

use super::student_t::two_sided_critical;
use crate::deciding::status::{ReasonCode, Status};

/// The false-call share of the test on times as measured.
pub const TIME_SHARE: f64 = 0.0125;
/// The share of the test on cycles (time x the run's SM clock).
pub const CYCLES_SHARE: f64 = 0.00125;
/// The share of the clock-adjusted test.
pub const ADJUSTED_SHARE: f64 = 0.00875;
/// The bound on false FAST/SLOW for unchanged code: the sum of the shares.
pub const FALSE_CALL_BOUND: f64 = TIME_SHARE + CYCLES_SHARE + ADJUSTED_SHARE;
/// A test whose estimate points against a call by this many standard
/// errors or more vetoes it: the guard against a direction that one
/// measure of the runs contradicts.
pub const OPPOSED_T: f64 = 1.0;
/// Below this many degrees of freedom (of the time and cycles tests) a
/// call needs every test that can be made, at least two, to pass.
pub const CONFIRMED_DF: usize = 3;
/// The clock-adjusted test fits one more parameter; with a single degree of
/// freedom left its threshold (about 127) makes it useless.
const ADJUSTED_MIN_DF: usize = 2;
/// Within-side variation of the log clocks below this (a part per million)
/// is the rounding of equal clocks, which no slope can be fitted to.
const MIN_CLOCK_SQUARES: f64 = 1e-12;

/// One run of a state: its center and its SM clock rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunPoint {
    pub time: f64,
    /// `None` when the run has no usable `sm_clock_rate/mean`.
    pub clock: Option<f64>,
}

/// Which test on the run centers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKind {
    Time,
    Cycles,
    ClockAdjusted,
}

impl TestKind {
    /// The name in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            TestKind::Time => "time",
            TestKind::Cycles => "cycles",
            TestKind::ClockAdjusted => "clock_adjusted",
        }
    }

    /// The name in the table's Test column.
    pub fn label(self) -> &'static str {
        match self {
            TestKind::Time => "time",
            TestKind::Cycles => "cycles",
            TestKind::ClockAdjusted => "clk-adj",
        }
    }

    /// The test's share of the false-call budget.
    pub fn share(self) -> f64 {
        match self {
            TestKind::Time => TIME_SHARE,
            TestKind::Cycles => CYCLES_SHARE,
            TestKind::ClockAdjusted => ADJUSTED_SHARE,
        }
    }

    /// The reason a call by this test gives.
    pub fn reason(self) -> ReasonCode {
        match self {
            TestKind::Time => ReasonCode::CenterTestTime,
            TestKind::Cycles => ReasonCode::CenterTestCycles,
            TestKind::ClockAdjusted => ReasonCode::CenterTestClockAdjusted,
        }
    }
}

/// One test's result: the change it estimates and its significance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CenterTest {
    pub kind: TestKind,
    /// `ln(cmp / ref)`: the difference of the sides' mean log centers.
    pub log_change: f64,
    /// Its standard error, from the scatter of the runs.
    pub standard_error: f64,
    pub df: usize,
    /// The two-sided critical `|t|` at the test's share.
    pub threshold: f64,
}

impl CenterTest {
    /// `|t|`, shown as Signif.
    pub fn significance(&self) -> f64 {
        self.log_change.abs() / self.standard_error
    }

    /// The relative change, `cmp / ref - 1`.
    pub fn change(&self) -> f64 {
        self.log_change.exp_m1()
    }

    /// The confidence bounds of the change at the test's level: both on
    /// one side of zero when the test passes. The Change column shows them.
    pub fn change_bounds(&self) -> (f64, f64) {
        let half = self.threshold * self.standard_error;
        (
            (self.log_change - half).exp_m1(),
            (self.log_change + half).exp_m1(),
        )
    }

    /// The significance over the threshold: above 1 the test passes.
    pub fn margin(&self) -> f64 {
        self.significance() / self.threshold
    }

    fn direction(&self) -> Status {
        if self.log_change > 0.0 {
            Status::Slow
        } else {
            Status::Fast
        }
    }

    /// The call, when significant and at least `min_change` in size.
    pub fn call(&self, min_change: f64) -> Option<Status> {
        (self.margin() >= 1.0 && self.change().abs() >= min_change).then(|| self.direction())
    }
}

/// What the tests conclude for a state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// A passing test (the one passing by the widest margin).
    Called(Status, CenterTest),
    /// Tests pass in opposite directions: the widest-passing of each.
    Conflict(CenterTest, CenterTest),
    /// A test passes, but another points the other way by at least
    /// [`OPPOSED_T`] standard errors: the passing one and the opposing one.
    Opposed(CenterTest, CenterTest),
    /// Fewer than [`CONFIRMED_DF`] degrees of freedom and not every test
    /// (at least two) passes in the passing one's direction.
    Unconfirmed(CenterTest),
    /// No test passes; the one closest to passing, if any could be made.
    NotCalled(Option<CenterTest>),
}

impl Verdict {
    /// The test shown beside the status.
    pub fn shown(&self) -> Option<&CenterTest> {
        match self {
            Verdict::Called(_, test)
            | Verdict::Conflict(test, _)
            | Verdict::Opposed(test, _)
            | Verdict::Unconfirmed(test) => Some(test),
            Verdict::NotCalled(test) => test.as_ref(),
        }
    }
}

/// The sum of squared deviations from the mean.
fn squares(values: &[f64]) -> (f64, f64) {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    (mean, values.iter().map(|v| (v - mean) * (v - mean)).sum())
}

/// A standard error below this (in log units, so relative) is rounding of
/// identical centers, not scatter: no t can be formed against it.
const MIN_STANDARD_ERROR: f64 = 1e-12;

fn finished(kind: TestKind, log_change: f64, variance: f64, df: usize) -> Option<CenterTest> {
    let standard_error = variance.sqrt();
    // Zero scatter leaves nothing to measure the change against.
    let usable =
        log_change.is_finite() && standard_error.is_finite() && standard_error > MIN_STANDARD_ERROR;
    usable.then(|| CenterTest {
        kind,
        log_change,
        standard_error,
        df,
        threshold: two_sided_critical(kind.share(), df as f64),
    })
}

/// The pooled two-sample t-test on logs.
fn pooled_test(kind: TestKind, reference: &[f64], compare: &[f64]) -> Option<CenterTest> {
    let (nr, nc) = (reference.len(), compare.len());
    let df = (nr + nc).checked_sub(2).filter(|df| *df >= 1)?;
    let ((ref_mean, ref_squares), (cmp_mean, cmp_squares)) = (squares(reference), squares(compare));
    let pooled = (ref_squares + cmp_squares) / df as f64;
    let variance = pooled * (1.0 / nr as f64 + 1.0 / nc as f64);
    finished(kind, cmp_mean - ref_mean, variance, df)
}

/// Analysis of covariance: `ln time = side + slope * ln clock + noise`, the
/// slope common to both sides and fitted on the deviations from each
/// side's means. The side difference at equal clocks is the change.
fn adjusted_test(reference: (&[f64], &[f64]), compare: (&[f64], &[f64])) -> Option<CenterTest> {
    let (nr, nc) = (reference.0.len(), compare.0.len());
    let df = (nr + nc)
        .checked_sub(3)
        .filter(|df| *df >= ADJUSTED_MIN_DF)?;
    let side = |(times, clocks): (&[f64], &[f64])| {
        let ((time_mean, time_squares), (clock_mean, clock_squares)) =
            (squares(times), squares(clocks));
        let products: f64 = times
            .iter()
            .zip(clocks)
            .map(|(t, c)| (t - time_mean) * (c - clock_mean))
            .sum();
        (time_mean, clock_mean, time_squares, clock_squares, products)
    };
    let (rt, rc, rtt, rcc, rtc) = side(reference);
    let (ct, cc, ctt, ccc, ctc) = side(compare);
    let (clock_squares, products) = (rcc + ccc, rtc + ctc);
    // Clocks that do not vary within the sides (by more than rounding)
    // explain nothing; NaN cannot reach here (the logs are finite).
    if clock_squares <= MIN_CLOCK_SQUARES {
        return None;
    }
    let slope = products / clock_squares;
    let residual = (rtt + ctt - slope * products).max(0.0) / df as f64;
    let clock_gap = cc - rc;
    let log_change = (ct - rt) - slope * clock_gap;
    let variance =
        residual * (1.0 / nr as f64 + 1.0 / nc as f64 + clock_gap * clock_gap / clock_squares);
    finished(TestKind::ClockAdjusted, log_change, variance, df)
}

/// The logs of the runs' centers, or of their clocks.
fn logs(points: &[RunPoint], value: impl Fn(&RunPoint) -> Option<f64>) -> Option<Vec<f64>> {
    points
        .iter()
        .map(|p| {
            value(p)
                .filter(|v| *v > 0.0)
                .map(f64::ln)
                .filter(|v| v.is_finite())
        })
        .collect()
}

/// Every test that can be made on these runs (the clock tests need every
/// run's clock). Both sides need a run, and three runs in all.
pub fn center_tests(reference: &[RunPoint], compare: &[RunPoint]) -> Vec<CenterTest> {
    let mut tests = Vec::new();
    if reference.is_empty() || compare.is_empty() {
        return tests;
    }
    let times = |points| logs(points, |p: &RunPoint| Some(p.time));
    let (Some(ref_times), Some(cmp_times)) = (times(reference), times(compare)) else {
        return tests;
    };
    tests.extend(pooled_test(TestKind::Time, &ref_times, &cmp_times));
    let clocks = |points| logs(points, |p: &RunPoint| p.clock);
    let (Some(ref_clocks), Some(cmp_clocks)) = (clocks(reference), clocks(compare)) else {
        return tests;
    };
    let cycles = |times: &[f64], clocks: &[f64]| -> Vec<f64> {
        times.iter().zip(clocks).map(|(t, c)| t + c).collect()
    };
    tests.extend(pooled_test(
        TestKind::Cycles,
        &cycles(&ref_times, &ref_clocks),
        &cycles(&cmp_times, &cmp_clocks),
    ));
    tests.extend(adjusted_test(
        (&ref_times, &ref_clocks),
        (&cmp_times, &cmp_clocks),
    ));
    tests
}

/// The verdict of the tests: a call when some pass, all in one direction,
/// none points the other way by [`OPPOSED_T`] standard errors, and, with
/// fewer than [`CONFIRMED_DF`] degrees of freedom, all (at least two) pass.
pub fn verdict(tests: &[CenterTest], min_change: f64) -> Verdict {
    let widest = |direction: Status| {
        tests
            .iter()
            .filter(|t| t.call(min_change) == Some(direction))
            .max_by(|a, b| a.margin().total_cmp(&b.margin()))
            .copied()
    };
    let (status, test) = match (widest(Status::Fast), widest(Status::Slow)) {
        (Some(fast), Some(slow)) => return Verdict::Conflict(fast, slow),
        (Some(test), None) => (Status::Fast, test),
        (None, Some(test)) => (Status::Slow, test),
        (None, None) => {
            return Verdict::NotCalled(
                tests
                    .iter()
                    .max_by(|a, b| a.margin().total_cmp(&b.margin()))
                    .copied(),
            );
        }
    };
    let against = |t: &&CenterTest| {
        t.direction() != status && t.log_change != 0.0 && t.significance() >= OPPOSED_T
    };
    if let Some(opposing) = tests
        .iter()
        .filter(against)
        .max_by(|a, b| a.significance().total_cmp(&b.significance()))
    {
        return Verdict::Opposed(test, *opposing);
    }
    // The clock-adjusted test is only made with more degrees of freedom.
    let few = tests
        .iter()
        .any(|t| t.kind != TestKind::ClockAdjusted && t.df < CONFIRMED_DF);
    let confirmed = tests.len() >= 2 && tests.iter().all(|t| t.call(min_change) == Some(status));
    if few && !confirmed {
        return Verdict::Unconfirmed(test);
    }
    Verdict::Called(status, test)
}

#[cfg(test)]
mod tests;
