//! `--fail-on`: the regression gate. Pure: a report and the selected
//! categories in, the categories that tripped out.

use crate::deciding::decision::Status;
use crate::deciding::report::Report;
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
                let names = ["slow", "ambg", "unknown", "missing"];
                let hint = did_you_mean(&close_names(item, names))
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
    use crate::deciding::decision::{Reason, ReasonCode};

    fn report_with(statuses: &[Status]) -> Report {
        let mut report = Report::default();
        for status in statuses {
            let reason = Reason {
                code: ReasonCode::NoiseTooHigh,
                message: String::new(),
                severity: 0.0,
            };
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
