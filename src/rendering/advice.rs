//! Next steps for AMBG results (spec "What To Do With AMBG Results"): for
//! each reason, the evidence that would settle it.

use std::fmt::Write;

use crate::deciding::report::Tally;
use crate::deciding::status::ReasonCode;

/// What would turn an AMBG with this reason into a decision.
pub fn next_step(code: ReasonCode) -> &'static str {
    use ReasonCode::*;
    match code {
        BulkCycleDataUnusable | BulkTimeDataUnusable => {
            "the --jsonbin sample files exist but are unreadable, truncated or hold NaN/zero/negative values: re-run both benchmarks with --jsonbin and keep the *.json-bin and *.json-freqs-bin directories next to the JSON files"
        }
        BulkCycleGapNotConfirmed | SummaryCycleGapNotConfirmed => {
            "the timing gap vanishes in cycle space, so the SM clock differed between the runs: re-run both under the same clock conditions (e.g. locked clocks); --bulk-debug-python shows the per-sample frequencies"
        }
        CycleSameNotConfirmed => {
            "times agree but SM-clock-adjusted cycles do not: the clocks differed between the runs; re-run both under the same clock conditions"
        }
        BulkTimeSupportMismatch | BulkCycleSupportMismatch => {
            "the sample distributions differ in shape (e.g. a new mode or cold-start outliers): collect more samples (--stopping-criterion sample-count with --target-samples) and check cold warmup (--cold-warmup-runs); inspect the samples with --bulk-debug-python"
        }
        MissingClockRate | InvalidClockRate => {
            "no usable nv/cold/sm_clock_rate/mean to confirm the gap in cycle space: re-run with a current NVBench, ideally with --jsonbin so that per-sample frequencies are recorded"
        }
        MissingInterval => {
            "the timing summaries do not form a valid interval (min/q1/median/q3 or mean/stdev missing or inconsistent): re-run with a current NVBench"
        }
        NoiseTooHigh => {
            "relative dispersion exceeds same.relative_dispersion_ceiling: re-run with --jsonbin so that bulk coverage can decide, collect more samples, or try --stopping-criterion entropy"
        }
        NoiseUnavailable => {
            "no finite dispersion (too few samples, or only a mean): collect more samples, or re-run with --jsonbin"
        }
        TooFewRepetitions => {
            "one repetition a side shows nothing of the run-to-run variation: run Google Benchmark with --benchmark_repetitions=10 (or more), or give each side several result files with --vs"
        }
        CentersNotClose | WeakIntervalOverlap => {
            "the results neither separate nor agree: collect more samples or --jsonbin data; if a difference this small is acceptable, use --preset permissive or a TOML config (start from --dump-config)"
        }
        CenterTestNotSignificant => {
            "repetition mode: the change is within the scatter of the run centers between processes; add runs a side (the threshold on |t| falls with more runs: docs/repetitions.md), alternate the builds' processes, and keep the machine state steady (locked clocks, no other tenants)"
        }
        CenterTestUnconfirmed => {
            "repetition mode with two runs a side: a test on the run centers passes, but with so few degrees of freedom a call needs the time and cycles tests both to pass; add a third run a side (docs/repetitions.md)"
        }
        CenterTestsDisagree => {
            "repetition mode: times and SM-clock-adjusted cycles point in opposite directions, so the clocks differed between the processes of the two sides: re-run both under the same clock conditions (e.g. locked clocks), alternating the builds"
        }
        _ => "re-run both measurements with --jsonbin and inspect the rows with --display explain",
    }
}

/// The advice that holds for every reason: one process cannot show how
/// much its results move between processes.
pub const REPETITIONS_ADVICE: &str = "All samples of one run come from one process and share its machine state (clocks, thermals, power limits, other tenants), so a run's interval cannot show how much the next process differs. Collect repetitions: run each build in 3 separate processes (3 rather than 2), alternating reference and compare (A B A B A B), and compare them with `nvbench-compare ref1.json ref2.json ref3.json --vs cmp1.json cmp2.json cmp3.json`.";

/// What re-measures only the AMBG states, when no plan was written.
pub const RERUN_PLAN_ADVICE: &str = "To re-measure only these states, `--rerun-plan PATH` writes the benchmark arguments that do so; run each build twice more with them and compare again with each side's reruns after its runs (docs/repetitions.md).";

/// One line per AMBG reason present: `- code (N): next step`, then the
/// advice on repetitions unless they were used, then the rerun plan's
/// unless one was written.
pub fn render_next_steps(tally: &Tally, advise_repetitions: bool, advise_plan: bool) -> String {
    let reasons = tally.undecided_reasons();
    if reasons.is_empty() {
        return String::new();
    }
    let mut out = String::from("# What would settle the AMBG rows\n\n");
    for (code, count, _) in reasons {
        let _ = writeln!(out, "- {} ({count}): {}", code.canonical(), next_step(code));
    }
    if advise_repetitions {
        let _ = writeln!(out, "\n{REPETITIONS_ADVICE}");
    }
    if advise_plan {
        let _ = writeln!(out, "\n{RERUN_PLAN_ADVICE}");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::status::{Reason, Status};

    #[test]
    fn one_line_per_reason_present() {
        let mut tally = Tally::default();
        let reason = |code| Reason::new(code, "");
        tally.record(Status::Undecided, &reason(ReasonCode::NoiseTooHigh));
        tally.record(Status::Undecided, &reason(ReasonCode::NoiseTooHigh));
        tally.record(Status::Same, &reason(ReasonCode::BulkSame));
        let text = render_next_steps(&tally, true, false);
        assert_eq!(text.lines().filter(|l| l.starts_with("- ")).count(), 1);
        assert!(text.contains("- noise_too_high (2): relative dispersion exceeds"));
        assert!(text.contains("\n\nAll samples of one run come from one process"));
        assert!(text.contains("alternating reference and compare (A B A B A B)"));
        assert!(!text.contains("--rerun-plan"), "{text}");
        assert_eq!(render_next_steps(&Tally::default(), true, true), "");
        let merged = render_next_steps(&tally, false, true);
        assert!(!merged.contains("Collect repetitions"), "{merged}");
        assert!(merged.contains("\n\nTo re-measure only these states, `--rerun-plan PATH`"));
    }
}
