//! The `# Summary` block: tallies of every matched state (displayed or not)
//! and the undecided-reason breakdown.

use std::fmt::Write;

use crate::deciding::report::{MissingItem, Presence, Report, Tally};

/// The `# Missing` section (`--report-missing`): what only one side has.
pub fn render_missing(missing: &[MissingItem]) -> String {
    if missing.is_empty() {
        return String::new();
    }
    let mut out = String::from("# Missing\n\n");
    for item in missing {
        let _ = writeln!(out, "- {}", item.describe());
    }
    out.push('\n');
    out
}

/// The summary's completeness lines (`--report-missing`).
pub fn render_missing_counts(report: &Report) -> String {
    format!(
        "  - New         (only in compare): {}\n  - Dropped     (only in reference): {}\n",
        report.count_missing(Presence::New),
        report.count_missing(Presence::Dropped)
    )
}

/// `same_label` starts the SAME count's line (the commands word it differently).
pub fn render_summary(tally: &Tally, with_legend: bool, same_label: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Summary\n");
    let _ = writeln!(out, "- Total Matches: {}", tally.total);
    let _ = writeln!(out, "{same_label}{}", tally.same);
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
            let _ = writeln!(out, "      - {}: {count} ({message})", code.canonical());
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
    use crate::deciding::status::{Reason, ReasonCode, Status};

    fn reason(code: ReasonCode, message: &str, severity: f64) -> Reason {
        Reason::with_severity(code, message.to_string(), severity)
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
                (ReasonCode::BulkTimeSupportMismatch, 3, "b"),
                (ReasonCode::NoiseTooHigh, 1, "noise"),
                (ReasonCode::MissingInterval, 1, "m"),
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
        let label = crate::personality::Personality::Compare
            .dialect()
            .same_label;
        let text = render_summary(&tally, true, label);
        assert!(text.contains("  - Reason legend: bc-gap = clear_gap_confirmed_by_bulk_cycles; state-skip = state_skipped\n"));
    }
}
