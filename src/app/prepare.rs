//! The side-effect-free part of comparing a benchmark, run ahead on all
//! cores: its device pairs, state matching, decisions (with the warnings
//! they raise, not yet printed) and table text. [`super::Run`] applies the
//! results in order, so output, warnings and errors appear where a serial
//! run would print them.

use std::cell::RefCell;

use crate::deciding::decision::{self, Comparison, Side};
use crate::deciding::report::{AxisEntry, SidecarFile, StateRecord};
use crate::deciding::sidecar_evidence::SidecarEvidence;
use crate::deciding::status::Status;
use crate::failure::Failure;
use crate::loading::model::{AxisValue, Benchmark, State};
use crate::loading::timing::{Timing, extract_timing};
use crate::matching::filters::AxisFilter;
use crate::matching::{self, MatchedState, StateMatch};
use crate::parallel::map_in_parallel;
use crate::rendering::axes::axis_cells;
use crate::rendering::table::{Row, render_table};

use super::Settings;
use super::sections::{FileContext, device_names};

/// A decision and the sidecar files both sides advertise.
pub(super) struct Decided {
    comparison: Comparison,
    sidecars: [SidecarFile; 4],
}

/// Benchmarks prepared per thread, at least: a few large benchmarks are
/// better served by the parallel decisions and tables inside each.
pub(super) const BENCHMARKS_PER_THREAD: usize = 4;

/// The record of one matched state, and the warnings its decision raised.
pub(super) type DecidedState = (Result<StateRecord, Failure>, Vec<String>);

/// The side-effect-free work of one device pair: its state matching, the
/// decisions (with the warnings they raise, not yet printed) and, when
/// every decision succeeded, its table.
pub(super) struct PairWork<'a> {
    pub(super) state_match: StateMatch<'a>,
    pub(super) decided: Vec<DecidedState>,
    pub(super) table: Option<String>,
}

/// The reference and compare device of each device pair, paired by position.
pub(crate) fn benchmark_device_pairs(
    s: &Settings,
    ref_bench: &Benchmark,
    cmp_bench: &Benchmark,
) -> Result<Vec<(i64, i64)>, Failure> {
    let cmp_ids =
        matching::benchmark_device_ids(cmp_bench, &s.compare_devices, "--compare-devices")?;
    let ref_ids =
        matching::benchmark_device_ids(ref_bench, &s.reference_devices, "--reference-devices")?;
    if cmp_ids.len() != ref_ids.len() {
        return Err(Failure::reported(format!(
            "benchmark {} has {} reference device(s) but {} compare device(s); nvbench_compare pairs devices by position, so each compared benchmark must contain the same number of devices",
            crate::pycompat::pyfmt::str_repr(&cmp_bench.name),
            ref_ids.len(),
            cmp_ids.len()
        )));
    }
    Ok(ref_ids.into_iter().zip(cmp_ids).collect())
}

pub(crate) fn axis_names(bench: &Benchmark) -> Vec<String> {
    (bench.axes.as_deref().unwrap_or(&[]))
        .iter()
        .map(|a| a.name.clone())
        .collect()
}

/// All device pairs of a benchmark, or `None` when any step fails: the
/// failure is then met again, and reported, where it occurs in order.
pub(super) fn prepare_benchmark<'a>(
    s: &Settings,
    context: &FileContext,
    (ref_bench, cmp_bench): (&'a Benchmark, &'a Benchmark),
    resolve_sidecars: bool,
) -> Option<Vec<PairWork<'a>>> {
    let device_pairs = benchmark_device_pairs(s, ref_bench, cmp_bench).ok()?;
    let groups = s.filters.axis_filter_groups(&cmp_bench.name);
    let axis_names = axis_names(cmp_bench);
    device_pairs
        .into_iter()
        .map(|devices| {
            prepare_pair(
                s,
                context,
                (ref_bench, cmp_bench),
                devices,
                (&groups, &axis_names),
                resolve_sidecars,
            )
            .ok()
        })
        .collect()
}

