//! One comparison run: load -> match -> decide -> render, in the order the
//! reference prints (per input pair, per benchmark, per device pair).
//!
//! [`Run::execute`] is the pipeline: the input pairs (`input_pairs`), each
//! pair loaded (`compare_files`), its devices and benchmarks matched
//! (`compare_roots`), every compared benchmark matched and decided ahead on
//! all cores (module `prepare`), the results applied and printed in order
//! (`apply_pair`), then the summary (`finish`). Module `sections` knows the
//! device sections, `output` where text goes; [`repeated`] is the same
//! pipeline for repetition mode.

mod output;
mod prepare;
pub mod repeated;
mod sections;

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;

use crate::deciding::config::Thresholds;
use crate::deciding::report::{MissingKind, Presence, Report, StateRecord};
use crate::deciding::status::Status;
use crate::failure::Failure;
use crate::loading::inputs::{InputPairs, input_pairs, load_pair};
use crate::loading::model::{Benchmark, Device, Root, State};
use crate::loading::sidecar::Warnings;
use crate::matching::StateMatch;
use crate::matching::filters::{AxisFilter, DeviceFilter, FilterPlan, matching_group};
use crate::matching::nothing_compared::Offer;
use crate::output::collisions::OutputGuard;
use crate::parallel::{drop_in_background, map_in_parallel};
use crate::pycompat::paths::py_dirname;
use crate::pycompat::pprint::PyValue;
use crate::rendering::bulk_debug::bulk_debug_row;
use crate::rendering::charts::selection::{ChartSettings, Charts};
use crate::rendering::table::DisplayMode;
use crate::text::printable::{not_a_marker, printable};

