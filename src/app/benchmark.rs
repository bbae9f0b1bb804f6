//! The side-effect-free part of comparing a benchmark, run ahead on all
//! cores: its device pairs, state matching over the runs of both sides,
//! decisions (with the warnings they raise, not yet printed) and table
//! text. The run applies the results in order (`super::Run`), so output,
//! warnings and errors appear where a serial run would print them.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::deciding::decision::{self, Comparison, Side};
use crate::deciding::repetitions::RepetitionStats;
use crate::deciding::repetitions::evidence::{
    RunFiles, SideRuns, decide_repeated, run_counts_warning,
};
use crate::deciding::report::{PairNames, RecordAxes, SidecarFile, Sidecars, StateRecord};
use crate::deciding::sidecar_evidence::SidecarEvidence;
use crate::deciding::status::Status;
use crate::failure::Failure;
use crate::loading::model::{Benchmark, State};
use crate::loading::sidecar::Lookup;
use crate::loading::timing::{Timing, extract_timing};
use crate::matching::filters::AxisFilter;
use crate::matching::{self, MatchedState, RunBench, RunsByDevice, StateMatch};
use crate::parallel::map_in_parallel;
use crate::pycompat::paths::py_abspath;
use crate::rendering::axes::{aligned_to_axes, axis_cells};
use crate::rendering::repetitions::{
    RepetitionRow, render_repetition_table, write_repetition_table_in_pieces,
};
use crate::rendering::table::{DisplayMode, Row, render_table, write_table_in_pieces};
use crate::settings::Settings;
use crate::text::path_text::{to_path, to_text};

use super::sections::{FileContext, device_names};

/// Benchmarks prepared per thread, at least: a few large benchmarks are
/// better served by the parallel decisions and tables inside each.
pub(super) const BENCHMARKS_PER_THREAD: usize = 4;

/// A compared benchmark: its instances in the runs of each side.
pub(super) struct BenchPair<'a> {
    pub(super) reference: Vec<RunBench<'a>>,
    pub(super) compare: Vec<RunBench<'a>>,
}

impl<'a> BenchPair<'a> {
    /// The first compare run's instance names the benchmark and its axes.
    pub(super) fn bench(&self) -> &'a Benchmark {
        self.compare[0].bench
    }

    /// The reference and compare runs with their states grouped by device:
    /// made where the benchmark is prepared and dropped after (held for
    /// every benchmark of a large file at once, they would cost about 600
    /// bytes a benchmark).
    pub(super) fn states_by_device(&self) -> [RunsByDevice<'a>; 2] {
        [
            RunsByDevice::of(&self.reference),
            RunsByDevice::of(&self.compare),
        ]
    }

    /// The states of every run, a measure of what comparing it costs.
    pub(super) fn states_to_compare(&self) -> usize {
        self.instances().map(|bench| bench.states().len()).sum()
    }

    /// Every instance, reference runs first.
    fn instances(&self) -> impl Iterator<Item = &'a Benchmark> + '_ {
        self.reference.iter().chain(&self.compare).map(|r| r.bench)
    }
}

/// The record of one matched state, and what only some decisions have.
pub(super) struct DecidedState {
    pub(super) record: Result<StateRecord, Failure>,
    /// Boxed, and only when there is something: 8 bytes a state instead of
    /// 72 on every state of a large comparison.
    extras: Option<Box<DecisionExtras>>,
}

/// The warnings a decision raised, in repetition mode the files of each
/// run (reference, compare), and for a rerun plan of Google Benchmark input
/// the state's run names.
struct DecisionExtras {
    warnings: Vec<String>,
    run_files: [Vec<RunFiles>; 2],
    run_names: Vec<String>,
}

impl DecidedState {
    fn new(
        record: Result<StateRecord, Failure>,
        warnings: Vec<String>,
        run_files: [Vec<RunFiles>; 2],
        run_names: Vec<String>,
    ) -> DecidedState {
        let any = !warnings.is_empty()
            || run_files.iter().any(|files| !files.is_empty())
            || !run_names.is_empty();
        DecidedState {
            record,
            extras: any.then(|| {
                Box::new(DecisionExtras {
                    warnings,
                    run_files,
                    run_names,
                })
            }),
        }
    }

