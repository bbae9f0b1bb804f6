//! One group of runs (the files compared together): loading every run,
//! the device sections each side's runs must share, and the benchmarks to
//! compare with their instances in each run.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use crate::failure::Failure;
use crate::loading::anchor::{AxisAnchor, Role};
use crate::loading::gbench::mapping::map_file;
use crate::loading::gbench::{Format, check_schema_version, context_warnings};
use crate::loading::inputs::{Parsed, check_file_version, parse_input};
use crate::loading::model::{Device, Root};
use crate::loading::runs::{Run, RunGroup, identical_runs};
use crate::loading::script_root::read_root;
use crate::matching::filters::{DeviceFilter, FilterPlan};
use crate::matching::{RunBench, RunInfo};
use crate::parallel::map_in_parallel;
use crate::personality::ReadErrors;
use crate::pycompat::paths::py_dirname;
use crate::settings::{Layout, Settings};
use crate::text::printable::printable;

use super::sections::{field_text, report_device_mismatch, selected_devices};

/// One loaded run.
pub(super) struct LoadedRun {
    pub(super) run: Run,
    /// What the run's benchmarks and states point to.
    pub(super) info: RunInfo,
    pub(super) root: Root,
}

/// Parses every run of a group (at the same time where there are cores to
/// spare), then prints the version warnings in order: baseline runs first.
/// A Google Benchmark file is mapped into the model; all runs of a
/// comparison must have one format.
pub(super) fn load_group(
    group: &RunGroup,
    s: &Settings,
    out: &mut dyn Write,
) -> Result<Vec<Vec<LoadedRun>>, Failure> {
    let all: Vec<&Run> = group.sides.iter().flatten().collect();
    let parsed = parse_all(&all, s.format);
    warn_of_identical_runs(group, out);
    check_one_format(&all, &parsed)?;
    let mut loaded = Vec::with_capacity(all.len());
    let mut library_versions: Vec<(String, String)> = Vec::new();
    let script_reading = s.personality.dialect().read_errors == ReadErrors::Script;
    // A file the model refused but the script reads: the script goes on
    // with the next file, and fails later on.
    let mut unmodelled: Option<Failure> = None;
    for (run, parsed) in all.into_iter().zip(parsed) {
        let parsed = match parsed {
            Err(failure) if script_reading => {
                read_root(&run.path, out)?;
                unmodelled.get_or_insert(failure);
                continue;
            }
            parsed => parsed?,
        };
        let root = match parsed {
            Parsed::NvBench(root) => {
                check_nvbench_root(&run.path, &root, script_reading, out)?;
                root
            }
            Parsed::Gbench(file) => {
                check_schema_version(&run.path, &file)?;
                let mapped = map_file(&run.path, &file, s.metric)?;
                let mut lines: Vec<String> = context_warnings(&run.path, &file)
                    .into_iter()
                    .map(|w| format!("warning: {w}"))
                    .collect();
                lines.extend(mapped.notes.iter().map(|n| format!("note: {n}")));
                if let Some(version) = file.context_text("library_version") {
                    library_versions.push((run.path.clone(), version));
                }
                print_stderr(out, &lines);
                mapped.root
            }
        };
        loaded.push(LoadedRun {
            run: run.clone(),
            info: RunInfo {
                run: run.index,
                path: run.path.clone(),
                dir: py_dirname(&run.path),
            },
            root,
        });
    }
    if let Some((path, version)) = library_versions
        .iter()
        .find(|(_, v)| *v != library_versions[0].1)
    {
        let (first_path, first) = &library_versions[0];
        print_stderr(
            out,
            &[format!(
                "warning: {first_path} was written by Google Benchmark {first}, {path} by {version}: multi-threaded times are defined differently by some versions"
            )],
        );
    }
    if let Some(failure) = unmodelled {
        return Err(script_failure(group, s, out).unwrap_or(failure));
    }
    share_idents(&mut loaded);
    let mut loaded = loaded.into_iter();
    Ok(group
        .sides
        .iter()
        .map(|side| loaded.by_ref().take(side.len()).collect())
        .collect())
}

