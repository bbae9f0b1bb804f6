//! The pipeline, the same for every comparison: a baseline side and a
//! candidate side, each one or more runs (a pair is one run a side, `--vs`
//! several; directories give a group of runs per file name).
//!
//! [`run`] is the recipe: check the outputs, find the groups of runs
//! (`loading::runs`), then per group load every run (`group`), match its
//! devices and benchmarks, match and decide every compared benchmark ahead
//! on all cores (`benchmark`), apply the results in order (tables, tallies,
//! records, charts), and at the end print the summary and write the
//! documents and gate (`tail`). The layout (pair or repetitions) chooses
//! only what is printed differently: the table, the bulk-debug entries and
//! the merged decision behind them.

mod benchmark;
mod compare_py;
mod group;
pub mod legacy;
mod nway;
mod rerun;
mod script_walk;
mod sections;
mod tail;

use std::io::Write;

use crate::deciding::report::{MissingKind, Presence, Report, StateRecord};
use crate::failure::Failure;
use crate::loading::runs::{FileOrder, Mixed, RunGroup, RunGroups, SideArgs, run_groups_in};
use crate::loading::sidecar::Warnings;
use crate::matching::filters::AxisFilter;
use crate::matching::nothing_compared::{Offer, pair_offer};
use crate::output::{Console, Outputs};
use crate::parallel::{drop_in_background, map_in_parallel_largest_first};
use crate::pycompat::pprint::PyValue;
use crate::rendering::bulk_debug::{bulk_debug_row, run_rows};
use crate::rendering::charts::selection::{ChartEvent, Charts};
use crate::settings::{Layout, Settings};
use crate::text::printable::{not_a_marker, printable};

use benchmark::{
    BENCHMARKS_PER_THREAD, BenchPair, PairWork, axis_names, benchmark_device_pairs, check_states,
    prepare_benchmark, prepare_pair, write_table_text,
};
use group::{BenchesByName, LoadedRun, bench_runs, load_group, match_devices, side_benchmarks};
use sections::{DevicesById, FileContext, device_heading, device_name};
pub use tail::report_failure;

/// Runs a comparison, printing on `stdout`; gives the exit status.
pub fn run(settings: &Settings, stdout: &mut dyn Write) -> u8 {
    let mut console = Console::new(stdout, settings);
    match compare(settings, &mut console) {
        Ok(code) => code,
        Err(failure) => report_failure(failure, console.notes()),
    }
}

fn compare(s: &Settings, console: &mut Console) -> Result<u8, Failure> {
    if let Some(options) = s.compare_py {
        return compare_py::run(s, options, console);
    }
    let mut outputs = Outputs::new(s)?;
    let groups = groups_of_runs(s)?;
    let paths = &s.inputs;
    if groups.groups.is_empty()
        && paths.layout == Layout::Pair
        && s.personality.dialect().no_common_files_is_an_error
    {
        return Err(Failure::reported(format!(
            "No non-empty matching JSON files found in {} and {}",
            crate::pycompat::pyfmt::str_repr(paths.baseline.first()),
            crate::pycompat::pyfmt::str_repr(paths.candidates[0].first())
        )));
    }
    for path in groups.paths() {
        outputs.check_input(path)?;
    }
    let mut run = Run::new(s, outputs);
    run.record_unpaired_files(&groups);
    for (index, group) in groups.groups.iter().enumerate() {
        let last = index + 1 == groups.groups.len();
        if groups.groups.len() > 1 {
            // Directory mode: the tables do not name their files (the
            // reference's bytes), and every CUB benchmark is called `base`.
            console.flush();
            crate::messages::note(format_args!(
                "the tables below compare {}",
                group.describe()
            ));
        }
        run.compare_group(group, last, console)?;
    }
    run.print_summary(console)?;
    let status = tail::finish(
        s,
        &run.reports,
        (&run.offer, &run.notes),
        (&run.outputs, run.rerun.as_ref()),
        console,
    );
    // The records kept for the documents (and every N-way record) take a
    // noticeable time to free; the process about to exit need not.
    if crate::parallel::exiting_after_run() {
        std::mem::forget(run);
    }
    status
}

/// The files compared together. Two paths are paired as the reference
/// pairs them (two directories by file name, anything else as files).
fn groups_of_runs(s: &Settings) -> Result<RunGroups, Failure> {
    let sides: Vec<SideArgs> = s
        .inputs
        .sides()
        .map(|side| SideArgs {
            name: side.name,
            paths: &side.paths,
        })
        .collect();
    let mixed = match s.inputs.layout.merges_runs() {
        false => Mixed::AsFiles,
        true => Mixed::Refused,
    };
    let order = match s.personality.dialect().files_in_listed_order {
        true => FileOrder::Listed,
        false => FileOrder::Sorted,
    };
    run_groups_in(&sides, mixed, order)
}

