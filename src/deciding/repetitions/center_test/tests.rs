use super::*;

const CLOCK: f64 = 1.5e9;

/// Runs at one clock whose log centers are `offset + logs`.
fn runs(offset: f64, logs: &[f64]) -> Vec<RunPoint> {
    logs.iter()
        .map(|l| RunPoint {
            time: 1e-3 * (offset + l).exp(),
            clock: Some(CLOCK),
        })
        .collect()
}

/// Runs whose times and clocks follow the clock factors given: a
/// clock-bound kernel's time is `base / factor`.
fn clocked(points: &[(f64, f64)]) -> Vec<RunPoint> {
    points
        .iter()
        .map(|(time, clock)| RunPoint {
            time: *time,
            clock: Some(clock * CLOCK),
        })
        .collect()
}

fn test_of(tests: &[CenterTest], kind: TestKind) -> Option<CenterTest> {
    tests.iter().find(|t| t.kind == kind).copied()
}

/// The centers of k runs a side at `±h` around each side's mean (k = 2,
/// 3, 5), and the standard error of their difference: pooled variance
/// over `2k - 2` degrees of freedom times `2 / k`.
fn spread(k: usize, h: f64) -> (Vec<f64>, f64) {
    match k {
        2 => (vec![-h, h], h * 2f64.sqrt()),
        3 => (vec![-h, 0.0, h], h * (2.0f64 / 3.0).sqrt()),
        5 => (vec![-2.0 * h, -h, 0.0, h, 2.0 * h], h),
        _ => unreachable!(),
    }
}

#[test]
fn the_threshold_follows_the_number_of_runs() {
    // Student's t at the time test's share: 1.25 % two-sided.
    for (k, df, expected) in [(2, 2, 8.860_20), (3, 4, 4.314_66), (5, 8, 3.205_96)] {
        let (logs, se) = spread(k, 0.01);
        let tests = center_tests(&runs(0.0, &logs), &runs(0.05, &logs));
        let time = test_of(&tests, TestKind::Time).unwrap();
        assert_eq!(time.df, df);
        assert!((time.threshold - expected).abs() < 1e-5, "{k}: {time:?}");
        assert!((time.standard_error - se).abs() < 1e-12);
        assert!((time.log_change - 0.05).abs() < 1e-12);
        // The other shares have higher thresholds at the same df.
        let cycles = test_of(&tests, TestKind::Cycles).unwrap();
        assert!(cycles.threshold > time.threshold);
        assert!((cycles.threshold - two_sided_critical(CYCLES_SHARE, df as f64)).abs() < 1e-9);
    }
    assert!((FALSE_CALL_BOUND - 0.0225).abs() < 1e-15);
}

#[test]
fn a_call_needs_the_threshold_reached() {
    for k in [3, 5] {
        let (logs, se) = spread(k, 0.01);
        let threshold = test_of(
            &center_tests(&runs(0.0, &logs), &runs(0.0, &logs)),
            TestKind::Time,
        );
        // No change: zero log change, no call (the test exists).
        let threshold = threshold
            .map_or(two_sided_critical(TIME_SHARE, 2.0 * k as f64 - 2.0), |t| {
                t.threshold
            });
        let at = |factor: f64| {
            let tests = center_tests(&runs(0.0, &logs), &runs(factor * threshold * se, &logs));
            verdict(&tests, 0.005)
        };
        assert!(
            matches!(at(1.0001), Verdict::Called(Status::Slow, t) if t.kind == TestKind::Time),
            "{k}: {:?}",
            at(1.0001)
        );
        assert!(matches!(at(0.9999), Verdict::NotCalled(Some(_))), "{k}");
        assert!(
            matches!(at(-1.0001), Verdict::Called(Status::Fast, _)),
            "{k}"
        );
    }
}

#[test]
fn the_change_must_reach_clear_gap_relative() {
    // Hardly any scatter: a 0.3 % change is significant but too small.
    let logs = [-1e-5, 0.0, 1e-5];
    let tests = center_tests(&runs(0.0, &logs), &runs(0.003, &logs));
    assert!(tests[0].margin() > 10.0);
    assert!(matches!(
        verdict(&tests, 0.005),
        Verdict::NotCalled(Some(_))
    ));
    assert!(matches!(
        verdict(&tests, 0.002),
        Verdict::Called(Status::Slow, _)
    ));
}

