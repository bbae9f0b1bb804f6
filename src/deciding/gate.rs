//! `--fail-on`: the regression gate. Pure: a report and the selected
//! categories in, the categories that tripped out.

use crate::deciding::report::Report;
use crate::deciding::status::Status;
use crate::suggest::{close_names, did_you_mean};

/// The exit code of a failed gate: distinct from 1 (error) and from 2
/// (usage error, which the reference's argparse already uses).
pub const GATE_FAILED_EXIT: u8 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateCategory {
    Slow,
    Ambg,
    Unknown,
    Missing,
}

impl GateCategory {
    pub fn name(self) -> &'static str {
        match self {
            GateCategory::Slow => "slow",
            GateCategory::Ambg => "ambg",
            GateCategory::Unknown => "unknown",
            GateCategory::Missing => "missing",
        }
    }

    /// How many times the category occurs in the report.
    fn count(self, report: &Report) -> usize {
        let tally = &report.tally;
        match self {
            GateCategory::Slow => tally.slow,
            GateCategory::Ambg => tally.undecided,
            GateCategory::Unknown => tally.unknown,
            GateCategory::Missing => report.missing.len(),
        }
    }

    /// The status that trips this category, for categories that are statuses.
    pub fn status(self) -> Option<Status> {
        match self {
            GateCategory::Slow => Some(Status::Slow),
            GateCategory::Ambg => Some(Status::Undecided),
            GateCategory::Unknown => Some(Status::Unknown),
            GateCategory::Missing => None,
        }
    }
}

/// The `--fail-on` categories by name.
pub const CATEGORY_NAMES: [&str; 4] = ["slow", "ambg", "unknown", "missing"];

/// Parses `slow,ambg,unknown,missing` (any subset, any order, any case).
pub fn parse_fail_on(text: &str) -> Result<Vec<GateCategory>, String> {
    let mut categories = Vec::new();
    for item in text.split(',').map(str::trim) {
        let category = match item.to_ascii_lowercase().as_str() {
            "slow" => GateCategory::Slow,
            "ambg" => GateCategory::Ambg,
            "unknown" | "????" => GateCategory::Unknown,
            "missing" => GateCategory::Missing,
            _ => {
                let hint = did_you_mean(&close_names(item, CATEGORY_NAMES))
                    .map(|hint| format!("; {hint}"))
                    .unwrap_or_default();
                return Err(format!(
                    "invalid --fail-on category '{item}': expected a comma-separated list of slow, ambg, unknown, missing{hint}"
                ));
            }
        };
        if !categories.contains(&category) {
            categories.push(category);
        }
    }
    Ok(categories)
}

/// The selected categories that occur, with their counts.
pub fn gate_failures(report: &Report, categories: &[GateCategory]) -> Vec<(GateCategory, usize)> {
    categories
        .iter()
        .map(|c| (*c, c.count(report)))
        .filter(|(_, count)| *count > 0)
        .collect()
}

/// What the gate decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No `--fail-on`: the exit status is the reference's.
    NotGated,
    Passed,
    Failed,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::NotGated => "not gated",
            Verdict::Passed => "passed",
            Verdict::Failed => "failed",
        }
    }
}

/// The gate's decision on a run, with what it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateOutcome {
    /// The `--fail-on` categories (empty: not gated).
    pub selected: Vec<GateCategory>,
    /// The selected categories that occurred, with their counts.
    pub tripped: Vec<(GateCategory, usize)>,
    /// Why nothing was compared, when nothing was: a gated run that
    /// compared nothing fails, since it checked nothing.
    pub nothing_compared: Option<String>,
}

impl GateOutcome {
    pub fn decide(
        report: &Report,
        selected: &[GateCategory],
        nothing_compared: Option<String>,
    ) -> Self {
        GateOutcome {
            selected: selected.to_vec(),
            tripped: gate_failures(report, selected),
            nothing_compared,
        }
    }