/// State of one whole run: findings and warnings shared by all groups.
struct Run<'s> {
    settings: &'s Settings,
    /// One report a candidate (a pair and `--vs` have one).
    reports: Vec<Report>,
    /// The candidate being compared.
    current: usize,
    /// N-way: the tables of the group being compared, every candidate's,
    /// joined and printed once the group is decided.
    collected: Vec<nway::Collected>,
    warnings: Warnings,
    /// `bulk_rows` entries, when `--bulk-debug-python` is given.
    bulk_rows: Option<Vec<PyValue>>,
    /// Rows shown in all tables so far.
    displayed_rows: usize,
    charts: Charts<'s>,
    notes: tail::Notes,
    /// What the inputs offered, when a group (or the run) compared nothing.
    offer: Offer,
    outputs: Outputs,
    /// The records of the tables written for this group, when no output
    /// keeps them: freed with the parsed runs.
    written_records: Vec<Vec<StateRecord>>,
    /// `--rerun-plan`: the chosen states so far.
    rerun: Option<rerun::RerunCollector>,
    /// Directory mode: the file name of the group being compared.
    group_file: Option<String>,
}

/// A group's runs, their benchmarks, and what names the comparison.
struct Loaded<'a> {
    context: FileContext<'a>,
    reference: Vec<Vec<crate::matching::RunBench<'a>>>,
    compare: Vec<Vec<crate::matching::RunBench<'a>>>,
}

/// A device pair of a benchmark being applied, with what its rows need.
struct DevicePair<'a> {
    context: &'a FileContext<'a>,
    bench: &'a crate::loading::model::Benchmark,
    devices: (i64, i64),
    /// Position of the pair in the benchmark (`{pair}` of chart names).
    index: usize,
    groups: &'a [Vec<AxisFilter>],
    axis_names: &'a [String],
}

impl<'s> Run<'s> {
    fn new(settings: &'s Settings, outputs: Outputs) -> Self {
        Run {
            settings,
            reports: settings
                .inputs
                .candidates
                .iter()
                .map(|_| Report::default())
                .collect(),
            current: 0,
            collected: Vec::new(),
            warnings: Warnings::default(),
            bulk_rows: settings.outputs.bulk_debug.as_ref().map(|_| Vec::new()),
            displayed_rows: 0,
            charts: Charts::new(&settings.charts),
            notes: tail::Notes::default(),
            offer: Offer::default(),
            outputs,
            written_records: Vec::new(),
            rerun: rerun::RerunCollector::new(settings),
            group_file: None,
        }
    }

    /// Files of one side only (directory mode) are listed with
    /// `--report-missing`, and explain a run without groups.
    fn record_unpaired_files(&mut self, groups: &RunGroups) {
        let (only_reference, only_compare) = (&groups.only_reference, &groups.only_compare);
        self.notes.one_sided_files = only_reference.iter().chain(only_compare).cloned().collect();
        if groups.groups.is_empty() {
            self.offer.unpaired_directories = Some((only_reference.clone(), only_compare.clone()));
        }
        if self.settings.report_missing {
            self.report()
                .add_missing_files(only_reference.clone(), only_compare.clone());
            for (candidate, path) in &groups.lacking {
                self.reports[*candidate].add_missing_files(vec![path.clone()], Vec::new());
            }
        }
        let lacking = groups.lacking.iter().map(|(_, path)| path.clone());
        self.notes.one_sided_files.extend(lacking);
    }

    /// The report of the candidate being compared.
    fn report(&mut self) -> &mut Report {
        &mut self.reports[self.current]
    }

    /// States compared so far, over every candidate.
    fn compared(&self) -> usize {
        self.reports.iter().map(|r| r.tally.total).sum()
    }

    /// After the tables: NEW/DROPPED, the summary, the next steps and the
    /// bulk-debug script.
    fn print_summary(&mut self, console: &mut Console) -> Result<(), Failure> {
        self.offer.one_sided_states = self
            .reports
            .iter()
            .flat_map(|r| &r.missing)
            .filter(|m| matches!(m.kind, MissingKind::State { .. }))
            .count();
        let text = tail::summary_text(self.settings, &self.reports, &self.notes);
        console
            .tables()
            .write_all(text.as_bytes())
            .map_err(Failure::write)?;
        let rows = self.bulk_rows.take();
        tail::write_bulk_debug(self.settings, &self.outputs, rows, console)
    }