#[test]
fn change_bounds_are_the_confidence_interval() {
    let (logs, se) = spread(3, 0.01);
    let tests = center_tests(&runs(0.0, &logs), &runs(0.1, &logs));
    let Verdict::Called(Status::Slow, test) = verdict(&tests, 0.005) else {
        panic!("{tests:?}");
    };
    let (lower, upper) = test.change_bounds();
    let half = test.threshold * se;
    assert!((lower - (0.1 - half).exp_m1()).abs() < 1e-12);
    assert!((upper - (0.1 + half).exp_m1()).abs() < 1e-12);
    assert!(lower > 0.0 && (test.change() - 0.1f64.exp_m1()).abs() < 1e-12);
}

#[test]
fn a_throttled_process_whose_clock_explains_it_does_not_veto() {
    // A clock-bound kernel 10 % faster; the third compare process ran at
    // 85 % of the clock, so its time is 1 / 0.85 longer.
    let reference = clocked(&[(1.000, 1.0), (1.004, 0.996), (0.997, 1.003)]);
    let compare = clocked(&[(0.900, 1.0), (0.903, 0.997), (0.900 / 0.85, 0.85)]);
    let tests = center_tests(&reference, &compare);
    let time = test_of(&tests, TestKind::Time).unwrap();
    assert!(time.margin() < 1.0, "{time:?}");
    let Verdict::Called(status, decided) = verdict(&tests, 0.005) else {
        panic!("{tests:?}");
    };
    assert_eq!(status, Status::Fast);
    assert_ne!(decided.kind, TestKind::Time);
    assert!((decided.change() + 0.1).abs() < 0.005, "{decided:?}");
}

#[test]
fn a_partly_clock_bound_kernel_is_adjusted_for_the_clock() {
    // Half clock-bound, half memory-bound (time = 0.5 / clock + 0.5 *
    // memory), 10 % faster, one compare process throttled to 85 %: time
    // and cycles both see the throttled run out of line, the regression
    // on the clock does not.
    let time = |clock: f64, memory: f64| 0.5 / clock + 0.5 * memory;
    let reference = clocked(&[
        (time(1.0, 1.0), 1.0),
        (time(1.01, 0.996), 1.01),
        (time(0.99, 1.003), 0.99),
    ]);
    let compare = clocked(&[
        (0.9 * time(1.005, 1.002), 1.005),
        (0.9 * time(0.995, 0.998), 0.995),
        (0.9 * time(0.85, 1.0), 0.85),
    ]);
    let tests = center_tests(&reference, &compare);
    for kind in [TestKind::Time, TestKind::Cycles] {
        assert!(test_of(&tests, kind).unwrap().margin() < 1.0, "{tests:?}");
    }
    let adjusted = test_of(&tests, TestKind::ClockAdjusted).unwrap();
    assert_eq!(adjusted.df, 3);
    assert!((adjusted.change() + 0.1).abs() < 0.01, "{adjusted:?}");
    assert!(matches!(
        verdict(&tests, 0.005),
        Verdict::Called(Status::Fast, t) if t.kind == TestKind::ClockAdjusted
    ));
}

#[test]
fn one_slow_process_without_a_clock_reason_makes_no_call() {
    // Unchanged code; one compare process 15 % slower at the same clock.
    // The pooled scatter grows with it: |t| stays near 1.
    let reference = runs(0.0, &[-0.001, 0.0, 0.001]);
    let compare = runs(0.0, &[-0.001, 0.001, 0.15f64.ln_1p()]);
    let tests = center_tests(&reference, &compare);
    let time = test_of(&tests, TestKind::Time).unwrap();
    assert!(time.significance() < 1.5, "{time:?}");
    assert!(matches!(verdict(&tests, 0.005), Verdict::NotCalled(_)));
}

#[test]
fn opposite_calls_are_a_conflict() {
    // Times 10 % slower, but the compare processes ran at a 20 % lower
    // clock, so cycles are 12 % fewer: the tests disagree.
    let reference = clocked(&[(1.0, 1.0), (1.002, 1.0005), (0.998, 0.9995)]);
    let compare = clocked(&[(1.1, 0.8), (1.102, 0.8003), (1.098, 0.7998)]);
    let tests = center_tests(&reference, &compare);
    let Verdict::Conflict(fast, slow) = verdict(&tests, 0.005) else {
        panic!("{tests:?}");
    };
    assert_eq!((fast.kind, slow.kind), (TestKind::Cycles, TestKind::Time));
}