    /// Google Benchmark input with `--rerun-plan`: the state's run names in
    /// every run of both sides, each once.
    pub(super) fn run_names(&self) -> &[String] {
        self.extras.as_ref().map_or(&[], |extras| &extras.run_names)
    }

    /// The warnings, taken to be printed once.
    pub(super) fn take_warnings(&mut self) -> Vec<String> {
        self.extras
            .as_mut()
            .map(|extras| std::mem::take(&mut extras.warnings))
            .unwrap_or_default()
    }

    /// The files of each run (reference, compare): `--vs` only.
    pub(super) fn run_files(&self) -> &[Vec<RunFiles>; 2] {
        const NONE: &[Vec<RunFiles>; 2] = &[Vec::new(), Vec::new()];
        self.extras
            .as_ref()
            .map_or(NONE, |extras| &extras.run_files)
    }
}

/// The side-effect-free work of one device pair: its state matching, the
/// decisions and, when every decision succeeded, its table.
pub(super) struct PairWork {
    /// The `(key, occurrence)` of states of the reference side only.
    pub(super) only_reference: Vec<(String, usize)>,
    /// The `(key, occurrence)` of states of the compare side only.
    pub(super) only_compare: Vec<(String, usize)>,
    pub(super) decided: Vec<DecidedState>,
    /// What the summary chart takes from each decided state's compare
    /// state, when the chart is drawn: the matched states (and their
    /// borrow of the parsed runs) are dropped before the table is made.
    pub(super) chart_keys: Option<Vec<ChartKey>>,
    pub(super) table: Option<String>,
    /// `--vs`: the comparison's warning about its run counts, raised by
    /// every state its runs decide (each one that has a record), after the
    /// state's own warnings: given once, at the first.
    pub(super) run_counts_warning: Option<String>,
}

/// The summary chart's view of a compare state: the axis-filter group it
/// matches and its device id.
#[derive(Clone, Copy)]
pub(super) struct ChartKey {
    pub(super) group: Option<u32>,
    pub(super) device: Option<i64>,
}

impl ChartKey {
    fn of(state: &State, groups: &[Vec<AxisFilter>]) -> ChartKey {
        let group = crate::matching::filters::matching_group_index(state, groups);
        ChartKey {
            group: group.and_then(|g| u32::try_from(g).ok()),
            device: state.device().id(),
        }
    }

    /// The filters of the group the state matched (none when it matched no group).
    pub(super) fn filters<'g>(&self, groups: &'g [Vec<AxisFilter>]) -> &'g [AxisFilter] {
        self.group
            .and_then(|g| groups.get(g as usize))
            .map_or(&[], Vec::as_slice)
    }
}

/// The reference and compare device of each device pair, paired by position.
pub(super) fn benchmark_device_pairs(
    s: &Settings,
    pair: &BenchPair,
) -> Result<Vec<(i64, i64)>, Failure> {
    let cmp_ids = side_device_ids(&pair.compare, &s.compare_devices, "--compare-devices")?;
    let ref_ids = side_device_ids(&pair.reference, &s.reference_devices, "--reference-devices")?;
    if cmp_ids.len() != ref_ids.len() {
        return Err(Failure::reported(format!(
            "benchmark {} has {} reference device(s) but {} compare device(s); nvbench_compare pairs devices by position, so each compared benchmark must contain the same number of devices",
            crate::pycompat::pyfmt::str_repr(&pair.bench().name),
            ref_ids.len(),
            cmp_ids.len()
        )));
    }
    Ok(ref_ids.into_iter().zip(cmp_ids).collect())
}

/// The devices the instances of a benchmark list, in order of first
/// appearance, picked by the device filter.
fn side_device_ids(
    runs: &[RunBench],
    filter: &matching::filters::DeviceFilter,
    option: &str,
) -> Result<Vec<i64>, Failure> {
    let name = &runs[0].bench.name;
    if let [only] = runs {
        return matching::benchmark_device_ids(name, &only.bench.devices, filter, option);
    }
    let mut ids: Vec<i64> = Vec::new();
    let mut seen = HashSet::new();
    for id in runs.iter().flat_map(|r| &r.bench.devices) {
        if seen.insert(*id) {
            ids.push(*id);
        }
    }
    matching::benchmark_device_ids(name, &ids, filter, option)
}