    /// One group: load every run, then compare what they hold.
    fn compare_group(
        &mut self,
        group: &RunGroup,
        last: bool,
        console: &mut Console,
    ) -> Result<(), Failure> {
        self.group_file = group.file_name.clone();
        let sides = load_group(group, self.settings, console.notes())?;
        for run in sides.iter().flatten() {
            self.outputs.check_sidecars(&run.run.path, &run.root)?;
        }
        #[cfg(feature = "bench-hooks")]
        bench_hooks_after_loading();
        let result = self.compare_loaded(&sides, console);
        // Freeing every parsed state takes a noticeable time, and nothing
        // needs to wait for it; the process that is about to exit need not
        // free the last group at all.
        let records = std::mem::take(&mut self.written_records);
        if last && crate::parallel::exiting_after_run() {
            std::mem::forget((sides, records));
        } else {
            drop_in_background((sides, records));
        }
        result
    }

    /// Matching the group's devices and benchmarks, deciding every compared
    /// benchmark ahead on all cores, then applying the results in order;
    /// candidate by candidate, each against the baseline.
    fn compare_loaded(
        &mut self,
        sides: &[Vec<LoadedRun>],
        console: &mut Console,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let compared_before = self.compared();
        // N-way in directories: a candidate without the file sits out.
        for candidate in (1..sides.len()).filter(|c| !sides[*c].is_empty()) {
            self.current = candidate - 1;
            let (baseline, compare) = (&sides[0], &sides[candidate]);
            let [ref_devices, cmp_devices] =
                match_devices(s, (baseline, compare), self.current, console.notes())?;
            let loaded = Loaded {
                context: FileContext {
                    ref_path: &baseline[0].run.path,
                    cmp_path: &compare[0].run.path,
                    ref_devices: DevicesById::new(&ref_devices),
                    cmp_devices: DevicesById::new(&cmp_devices),
                    candidate: self.current,
                },
                reference: bench_runs(baseline)?,
                compare: bench_runs(compare)?,
            };
            self.compare_benchmarks(&loaded, console)?;
        }
        if s.inputs.layout.joins_candidates() {
            let collected = std::mem::take(&mut self.collected);
            let events = nway::write_group_tables(
                s,
                &self.reports,
                &collected,
                &mut self.charts,
                console.tables(),
            )?;
            self.handle_chart_events(events, console)?;
        }
        // What the inputs offer explains a run that compared nothing, and
        // any -b/-a filter that matched nothing.
        let first_candidate = sides[1..].iter().find_map(|runs| runs.first());
        let Some(first_candidate) = first_candidate else {
            return Ok(());
        };
        if self.compared() == compared_before || s.filters.is_given() {
            let offer = pair_offer(&sides[0][0].root, &first_candidate.root, &s.filters);
            self.offer.pairs.push(offer);
        }
        let events = self
            .charts
            .finish_input_pair(&s.filters.global_axis_filters)?;
        self.handle_chart_events(events, console)
    }

    /// Every selected compare benchmark with its reference namesake,
    /// decided ahead in parallel and applied in order; benchmarks of one
    /// side only are NEW or DROPPED.
    fn compare_benchmarks(
        &mut self,
        loaded: &Loaded,
        console: &mut Console,
    ) -> Result<(), Failure> {
        let s = self.settings;
        // A run's instances of a benchmark merge in repetition mode (a
        // rerun plan names a benchmark once per product of states); a pair
        // takes them as the reference does.
        let merge = s.inputs.layout.merges_runs();
        let reference = BenchesByName::new(&loaded.reference, merge);
        let compare_benches = side_benchmarks(&loaded.compare, &s.filters, merge);
        let pairs: Vec<Option<BenchPair>> = compare_benches
            .iter()
            .map(|bench| {
                let instances = reference.instances(bench.name);
                (!instances.is_empty()).then(|| BenchPair {
                    reference: instances,
                    compare: bench.runs.clone(),
                })
            })
            .collect();
        let compared: Vec<&BenchPair> = pairs.iter().flatten().collect();
        let resolve_sidecars = s.resolve_sidecars();
        let context = &loaded.context;
        let mut prepared = map_in_parallel_largest_first(
            &compared,
            BENCHMARKS_PER_THREAD,
            |pair| pair.states_to_compare(),
            |pair| prepare_benchmark(s, context, pair, resolve_sidecars),
        )
        .into_iter();
        for (bench, pair) in compare_benches.iter().zip(&pairs) {
            match pair {
                Some(pair) => {
                    let work = prepared.next().flatten();
                    self.compare_benchmark(pair, context, work, console)?
                }
                None if s.report_missing => {
                    self.report()
                        .add_missing_benchmark(Presence::New, bench.path(), bench.name)
                }
                None => {}
            }
        }
        if s.report_missing {
            let compare = BenchesByName::new(&loaded.compare, merge);
            for bench in side_benchmarks(&loaded.reference, &s.filters, merge) {
                if !compare.contains(bench.name) {
                    self.report().add_missing_benchmark(
                        Presence::Dropped,
                        bench.path(),
                        bench.name,
                    );
                }
            }
        }
        Ok(())
    }