#[test]
fn two_runs_a_side_have_no_clock_adjusted_test() {
    // Four runs leave one degree of freedom after the slope: not made.
    let reference = clocked(&[(1.0, 1.0), (1.01, 0.99)]);
    let compare = clocked(&[(1.2, 1.0), (1.21, 0.99)]);
    let tests = center_tests(&reference, &compare);
    let kinds: Vec<TestKind> = tests.iter().map(|t| t.kind).collect();
    assert_eq!(kinds, [TestKind::Time, TestKind::Cycles]);
    assert!(tests.iter().all(|t| t.df == 2));
    // Five runs: df 2 after the slope.
    let compare = clocked(&[(1.2, 1.0), (1.21, 0.99), (1.205, 0.995)]);
    let adjusted = test_of(&center_tests(&reference, &compare), TestKind::ClockAdjusted);
    assert_eq!(adjusted.map(|t| t.df), Some(2));
}

#[test]
fn one_run_a_side_has_no_test_and_one_run_on_one_side_borrows_the_other_scatter() {
    let one = runs(0.0, &[0.0]);
    assert!(center_tests(&one, &runs(0.1, &[0.0])).is_empty());
    assert!(center_tests(&[], &runs(0.1, &[0.0, 0.01])).is_empty());
    let tests = center_tests(&one, &runs(0.1, &[-0.01, 0.0, 0.01]));
    let time = test_of(&tests, TestKind::Time).unwrap();
    // Pooled over the compare side alone: s = 0.01 with df 2.
    assert_eq!(time.df, 2);
    assert!((time.standard_error - 0.01 * (1.0f64 + 1.0 / 3.0).sqrt()).abs() < 1e-12);
}

#[test]
fn no_scatter_or_no_clock_leaves_tests_out() {
    // Identical runs: nothing to measure a change against.
    let same = runs(0.0, &[0.0, 0.0, 0.0]);
    assert!(center_tests(&same, &runs(0.1, &[0.0, 0.0, 0.0])).is_empty());
    // Constant clocks: the regression on the clock cannot be made.
    let tests = center_tests(
        &runs(0.0, &[-0.01, 0.0, 0.01]),
        &runs(0.1, &[0.0, 0.01, 0.02]),
    );
    assert!(test_of(&tests, TestKind::ClockAdjusted).is_none());
    // A run without a clock: only the time test.
    let mut reference = runs(0.0, &[-0.01, 0.0, 0.01]);
    reference[1].clock = None;
    let tests = center_tests(&reference, &runs(0.1, &[0.0, 0.01, 0.02]));
    let kinds: Vec<TestKind> = tests.iter().map(|t| t.kind).collect();
    assert_eq!(kinds, [TestKind::Time]);
    // A non-positive center: no test at all.
    reference[0].time = 0.0;
    assert!(center_tests(&reference, &runs(0.1, &[0.0, 0.01, 0.02])).is_empty());
}

#[test]
fn names_and_reasons() {
    assert_eq!(TestKind::Time.reason(), ReasonCode::CenterTestTime);
    assert_eq!(TestKind::Cycles.reason(), ReasonCode::CenterTestCycles);
    assert_eq!(
        TestKind::ClockAdjusted.reason(),
        ReasonCode::CenterTestClockAdjusted
    );
    assert_eq!(TestKind::ClockAdjusted.name(), "clock_adjusted");
    assert_eq!(TestKind::ClockAdjusted.label(), "clk-adj");
}

/// Runs whose log centers are `time_logs` and log clock factors
/// `clock_logs`.
fn points(time_logs: &[f64], clock_logs: &[f64]) -> Vec<RunPoint> {
    time_logs
        .iter()
        .zip(clock_logs)
        .map(|(t, c)| RunPoint {
            time: 1e-3 * t.exp(),
            clock: Some(CLOCK * c.exp()),
        })
        .collect()
}