/// Where the script stops on a pair it reads but the model cannot hold
/// (see `script_walk`).
fn script_failure(group: &RunGroup, s: &Settings, out: &mut dyn Write) -> Option<Failure> {
    let [reference, compare] = [0, 1].map(|side| group.sides.get(side)?.first());
    let (reference, compare) = (reference?, compare?);
    let value = |run: &Run| crate::loading::script_root::read_value(&run.path).ok();
    super::script_walk::script_failure(
        s,
        (&reference.path, &compare.path),
        (&value(reference)?, &value(compare)?),
        out,
    )
}

/// The reader's version check; under the script's reading, a root
/// without what the script requires is refused in its words.
fn check_nvbench_root(
    path: &str,
    root: &Root,
    script_reading: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if script_reading && !has_what_the_script_requires(root) {
        // The script's reading prints the warnings and refuses the file.
        read_root(path, out)?;
        return Ok(());
    }
    check_file_version(path, root, out)
}

/// Both sections the script requires, devices that are objects, and a
/// version string where the version is given.
fn has_what_the_script_requires(root: &Root) -> bool {
    let json_version = root
        .meta
        .as_ref()
        .and_then(|meta| meta.version.as_ref())
        .and_then(|version| version.json.as_ref());
    root.devices
        .as_ref()
        .is_some_and(|devices| devices.iter().all(Device::is_object))
        && root.benchmarks.is_some()
        && json_version.is_none_or(|json| json.string.is_some())
}

/// On huge inputs, the states of every run share the first run's idents
/// where they are identical (see `Root::share_idents_with`): those of a
/// run its reader could not share (read by the full reader, or in another
/// order than the first run's states).
fn share_idents(loaded: &mut [LoadedRun]) {
    let Some((first, others)) = loaded.split_first_mut() else {
        return;
    };
    let huge = |run: &LoadedRun| run.root.state_count() >= super::benchmark::HUGE_COMPARISON;
    if !huge(first) {
        return;
    }
    for run in others.iter_mut().filter(|run| huge(run)) {
        run.root.share_idents_with(&first.root);
    }
}

/// Lines for stderr, after what stdout holds so far.
/// Two runs of a side with the same bytes are one run given twice: the
/// repetition rule would see no scatter between processes.
fn warn_of_identical_runs(group: &RunGroup, out: &mut dyn Write) {
    let lines: Vec<String> = group
        .sides
        .iter()
        .flat_map(|side| identical_runs(side))
        .map(|(a, b)| {
            format!(
                "warning: {a} and {b} hold the same bytes: one run copied? Identical runs show no scatter between processes, so the repetition rule would trust them too much; give runs of separate benchmark processes"
            )
        })
        .collect();
    print_stderr(out, &lines);
}

fn print_stderr(out: &mut dyn Write, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = out.flush();
    for line in lines {
        crate::messages::note(printable(line));
    }
}

/// NVBench and Google Benchmark files cannot be compared with each other.
fn check_one_format(runs: &[&Run], parsed: &[Result<Parsed, Failure>]) -> Result<(), Failure> {
    let is_gbench = |p: &Result<Parsed, Failure>| match p {
        Ok(Parsed::Gbench(_)) => Some(true),
        Ok(Parsed::NvBench(_)) => Some(false),
        Err(_) => None,
    };
    let formats: Vec<(&Run, bool)> = runs
        .iter()
        .zip(parsed)
        .filter_map(|(run, p)| Some((*run, is_gbench(p)?)))
        .collect();
    let Some((first, first_gbench)) = formats.first() else {
        return Ok(());
    };
    match formats.iter().find(|(_, g)| g != first_gbench) {
        Some((other, other_gbench)) => {
            let name = |gbench: bool| {
                if gbench {
                    "a Google Benchmark"
                } else {
                    "an NVBench"
                }
            };
            Err(Failure::fatal(format!(
                "cannot compare files of two formats: {} is {} file, {} is {} file",
                printable(&first.path),
                name(*first_gbench),
                printable(&other.path),
                name(*other_gbench)
            )))
        }
        None => Ok(()),
    }
}

