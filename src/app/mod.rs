//! One comparison run: load -> match -> decide -> render, in the order the
//! reference prints (per input pair, per benchmark, per device pair).

pub mod repeated;

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;

use serde_json::Value;

use crate::deciding::config::Thresholds;
use crate::deciding::decision::{self, Comparison, Side, Status};
use crate::deciding::report::{AxisEntry, MissingKind, Presence, Report, SidecarFile, StateRecord};
use crate::failure::Failure;
use crate::loading::inputs::{InputPairs, input_pairs, load_pair};
use crate::loading::model::{Benchmark, Device, Root, State};
use crate::loading::sidecar::{SidecarEvidence, Warnings, os_error_text, py_dirname};
use crate::loading::timing::{Timing, extract_timing};
use crate::matching::filters::{AxisFilter, DeviceFilter, FilterPlan, matching_group};
use crate::matching::nothing_compared::Offer;
use crate::matching::{self, MatchedState, StateMatch};
use crate::output::collisions::OutputGuard;
use crate::parallel::{drop_in_background, map_in_parallel};
use crate::printable::{not_a_marker, printable};
use crate::pycompat::jsondiff::symmetric_diff_repr;
use crate::pycompat::pprint::PyValue;
use crate::rendering::axes::axis_cells;
use crate::rendering::bulk_debug::{bulk_debug_row, bulk_debug_script};
use crate::rendering::charts::selection::{ChartSettings, Charts};
use crate::rendering::summary::{render_missing, render_summary};
use crate::rendering::table::{DisplayMode, Row, render_table};
use crate::rendering::{Color, colorize};

/// Everything a comparison run needs, validated.
#[derive(Debug, Clone)]
pub struct Settings {
    pub reference: String,
    pub compare: String,
    /// Repetition mode (`--vs`): every run of each side.
    pub repetitions: Option<crate::loading::runs::Sides>,
    pub threshold: f64,
    pub display: DisplayMode,
    pub no_color: bool,
    pub ignore_devices: bool,
    pub filters: FilterPlan,
    pub reference_devices: DeviceFilter,
    pub compare_devices: DeviceFilter,
    pub thresholds: Thresholds,
    /// `--bulk-debug-python` destination (`stdout`, any case, prints it).
    pub bulk_debug: Option<String>,
    /// List states, benchmarks and files present on one side only (and
    /// pair what can be paired instead of failing on them).
    pub report_missing: bool,
    /// Keep a record of every matched state (for JSON and markdown output).
    pub keep_records: bool,
    /// Print the next steps for each AMBG reason after the summary.
    pub explain_ambg: bool,
    /// `--show`: only rows of these statuses are displayed.
    pub show: Option<Vec<Status>>,
    /// `--sort change`: each table's rows ordered by their change.
    pub sort_by_change: bool,
    /// Stdout carries another document (`--json -`): warnings the reference
    /// prints among the tables go to stderr instead, so none is lost.
    pub notes_to_stderr: bool,
    /// Name of the preset the thresholds are based on.
    pub preset: String,
    pub charts: ChartSettings,
}

/// Where warnings printed among the tables go: with the tables, or to
/// stderr when the tables are not printed (see `notes_to_stderr`).
pub(crate) fn notes<'o>(
    settings: &Settings,
    out: &'o mut dyn Write,
    stderr: &'o mut std::io::Stderr,
) -> &'o mut dyn Write {
    if settings.notes_to_stderr {
        stderr
    } else {
        out
    }
}

/// A decision and the sidecar files both sides advertise.
struct Decided {
    comparison: Comparison,
    sidecars: [SidecarFile; 4],
}

/// The selected devices of one input, or the reference's error.
pub(crate) fn selected_devices<'a>(
    root: &'a Root,
    path: &str,
    filter: &DeviceFilter,
    option: &str,
) -> Result<Vec<&'a Device>, Failure> {
    let devices = root
        .devices
        .as_deref()
        .ok_or_else(|| Failure::fatal(format!("{path}: the file has no 'devices' section")))?;
    matching::select_devices(devices, filter, option)
}