#[test]
fn two_runs_a_side_call_only_when_time_and_cycles_both_pass() {
    // One clock: cycles scatter as times do, so both tests have the same
    // |t|, the cycles test a higher threshold (28.26 against 8.86 at df 2).
    let (logs, se) = spread(2, 0.01);
    let at = |t: f64| {
        let tests = center_tests(&runs(0.0, &logs), &runs(t * se, &logs));
        (verdict(&tests, 0.005), tests)
    };
    let time_threshold = two_sided_critical(TIME_SHARE, 2.0);
    let cycles_threshold = two_sided_critical(CYCLES_SHARE, 2.0);
    assert!((cycles_threshold - 28.258).abs() < 1e-3);
    let (only_time, tests) = at(1.0001 * time_threshold);
    assert_eq!(tests.len(), 2);
    assert!(
        matches!(only_time, Verdict::Unconfirmed(t) if t.kind == TestKind::Time && t.df == 2),
        "{only_time:?}"
    );
    assert_eq!(only_time.shown().map(|t| t.kind), Some(TestKind::Time));
    let (both, _) = at(1.0001 * cycles_threshold);
    assert!(matches!(both, Verdict::Called(Status::Slow, _)), "{both:?}");
    let (short, _) = at(0.9999 * cycles_threshold);
    assert!(matches!(short, Verdict::Unconfirmed(_)), "{short:?}");
    // Without clocks only the time test exists: never a call at df 2.
    let unclocked = |points: Vec<RunPoint>| -> Vec<RunPoint> {
        points
            .into_iter()
            .map(|p| RunPoint { clock: None, ..p })
            .collect()
    };
    let tests = center_tests(
        &unclocked(runs(0.0, &logs)),
        &unclocked(runs(100.0 * se, &logs)),
    );
    assert_eq!(tests.len(), 1);
    assert!(matches!(verdict(&tests, 0.005), Verdict::Unconfirmed(_)));
    // One run against three is df 2 too; two against three (df 3) calls
    // on the time test alone.
    // |t| = 0.11 / (0.01 sqrt(4 / 3)) = 9.5: between the two thresholds.
    let three = runs(0.11, &[-0.01, 0.0, 0.01]);
    let tests = center_tests(&runs(0.0, &[0.0]), &three);
    assert!(tests.iter().all(|t| t.df == 2));
    assert!(matches!(verdict(&tests, 0.005), Verdict::Unconfirmed(_)));
    let tests = center_tests(&runs(0.0, &[-0.01, 0.01]), &runs(0.06, &[-0.01, 0.0, 0.01]));
    let time = test_of(&tests, TestKind::Time).unwrap();
    let cycles = test_of(&tests, TestKind::Cycles).unwrap();
    assert_eq!(time.df, CONFIRMED_DF);
    assert!(time.margin() >= 1.0 && cycles.margin() < 1.0, "{tests:?}");
    assert!(matches!(
        verdict(&tests, 0.005),
        Verdict::Called(Status::Slow, t) if t.kind == TestKind::Time
    ));
}

#[test]
fn a_test_pointing_the_other_way_by_one_standard_error_vetoes() {
    // Times 10 % slower at |t| 12; the compare processes' clocks were
    // lower, so that cycles change by -(margin) standard errors.
    let (logs, se) = spread(3, 0.01);
    let flat = [0.0; 3];
    let at = |cycles_t: f64| {
        let clock = -0.1 + cycles_t * se;
        let tests = center_tests(
            &points(&logs, &flat),
            &points(
                &logs.iter().map(|l| l + 0.1).collect::<Vec<_>>(),
                &[clock; 3],
            ),
        );
        let cycles = test_of(&tests, TestKind::Cycles).unwrap();
        assert!((cycles.log_change - cycles_t * se).abs() < 1e-12);
        assert!(test_of(&tests, TestKind::ClockAdjusted).is_none());
        verdict(&tests, 0.005)
    };
    assert!(
        matches!(at(-1.0001 * OPPOSED_T), Verdict::Opposed(passing, opposing)
            if passing.kind == TestKind::Time && opposing.kind == TestKind::Cycles),
        "{:?}",
        at(-1.0001)
    );
    assert!(matches!(at(-3.0), Verdict::Opposed(..)));
    assert!(
        matches!(at(-0.9999 * OPPOSED_T), Verdict::Called(Status::Slow, t) if t.kind == TestKind::Time),
        "{:?}",
        at(-0.9999)
    );
    assert!(matches!(at(0.0), Verdict::Called(Status::Slow, _)));
    assert!(matches!(at(2.0), Verdict::Called(Status::Slow, _)));
    // Past the cycles test's own threshold (8.12 at df 4) the other way: a conflict.
    assert!(matches!(at(-6.0), Verdict::Opposed(..)));
    assert!(matches!(at(-9.0), Verdict::Conflict(..)));
    // The passing test is shown.
    assert_eq!(at(-2.0).shown().map(|t| t.kind), Some(TestKind::Time));
}