    /// One benchmark: its heading, then each device pair's prepared work
    /// (or, when preparing ahead failed, the same work done here, so that
    /// its error is reported in order) applied in turn.
    fn compare_benchmark<'a>(
        &mut self,
        pair: &BenchPair<'a>,
        context: &FileContext,
        prepared: Option<Vec<PairWork>>,
        console: &mut Console,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let bench = pair.bench();
        let device_pairs = benchmark_device_pairs(s, pair)?;
        // An N-way table is printed once every candidate is decided.
        if !s.inputs.layout.joins_candidates() {
            let heading = not_a_marker(format!("# {}", printable(&bench.name)));
            write!(console.tables(), "{heading}\n\n").map_err(Failure::write)?;
        }
        check_states(pair)?;
        let groups = s.filters.axis_filter_groups(&bench.name);
        let axis_names = axis_names(bench);
        let mut prepared = prepared.map(Vec::into_iter);
        let resolve_sidecars = s.resolve_sidecars();
        // Only when preparing ahead failed: the pairs are prepared here.
        let mut by_device = None;
        for (pair_index, devices) in device_pairs.into_iter().enumerate() {
            let work = match prepared.as_mut().and_then(Iterator::next) {
                Some(work) => work,
                None => prepare_pair(
                    s,
                    context,
                    (
                        pair,
                        by_device.get_or_insert_with(|| pair.states_by_device()),
                    ),
                    devices,
                    (&groups, &axis_names),
                    resolve_sidecars,
                )?,
            };
            let device_pair = DevicePair {
                context,
                bench,
                devices,
                index: pair_index,
                groups: &groups,
                axis_names: &axis_names,
            };
            self.apply_pair(&device_pair, work, console)?;
        }
        Ok(())
    }

    /// Applies one device pair's prepared work in order: NEW/DROPPED states,
    /// warnings, tallies, bulk-debug rows and chart rows, then the table.
    fn apply_pair(
        &mut self,
        pair: &DevicePair,
        work: PairWork,
        console: &mut Console,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let (context, (ref_id, cmp_id)) = (pair.context, pair.devices);
        let PairWork {
            only_reference,
            only_compare,
            decided,
            chart_keys,
            table,
            mut run_counts_warning,
        } = work;
        self.report().add_missing_states(
            (&pair.bench.name, pair.devices),
            (context.ref_path, state_keys(&only_reference)),
            (context.cmp_path, state_keys(&only_compare)),
        );
        let mut decided = decided;
        let mut table_rows = 0;
        for index in 0..decided.len() {
            for warning in decided[index].take_warnings() {
                self.warnings.warn(warning);
            }
            let (record, run_files) = (&decided[index].record, decided[index].run_files());
            let Ok(record) = record else {
                return decided.swap_remove(index).record.map(drop);
            };
            if let Some(warning) = run_counts_warning.take() {
                self.warnings.warn(warning);
            }
            self.report()
                .tally
                .record(record.comparison.status, &record.comparison.reason);
            if let Some(rerun) = self.rerun.as_mut() {
                let file = self.group_file.as_deref();
                rerun.add(file, pair.bench, record, decided[index].run_names());
            }
            let incomplete = record.repetitions.as_ref();
            if incomplete.is_some_and(|r| r.reference.incomplete() || r.compare.incomplete()) {
                self.notes.incomplete_states += 1;
            }
            if record.displayed {
                self.add_bulk_rows(record, table_rows, run_files);
                if let Some(key) = chart_keys.as_ref().map(|keys| keys[index]) {
                    let name = key
                        .device
                        .and_then(|id| context.cmp_devices.get(id))
                        .map(device_name);
                    self.charts.add_row(record, key.filters(pair.groups), name);
                }
                self.displayed_rows += 1;
                table_rows += 1;
            }
        }
        // Every decision succeeded. Collected in place: the records take
        // over the decided states' memory, which matters on huge inputs.
        let records: Vec<StateRecord> = decided.into_iter().filter_map(|d| d.record.ok()).collect();
        if s.inputs.layout.joins_candidates() {
            let records_before = self.reports[self.current].records.len();
            self.collected.push(nway::Collected {
                candidate: self.current,
                bench: pair.bench.name.clone(),
                pair: pair.index,
                axis_names: pair.axis_names.to_vec(),
                records: records_before..records_before + records.len(),
            });
            append(&mut self.report().records, records);
            return Ok(());
        }
        if table_rows > 0 {
            let heading = device_heading(context, &pair.bench.name, ref_id, cmp_id)?;
            let out = console.tables();
            write!(out, "{heading}\n\n").map_err(Failure::write)?;
            match table {
                Some(text) => out.write_all(text.as_bytes()),
                None => write_table_text(s, pair.axis_names, &records, out),
            }
            .map_err(Failure::write)?;
            out.write_all(b"\n\n").map_err(Failure::write)?;
            // As in the reference, an along chart follows a printed table.
            let cmp_name = context
                .cmp_devices
                .get(cmp_id)
                .map(device_name)
                .unwrap_or_default();
            let events =
                self.charts
                    .finish_device_pair(&records, (cmp_id, pair.index), &cmp_name)?;
            self.handle_chart_events(events, console)?;
        }
        if s.keep_records() {
            append(&mut self.report().records, records);
        } else {
            // Every record owns a dozen strings: they are freed with the
            // parsed runs, off this thread.
            self.written_records.push(records);
        }
        Ok(())
    }

    /// The `bulk_rows` entries of a displayed row: one for a pair, one per
    /// run with `--vs`.
    fn add_bulk_rows(
        &mut self,
        record: &StateRecord,
        table_row: usize,
        run_files: &[Vec<crate::deciding::repetitions::evidence::RunFiles>; 2],
    ) {
        let Some(bulk_rows) = &mut self.bulk_rows else {
            return;
        };
        let row = self.displayed_rows;
        match self.settings.inputs.layout {
            Layout::Pair => bulk_rows.push(bulk_debug_row(row, table_row, record)),
            Layout::Repetitions => bulk_rows.extend(run_rows(row, table_row, record, run_files)),
            Layout::NWay => {
                // Entries keyed by candidate and run.
                let label = &self.settings.inputs.candidates[self.current].label;
                for mut entry in run_rows(row, table_row, record, run_files) {
                    if let PyValue::Dict(fields) = &mut entry {
                        fields.push(("candidate".into(), PyValue::Str(label.clone())));
                    }
                    bulk_rows.push(entry);
                }
            }
        }
    }

    /// Prints the charts' lines and hands their files to the output owner.
    fn handle_chart_events(
        &self,
        events: Vec<ChartEvent>,
        console: &mut Console,
    ) -> Result<(), Failure> {
        for event in events {
            let (line, stdout) = match event {
                ChartEvent::Message { text, stdout } => (text, stdout),
                ChartEvent::File { file, stdout } => {
                    let failed = file.failed;
                    let name = (file.option, file.path.as_str());
                    let fail = |why| format!("{failed}: {why}");
                    self.outputs.write_chart(name, &file.bytes, fail, console)?;
                    (file.saved, stdout)
                }
            };
            if stdout {
                writeln!(console.notes(), "{line}").map_err(Failure::write)?;
            } else {
                console.flush();
                crate::messages::verbatim(&line);
            }
        }
        Ok(())
    }
}