/// State of one whole run: findings and warnings shared by all input pairs.
pub struct Run<'s> {
    settings: &'s Settings,
    pub report: Report,
    warnings: RefCell<Warnings>,
    /// `bulk_rows` entries, when `--bulk-debug-python` is given.
    bulk_rows: Option<Vec<PyValue>>,
    charts: Charts<'s>,
    /// What the inputs offered, when a pair (or the run) compared nothing.
    pub offer: Offer,
    /// The file outputs, which must not name an input.
    pub outputs: OutputGuard,
}

impl<'s> Run<'s> {
    pub fn new(settings: &'s Settings) -> Self {
        Run {
            settings,
            report: Report::default(),
            warnings: RefCell::new(Warnings::default()),
            bulk_rows: settings.bulk_debug.as_ref().map(|_| Vec::new()),
            charts: Charts::new(&settings.charts),
            offer: Offer::default(),
            outputs: OutputGuard::default(),
        }
    }

    /// Compares every input pair and prints the summary.
    pub fn execute(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        let InputPairs {
            pairs,
            only_reference,
            only_compare,
        } = input_pairs(&self.settings.reference, &self.settings.compare)?;
        if pairs.is_empty() {
            self.offer.unpaired_directories = Some((only_reference.clone(), only_compare.clone()));
        }
        for (reference, compare) in &pairs {
            self.outputs.check_input("input file", reference)?;
            self.outputs.check_input("input file", compare)?;
        }
        if self.settings.report_missing {
            self.report.add_missing_files(only_reference, only_compare);
        }
        for (index, (reference, compare)) in pairs.iter().enumerate() {
            let last = index + 1 == pairs.len();
            self.compare_files(reference, compare, last, out)?;
        }
        self.offer.one_sided_states = self
            .report
            .missing
            .iter()
            .filter(|m| matches!(m.kind, MissingKind::State { .. }))
            .count();
        let text = summary_text(self.settings, &self.report);
        out.write_all(text.as_bytes()).map_err(Failure::write)?;
        self.write_bulk_debug(out)
    }

    fn write_bulk_debug(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        write_bulk_debug(self.settings, self.bulk_rows.take(), out)
    }

    fn compare_files(
        &mut self,
        ref_path: &str,
        cmp_path: &str,
        last: bool,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let mut stderr = std::io::stderr();
        let notes = notes(self.settings, out, &mut stderr);
        let (ref_root, cmp_root) = load_pair(ref_path, cmp_path, notes)?;
        self.outputs.check_sidecars(ref_path, &ref_root)?;
        self.outputs.check_sidecars(cmp_path, &cmp_root)?;
        self.charts
            .set_inputs(&[(ref_path, &ref_root), (cmp_path, &cmp_root)]);
        let result = self.compare_roots((ref_path, &ref_root), (cmp_path, &cmp_root), out);
        // Freeing every parsed state takes a noticeable time, and nothing
        // needs to wait for it; the process that is about to exit need not
        // free the last pair at all.
        if last && crate::parallel::exiting_after_run() {
            std::mem::forget((ref_root, cmp_root));
        } else {
            drop_in_background((ref_root, cmp_root));
        }
        result
    }