pub(super) fn axis_names(bench: &Benchmark) -> Vec<String> {
    (bench.axes.as_deref().unwrap_or(&[]))
        .iter()
        .map(|a| a.name.clone())
        .collect()
}

/// A benchmark's states must be there, be objects and have a device in
/// every run: the reference fails on each of these where it first reads
/// them.
pub(super) fn check_states(pair: &BenchPair) -> Result<(), Failure> {
    let fail = |bench: &Benchmark, problem: &str| {
        Err(Failure::fatal(format!(
            "benchmark {} {problem}",
            crate::pycompat::pyfmt::str_repr(&bench.name)
        )))
    };
    if let Some(bench) = pair.instances().find(|b| b.states.is_none()) {
        return fail(bench, "has no 'states'");
    }
    let positional = |b: &Benchmark| b.states().iter().any(|state| state.positional());
    if let Some(bench) = pair.instances().find(|b| positional(b)) {
        return fail(bench, "has a state that is an array, not an object");
    }
    let deviceless = |b: &Benchmark| {
        b.states()
            .iter()
            .any(|state| *state.device() == crate::loading::model::StateDevice::Missing)
    };
    if let Some(bench) = pair.instances().find(|b| deviceless(b)) {
        // The reference's KeyError where it filters states by device.
        return fail(bench, "has a state without a 'device'");
    }
    Ok(())
}

