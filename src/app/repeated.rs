//! A repetition-mode run: load every run of a group, match each state
//! across the runs of both sides, decide on the merged evidence, and
//! render the repetition tables, in the order of the usual run (per input
//! group, per benchmark, per device pair).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;

use crate::app::sort_decided_by_change;
use crate::app::{
    FileContext, Settings, axis_entries, axis_names, benchmark_device_pairs, device_heading,
    device_names, is_displayed, notes, presence, report_device_mismatch, selected_devices,
    summary_text, write_bulk_debug,
};
use crate::deciding::repetitions::evidence::{RunFiles, RunState, SideRuns, decide_repeated};
use crate::deciding::report::{Presence, Report, SidecarFile, StateRecord};
use crate::failure::Failure;
use crate::loading::inputs::{check_file_version, parse_root};
use crate::loading::model::{Benchmark, Device, Root};
use crate::loading::runs::{Run, RunGroup, RunGroups, Sides, run_groups};
use crate::loading::sidecar::Warnings;
use crate::matching::filters::{AxisFilter, matches_any_group};
use crate::matching::state_match_key;
use crate::output::collisions::OutputGuard;
use crate::parallel::{drop_in_background, map_in_parallel};
use crate::pycompat::paths::py_dirname;
use crate::pycompat::pprint::PyValue;
use crate::rendering::axes::axis_cells;
use crate::rendering::bulk_debug::run_rows;
use crate::rendering::repetitions::{RepetitionRow, render_repetition_table};

/// State of one repetition-mode run.
pub struct RepeatRun<'s> {
    settings: &'s Settings,
    sides: &'s Sides,
    pub report: Report,
    warnings: Warnings,
    bulk_rows: Option<Vec<PyValue>>,
    /// States that some runs of a side lack (they are merged from the others).
    incomplete_states: usize,
    /// Rows shown in all tables so far.
    displayed_rows: usize,
    /// States only one side has, not compared (listed with `--report-missing`).
    one_sided_states: usize,
    /// The file outputs, which must not name an input.
    pub outputs: OutputGuard,
}

/// One loaded run.
struct LoadedRun {
    run: Run,
    dir: String,
    root: Root,
}

/// A run's instance of a benchmark.
#[derive(Clone, Copy)]
struct BenchRun<'a> {
    run: usize,
    path: &'a str,
    dir: &'a str,
    bench: &'a Benchmark,
}

/// The instances of a state across the runs of both sides.
struct RepeatedState<'a> {
    key: &'a str,
    occurrence: usize,
    occurrence_count: usize,
    reference: Vec<RunState<'a>>,
    compare: Vec<RunState<'a>>,
}

/// A decided state, its warnings, and the files of each of its runs.
type Decided = (
    Result<StateRecord, Failure>,
    Vec<String>,
    [Vec<RunFiles>; 2],
);

impl<'s> RepeatRun<'s> {
    pub fn new(settings: &'s Settings, sides: &'s Sides) -> Self {
        RepeatRun {
            settings,
            sides,
            report: Report::default(),
            warnings: Warnings::default(),
            bulk_rows: settings.bulk_debug.as_ref().map(|_| Vec::new()),
            incomplete_states: 0,
            displayed_rows: 0,
            one_sided_states: 0,
            outputs: OutputGuard::default(),
        }
    }

    /// Compares every group of runs and prints the summary.
    pub fn execute(&mut self, out: &mut dyn Write) -> Result<(), Failure> {
        let RunGroups {
            groups,
            only_reference,
            only_compare,
        } = run_groups(self.sides)?;
        for run in groups
            .iter()
            .flat_map(|g| g.reference.iter().chain(&g.compare))
        {
            self.outputs.check_input("input file", &run.path)?;
        }
        if self.settings.report_missing {
            self.report.add_missing_files(only_reference, only_compare);
        }
        for (index, group) in groups.iter().enumerate() {
            self.compare_group(group, index + 1 == groups.len(), out)?;
        }
        let mut text = String::new();
        if self.incomplete_states > 0 {
            text.push_str(&format!(
                "Note: {} state(s) are missing from some runs and were merged from the runs that have them (see Reps).\n\n",
                self.incomplete_states
            ));
        }
        if self.one_sided_states > 0 {
            text.push_str(&format!(
                "Note: {} state(s) are on one side only and were not compared (--report-missing lists them).\n\n",
                self.one_sided_states
            ));
        }
        text.push_str(&summary_text(self.settings, &self.report));
        out.write_all(text.as_bytes()).map_err(Failure::write)?;
        write_bulk_debug(self.settings, self.bulk_rows.take(), out)
    }