    fn compare_roots(
        &mut self,
        (ref_path, ref_root): (&str, &Root),
        (cmp_path, cmp_root): (&str, &Root),
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let compared_before = self.report.tally.total;
        let ref_devices = selected_devices(
            ref_root,
            ref_path,
            &s.reference_devices,
            "--reference-devices",
        )?;
        let cmp_devices =
            selected_devices(cmp_root, cmp_path, &s.compare_devices, "--compare-devices")?;
        if ref_devices.len() != cmp_devices.len() {
            return Err(Failure::reported(format!(
                "--reference-devices selected {} device(s), but --compare-devices selected {} device(s)",
                ref_devices.len(),
                cmp_devices.len()
            )));
        }
        // Python list equality: element by element, key order ignored, 1 == 1.0.
        let equal = ref_devices
            .iter()
            .zip(&cmp_devices)
            .all(|(r, c)| r.python_eq(c));
        if !equal {
            let as_list =
                |devices: &[&Device]| Value::Array(devices.iter().map(|d| d.value()).collect());
            let mut stderr = std::io::stderr();
            let notes = notes(s, out, &mut stderr);
            self.report_device_mismatch(&as_list(&ref_devices), &as_list(&cmp_devices), notes)?;
        }
        let (Some(ref_benches), Some(cmp_benches)) = (&ref_root.benchmarks, &cmp_root.benchmarks)
        else {
            let path = if ref_root.benchmarks.is_none() {
                ref_path
            } else {
                cmp_path
            };
            return Err(Failure::fatal(format!(
                "{path}: the file has no 'benchmarks' section"
            )));
        };
        let context = FileContext {
            ref_path,
            cmp_path,
            ref_devices: &ref_devices,
            cmp_devices: &cmp_devices,
            ref_dir: py_dirname(ref_path),
            cmp_dir: py_dirname(cmp_path),
        };
        let mut ref_by_name: HashMap<&str, &Benchmark> = HashMap::new();
        for bench in ref_benches.iter().rev() {
            ref_by_name.insert(&bench.name, bench);
        }
        // Selected compare benchmarks with their reference namesakes.
        let selected: Vec<(&Benchmark, Option<&Benchmark>)> = cmp_benches
            .iter()
            .filter(|c| s.filters.selects_benchmark(&c.name))
            .map(|c| (c, ref_by_name.get(c.name.as_str()).copied()))
            .collect();
        // The side-effect-free work of every compared benchmark runs ahead,
        // on all cores; its output, warnings and errors are applied below,
        // in order.
        let compared: Vec<(&Benchmark, &Benchmark)> = selected
            .iter()
            .filter_map(|(c, r)| r.map(|r| (r, *c)))
            .collect();
        let resolve_sidecars = self.resolve_sidecars();
        let mut prepared = map_in_parallel(&compared, BENCHMARKS_PER_THREAD, |(r, c)| {
            prepare_benchmark(s, &context, (r, c), resolve_sidecars)
        })
        .into_iter();
        for (cmp_bench, ref_bench) in selected {
            match ref_bench {
                Some(ref_bench) => {
                    let work = prepared.next().flatten();
                    self.compare_benchmark(ref_bench, cmp_bench, &context, work, out)?
                }
                None if s.report_missing => {
                    self.report
                        .add_missing_benchmark(Presence::New, cmp_path, &cmp_bench.name)
                }
                None => {}
            }
        }
        if s.report_missing {
            let cmp_names: std::collections::HashSet<&str> =
                cmp_benches.iter().map(|b| b.name.as_str()).collect();
            for ref_bench in ref_benches {
                if !cmp_names.contains(ref_bench.name.as_str())
                    && s.filters.selects_benchmark(&ref_bench.name)
                {
                    self.report
                        .add_missing_benchmark(Presence::Dropped, ref_path, &ref_bench.name);
                }
            }
        }
        // What the inputs offer explains a run that compared nothing, and
        // any -b/-a filter that matched nothing.
        if self.report.tally.total == compared_before || s.filters.is_given() {
            let offer =
                crate::matching::nothing_compared::pair_offer(ref_root, cmp_root, &s.filters);
            self.offer.pairs.push(offer);
        }
        let mut stderr = std::io::stderr();
        let notes = notes(s, out, &mut stderr);
        self.charts
            .finish_input_pair(&s.filters.global_axis_filters, notes)
    }

    /// Records name their sidecar files (bulk-debug and JSON output).
    fn resolve_sidecars(&self) -> bool {
        self.bulk_rows.is_some() || self.settings.keep_records
    }

    fn report_device_mismatch(
        &self,
        reference: &Value,
        compare: &Value,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let color = if s.ignore_devices {
            Color::Yellow
        } else {
            Color::Red
        };
        writeln!(
            out,
            "{}: {}",
            colorize("Device sections do not match", color, None, s.no_color),
            symmetric_diff_repr(reference, compare)
        )
        .map_err(Failure::write)?;
        let filtered = s.reference_devices.is_some() || s.compare_devices.is_some();
        if !s.ignore_devices && !filtered {
            return Err(Failure::AlreadyReported);
        }
        Ok(())
    }