/// Two files (a pair) are parsed on this thread and the run's helper
/// thread, which needs no thread started per pair in directory mode; more
/// are parsed on all cores.
fn parse_all(runs: &[&Run], format: Format) -> Vec<Result<Parsed, Failure>> {
    // The first run lends what names its states to the others as they are
    // read (see `loading::anchor`).
    let anchor = Arc::new(AxisAnchor::default());
    let role = |index: usize| match index {
        0 => Role::First(&anchor),
        _ => Role::Later(&anchor),
    };
    match runs {
        // The first run on the helper: were there none, it would run here
        // before the second waits for it.
        [first, second] if crate::parallel::cores() > 1 => {
            let (first_path, helper_anchor) = (first.path.clone(), Arc::clone(&anchor));
            let worker = crate::parallel::run_on_helper(move || {
                parse_input(&first_path, format, Role::First(&helper_anchor))
            });
            let second = parse_input(&second.path, format, role(1));
            vec![worker.join(), second]
        }
        _ => {
            let indexed: Vec<(usize, &&Run)> = runs.iter().enumerate().collect();
            map_in_parallel(&indexed, 1, |(index, run)| {
                parse_input(&run.path, format, role(*index))
            })
        }
    }
}

/// The selected devices of each run of the baseline and a candidate: every
/// run of a side must have the device sections of its first run, and the
/// first runs of both sides must agree, as the device sections of a pair
/// must.
pub(super) fn match_devices<'r>(
    s: &Settings,
    (reference, compare): (&'r [LoadedRun], &'r [LoadedRun]),
    candidate: usize,
    notes: &mut dyn Write,
) -> Result<[Vec<&'r Device>; 2], Failure> {
    let ref_devices = devices_of(reference, &s.reference_devices, "--reference-devices")?;
    let cmp_devices = devices_of(compare, &s.compare_devices, "--compare-devices")?;
    if ref_devices[0].len() != cmp_devices[0].len() {
        let firsts = (reference[0].run.path.as_str(), compare[0].run.path.as_str());
        return Err(Failure::reported_with_notes(
            format!(
                "--reference-devices selected {} device(s), but --compare-devices selected {} device(s)",
                ref_devices[0].len(),
                cmp_devices[0].len()
            ),
            device_count_notes(s, firsts, (&ref_devices[0], &cmp_devices[0])),
        ));
    }
    let label = printable(&s.inputs.candidates[candidate].label);
    // The baseline's runs are checked once, with the first candidate.
    if candidate == 0 {
        check_devices(s, "reference runs", &ref_devices, notes)?;
    }
    let compare_runs = match s.inputs.layout {
        Layout::NWay => format!("{label} runs"),
        _ => "compare runs".to_string(),
    };
    check_devices(s, &compare_runs, &cmp_devices, notes)?;
    let heading = match s.inputs.layout {
        Layout::Pair => "Device sections do not match".to_string(),
        Layout::Repetitions => "Device sections do not match (reference and compare)".to_string(),
        Layout::NWay => format!(
            "Device sections do not match ({} and {label})",
            printable(&s.inputs.baseline.label)
        ),
    };
    let firsts = [ref_devices[0].clone(), cmp_devices[0].clone()];
    if let Some(other) = differing(&firsts) {
        report_device_mismatch(s, &heading, (&firsts[0], other), notes)?;
    }
    let first = |devices: Vec<Vec<&'r Device>>| devices.into_iter().next().unwrap_or_default();
    Ok([first(ref_devices), first(cmp_devices)])
}

/// What each side selected, by file and GPU, and a pair of device options
/// that compares one GPU of each side (one of the same name if there is).
fn device_count_notes(
    s: &Settings,
    (ref_path, cmp_path): (&str, &str),
    (reference, compare): (&[&Device], &[&Device]),
) -> Vec<String> {
    let mut notes = vec![
        format!(
            "note: {} selects {}",
            printable(ref_path),
            device_list(reference)
        ),
        format!(
            "note: {} selects {}",
            printable(cmp_path),
            device_list(compare)
        ),
    ];
    let same_name = reference.iter().find_map(|r| {
        let c = compare
            .iter()
            .find(|c| c.name.is_some() && c.name == r.name)?;
        Some((*r, *c))
    });
    let pair = same_name.or_else(|| Some((*reference.first()?, *compare.first()?)));
    if let Some((r, c)) = pair {
        notes.push(format!(
            "hint: devices are paired by position; to compare one GPU of each: --reference-devices {} --compare-devices {}",
            printable(&field_text(&r.id)),
            printable(&field_text(&c.id))
        ));
    }
    if s.ignore_devices {
        notes.push(
            "hint: --ignore-devices lets the GPUs differ, but both sides must select as many devices"
                .to_string(),
        );
    }
    notes
}