    fn compare_group(
        &mut self,
        group: &RunGroup,
        last: bool,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let mut stderr = std::io::stderr();
        let (reference, compare) = load_group(group, notes(self.settings, out, &mut stderr))?;
        for run in reference.iter().chain(&compare) {
            self.outputs.check_sidecars(&run.run.path, &run.root)?;
        }
        let result = self.compare_loaded(&reference, &compare, out);
        // As for one pair: nothing waits for the parsed runs to be freed.
        if last && crate::parallel::exiting_after_run() {
            std::mem::forget((reference, compare));
        } else {
            drop_in_background((reference, compare));
        }
        result
    }

    fn compare_loaded(
        &mut self,
        reference: &[LoadedRun],
        compare: &[LoadedRun],
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let ref_devices = devices_of(reference, &s.reference_devices, "--reference-devices")?;
        let cmp_devices = devices_of(compare, &s.compare_devices, "--compare-devices")?;
        if ref_devices[0].len() != cmp_devices[0].len() {
            return Err(Failure::reported(format!(
                "--reference-devices selected {} device(s), but --compare-devices selected {} device(s)",
                ref_devices[0].len(),
                cmp_devices[0].len()
            )));
        }
        // Like the pair's device-section differences: with the tables, or
        // on stderr when stdout carries another document.
        let mut stderr = std::io::stderr();
        let notes = notes(s, out, &mut stderr);
        self.check_devices("reference runs", &ref_devices, notes)?;
        self.check_devices("compare runs", &cmp_devices, notes)?;
        let firsts = [ref_devices[0].clone(), cmp_devices[0].clone()];
        self.check_devices("reference and compare", &firsts, notes)?;
        let ref_benches = bench_runs(reference)?;
        let cmp_benches = bench_runs(compare)?;
        let context = FileContext {
            ref_path: &reference[0].run.path,
            cmp_path: &compare[0].run.path,
            ref_devices: &ref_devices[0],
            cmp_devices: &cmp_devices[0],
            ref_dir: reference[0].dir.clone(),
            cmp_dir: compare[0].dir.clone(),
        };
        let cmp_names = benchmark_names(&cmp_benches, s);
        for name in &cmp_names {
            let ref_runs = runs_of(&ref_benches, name);
            let cmp_runs = runs_of(&cmp_benches, name);
            if ref_runs.is_empty() {
                if s.report_missing {
                    self.report
                        .add_missing_benchmark(Presence::New, cmp_runs[0].path, name);
                }
                continue;
            }
            self.compare_benchmark(&ref_runs, &cmp_runs, &context, out)?;
        }
        if s.report_missing {
            for name in benchmark_names(&ref_benches, s) {
                if !cmp_names.contains(&name) {
                    let path = runs_of(&ref_benches, &name)[0].path;
                    self.report
                        .add_missing_benchmark(Presence::Dropped, path, &name);
                }
            }
        }
        Ok(())
    }

    /// Every device list must equal the first (Python list equality), as
    /// the device sections of a pair must; `what` names the lists.
    fn check_devices(
        &self,
        what: &str,
        devices: &[Vec<&Device>],
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let first = &devices[0];
        let Some(other) = devices[1..].iter().find(|other| {
            other.len() != first.len()
                || !first.iter().zip(other.iter()).all(|(a, b)| a.python_eq(b))
        }) else {
            return Ok(());
        };
        let heading = format!("Device sections do not match ({what})");
        report_device_mismatch(self.settings, &heading, (first, other), out)
    }

    fn compare_benchmark(
        &mut self,
        reference: &[BenchRun],
        compare: &[BenchRun],
        context: &FileContext,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let s = self.settings;
        let (ref_bench, cmp_bench) = (reference[0].bench, compare[0].bench);
        let device_pairs = benchmark_device_pairs(s, ref_bench, cmp_bench)?;
        write!(out, "# {}\n\n", cmp_bench.name).map_err(Failure::write)?;
        let groups = s.filters.axis_filter_groups(&cmp_bench.name);
        let axis_names = axis_names(cmp_bench);
        for (ref_id, cmp_id) in device_pairs {
            let ref_states = SideStates::of(reference, ref_id, &groups);
            let cmp_states = SideStates::of(compare, cmp_id, &groups);
            if s.report_missing {
                self.record_missing_states(
                    context,
                    &cmp_bench.name,
                    (ref_id, cmp_id),
                    &ref_states,
                    &cmp_states,
                );
            } else {
                self.one_sided_states += one_sided(&ref_states, &cmp_states);
            }
            let states = repeated_states(ref_states, cmp_states);
            let mut decided = map_in_parallel(&states, 16, |state| {
                self.decide(cmp_bench, context, (ref_id, cmp_id), state)
            });
            if s.sort_by_change {
                sort_decided_by_change(&mut decided, |(record, _, _)| record.as_ref().ok());
            }
            let records = self.apply_decisions(decided)?;
            let rows: Vec<RepetitionRow> = records
                .iter()
                .filter(|r| r.displayed)
                .filter_map(|r| {
                    Some(RepetitionRow {
                        axis_cells: r.axis_values.iter().map(|a| a.display.clone()).collect(),
                        comparison: &r.comparison,
                        stats: r.repetitions.as_ref()?,
                    })
                })
                .collect();
            if !rows.is_empty() {
                let heading = device_heading(context, &cmp_bench.name, ref_id, cmp_id)?;
                let table = render_repetition_table(&axis_names, &rows, s.display, s.no_color);
                write!(out, "{heading}\n\n{table}\n\n").map_err(Failure::write)?;
            }
            if s.keep_records {
                self.report.records.extend(records);
            }
        }
        Ok(())
    }