    fn compare_benchmark(
        &mut self,
        ref_bench: &Benchmark,
        cmp_bench: &Benchmark,
        context: &FileContext,
        prepared: Option<Vec<PairWork>>,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let device_pairs = benchmark_device_pairs(s, ref_bench, cmp_bench)?;
        let heading = not_a_marker(format!("# {}", printable(&cmp_bench.name)));
        write!(out, "{heading}\n\n").map_err(Failure::write)?;
        if let Some(bench) = [ref_bench, cmp_bench].iter().find(|b| b.states.is_none()) {
            return Err(Failure::fatal(format!(
                "benchmark {} has no 'states'",
                crate::pycompat::pyfmt::str_repr(&bench.name)
            )));
        }
        let positional = |b: &&&Benchmark| b.states().iter().any(|state| state.positional);
        if let Some(bench) = [ref_bench, cmp_bench].iter().find(positional) {
            return Err(Failure::fatal(format!(
                "benchmark {} has a state that is an array, not an object",
                crate::pycompat::pyfmt::str_repr(&bench.name)
            )));
        }
        let deviceless = |b: &&&Benchmark| {
            let missing = |state: &State| state.device == crate::loading::model::MISSING_DEVICE;
            b.states().iter().any(missing)
        };
        if let Some(bench) = [ref_bench, cmp_bench].iter().find(deviceless) {
            // The reference's KeyError where it filters states by device.
            return Err(Failure::fatal(format!(
                "benchmark {} has a state without a 'device'",
                crate::pycompat::pyfmt::str_repr(&bench.name)
            )));
        }
        let groups = s.filters.axis_filter_groups(&cmp_bench.name);
        let axis_names = axis_names(cmp_bench);
        let mut prepared = prepared.map(Vec::into_iter);
        let resolve_sidecars = self.resolve_sidecars();
        for (pair_index, (ref_id, cmp_id)) in device_pairs.into_iter().enumerate() {
            let work = match prepared.as_mut().and_then(Iterator::next) {
                Some(work) => work,
                None => prepare_pair(
                    s,
                    context,
                    (ref_bench, cmp_bench),
                    (ref_id, cmp_id),
                    (&groups, &axis_names),
                    resolve_sidecars,
                )?,
            };
            let PairWork {
                state_match:
                    StateMatch {
                        matched,
                        only_reference,
                        only_compare,
                    },
                decided,
                table,
            } = work;
            self.report.add_missing_states(
                (&cmp_bench.name, (ref_id, cmp_id)),
                (
                    context.ref_path,
                    only_reference.iter().map(|(k, o)| (k.as_str(), *o)),
                ),
                (
                    context.cmp_path,
                    only_compare.iter().map(|(k, o)| (k.as_str(), *o)),
                ),
            );
            let mut records = Vec::with_capacity(matched.len());
            let mut table_rows = 0;
            for (state, (record, warnings)) in matched.iter().zip(decided) {
                for warning in warnings {
                    self.warnings.borrow_mut().warn(warning);
                }
                let record = record?;
                self.report
                    .tally
                    .record(record.comparison.status, &record.comparison.reason);
                if record.displayed {
                    if let Some(bulk_rows) = &mut self.bulk_rows {
                        bulk_rows.push(bulk_debug_row(bulk_rows.len(), table_rows, &record));
                    }
                    if s.charts.summary {
                        let name =
                            find_device(context.cmp_devices, state.compare.device).map(device_name);
                        let filters = matching_group(state.compare, &groups);
                        self.charts.add_row(&record, filters, name);
                    }
                    table_rows += 1;
                }
                records.push(record);
            }
            if table_rows > 0 {
                let heading = device_heading(context, &cmp_bench.name, ref_id, cmp_id)?;
                let table = table.unwrap_or_else(|| table_text(s, &axis_names, &records));
                write!(out, "{heading}\n\n{table}\n\n").map_err(Failure::write)?;
                // As in the reference, an along chart follows a printed table.
                let cmp_name = find_device(context.cmp_devices, cmp_id)
                    .map(device_name)
                    .unwrap_or_default();
                self.charts
                    .finish_device_pair(&records, (cmp_id, pair_index), &cmp_name)?;
            }
            if s.keep_records {
                self.report.records.extend(records);
            }
        }
        Ok(())
    }
}

/// The text after the tables: NEW/DROPPED, the summary, the next steps.
pub(crate) fn summary_text(s: &Settings, report: &Report) -> String {
    let missing = s.report_missing.then_some(report.missing.as_slice());
    let mut text = missing.map(render_missing).unwrap_or_default();
    text.push_str(&render_summary(
        &report.tally,
        s.display == DisplayMode::Explain,
    ));
    if s.report_missing {
        text.push_str(&crate::rendering::summary::render_missing_counts(report));
    }
    if s.explain_ambg {
        let steps = crate::rendering::advice::render_next_steps(&report.tally);
        if !steps.is_empty() {
            text.push('\n');
            text.push_str(&steps);
        }
    }
    text
}