/// `2 device(s): 0 (NVIDIA H100), 1 (NVIDIA H100)`.
fn device_list(devices: &[&Device]) -> String {
    let named: Vec<String> = devices
        .iter()
        .map(|d| {
            let (id, name) = (field_text(&d.id), field_text(&d.name));
            format!("{} ({})", printable(&id), printable(&name))
        })
        .collect();
    format!("{} device(s): {}", devices.len(), named.join(", "))
}

/// The selected devices of every run.
fn devices_of<'a>(
    runs: &'a [LoadedRun],
    filter: &DeviceFilter,
    option: &str,
) -> Result<Vec<Vec<&'a Device>>, Failure> {
    runs.iter()
        .map(|r| selected_devices(&r.root, &r.run.path, filter, option))
        .collect()
}

/// The first device list that differs from the first (Python list
/// equality: element by element, key order ignored, 1 == 1.0).
fn differing<'l, 'a>(devices: &'l [Vec<&'a Device>]) -> Option<&'l [&'a Device]> {
    let first = &devices[0];
    devices[1..]
        .iter()
        .find(|other| {
            other.len() != first.len()
                || !first.iter().zip(other.iter()).all(|(a, b)| a.python_eq(b))
        })
        .map(Vec::as_slice)
}

/// The runs of one side must have the same device sections.
fn check_devices(
    s: &Settings,
    what: &str,
    devices: &[Vec<&Device>],
    notes: &mut dyn Write,
) -> Result<(), Failure> {
    match differing(devices) {
        Some(other) => {
            let heading = format!("Device sections do not match ({what})");
            report_device_mismatch(s, &heading, (&devices[0], other), notes)
        }
        None => Ok(()),
    }
}

/// Every run's benchmarks, or the error of the first file without them.
pub(super) fn bench_runs(runs: &[LoadedRun]) -> Result<Vec<Vec<RunBench<'_>>>, Failure> {
    runs.iter()
        .map(|loaded| {
            let Some(list) = &loaded.root.benchmarks else {
                return Err(Failure::fatal(format!(
                    "{}: the file has no 'benchmarks' section",
                    loaded.run.path
                )));
            };
            Ok(list
                .iter()
                .map(|bench| RunBench {
                    info: &loaded.info,
                    bench,
                })
                .collect())
        })
        .collect()
}

/// A benchmark of one side: its `occurrence`-th instance of the name in
/// each run that has one (every instance of the name, when a run's
/// instances merge).
pub(super) struct SideBench<'a> {
    pub(super) name: &'a str,
    pub(super) runs: Vec<RunBench<'a>>,
}

impl<'a> SideBench<'a> {
    pub(super) fn path(&self) -> &'a str {
        self.runs[0].path()
    }
}

/// The benchmarks `-b` selects, each name once per occurrence in a run,
/// in order of first appearance over the runs (a pair: the file's list).
/// With `merge_instances` a name is one benchmark whatever its instances
/// in a run: a rerun plan names a benchmark once per product of states,
/// and its run holds an instance for each (see `BenchesByName`).
pub(super) fn side_benchmarks<'a>(
    runs: &[Vec<RunBench<'a>>],
    filters: &FilterPlan,
    merge_instances: bool,
) -> Vec<SideBench<'a>> {
    let mut benches: Vec<SideBench<'a>> = Vec::new();
    // Positions in `benches` of each name's occurrences.
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for run in runs {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for instance in run
            .iter()
            .filter(|b| filters.selects_benchmark(&b.bench.name))
        {
            let name = instance.bench.name.as_str();
            let occurrence = seen.entry(name).or_insert(0);
            let positions = by_name.entry(name).or_default();
            match positions.get(*occurrence) {
                Some(&position) => benches[position].runs.push(*instance),
                None => {
                    positions.push(benches.len());
                    benches.push(SideBench {
                        name,
                        runs: vec![*instance],
                    });
                }
            }
            if !merge_instances {
                *occurrence += 1;
            }
        }
    }
    benches
}

