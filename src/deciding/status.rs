//! What a comparison concludes: its status (SAME, FAST, SLOW, AMBG, ????)
//! and the named reason for it, with the canonical code of the JSON report
//! and the short code of the explain view.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Unknown,
    Undecided,
    Same,
    Fast,
    Slow,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Unknown => "????",
            Status::Undecided => "AMBG",
            Status::Same => "SAME",
            Status::Fast => "FAST",
            Status::Slow => "SLOW",
        }
    }
}

/// Every reason the decision tree can give, with its canonical code and the
/// short code of the explain view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReasonCode {
    BulkCycleDataUnusable,
    BulkCycleGapNotConfirmed,
    BulkCycleSame,
    BulkCycleSupportMismatch,
    BulkDataUnavailable,
    BulkSame,
    BulkTimeDataUnusable,
    BulkTimeSame,
    BulkTimeSupportMismatch,
    /// Repetition mode: the clock-adjusted test on the run centers passed
    /// (`crate::deciding::repetitions::center_test`).
    CenterTestClockAdjusted,
    /// Repetition mode: the test on the runs' cycle centers passed.
    CenterTestCycles,
    /// Repetition mode: the intervals would make a clear gap, but no test
    /// on the run centers passes its threshold.
    CenterTestNotSignificant,
    /// Repetition mode: the test on the runs' time centers passed.
    CenterTestTime,
    /// Repetition mode, fewer than 3 degrees of freedom (two runs a side):
    /// a test passed, but not every test that can be made (at least two).
    CenterTestUnconfirmed,
    /// Repetition mode: tests on the run centers pass in opposite
    /// directions, or one passes and another points the other way.
    CenterTestsDisagree,
    CentersNotClose,
    ClearGapConfirmedByBulkCycles,
    ClearGapConfirmedBySummaryCycles,
    /// An input without a clock domain (Google Benchmark): the gap is
    /// confirmed by the time intervals alone (`clear_gap.without_clock`).
    ClearGapTimeOnly,
    CycleSameNotConfirmed,
    InvalidClockRate,
    MissingClockRate,
    MissingInterval,
    NoClearGap,
    NoiseTooHigh,
    NoiseUnavailable,
    SameConfirmedByCycles,
    SameSummary,
    SameWithoutClockRate,
    SummaryCycleGapNotConfirmed,
    GpuTimingSummariesMissing,
    StateSkipped,
    TimingCenterMissing,
    TimingCenterNonfinite,
    TimingCenterNonpositive,
    /// A side has a single repetition (and a single file): nothing tells
    /// how much its result moves between repetitions.
    TooFewRepetitions,
    WeakIntervalOverlap,
}

impl ReasonCode {
    pub fn canonical(self) -> &'static str {
        self.codes().0
    }

    /// The short code shown in the explain view's Reason column.
    pub fn display(self) -> &'static str {
        self.codes().1
    }

    fn codes(self) -> (&'static str, &'static str) {
        use ReasonCode::*;
        match self {
            BulkCycleDataUnusable => ("bulk_cycle_data_unusable", "bc-bad"),
            BulkCycleGapNotConfirmed => ("bulk_cycle_gap_not_confirmed", "bc-gap-miss"),
            BulkCycleSame => ("bulk_cycle_same", "bc-same"),
            BulkCycleSupportMismatch => ("bulk_cycle_support_mismatch", "bc-sup-miss"),
            BulkDataUnavailable => ("bulk_data_unavailable", "bulk-miss"),
            BulkSame => ("bulk_same", "bulk-same"),
            BulkTimeDataUnusable => ("bulk_time_data_unusable", "bt-bad"),
            BulkTimeSame => ("bulk_time_same", "bt-same"),
            BulkTimeSupportMismatch => ("bulk_time_support_mismatch", "bt-sup-miss"),
            CenterTestClockAdjusted => ("center_test_clock_adjusted", "t-clk-adj"),
            CenterTestCycles => ("center_test_cycles", "t-cycles"),
            CenterTestNotSignificant => ("center_test_not_significant", "t-insig"),
            CenterTestTime => ("center_test_time", "t-time"),
            CenterTestUnconfirmed => ("center_test_unconfirmed", "t-unconf"),
            CenterTestsDisagree => ("center_tests_disagree", "t-conflict"),
            CentersNotClose => ("centers_not_close", "centers-far"),
            ClearGapConfirmedByBulkCycles => ("clear_gap_confirmed_by_bulk_cycles", "bc-gap"),
            ClearGapConfirmedBySummaryCycles => ("clear_gap_confirmed_by_summary_cycles", "sc-gap"),
            ClearGapTimeOnly => ("clear_gap_time_only", "time-gap"),
            CycleSameNotConfirmed => ("cycle_same_not_confirmed", "sc-same-miss"),
            InvalidClockRate => ("invalid_clock_rate", "clk-bad"),
            MissingClockRate => ("missing_clock_rate", "clk-miss"),
            MissingInterval => ("missing_interval", "int-miss"),
            NoClearGap => ("no_clear_gap", "no-gap"),
            NoiseTooHigh => ("noise_too_high", "noise-high"),
            NoiseUnavailable => ("noise_unavailable", "noise-miss"),
            SameConfirmedByCycles => ("same_confirmed_by_cycles", "sc-same"),
            SameSummary => ("same_summary", "sum-same"),
            SameWithoutClockRate => ("same_without_clock_rate", "same-no-clk"),
            SummaryCycleGapNotConfirmed => ("summary_cycle_gap_not_confirmed", "sc-gap-miss"),
            GpuTimingSummariesMissing => ("gpu_timing_summaries_missing", "summ-miss"),
            StateSkipped => ("state_skipped", "state-skip"),
            TimingCenterMissing => ("timing_center_missing", "center-miss"),
            TimingCenterNonfinite => ("timing_center_nonfinite", "center-nonfin"),
            TimingCenterNonpositive => ("timing_center_nonpositive", "center-nonpos"),
            TooFewRepetitions => ("too_few_repetitions", "reps-few"),
            WeakIntervalOverlap => ("weak_interval_overlap", "weak-overlap"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Reason {
    pub code: ReasonCode,
    /// Nearly always a fixed text: borrowed, not copied into every record.
    pub message: std::borrow::Cow<'static, str>,
    /// Orders reasons of the same code: the summary shows the most severe message.
    pub severity: f64,
}