/// Writes the `--bulk-debug-python` script of the rows, when asked for.
pub(crate) fn write_bulk_debug(
    s: &Settings,
    rows: Option<Vec<PyValue>>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let (Some(destination), Some(rows)) = (&s.bulk_debug, rows) else {
        return Ok(());
    };
    let script = bulk_debug_script(rows);
    if destination.eq_ignore_ascii_case("stdout") {
        return out.write_all(script.as_bytes()).map_err(Failure::write);
    }
    crate::output::atomic::write_file(destination, script.as_bytes()).map_err(|e| {
        Failure::reported(format!(
            "failed to write bulk debug Python output: {}",
            os_error_text(&e, destination)
        ))
    })
}

/// Benchmarks prepared per thread, at least: a few large benchmarks are
/// better served by the parallel decisions and tables inside each.
const BENCHMARKS_PER_THREAD: usize = 4;

/// The record of one matched state, and the warnings its decision raised.
type DecidedState = (Result<StateRecord, Failure>, Vec<String>);

/// The side-effect-free work of one device pair: its state matching, the
/// decisions (with the warnings they raise, not yet printed) and, when
/// every decision succeeded, its table.
struct PairWork<'a> {
    state_match: StateMatch<'a>,
    decided: Vec<DecidedState>,
    table: Option<String>,
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
fn prepare_benchmark<'a>(
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

fn prepare_pair<'a>(
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
fn sort_by_change(matched: &mut Vec<MatchedState>, decided: &mut Vec<DecidedState>) {
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
fn table_text<'r>(
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
struct Decider<'a> {
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
        let axis_values = values
            .iter()
            .zip(cells)
            .map(|(value, display)| AxisEntry {
                name: value.name.clone(),
                value_type: value.value_type.clone(),
                value: value.value.clone(),
                display,
            })
            .collect();
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

/// Per input pair: the selected device sections and the JSON directories.
pub(crate) struct FileContext<'a> {
    pub(crate) ref_path: &'a str,
    pub(crate) cmp_path: &'a str,
    pub(crate) ref_devices: &'a [&'a Device],
    pub(crate) cmp_devices: &'a [&'a Device],
    pub(crate) ref_dir: String,
    pub(crate) cmp_dir: String,
}

/// Python `str()` of a device field (`None` when absent).
fn field_text(value: &Option<crate::loading::scalar::Scalar>) -> String {
    value
        .as_ref()
        .map_or_else(|| "None".to_string(), |v| v.py_str())
}

fn device_name(device: &Device) -> String {
    field_text(&device.name)
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

/// The names of a device pair's reference and compare devices.
pub(crate) fn device_names(
    context: &FileContext,
    (ref_id, cmp_id): (i64, i64),
) -> (Option<String>, Option<String>) {
    (
        find_device(context.ref_devices, ref_id).and_then(named),
        find_device(context.cmp_devices, cmp_id).and_then(named),
    )
}

fn named(device: &Device) -> Option<String> {
    device.name.as_ref().map(|name| name.py_str())
}

fn find_device<'a>(devices: &[&'a Device], id: i64) -> Option<&'a Device> {
    devices.iter().copied().find(|d| d.integer_id() == Some(id))
}

/// `## [id] name`, or `## [rid] rname vs. [cid] cname` when the devices differ.
pub(crate) fn device_heading(
    context: &FileContext,
    bench: &str,
    ref_id: i64,
    cmp_id: i64,
) -> Result<String, Failure> {
    let (Some(ref_device), Some(cmp_device)) = (
        find_device(context.ref_devices, ref_id),
        find_device(context.cmp_devices, cmp_id),
    ) else {
        return Err(Failure::reported(format!(
            "benchmark {} references device pair ref={ref_id} cmp={cmp_id}, but device metadata is missing",
            crate::pycompat::pyfmt::str_repr(bench)
        )));
    };
    let label = |d: &Device| {
        let (id, name) = (field_text(&d.id), field_text(&d.name));
        format!("[{}] {}", printable(&id), printable(&name))
    };
    Ok(if ref_device.python_eq(cmp_device) {
        format!("## {}", label(cmp_device))
    } else {
        format!("## {} vs. {}", label(ref_device), label(cmp_device))
    })
}