pub(crate) use output::{notes, summary_text, write_bulk_debug};
use prepare::{BENCHMARKS_PER_THREAD, PairWork, prepare_benchmark, prepare_pair, table_text};
pub(crate) use prepare::{
    axis_entries, axis_names, benchmark_device_pairs, is_displayed, presence,
    sort_decided_by_change,
};
pub(crate) use sections::{FileContext, device_heading, device_names, selected_devices};
use sections::{device_name, find_device, report_device_mismatch};

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
    /// The records of the tables written for this input pair, when no
    /// output keeps them: freed with the parsed pair.
    written_records: Vec<Vec<StateRecord>>,
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
            written_records: Vec::new(),
        }
    }

    /// Compares every input pair (load, match, decide, render each in
    /// turn), then prints the summary.
    pub fn execute(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        let pairs = self.input_pairs()?;
        for (index, (reference, compare)) in pairs.iter().enumerate() {
            let last = index + 1 == pairs.len();
            self.compare_files(reference, compare, last, out)?;
        }
        self.finish(out)
    }

    /// Loading: the file pairs to compare; files of one directory only are
    /// recorded (`--report-missing`) and explain a run without pairs.
    fn input_pairs(&mut self) -> Result<Vec<(String, String)>, Failure> {
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
        Ok(pairs)
    }

    /// Rendering after the tables: NEW/DROPPED, the summary, the next steps
    /// and the bulk-debug script.
    fn finish(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        self.offer.one_sided_states = self
            .report
            .missing
            .iter()
            .filter(|m| matches!(m.kind, MissingKind::State { .. }))
            .count();
        let text = summary_text(self.settings, &self.report);
        out.write_all(text.as_bytes()).map_err(Failure::write)?;
        write_bulk_debug(self.settings, self.bulk_rows.take(), out)
    }

    /// One input pair: load both files, then compare what they hold.
    fn compare_files(
        &mut self,
        ref_path: &str,
        cmp_path: &str,
        last: bool,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let mut stderr = std::io::stderr();
        let (ref_root, cmp_root) =
            load_pair(ref_path, cmp_path, notes(self.settings, out, &mut stderr))?;
        self.outputs.check_sidecars(ref_path, &ref_root)?;
        self.outputs.check_sidecars(cmp_path, &cmp_root)?;
        self.charts
            .set_inputs(&[(ref_path, &ref_root), (cmp_path, &cmp_root)]);
        let result = self.compare_roots((ref_path, &ref_root), (cmp_path, &cmp_root), out);
        // Freeing every parsed state takes a noticeable time, and nothing
        // needs to wait for it; the process that is about to exit need not
        // free the last pair at all.
        let records = std::mem::take(&mut self.written_records);
        if last && crate::parallel::exiting_after_run() {
            std::mem::forget((ref_root, cmp_root, records));
        } else {
            drop_in_background((ref_root, cmp_root, records));
        }
        result
    }

    /// Matching the pair's devices and benchmarks, deciding every compared
    /// benchmark ahead on all cores, then applying the results in order.
    fn compare_roots(
        &mut self,
        (ref_path, ref_root): (&str, &Root),
        (cmp_path, cmp_root): (&str, &Root),
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let compared_before = self.report.tally.total;
        let (ref_devices, cmp_devices) =
            self.match_devices((ref_path, ref_root), (cmp_path, cmp_root), out)?;
        let (ref_benches, cmp_benches) =
            benchmark_lists((ref_path, ref_root), (cmp_path, cmp_root))?;
        let context = FileContext {
            ref_path,
            cmp_path,
            ref_devices: &ref_devices,
            cmp_devices: &cmp_devices,
            ref_dir: py_dirname(ref_path),
            cmp_dir: py_dirname(cmp_path),
        };
        let selected = selected_benchmarks(&s.filters, ref_benches, cmp_benches);
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
            self.record_dropped_benchmarks(ref_path, ref_benches, cmp_benches);
        }
        // What the inputs offer explains a run that compared nothing, and
        // any -b/-a filter that matched nothing.
        if self.report.tally.total == compared_before || s.filters.is_given() {
            let offer =
                crate::matching::nothing_compared::pair_offer(ref_root, cmp_root, &s.filters);
            self.offer.pairs.push(offer);
        }
        let mut stderr = std::io::stderr();
        self.charts
            .finish_input_pair(&s.filters.global_axis_filters, notes(s, out, &mut stderr))
    }

    /// The selected devices of both inputs; device sections that differ are
    /// printed (and stop the run unless `--ignore-devices` or a device filter).
    fn match_devices<'r>(
        &self,
        (ref_path, ref_root): (&str, &'r Root),
        (cmp_path, cmp_root): (&str, &'r Root),
        out: &mut dyn Write,
    ) -> Result<(Vec<&'r Device>, Vec<&'r Device>), Failure> {
        let s = self.settings;
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
            let mut stderr = std::io::stderr();
            let heading = "Device sections do not match";
            let notes = notes(s, out, &mut stderr);
            report_device_mismatch(s, heading, (&ref_devices, &cmp_devices), notes)?;
        }
        Ok((ref_devices, cmp_devices))
    }

    /// Reference benchmarks the compare input lacks, as DROPPED.
    fn record_dropped_benchmarks(
        &mut self,
        ref_path: &str,
        ref_benches: &[Benchmark],
        cmp_benches: &[Benchmark],
    ) {
        let cmp_names: std::collections::HashSet<&str> =
            cmp_benches.iter().map(|b| b.name.as_str()).collect();
        for ref_bench in ref_benches {
            if !cmp_names.contains(ref_bench.name.as_str())
                && self.settings.filters.selects_benchmark(&ref_bench.name)
            {
                self.report
                    .add_missing_benchmark(Presence::Dropped, ref_path, &ref_bench.name);
            }
        }
    }

    /// Records name their sidecar files (bulk-debug and JSON output).
    fn resolve_sidecars(&self) -> bool {
        self.bulk_rows.is_some() || self.settings.keep_records
    }

    /// One benchmark: its heading, then each device pair's prepared work
    /// (or, when preparing ahead failed, the same work done here, so that
    /// its error is reported in order) applied in turn.
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
        check_states(ref_bench, cmp_bench)?;
        let groups = s.filters.axis_filter_groups(&cmp_bench.name);
        let axis_names = axis_names(cmp_bench);
        let mut prepared = prepared.map(Vec::into_iter);
        let resolve_sidecars = self.resolve_sidecars();
        for (pair_index, devices) in device_pairs.into_iter().enumerate() {
            let work = match prepared.as_mut().and_then(Iterator::next) {
                Some(work) => work,
                None => prepare_pair(
                    s,
                    context,
                    (ref_bench, cmp_bench),
                    devices,
                    (&groups, &axis_names),
                    resolve_sidecars,
                )?,
            };
            let pair = DevicePair {
                context,
                bench: cmp_bench,
                devices,
                index: pair_index,
                groups: &groups,
                axis_names: &axis_names,
            };
            self.apply_pair(&pair, work, out)?;
        }
        Ok(())
    }

    /// Applies one device pair's prepared work in order: NEW/DROPPED states,
    /// warnings, tallies, bulk-debug rows and chart rows, then the table.
    fn apply_pair(
        &mut self,
        pair: &DevicePair,
        work: PairWork,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let (context, (ref_id, cmp_id)) = (pair.context, pair.devices);
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
            (&pair.bench.name, pair.devices),
            (context.ref_path, state_keys(&only_reference)),
            (context.cmp_path, state_keys(&only_compare)),
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
                    let filters = matching_group(state.compare, pair.groups);
                    self.charts.add_row(&record, filters, name);
                }
                table_rows += 1;
            }
            records.push(record);
        }
        if table_rows > 0 {
            let heading = device_heading(context, &pair.bench.name, ref_id, cmp_id)?;
            let table = table.unwrap_or_else(|| table_text(s, pair.axis_names, &records));
            write!(out, "{heading}\n\n{table}\n\n").map_err(Failure::write)?;
            // As in the reference, an along chart follows a printed table.
            let cmp_name = find_device(context.cmp_devices, cmp_id)
                .map(device_name)
                .unwrap_or_default();
            self.charts
                .finish_device_pair(&records, (cmp_id, pair.index), &cmp_name)?;
        }
        if s.keep_records {
            self.report.records.extend(records);
        } else {
            // Every record owns a dozen strings: they are freed with the
            // parsed pair, off this thread.
            self.written_records.push(records);
        }
        Ok(())
    }
}