/// All device pairs of a benchmark, or `None` when any step fails: the
/// failure is then met again, and reported, where it occurs in order.
pub(super) fn prepare_benchmark<'a>(
    s: &Settings,
    context: &FileContext,
    pair: &BenchPair<'a>,
    resolve_sidecars: bool,
) -> Option<Vec<PairWork>> {
    let device_pairs = benchmark_device_pairs(s, pair).ok()?;
    check_states(pair).ok()?;
    let groups = s.filters.axis_filter_groups(&pair.bench().name);
    let axis_names = axis_names(pair.bench());
    let by_device = pair.states_by_device();
    device_pairs
        .into_iter()
        .map(|devices| {
            prepare_pair(
                s,
                context,
                (pair, &by_device),
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
    (pair, [reference, compare]): (&BenchPair<'a>, &[RunsByDevice<'a>; 2]),
    devices: (i64, i64),
    (groups, axis_names): (&[Vec<AxisFilter>], &[String]),
    resolve_sidecars: bool,
) -> Result<PairWork, Failure> {
    let state_match = matching::match_states(
        &pair.bench().name,
        (reference, compare),
        devices,
        groups,
        s.report_missing,
        s.personality.dialect().axis_value_keys,
    )?;
    let (ref_name, cmp_name) = device_names(context, devices);
    let decider = Decider {
        settings: s,
        context,
        bench: pair.bench(),
        names: SharedNames::new(PairNames {
            benchmark: pair.bench().name.clone(),
            reference_json: String::new(),
            compare_json: String::new(),
            devices,
            device_names: (ref_name, cmp_name),
        }),
        resolve_sidecars,
    };
    let matched = &state_match.matched;
    // Decisions are independent: they run in parallel, and their results
    // (and warnings, and the first error) are taken in order.
    let positions: Vec<usize> = (0..matched.len()).collect();
    let mut decided = map_in_parallel(&positions, 32, |&index| {
        matched.with_state(index, |state| decider.decide_state(state))
    });
    drop(positions);
    let mut chart_keys: Option<Vec<ChartKey>> =
        (s.charts.summary && !s.inputs.layout.joins_candidates()).then(|| {
            (0..matched.len())
                .map(|index| ChartKey::of(matched.compare_state(index), groups))
                .collect()
        });
    if s.sort_by_change {
        sort_by_change(&mut decided, chart_keys.as_mut(), s.display);
    }
    // The matched states are not needed past this point; on huge inputs
    // they would otherwise be held while the table is made.
    let StateMatch {
        matched,
        only_reference,
        only_compare,
    } = state_match;
    drop(matched);
    let records: Option<Vec<&StateRecord>> =
        decided.iter().map(|d| d.record.as_ref().ok()).collect();
    // An N-way table joins every candidate's records later.
    let displayed = |records: &Vec<&StateRecord>| records.iter().filter(|r| r.displayed).count();
    let table = records
        .filter(|records| records.iter().any(|r| r.displayed))
        .filter(|_| !s.inputs.layout.joins_candidates())
        .filter(|records| !written_in_pieces(s, displayed(records)))
        .map(|records| table_text(s, axis_names, records));
    let run_counts_warning = match s.inputs.layout.merges_runs() {
        false => None,
        true => run_counts_warning(
            s.inputs.baseline.paths.len(),
            s.inputs.candidates[context.candidate].paths.len(),
        ),
    };
    Ok(PairWork {
        only_reference,
        only_compare,
        decided,
        chart_keys,
        table,
        run_counts_warning,
    })
}

/// `--sort change`: largest slowdown first, rows without a change last,
/// ties in input order, by the change the table shows: the legacy and
/// simple tables show every row's change of the centers, the others a
/// bound for FAST and SLOW rows only. Left alone when a decision failed,
/// so that the first failure in input order is the one reported.
fn sort_by_change(
    decided: &mut Vec<DecidedState>,
    chart_keys: Option<&mut Vec<ChartKey>>,
    display: DisplayMode,
) {
    if decided.iter().any(|d| d.record.is_err()) {
        return;
    }
    let change = |d: &DecidedState| {
        d.record
            .as_ref()
            .ok()
            .and_then(|r| shown_change(&r.comparison, display))
    };
    let mut order: Vec<usize> = (0..decided.len()).collect();
    // Stable: `None` (no change) sorts last, ties keep their input order.
    order.sort_by(|&a, &b| match (change(&decided[a]), change(&decided[b])) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (a, b) => b.is_some().cmp(&a.is_some()),
    });
    permute(decided, &order);
    if let Some(keys) = chart_keys {
        permute(keys, &order);
    }
}

/// `items` in the order of the positions `order` lists.
fn permute<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut taken: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().filter_map(|&index| taken[index].take()));
}

/// The change a row shows: the centers' change in the legacy and simple
/// tables; the Change column's bound (FAST: the upper, SLOW: the lower)
/// in the others, where only FAST and SLOW rows show one.
fn shown_change(c: &Comparison, display: DisplayMode) -> Option<f64> {
    match display {
        DisplayMode::Legacy | DisplayMode::Simple => c.frac_diff(),
        DisplayMode::Intervals | DisplayMode::Explain => match c.status {
            Status::Fast => c.frac_diff_interval().map(|(_, upper)| upper),
            Status::Slow => c.frac_diff_interval().map(|(lower, _)| lower),
            _ => None,
        },
    }
}

/// The table of the displayed records: the reference's for a pair, the
/// repetition table with `--vs`.
pub(super) fn table_text<'r>(
    s: &Settings,
    axis_names: &[String],
    records: impl IntoIterator<Item = &'r StateRecord>,
) -> String {
    if s.inputs.layout.merges_runs() {
        let rows = repetition_rows(records);
        render_repetition_table(axis_names, &rows, s.display, s.no_color)
    } else {
        let rows = pair_rows(records);
        let separator = s.personality.dialect().interval_separator;
        render_table(axis_names, &rows, (s.display, s.no_color), separator)
    }
}

fn pair_rows<'r>(records: impl IntoIterator<Item = &'r StateRecord>) -> Vec<Row<'r>> {
    let shown = records.into_iter().filter(|r| r.displayed);
    shown
        .map(|r| Row {
            axis_cells: r.axis_values.displays(),
            comparison: &r.comparison,
        })
        .collect()
}