/// `(key, occurrence)` of states on one side only, borrowed.
/// `records` after `into`, moved rather than copied into an empty list.
fn append(into: &mut Vec<StateRecord>, records: Vec<StateRecord>) {
    if into.is_empty() {
        *into = records;
    } else {
        into.extend(records);
    }
}

fn state_keys(items: &[(String, usize)]) -> impl Iterator<Item = (&str, usize)> {
    items
        .iter()
        .map(|(key, occurrence)| (key.as_str(), *occurrence))
}

/// Measurement hooks (the `bench-hooks` feature, off by default): with
/// `NVBENCH_COMPARE_RSS_AFTER_LOAD` set, the resident memory once every run
/// of the group is loaded goes to stderr (what the runs hold, apart from
/// what comparing them adds); with `NVBENCH_COMPARE_STOP_AFTER_PARSE` set,
/// the process exits there.
#[cfg(feature = "bench-hooks")]
fn bench_hooks_after_loading() {
    if std::env::var_os("NVBENCH_COMPARE_RSS_AFTER_LOAD").is_some() {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        for line in status.lines().filter(|l| l.starts_with("Rss")) {
            crate::messages::note(format_args!("bench-hooks: after loading: {line}"));
        }
    }
    if std::env::var_os("NVBENCH_COMPARE_STOP_AFTER_PARSE").is_some() {
        std::process::exit(0);
    }
}