/// Each run's benchmarks by name: the first of a name, as the reference
/// takes the first match; or, when a run's instances merge (repetition
/// mode), every instance of the name in the run, in file order.
pub(super) struct BenchesByName<'a> {
    runs: Vec<HashMap<&'a str, Vec<RunBench<'a>>>>,
    merge_instances: bool,
}

impl<'a> BenchesByName<'a> {
    pub(super) fn new(runs: &[Vec<RunBench<'a>>], merge_instances: bool) -> Self {
        let runs = runs
            .iter()
            .map(|run| {
                let mut by_name: HashMap<&str, Vec<RunBench>> = HashMap::with_capacity(run.len());
                for bench in run {
                    let instances = by_name.entry(bench.bench.name.as_str()).or_default();
                    if merge_instances || instances.is_empty() {
                        instances.push(*bench);
                    }
                }
                by_name
            })
            .collect();
        BenchesByName {
            runs,
            merge_instances,
        }
    }

    /// The instances of `name`, in run order (one a run unless they merge).
    pub(super) fn instances(&self, name: &str) -> Vec<RunBench<'a>> {
        let of_run = |run: &HashMap<&str, Vec<RunBench<'a>>>| -> Vec<RunBench<'a>> {
            run.get(name).cloned().unwrap_or_default()
        };
        let instances: Vec<RunBench<'a>> = self.runs.iter().flat_map(of_run).collect();
        debug_assert!(self.merge_instances || instances.len() <= self.runs.len());
        instances
    }

    /// Some run has a benchmark of this name.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.runs.iter().any(|run| run.contains_key(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(value: &str) -> String {
        let state = |n: u32| {
            format!(
                r#"{{"name": "Device=0 N={n}", "device": 0, "axis_values": [{{"name": "N", "type": "int64", "value": "{n}"}}],
                 "summaries": [{{"tag": "nv/cold/time/gpu/mean", "data": [{{"name": "value", "type": "float64", "value": "{value}"}}]}}]}}"#
            )
        };
        format!(
            r#"{{"meta": {{"version": {{"json": {{"string": "1.0.0"}}}}}}, "devices": [{{"id": 0, "name": "GPU"}}],
             "benchmarks": [{{"name": "b", "devices": [0], "states": [{}, {}]}}]}}"#,
            state(1),
            state(2)
        )
    }

    /// Every run of a group, two or more, read beside the first (which
    /// lends it what names its states) reads the states as it would alone.
    #[test]
    fn the_runs_of_a_group_read_their_states_as_alone() {
        let scratch = crate::testing::Scratch::new("group-idents");
        for count in [2, 3, 5] {
            let runs: Vec<Run> = (0..count)
                .map(|index| Run {
                    index,
                    path: scratch
                        .write(format!("{index}.json"), document(&format!("1.{index}e-3"))),
                })
                .collect();
            let runs: Vec<&Run> = runs.iter().collect();
            let parsed = parse_all(&runs, Format::Auto);
            let idents: Vec<Vec<Arc<crate::loading::model::StateIdent>>> = parsed
                .into_iter()
                .map(|p| match p.unwrap() {
                    Parsed::NvBench(root) => root.benchmarks.unwrap()[0]
                        .states()
                        .iter()
                        .map(|s| Arc::clone(s.ident()))
                        .collect(),
                    Parsed::Gbench(_) => panic!("an NVBench file"),
                })
                .collect();
            for run in &idents[1..] {
                assert_eq!(run.len(), 2);
                for (mine, first) in run.iter().zip(&idents[0]) {
                    assert_eq!(format!("{mine:?}"), format!("{first:?}"), "{count} runs");
                }
            }
        }
    }
}