fn repetition_rows<'r>(
    records: impl IntoIterator<Item = &'r StateRecord>,
) -> Vec<RepetitionRow<'r>> {
    let shown = records.into_iter().filter(|r| r.displayed);
    shown
        .filter_map(|r| {
            Some(RepetitionRow {
                axis_cells: r.axis_values.displays(),
                comparison: &r.comparison,
                stats: r.repetitions.as_ref()?,
            })
        })
        .collect()
}

/// States from which a comparison counts as huge: its table is written in
/// pieces, and the runs of a side share their idents.
pub(super) const HUGE_COMPARISON: usize = 50_000;

/// A table of this many rows and more is not made ahead: it is written in
/// pieces when printed, from the records alone, after the matched states
/// are freed (see `write_table_text`). The simple paths make every table
/// whole, ahead.
fn written_in_pieces(s: &Settings, displayed: usize) -> bool {
    !crate::fast_paths::simple_paths()
        && !s.inputs.layout.joins_candidates()
        && displayed >= HUGE_COMPARISON
}

/// Writes the table of `records` to `out`: [`table_text`], or for a huge
/// table the same text in pieces, never held whole.
pub(super) fn write_table_text(
    s: &Settings,
    axis_names: &[String],
    records: &[StateRecord],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let displayed = records.iter().filter(|r| r.displayed).count();
    if !written_in_pieces(s, displayed) {
        return out.write_all(table_text(s, axis_names, records).as_bytes());
    }
    let style = (s.display, s.no_color);
    if s.inputs.layout.merges_runs() {
        let rows = repetition_rows(records);
        write_repetition_table_in_pieces(axis_names, &rows, style, out)
    } else {
        let separator = s.personality.dialect().interval_separator;
        write_table_in_pieces(axis_names, &pair_rows(records), style, separator, out)
    }
}

/// A decision, the sidecar files both sides advertise (the first run's),
/// and the repetition figures (`--vs`).
struct Decided {
    comparison: Comparison,
    sidecars: [SidecarFile; 4],
    stats: Option<RepetitionStats>,
}

/// Decides the matched states of one device pair. Shared by the threads
/// that decide in parallel, so it only reads.
struct Decider<'a> {
    settings: &'a Settings,
    context: &'a FileContext<'a>,
    bench: &'a Benchmark,
    /// Shared by the records of the pair.
    names: SharedNames,
    /// Resolve sidecar paths for the records (bulk-debug and JSON output).
    resolve_sidecars: bool,
}

