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
    /// The robust command: bulk time coverage supports SAME and the summary
    /// intervals scaled by the SM clock confirm it (no frequency sidecars).
    BulkTimeSameConfirmedBySummaryCycles,
    /// The robust command: bulk time coverage supports SAME, and there are
    /// neither frequency sidecars nor SM clock summaries.
    BulkTimeSameWithoutCycles,
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
            BulkTimeSameConfirmedBySummaryCycles => {
                ("bulk_time_same_confirmed_by_summary_cycles", "bt-same-sc")
            }
            BulkTimeSameWithoutCycles => ("bulk_time_same_without_cycles", "bt-same-no-cyc"),
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

/// The reason for a status: its code and message. Nearly every message is
/// a fixed text, held as a pointer; the rare built one (and the severity,
/// which only built messages have) is boxed, so a reason is 24 bytes.
#[derive(Debug, Clone)]
pub struct Reason {
    pub code: ReasonCode,
    message: Message,
}

#[derive(Debug, Clone)]
enum Message {
    Fixed(&'static str),
    Built(Box<BuiltMessage>),
}

#[derive(Debug, Clone)]
struct BuiltMessage {
    text: String,
    severity: f64,
}

impl Reason {
    /// A reason of severity 0.
    pub fn new(code: ReasonCode, message: impl Into<std::borrow::Cow<'static, str>>) -> Reason {
        Reason::with_severity(code, message, 0.0)
    }

    pub fn with_severity(
        code: ReasonCode,
        message: impl Into<std::borrow::Cow<'static, str>>,
        severity: f64,
    ) -> Reason {
        let message = match message.into() {
            // Bits, not `==`: a severity of -0.0 is kept as given.
            std::borrow::Cow::Borrowed(text) if severity.to_bits() == 0 => Message::Fixed(text),
            text => Message::Built(Box::new(BuiltMessage {
                text: text.into_owned(),
                severity,
            })),
        };
        Reason { code, message }
    }

    pub fn message(&self) -> &str {
        match &self.message {
            Message::Fixed(text) => text,
            Message::Built(built) => &built.text,
        }
    }

    /// Orders reasons of the same code: the summary shows the most severe message.
    pub fn severity(&self) -> f64 {
        match &self.message {
            Message::Fixed(_) => 0.0,
            Message::Built(built) => built.severity,
        }
    }
}

impl PartialEq for Reason {
    fn eq(&self, other: &Reason) -> bool {
        self.code == other.code
            && self.message() == other.message()
            && self.severity() == other.severity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_a_code_and_a_pointer() {
        assert_eq!(std::mem::size_of::<Reason>(), 24);
    }

    #[test]
    fn reasons_keep_their_message_and_severity() {
        let code = ReasonCode::NoClearGap;
        for severity in [0.0, -0.0, 1e-300, 0.47, f64::INFINITY, f64::NAN] {
            for message in [
                std::borrow::Cow::Borrowed("fixed"),
                std::borrow::Cow::Owned("built".to_string()),
            ] {
                let reason = Reason::with_severity(code, message.clone(), severity);
                assert_eq!(reason.code, code);
                assert_eq!(reason.message(), message);
                assert_eq!(reason.severity().to_bits(), severity.to_bits());
            }
        }
        assert_eq!(Reason::new(code, "x"), Reason::new(code, "x".to_string()));
        assert_ne!(
            Reason::new(code, "x"),
            Reason::with_severity(code, "x", 0.5)
        );
    }
}