    /// Warnings, tallies and bulk-debug rows of the decided states, in order.
    fn apply_decisions(&mut self, decided: Vec<Decided>) -> Result<Vec<StateRecord>, Failure> {
        let mut records = Vec::with_capacity(decided.len());
        let mut table_rows = 0;
        for (record, warnings, run_files) in decided {
            for warning in warnings {
                self.warnings.warn(warning);
            }
            let record = record?;
            self.report
                .tally
                .record(record.comparison.status, &record.comparison.reason);
            let stats = record.repetitions.as_ref();
            if stats.is_some_and(|s| s.reference.incomplete() || s.compare.incomplete()) {
                self.incomplete_states += 1;
            }
            if record.displayed {
                if let Some(bulk_rows) = &mut self.bulk_rows {
                    let row = self.displayed_rows;
                    bulk_rows.extend(run_rows(row, table_rows, &record, &run_files));
                }
                self.displayed_rows += 1;
                table_rows += 1;
            }
            records.push(record);
        }
        Ok(records)
    }

    fn record_missing_states<'a>(
        &mut self,
        context: &FileContext,
        bench: &str,
        devices: (i64, i64),
        reference: &SideStates<'a>,
        compare: &SideStates<'a>,
    ) {
        let only_in = |side: &SideStates<'a>, other: &SideStates<'a>| {
            let missing = |id: &&(&'a str, usize)| !other.runs.contains_key(*id);
            side.order
                .iter()
                .filter(missing)
                .copied()
                .collect::<Vec<_>>()
        };
        self.report.add_missing_states(
            (bench, devices),
            (context.ref_path, only_in(reference, compare)),
            (context.cmp_path, only_in(compare, reference)),
        );
    }

    /// Decides one state; shared by the deciding threads, so it only reads.
    fn decide(
        &self,
        bench: &Benchmark,
        context: &FileContext,
        devices: (i64, i64),
        state: &RepeatedState,
    ) -> Decided {
        let warnings = RefCell::new(Vec::new());
        let mut run_files = Default::default();
        let record = self.record(bench, context, devices, state, &warnings, &mut run_files);
        (record, warnings.into_inner(), run_files)
    }

    fn record(
        &self,
        bench: &Benchmark,
        context: &FileContext,
        devices: (i64, i64),
        state: &RepeatedState,
        warnings: &RefCell<Vec<String>>,
        run_files: &mut [Vec<RunFiles>; 2],
    ) -> Result<StateRecord, Failure> {
        let s = self.settings;
        let axes = bench.axes.as_deref().unwrap_or(&[]);
        let values = state.compare[0].state.axis_values();
        // Axis values are formatted before the decision, so their errors win.
        let cells = axis_cells(values, axes)?;
        let decided = decide_repeated(
            SideRuns {
                runs: &state.reference,
                total_runs: self.sides.reference.len(),
            },
            SideRuns {
                runs: &state.compare,
                total_runs: self.sides.compare.len(),
            },
            &s.thresholds,
            presence,
            warnings,
        )?;
        let axis_values = axis_entries(values, cells);
        let resolve = s.bulk_debug.is_some() || s.keep_records;
        let first_files = |side: &[RunFiles]| -> [SidecarFile; 2] {
            side.first()
                .filter(|_| resolve)
                .map(|files| files.sidecars.clone())
                .unwrap_or_default()
        };
        let [rs, rf] = first_files(&decided.run_files[0]);
        let [cs, cf] = first_files(&decided.run_files[1]);
        *run_files = decided.run_files;
        Ok(StateRecord {
            benchmark: bench.name.clone(),
            reference_json: state.reference[0].path.to_string(),
            compare_json: state.compare[0].path.to_string(),
            devices,
            device_names: device_names(context, devices),
            state_key: state.key.to_string(),
            occurrence: state.occurrence,
            occurrence_count: state.occurrence_count,
            axis_values,
            displayed: is_displayed(s, &decided.comparison),
            comparison: decided.comparison,
            sidecars: [rs, rf, cs, cf],
            repetitions: Some(decided.stats),
        })
    }
}