impl Decider<'_> {
    /// Formats the axis values, decides, and records one matched state.
    fn decide_state(&self, state: &MatchedState) -> DecidedState {
        let warnings = RefCell::new(Vec::new());
        let mut run_files = Default::default();
        let record = self.record(state, &warnings, &mut run_files);
        let run_names = match self.settings.outputs.rerun_plan {
            Some(_) => gbench_run_names(state),
            None => Vec::new(),
        };
        DecidedState::new(record, warnings.into_inner(), run_files, run_names)
    }

    fn record(
        &self,
        state: &MatchedState,
        warnings: &RefCell<Vec<String>>,
        run_files: &mut [Vec<RunFiles>; 2],
    ) -> Result<StateRecord, Failure> {
        let (bench, compare) = (self.bench, state.compare_state());
        let axes = bench.axes.as_deref().unwrap_or(&[]);
        if !compare.has_axis_values_key() {
            // The reference's KeyError, where it reads the row's axis values.
            return Err(Failure::fatal(format!(
                "state {} of benchmark {} has no 'axis_values'",
                crate::pycompat::pyfmt::str_repr(compare.name()),
                crate::pycompat::pyfmt::str_repr(&bench.name)
            )));
        }
        // Axis values are formatted before the decision, so their errors win;
        // a ragged list is checked as written, then lined up with the axes.
        let cells = axis_cells(compare.axis_values(), axes)?;
        let (values, cells) = match aligned_to_axes(compare.axis_values(), axes) {
            None => (compare.shared_axis_values(), cells),
            Some(aligned) => {
                let cells = axis_cells(&aligned, axes)?;
                (aligned, cells)
            }
        };
        let decided = match self.settings.inputs.layout.merges_runs() {
            false => self.decide_pair(state, warnings)?,
            true => self.decide_runs(state, warnings, run_files)?,
        };
        let mut decided = decided;
        decided.comparison.set_utest_p(utest_p(state));
        Ok(StateRecord {
            pair: self
                .names
                .shared(state.reference[0].path(), state.compare[0].path()),
            state_key: state.key.into(),
            occurrence: state.occurrence,
            occurrence_count: state.occurrence_count,
            axis_values: RecordAxes::new(values, cells),
            displayed: is_displayed(self.settings, &decided.comparison),
            comparison: decided.comparison,
            sidecars: Sidecars::new(decided.sidecars),
            repetitions: decided.stats.map(Box::new),
        })
    }

    /// One run a side: the reference's decision.
    fn decide_pair(
        &self,
        state: &MatchedState,
        warnings: &RefCell<Vec<String>>,
    ) -> Result<Decided, Failure> {
        let (reference, compare) = (&state.reference[0], &state.compare[0]);
        let missing = decision::missing_summaries_decision(
            presence(reference.state),
            presence(compare.state),
        );
        let extract = |s: &State| match &s.summaries {
            Some(summaries) if s.has_summaries() => {
                extract_timing(summaries, &mut warnings.borrow_mut())
            }
            _ => Ok(Timing::default()),
        };
        // The compare side is read first, so its schema errors win.
        let cmp_timing = extract(compare.state);
        let ref_timing = cmp_timing.as_ref().ok().map(|_| extract(reference.state));
        let cmp_timing = cmp_timing?;
        let ref_timing = ref_timing.unwrap_or_else(|| Ok(Timing::default()))?;
        // Paths are resolved once, here; nothing is read until a decision needs it.
        let dialect = self.settings.personality.dialect();
        let search = dialect.sidecar_search;
        let ref_place = (reference.dir(), Lookup::of(search, reference.path()));
        let cmp_place = (compare.dir(), Lookup::of(search, compare.path()));
        let ref_bulk = SidecarEvidence::new(&ref_timing, ref_place, warnings);
        let cmp_bulk = SidecarEvidence::new(&cmp_timing, cmp_place, warnings);
        let sidecars = if self.resolve_sidecars {
            let [rs, rf] = ref_bulk.paths();
            let [cs, cf] = cmp_bulk.paths();
            let name = |path: &str| match dialect.absolute_sidecar_names {
                true => to_text(py_abspath(&to_path(path)).as_os_str()),
                false => path.to_string(),
            };
            [rs, rf, cs, cf].map(|file| file.map(|(path, count)| (name(path), count.to_string())))
        } else {
            Default::default()
        };
        let sides = [(&ref_timing, &ref_bulk), (&cmp_timing, &cmp_bulk)]
            .map(|(timing, bulk)| Side { timing, bulk });
        let thresholds = &self.settings.thresholds;
        let mut comparison = match missing {
            Some(decision) => {
                decision::unavailable_comparison(decision, &sides[0], &sides[1], thresholds)
            }
            None => decision::compare_timings(&sides[0], &sides[1], thresholds),
        };
        decision::too_few_repetitions(
            &mut comparison,
            [ref_timing.repetitions, cmp_timing.repetitions],
        );
        Ok(Decided {
            comparison,
            sidecars,
            stats: None,
        })
    }

    /// `--vs`: each side's runs merged (one run a side decides as a pair).
    fn decide_runs(
        &self,
        state: &MatchedState,
        warnings: &RefCell<Vec<String>>,
        run_files: &mut [Vec<RunFiles>; 2],
    ) -> Result<Decided, Failure> {
        let inputs = &self.settings.inputs;
        let decided = decide_repeated(
            SideRuns {
                runs: &state.reference,
                total_runs: inputs.baseline.paths.len(),
            },
            SideRuns {
                runs: &state.compare,
                total_runs: inputs.candidates[self.context.candidate].paths.len(),
            },
            &self.settings.thresholds,
            self.settings.personality.dialect().sidecar_search,
            presence,
            warnings,
            self.resolve_sidecars,
        )?;
        let first_files = |side: &[RunFiles]| -> [SidecarFile; 2] {
            side.first()
                .map(|files| files.sidecars.clone())
                .unwrap_or_default()
        };
        let [rs, rf] = first_files(&decided.run_files[0]);
        let [cs, cf] = first_files(&decided.run_files[1]);
        // Only the bulk-debug entries name every run's files: 1 KB a state
        // with three runs a side, not kept for nothing.
        if self.settings.outputs.bulk_debug.is_some() {
            *run_files = decided.run_files;
        }
        Ok(Decided {
            comparison: decided.comparison,
            sidecars: [rs, rf, cs, cf],
            stats: Some(decided.stats),
        })
    }
}