pub(super) fn prepare_pair<'a>(
    s: &Settings,
    context: &FileContext,
    (ref_bench, cmp_bench): (&'a Benchmark, &'a Benchmark),
    devices: (i64, i64),
    (groups, axis_names): (&[Vec<AxisFilter>], &[String]),
    resolve_sidecars: bool,
) -> Result<PairWork<'a>, Failure> {
    let state_match = matching::match_device_states(
        &cmp_bench.name,
        ref_bench.states(),
        cmp_bench.states(),
        devices,
        groups,
        s.report_missing,
    )?;
    let decider = Decider {
        settings: s,
        context,
        bench: cmp_bench,
        devices,
        resolve_sidecars,
    };
    // Decisions are independent: they run in parallel, and their results
    // (and warnings, and the first error) are taken in order.
    let mut decided = map_in_parallel(&state_match.matched, 32, |state| {
        decider.decide_state(state)
    });
    let mut state_match = state_match;
    if s.sort_by_change {
        sort_by_change(&mut state_match.matched, &mut decided);
    }
    let records: Option<Vec<&StateRecord>> = decided
        .iter()
        .map(|(record, _)| record.as_ref().ok())
        .collect();
    let table = records
        .filter(|records| records.iter().any(|r| r.displayed))
        .map(|records| table_text(s, axis_names, records));
    Ok(PairWork {
        state_match,
        decided,
        table,
    })
}

/// `--sort change`: largest slowdown first, rows without a change last,
/// ties in input order. Left alone when a decision failed, so that the
/// first failure in input order is the one reported.
pub(super) fn sort_by_change(matched: &mut Vec<MatchedState>, decided: &mut Vec<DecidedState>) {
    let mut pairs: Vec<_> = matched.drain(..).zip(decided.drain(..)).collect();
    sort_decided_by_change(&mut pairs, |(_, (record, _))| record.as_ref().ok());
    (*matched, *decided) = pairs.into_iter().unzip();
}

/// Sorts decided items as `--sort change` says; `record` gives an item's
/// record, `None` when its decision failed (then nothing moves).
pub(crate) fn sort_decided_by_change<T>(
    items: &mut [T],
    record: impl Fn(&T) -> Option<&StateRecord>,
) {
    if items.iter().any(|item| record(item).is_none()) {
        return;
    }
    let change = |item: &T| record(item).and_then(|r| r.comparison.frac_diff);
    // Stable: `None` (no change) sorts last, ties keep their input order.
    items.sort_by(|a, b| match (change(a), change(b)) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (a, b) => b.is_some().cmp(&a.is_some()),
    });
}

/// The table of the displayed records.
pub(super) fn table_text<'r>(
    s: &Settings,
    axis_names: &[String],
    records: impl IntoIterator<Item = &'r StateRecord>,
) -> String {
    let rows: Vec<Row> = records
        .into_iter()
        .filter(|r| r.displayed)
        .map(|r| Row {
            axis_cells: r.axis_values.iter().map(|a| a.display.clone()).collect(),
            comparison: &r.comparison,
        })
        .collect();
    render_table(axis_names, &rows, s.display, s.no_color)
}

/// Decides the matched states of one device pair. Shared by the threads
/// that decide in parallel, so it only reads.
pub(super) struct Decider<'a> {
    settings: &'a Settings,
    context: &'a FileContext<'a>,
    bench: &'a Benchmark,
    devices: (i64, i64),
    /// Resolve sidecar paths for the records (bulk-debug and JSON output).
    resolve_sidecars: bool,
}

