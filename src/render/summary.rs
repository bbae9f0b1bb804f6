//! The `# Summary` block: tallies of every matched state (displayed or not)
//! and the undecided-reason breakdown.

use std::fmt::Write;

use crate::compare::{Reason, ReasonCode, Status};

/// Occurrences of one reason, keeping the message of its most severe instance.
#[derive(Debug, Clone)]
struct ReasonTally {
    key: &'static str,
    canonical: ReasonCode,
    count: usize,
    message: String,
    severity: f64,
}

impl ReasonTally {
    fn record(&mut self, reason: &Reason) {
        if self.count == 0 || reason.severity > self.severity {
            self.canonical = reason.code;
            self.message = reason.message.clone();
            self.severity = reason.severity;
        }
        self.count += 1;
    }
}

/// Insertion-ordered tallies keyed by code (the summary orders ties by first appearance).
#[derive(Debug, Clone, Default)]
struct ReasonTallies(Vec<ReasonTally>);

impl ReasonTallies {
    fn record(&mut self, key: &'static str, reason: &Reason) {
        let index = match self.0.iter().position(|t| t.key == key) {
            Some(index) => index,
            None => {
                self.0.push(ReasonTally {
                    key,
                    canonical: reason.code,
                    count: 0,
                    message: String::new(),
                    severity: 0.0,
                });
                self.0.len() - 1
            }
        };
        self.0[index].record(reason);
    }
}

#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub total: usize,
    pub same: usize,
    pub fast: usize,
    pub slow: usize,
    pub undecided: usize,
    pub unknown: usize,
    undecided_reasons: ReasonTallies,
    legend: ReasonTallies,
}

impl Tally {
    pub fn record(&mut self, status: Status, reason: &Reason) {
        self.total += 1;
        self.legend.record(reason.code.display(), reason);
        match status {
            Status::Unknown => self.unknown += 1,
            Status::Undecided => {
                self.undecided += 1;
                self.undecided_reasons
                    .record(reason.code.canonical(), reason);
            }
            Status::Same => self.same += 1,
            Status::Fast => self.fast += 1,
            Status::Slow => self.slow += 1,
        }
    }

    /// `(code, count, message)` of undecided reasons, most frequent first.
    pub fn undecided_reasons(&self) -> Vec<(&'static str, usize, &str)> {
        let mut reasons: Vec<_> = self
            .undecided_reasons
            .0
            .iter()
            .map(|t| (t.key, t.count, t.message.as_str()))
            .collect();
        reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
        reasons
    }

    /// Explain-mode legend entries `short = canonical`, sorted by short code.
    fn legend_entries(&self) -> Vec<String> {
        let mut tallies: Vec<&ReasonTally> = self.legend.0.iter().collect();
        tallies.sort_by_key(|t| t.key);
        tallies
            .into_iter()
            .filter(|t| t.key != t.canonical.canonical().replace('_', "-"))
            .map(|t| format!("{} = {}", t.key, t.canonical.canonical()))
            .collect()
    }
}

pub fn render_summary(tally: &Tally, with_legend: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Summary\n");
    let _ = writeln!(out, "- Total Matches: {}", tally.total);
    let _ = writeln!(
        out,
        "  - Pass        (centers close and intervals overlap): {}",
        tally.same
    );
    let _ = writeln!(
        out,
        "  - Improvement (clear timing gap, %Diff < 0): {}",
        tally.fast
    );
    let _ = writeln!(
        out,
        "  - Regression  (clear timing gap, %Diff > 0): {}",
        tally.slow
    );
    let _ = writeln!(
        out,
        "  - Ambiguous (comparison requires more evidence): {}",
        tally.undecided
    );
    let reasons = tally.undecided_reasons();
    if !reasons.is_empty() {
        let _ = writeln!(out, "    - Reasons:");
        for (code, count, message) in reasons {
            let _ = writeln!(out, "      - {code}: {count} ({message})");
        }
    }
    if with_legend {
        let entries = tally.legend_entries();
        if !entries.is_empty() {
            let _ = writeln!(out, "  - Reason legend: {}", entries.join("; "));
        }
    }
    let _ = writeln!(
        out,
        "  - Unknown     (input data unavailable or unusable): {}",
        tally.unknown
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(code: ReasonCode, message: &str, severity: f64) -> Reason {
        Reason {
            code,
            message: message.to_string(),
            severity,
        }
    }

    #[test]
    fn reasons_sorted_by_count_then_first_seen_with_most_severe_message() {
        let mut tally = Tally::default();
        tally.record(
            Status::Undecided,
            &reason(ReasonCode::NoiseTooHigh, "noise", 0.0),
        );
        tally.record(
            Status::Undecided,
            &reason(ReasonCode::BulkTimeSupportMismatch, "a", 0.1),
        );
        tally.record(
            Status::Undecided,
            &reason(ReasonCode::BulkTimeSupportMismatch, "b", 0.3),
        );
        tally.record(
            Status::Undecided,
            &reason(ReasonCode::BulkTimeSupportMismatch, "c", 0.2),
        );
        tally.record(
            Status::Undecided,
            &reason(ReasonCode::MissingInterval, "m", 0.0),
        );
        let reasons = tally.undecided_reasons();
        assert_eq!(
            reasons,
            vec![
                ("bulk_time_support_mismatch", 3, "b"),
                ("noise_too_high", 1, "noise"),
                ("missing_interval", 1, "m"),
            ]
        );
    }

    #[test]
    fn legend_skips_codes_that_are_their_own_canonical_form() {
        let mut tally = Tally::default();
        tally.record(
            Status::Fast,
            &reason(ReasonCode::ClearGapConfirmedByBulkCycles, "x", 0.0),
        );
        tally.record(Status::Unknown, &reason(ReasonCode::StateSkipped, "y", 0.0));
        let text = render_summary(&tally, true);
        assert!(text.contains("  - Reason legend: bc-gap = clear_gap_confirmed_by_bulk_cycles; state-skip = state_skipped\n"));
    }
}