/// The names records share: one `Arc` per pair of files (nearly always
/// one per device pair), made on first use.
struct SharedNames {
    /// Benchmark and devices, with empty file names.
    template: PairNames,
    made: Mutex<Vec<Arc<PairNames>>>,
}

impl SharedNames {
    fn new(template: PairNames) -> SharedNames {
        SharedNames {
            template,
            made: Mutex::new(Vec::new()),
        }
    }

    fn shared(&self, reference_json: &str, compare_json: &str) -> Arc<PairNames> {
        let mut made = self
            .made
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let same = |names: &&Arc<PairNames>| {
            names.reference_json == reference_json && names.compare_json == compare_json
        };
        if let Some(names) = made.iter().find(same) {
            return Arc::clone(names);
        }
        let t = &self.template;
        let names = Arc::new(PairNames {
            benchmark: t.benchmark.clone(),
            reference_json: reference_json.to_string(),
            compare_json: compare_json.to_string(),
            devices: t.devices,
            device_names: t.device_names.clone(),
        });
        made.push(Arc::clone(&names));
        names
    }
}

/// The U test of the repetitions of both sides (every run's, pooled), when
/// each side has two or more: Google Benchmark input only.
fn utest_p(state: &MatchedState) -> Option<f64> {
    let pool = |runs: &[crate::matching::RunState]| -> Option<Vec<f64>> {
        let mut samples = Vec::new();
        for run in runs {
            samples.extend_from_slice(&run.state.gbench()?.samples);
        }
        Some(samples)
    };
    let (reference, compare) = (pool(&state.reference)?, pool(&state.compare)?);
    if reference.len() < 2 || compare.len() < 2 {
        return None;
    }
    crate::pycompat::scipy_stats::mannwhitneyu_two_sided(&reference, &compare)
}

/// The run names of a Google Benchmark state in every run of both sides,
/// each once (empty for NVBench input).
fn gbench_run_names(state: &MatchedState) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for run in state.reference.iter().chain(&state.compare) {
        if let Some(gbench) = run.state.gbench()
            && !names.contains(&gbench.run_name)
        {
            names.push(gbench.run_name.clone());
        }
    }
    names
}

fn presence(state: &State) -> decision::Presence {
    decision::Presence {
        skipped: state.is_skipped(),
        skip_reason: state.skip_reason().map(|r| r.py_str()),
        has_summaries: state.has_summaries(),
    }
}

/// `????` rows are always shown; others when `|%diff| >= threshold`;
/// with `--show`, only rows of the listed statuses.
/// Where the sidecars of the JSON file `json_path` are looked for.
fn is_displayed(s: &Settings, comparison: &Comparison) -> bool {
    let over_threshold = comparison.status == Status::Unknown
        || comparison
            .frac_diff()
            .is_some_and(|f| f.abs() >= s.threshold);
    over_threshold
        && s.show
            .as_ref()
            .is_none_or(|show| show.contains(&comparison.status))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decisions and the chart keys are put in the same order.
    #[test]
    fn permute_puts_items_in_the_listed_order() {
        let mut items = vec!['a', 'b', 'c', 'd'];
        permute(&mut items, &[2, 0, 3, 1]);
        assert_eq!(items, ['c', 'a', 'd', 'b']);
        let mut empty: Vec<u8> = Vec::new();
        permute(&mut empty, &[]);
        assert!(empty.is_empty());
    }
}