    pub fn verdict(&self) -> Verdict {
        if self.selected.is_empty() {
            Verdict::NotGated
        } else if self.tripped.is_empty() && self.nothing_compared.is_none() {
            Verdict::Passed
        } else {
            Verdict::Failed
        }
    }

    /// `--fail-on slow,missing`, or an empty string when not gated.
    pub fn option_text(&self) -> String {
        if self.selected.is_empty() {
            return String::new();
        }
        let names: Vec<&str> = self.selected.iter().map(|c| c.name()).collect();
        format!("--fail-on {}", names.join(","))
    }

    /// The lines to print on stderr: why the gate failed, or the warning
    /// that nothing was compared.
    pub fn messages(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let gated = !self.selected.is_empty();
        if let Some(why) = &self.nothing_compared {
            lines.push(if gated {
                format!(
                    "gate failed: nothing was compared: {why} ({})",
                    self.option_text()
                )
            } else {
                format!("warning: nothing was compared: {why}")
            });
        }
        if !self.tripped.is_empty() {
            lines.push(describe_failures(&self.tripped, &self.selected));
        }
        lines
    }
}

/// `gate failed: 2 slow, 1 ambg (--fail-on slow,ambg)`.
pub fn describe_failures(
    failures: &[(GateCategory, usize)],
    categories: &[GateCategory],
) -> String {
    let found: Vec<String> = failures
        .iter()
        .map(|(c, n)| format!("{n} {}", c.name()))
        .collect();
    let selected: Vec<&str> = categories.iter().map(|c| c.name()).collect();
    format!(
        "gate failed: {} (--fail-on {})",
        found.join(", "),
        selected.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::status::{Reason, ReasonCode};

    fn report_with(statuses: &[Status]) -> Report {
        let mut report = Report::default();
        for status in statuses {
            let reason = Reason::new(ReasonCode::NoiseTooHigh, "");
            report.tally.record(*status, &reason);
        }
        report
    }

    #[test]
    fn parses_categories() {
        assert_eq!(
            parse_fail_on("slow, AMBG,slow").unwrap(),
            vec![GateCategory::Slow, GateCategory::Ambg]
        );
        assert!(parse_fail_on("fast").unwrap_err().contains("'fast'"));
        assert!(parse_fail_on("").is_err());
    }

    #[test]
    fn nothing_compared_fails_a_gated_run_and_warns_otherwise() {
        let empty = Report::default();
        let why = Some("both directories are empty".to_string());
        let gated = GateOutcome::decide(&empty, &[GateCategory::Slow], why.clone());
        assert_eq!(gated.verdict(), Verdict::Failed);
        assert_eq!(
            gated.messages(),
            vec!["gate failed: nothing was compared: both directories are empty (--fail-on slow)"]
        );
        let ungated = GateOutcome::decide(&empty, &[], why);
        assert_eq!(ungated.verdict(), Verdict::NotGated);
        assert_eq!(
            ungated.messages(),
            vec!["warning: nothing was compared: both directories are empty"]
        );
        let passed =
            GateOutcome::decide(&report_with(&[Status::Same]), &[GateCategory::Slow], None);
        assert_eq!(passed.verdict(), Verdict::Passed);
        assert!(passed.messages().is_empty());
    }

    #[test]
    fn fast_never_fails_and_selected_categories_do() {
        let report = report_with(&[Status::Fast, Status::Same, Status::Undecided]);
        let all = parse_fail_on("slow,ambg,unknown,missing").unwrap();
        assert_eq!(gate_failures(&report, &all), vec![(GateCategory::Ambg, 1)]);
        assert!(gate_failures(&report, &[GateCategory::Slow]).is_empty());
        let text = describe_failures(&gate_failures(&report, &all), &all);
        assert_eq!(
            text,
            "gate failed: 1 ambg (--fail-on slow,ambg,unknown,missing)"
        );
    }
}