impl Decider<'_> {
    /// Formats the axis values, decides, and records one matched state.
    /// The record of one state and the warnings its decision raised.
    fn decide_state(&self, state: &MatchedState) -> DecidedState {
        let warnings = RefCell::new(Vec::new());
        let record = self.record(state, &warnings);
        (record, warnings.into_inner())
    }

    fn record(
        &self,
        state: &MatchedState,
        warnings: &RefCell<Vec<String>>,
    ) -> Result<StateRecord, Failure> {
        let (bench, context) = (self.bench, self.context);
        let axes = bench.axes.as_deref().unwrap_or(&[]);
        if state.compare.axis_values.is_none() {
            // The reference's KeyError, where it reads the row's axis values.
            return Err(Failure::fatal(format!(
                "state {} of benchmark {} has no 'axis_values'",
                crate::pycompat::pyfmt::str_repr(&state.compare.name),
                crate::pycompat::pyfmt::str_repr(&bench.name)
            )));
        }
        let values = state.compare.axis_values();
        // Axis values are formatted before the decision, so their errors win.
        let cells = axis_cells(values, axes)?;
        let decided = self.decide(state, warnings)?;
        let axis_values = axis_entries(values, cells);
        Ok(StateRecord {
            benchmark: bench.name.clone(),
            reference_json: context.ref_path.to_string(),
            compare_json: context.cmp_path.to_string(),
            devices: self.devices,
            device_names: device_names(context, self.devices),
            state_key: state.key.to_string(),
            occurrence: state.occurrence,
            occurrence_count: state.occurrence_count,
            axis_values,
            displayed: self.is_displayed(&decided.comparison),
            comparison: decided.comparison,
            sidecars: decided.sidecars,
            repetitions: None,
        })
    }

    fn is_displayed(&self, comparison: &Comparison) -> bool {
        is_displayed(self.settings, comparison)
    }

    fn decide(
        &self,
        state: &MatchedState,
        warnings: &RefCell<Vec<String>>,
    ) -> Result<Decided, Failure> {
        let context = self.context;
        let missing = decision::missing_summaries_decision(
            presence(state.reference),
            presence(state.compare),
        );
        let extract = |s: &State| match &s.summaries {
            Some(summaries) if s.has_summaries() => {
                extract_timing(summaries, &mut warnings.borrow_mut())
            }
            _ => Ok(Timing::default()),
        };
        // The compare side is read first, so its schema errors win.
        let cmp_timing = extract(state.compare);
        let ref_timing = cmp_timing.as_ref().ok().map(|_| extract(state.reference));
        let cmp_timing = cmp_timing?;
        let ref_timing = ref_timing.unwrap_or_else(|| Ok(Timing::default()))?;
        // Paths are resolved once, here; nothing is read until a decision needs it.
        let ref_bulk = SidecarEvidence::new(&ref_timing, &context.ref_dir, warnings);
        let cmp_bulk = SidecarEvidence::new(&cmp_timing, &context.cmp_dir, warnings);
        let sidecars = if self.resolve_sidecars {
            let [rs, rf] = ref_bulk.paths();
            let [cs, cf] = cmp_bulk.paths();
            [rs, rf, cs, cf]
                .map(|file| file.map(|(path, count)| (path.to_string(), count.to_string())))
        } else {
            Default::default()
        };
        if let Some(decision) = missing {
            return Ok(Decided {
                comparison: decision::unavailable_comparison(decision, &ref_timing, &cmp_timing),
                sidecars,
            });
        }
        let comparison = decision::compare_timings(
            &Side {
                timing: &ref_timing,
                bulk: &ref_bulk,
            },
            &Side {
                timing: &cmp_timing,
                bulk: &cmp_bulk,
            },
            &self.settings.thresholds,
        );
        Ok(Decided {
            comparison,
            sidecars,
        })
    }
}

pub(crate) fn presence(state: &State) -> decision::Presence {
    decision::Presence {
        skipped: state.is_skipped(),
        skip_reason: state
            .skip_reason
            .as_ref()
            .filter(|r| r.truthy())
            .map(|r| r.py_str()),
        has_summaries: state.has_summaries(),
    }
}

/// The device's name, when its section has one.
/// `????` rows are always shown; others when `|%diff| >= threshold`;
/// with `--show`, only rows of the listed statuses.
pub(crate) fn is_displayed(s: &Settings, comparison: &Comparison) -> bool {
    let over_threshold = comparison.status == Status::Unknown
        || comparison.frac_diff.is_some_and(|f| f.abs() >= s.threshold);
    over_threshold
        && s.show
            .as_ref()
            .is_none_or(|show| show.contains(&comparison.status))
}

/// A state's axis values with their table cells, as records keep them.
pub(crate) fn axis_entries(values: &[AxisValue], cells: Vec<String>) -> Vec<AxisEntry> {
    values
        .iter()
        .zip(cells)
        .map(|(value, display)| AxisEntry {
            name: value.name.clone(),
            value_type: value.value_type.clone(),
            value: value.value.clone(),
            display,
        })
        .collect()
}