/// `(key, occurrence)` of states on one side only, borrowed.
fn state_keys(items: &[(String, usize)]) -> impl Iterator<Item = (&str, usize)> {
    items
        .iter()
        .map(|(key, occurrence)| (key.as_str(), *occurrence))
}

/// A device pair of a benchmark being applied, with what its rows need.
struct DevicePair<'a> {
    context: &'a FileContext<'a>,
    bench: &'a Benchmark,
    devices: (i64, i64),
    /// Position of the pair in the benchmark (`{pair}` of chart names).
    index: usize,
    groups: &'a [Vec<AxisFilter>],
    axis_names: &'a [String],
}

/// Both inputs' benchmark lists, or the error of the one that has none.
fn benchmark_lists<'r>(
    (ref_path, ref_root): (&str, &'r Root),
    (cmp_path, cmp_root): (&str, &'r Root),
) -> Result<(&'r [Benchmark], &'r [Benchmark]), Failure> {
    match (&ref_root.benchmarks, &cmp_root.benchmarks) {
        (Some(reference), Some(compare)) => Ok((reference, compare)),
        (None, _) => Err(Failure::fatal(format!(
            "{ref_path}: the file has no 'benchmarks' section"
        ))),
        (_, None) => Err(Failure::fatal(format!(
            "{cmp_path}: the file has no 'benchmarks' section"
        ))),
    }
}

/// The compare benchmarks `-b` selects, in order, each with its reference
/// namesake (the last of that name, as a dict built from the list keeps).
fn selected_benchmarks<'r>(
    filters: &FilterPlan,
    ref_benches: &'r [Benchmark],
    cmp_benches: &'r [Benchmark],
) -> Vec<(&'r Benchmark, Option<&'r Benchmark>)> {
    let mut ref_by_name: HashMap<&str, &Benchmark> = HashMap::new();
    for bench in ref_benches.iter().rev() {
        ref_by_name.insert(&bench.name, bench);
    }
    cmp_benches
        .iter()
        .filter(|c| filters.selects_benchmark(&c.name))
        .map(|c| (c, ref_by_name.get(c.name.as_str()).copied()))
        .collect()
}

/// A benchmark's states must be there, be objects and have a device: the
/// reference fails on each of these where it first reads them.
fn check_states(ref_bench: &Benchmark, cmp_bench: &Benchmark) -> Result<(), Failure> {
    let both = [ref_bench, cmp_bench];
    let fail = |bench: &Benchmark, problem: &str| {
        Err(Failure::fatal(format!(
            "benchmark {} {problem}",
            crate::pycompat::pyfmt::str_repr(&bench.name)
        )))
    };
    if let Some(bench) = both.iter().find(|b| b.states.is_none()) {
        return fail(bench, "has no 'states'");
    }
    if let Some(bench) = both
        .iter()
        .find(|b| b.states().iter().any(|state| state.positional))
    {
        return fail(bench, "has a state that is an array, not an object");
    }
    let deviceless = |state: &State| state.device == crate::loading::model::MISSING_DEVICE;
    if let Some(bench) = both.iter().find(|b| b.states().iter().any(deviceless)) {
        // The reference's KeyError where it filters states by device.
        return fail(bench, "has a state without a 'device'");
    }
    Ok(())
}