/// The selected devices of every run.
fn devices_of<'a>(
    runs: &'a [LoadedRun],
    filter: &crate::matching::filters::DeviceFilter,
    option: &str,
) -> Result<Vec<Vec<&'a Device>>, Failure> {
    runs.iter()
        .map(|r| selected_devices(&r.root, &r.run.path, filter, option))
        .collect()
}

/// Parses every run of a group (in parallel), then prints the version
/// warnings in order: reference runs first, as for a pair.
fn load_group(
    group: &RunGroup,
    out: &mut dyn Write,
) -> Result<(Vec<LoadedRun>, Vec<LoadedRun>), Failure> {
    let all: Vec<&Run> = group.reference.iter().chain(&group.compare).collect();
    let parsed = map_in_parallel(&all, 1, |run| parse_root(&run.path));
    let mut loaded = Vec::with_capacity(all.len());
    for (run, root) in all.into_iter().zip(parsed) {
        let root = root?;
        check_file_version(&run.path, &root, out)?;
        loaded.push(LoadedRun {
            run: run.clone(),
            dir: py_dirname(&run.path),
            root,
        });
    }
    let compare = loaded.split_off(group.reference.len());
    Ok((loaded, compare))
}

/// The benchmarks of every run, or the error of a file without them.
fn bench_runs(runs: &[LoadedRun]) -> Result<Vec<BenchRun<'_>>, Failure> {
    let mut benches = Vec::new();
    for loaded in runs {
        let Some(list) = &loaded.root.benchmarks else {
            return Err(Failure::fatal(format!(
                "{}: the file has no 'benchmarks' section",
                loaded.run.path
            )));
        };
        benches.extend(list.iter().map(|bench| BenchRun {
            run: loaded.run.index,
            path: &loaded.run.path,
            dir: &loaded.dir,
            bench,
        }));
    }
    Ok(benches)
}

/// Selected benchmark names in order of first appearance over the runs.
fn benchmark_names(benches: &[BenchRun], s: &Settings) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for bench in benches {
        let name = &bench.bench.name;
        if s.filters.selects_benchmark(name) && !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// The first benchmark of this name of each run (as in the reference,
/// where the first of duplicate names wins).
fn runs_of<'a>(benches: &[BenchRun<'a>], name: &str) -> Vec<BenchRun<'a>> {
    let mut runs: Vec<BenchRun> = Vec::new();
    for bench in benches.iter().filter(|b| b.bench.name == name) {
        if !runs.iter().any(|r| r.run == bench.run) {
            runs.push(*bench);
        }
    }
    runs
}

/// The states of one side's runs on one device, by `(key, occurrence)` in
/// order of first appearance.
struct SideStates<'a> {
    order: Vec<(&'a str, usize)>,
    runs: HashMap<(&'a str, usize), Vec<RunState<'a>>>,
    /// The most occurrences of a key in any run.
    counts: HashMap<&'a str, usize>,
}

impl<'a> SideStates<'a> {
    fn of(benches: &[BenchRun<'a>], device: i64, groups: &[Vec<AxisFilter>]) -> Self {
        let mut side = SideStates {
            order: Vec::new(),
            runs: HashMap::new(),
            counts: HashMap::new(),
        };
        for bench in benches {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            let states = bench.bench.states().iter();
            for state in states.filter(|s| s.device == device && matches_any_group(s, groups)) {
                let key = state_match_key(state);
                let occurrence = seen.entry(key).or_insert(0);
                let id = (key, *occurrence);
                *occurrence += 1;
                let instances = side.runs.entry(id).or_insert_with(|| {
                    side.order.push(id);
                    Vec::new()
                });
                instances.push(RunState {
                    run: bench.run,
                    state,
                    path: bench.path,
                    dir: bench.dir,
                });
            }
            for (key, count) in seen {
                let most = side.counts.entry(key).or_insert(0);
                *most = (*most).max(count);
            }
        }
        side
    }
}

/// How many states only one side has.
fn one_sided(reference: &SideStates, compare: &SideStates) -> usize {
    let only = |a: &SideStates, b: &SideStates| {
        a.order.iter().filter(|id| !b.runs.contains_key(id)).count()
    };
    only(reference, compare) + only(compare, reference)
}

/// The states both sides have, in the compare side's order.
fn repeated_states<'a>(
    mut reference: SideStates<'a>,
    mut compare: SideStates<'a>,
) -> Vec<RepeatedState<'a>> {
    let mut states = Vec::new();
    for id in &compare.order {
        let Some(ref_runs) = reference.runs.remove(id) else {
            continue;
        };
        let cmp_runs = compare.runs.remove(id).unwrap_or_default();
        states.push(RepeatedState {
            key: id.0,
            occurrence: id.1,
            occurrence_count: compare.counts.get(id.0).copied().unwrap_or(1),
            reference: ref_runs,
            compare: cmp_runs,
        });
    }
    states
}
