//! A Google Benchmark file in the comparison's model (spec `gbench-input.md`,
//! "Mapping"): one device section from `context` (compared by `num_cpus`
//! and `caches`), a benchmark per run name without its arguments, a state
//! per instance with the arguments (and `threads`) as int64 axes, and
//! summaries computed from the successful repetitions, each converted to
//! seconds by its `time_unit`. Aggregates are read only when a file has
//! no repetitions of an instance (`--benchmark_report_aggregates_only`).

use std::collections::HashMap;

use super::names::RunName;
use super::{Entry, GbenchFile, unit_seconds};
use crate::failure::Failure;
use crate::loading::model::{
    Axis, AxisValue, Benchmark, Device, Root, State, StateDevice, StateIdent,
};
use crate::loading::scalar::Scalar;
use crate::loading::summaries::{Summaries, Tag};
use crate::pycompat::numpy_quantile::quantile_linear;
use crate::pycompat::pyfmt::str_repr;

/// Which time a repetition's sample is (`--time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// `real_time`: compare.py's "Time", the measured quantity of
    /// `UseRealTime`/`UseManualTime`.
    #[default]
    Real,
    Cpu,
}

/// What a state holds beyond its summaries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GbenchState {
    /// The successful repetitions' times in seconds, in file order (empty
    /// for an aggregates-only file).
    pub samples: Vec<f64>,
    /// Repetitions the summaries stand for.
    pub repetitions: usize,
    /// Errored or skipped repetitions left out.
    pub dropped: usize,
    /// The summaries come from the file's aggregates (no repetitions in it).
    pub from_aggregates: bool,
    pub label: Option<String>,
    /// The instance's run name as the library writes it (what
    /// `--benchmark_filter` matches): a rerun plan names it.
    pub run_name: String,
}

/// A mapped file and what mapping it left out, for the notes.
pub struct Mapped {
    pub root: Root,
    pub notes: Vec<String>,
}

/// An instance's entries: its repetitions and its aggregates by name.
#[derive(Default)]
struct Instance<'a> {
    run_name: String,
    order: (f64, f64),
    iterations: Vec<&'a Entry>,
    aggregates: Vec<(String, &'a Entry)>,
}

/// The names of aggregates written by libraries before run_type (v1.4).
const OLD_AGGREGATES: [&str; 4] = ["mean", "median", "stddev", "cv"];

/// `(run_name, aggregate name)` of an entry: aggregates are named
/// `run_name + "_" + aggregate_name`; files before v1.5 have neither field.
fn run_name_of(entry: &Entry, names: &HashMap<&str, ()>) -> (String, Option<String>) {
    let name = entry.name();
    if entry.is_aggregate() {
        let aggregate = entry.aggregate_name.clone().unwrap_or_default();
        let run_name = entry.run_name.clone().unwrap_or_else(|| {
            name.strip_suffix(&format!("_{aggregate}"))
                .unwrap_or(name)
                .to_string()
        });
        return (run_name, Some(aggregate));
    }
    if entry.run_type.is_none() {
        for aggregate in OLD_AGGREGATES {
            if let Some(prefix) = name.strip_suffix(&format!("_{aggregate}"))
                && names.contains_key(prefix)
            {
                return (prefix.to_string(), Some(aggregate.to_string()));
            }
        }
    }
    (
        entry.run_name.clone().unwrap_or_else(|| name.to_string()),
        None,
    )
}

fn index(value: &Option<Scalar>) -> f64 {
    value
        .as_ref()
        .and_then(|v| v.py_float().ok().flatten())
        .unwrap_or(-1.0)
}

/// The summaries of sorted, finite samples in seconds.
fn sample_summaries(sorted: &[f64]) -> Vec<(Tag, f64)> {
    let n = sorted.len();
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let (q1, median, q3) = (
        quantile_linear(sorted, 0.25),
        quantile_linear(sorted, 0.5),
        quantile_linear(sorted, 0.75),
    );
    let mut values = vec![
        (Tag::Min, sorted[0]),
        (Tag::Max, sorted[n - 1]),
        (Tag::Mean, mean),
        (Tag::Q1, q1),
        (Tag::Median, median),
        (Tag::Q3, q3),
        (Tag::Iqr, q3 - q1),
        (Tag::IqrRelative, (q3 - q1) / median),
    ];
    if n > 1 {
        let squares: f64 = sorted.iter().map(|v| (v - mean) * (v - mean)).sum();
        let stdev = (squares / (n - 1) as f64).sqrt();
        values.push((Tag::Stdev, stdev));
        values.push((Tag::StdevRelative, stdev / mean));
    }
    values
}

/// The summaries of an aggregates-only instance: mean and standard
/// deviation (and the median, min and max when written), the interval
/// `mean -/+ stdev` clipped to min and max where they exist.
fn aggregate_summaries(
    aggregates: &[(String, &Entry)],
    metric: Metric,
) -> Option<(Vec<(Tag, f64)>, usize)> {
    let value = |name: &str| -> Option<f64> {
        let (_, entry) = aggregates.iter().find(|(n, _)| n == name)?;
        let time = entry.time(metric == Metric::Cpu)?;
        Some(time * unit_seconds(entry.unit()?)?)
    };
    let mean = value("mean")?;
    let stdev = value("stddev")?;
    let repetitions = aggregates
        .iter()
        .find_map(|(_, e)| e.repetitions.as_ref()?.py_float().ok().flatten())
        .map_or(2, |n| (n as usize).max(2));
    let mut values = vec![
        (Tag::Mean, mean),
        (Tag::Stdev, stdev),
        (Tag::StdevRelative, stdev / mean),
        (Tag::Min, value("min").unwrap_or(mean - stdev)),
        (Tag::Max, value("max").unwrap_or(mean + stdev)),
    ];
    if let Some(median) = value("median") {
        values.push((Tag::Median, median));
    }
    Some((values, repetitions))
}

/// The state of one instance, or `None` when it holds nothing to compare.
fn instance_state(
    path: &str,
    instance: &Instance,
    axes: &[(String, i64)],
    metric: Metric,
) -> Result<Option<State>, Failure> {
    let key: Vec<String> = axes.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let name = if key.is_empty() {
        "Device=0".to_string()
    } else {
        format!("Device=0 {}", key.join(" "))
    };
    let mut state = State::unnamed(false);
    state.set_axis_values_key(true);
    let list = Some(
        axes.iter()
            .map(|(n, v)| {
                AxisValue::new(
                    n.as_str().into(),
                    Some(Scalar::Str("int64".into())),
                    Some(Scalar::Int(*v)),
                )
            })
            .collect(),
    );
    state.set_ident(std::sync::Arc::new(StateIdent::new(
        name.into(),
        StateDevice::Id(0),
        list,
    )));
    let label = instance
        .iterations
        .iter()
        .chain(instance.aggregates.iter().map(|(_, e)| e))
        .find_map(|e| e.label.clone());
    if instance.iterations.is_empty() {
        let Some((values, repetitions)) = aggregate_summaries(&instance.aggregates, metric) else {
            return Ok(None);
        };
        state.summaries = Some(Summaries::computed(&values, repetitions));
        state.set_gbench(GbenchState {
            repetitions,
            from_aggregates: true,
            label,
            run_name: instance.run_name.clone(),
            ..GbenchState::default()
        });
        return Ok(Some(state));
    }
    let (failed, succeeded): (Vec<&Entry>, Vec<&Entry>) =
        instance.iterations.iter().partition(|e| e.failed());
    let mut samples = Vec::with_capacity(succeeded.len());
    for entry in &succeeded {
        let unit = entry.unit().unwrap_or("");
        let seconds = unit_seconds(unit).ok_or_else(|| {
            Failure::fatal(format!(
                "{path}: benchmark {} has the time_unit {}; expected ns, us, ms or s",
                str_repr(entry.name()),
                str_repr(unit)
            ))
        })?;
        let time = entry.time(metric == Metric::Cpu).ok_or_else(|| {
            Failure::fatal(format!(
                "{path}: benchmark {} has no {} number",
                str_repr(entry.name()),
                if metric == Metric::Cpu {
                    "cpu_time"
                } else {
                    "real_time"
                }
            ))
        })?;
        samples.push(time * seconds);
    }
    if samples.is_empty() {
        let message = failed
            .iter()
            .find_map(|e| e.failure_message())
            .unwrap_or("every repetition failed");
        state.set_skipped(Some(&Scalar::Bool(true)));
        state.set_skip_reason(Some(Scalar::Str(message.into())));
    } else {
        let mut sorted = samples.clone();
        sorted.sort_by(f64::total_cmp);
        if sorted.iter().all(|v| v.is_finite()) {
            state.summaries = Some(Summaries::computed(
                &sample_summaries(&sorted),
                sorted.len(),
            ));
        } else {
            // A NaN or infinite time: an unusable center, as NVBench's `????`.
            let median = quantile_linear(&sorted, 0.5);
            let center = if median.is_nan() {
                f64::NAN
            } else {
                f64::INFINITY
            };
            state.summaries = Some(Summaries::computed(
                &[
                    (Tag::Median, center),
                    (Tag::Iqr, f64::NAN),
                    (Tag::Mean, center),
                ],
                sorted.len(),
            ));
        }
    }
    state.set_gbench(GbenchState {
        repetitions: samples.len(),
        samples,
        dropped: failed.len(),
        from_aggregates: false,
        label,
        run_name: instance.run_name.clone(),
    });
    Ok(Some(state))
}

/// The device section of a file: compared by `num_cpus` and `caches` (the
/// CPU clock estimate, host name, date and load vary between runs of one
/// machine), named by the host.
fn device_of(file: &GbenchFile) -> Device {
    let mut identity = serde_json::Map::new();
    identity.insert("id".into(), serde_json::Value::from(0));
    for key in ["num_cpus", "caches"] {
        if let Some(value) = file.context.get(key) {
            identity.insert(key.into(), value.clone());
        }
    }
    let name = file
        .context_text("host_name")
        .unwrap_or_else(|| "CPU".into());
    Device::from_value(&serde_json::Value::Object(identity), Some(name))
}

/// Maps a file into the model; `path` names it in messages.
pub fn map_file(path: &str, file: &GbenchFile, metric: Metric) -> Result<Mapped, Failure> {
    let names: HashMap<&str, ()> = file.entries.iter().map(|e| (e.name(), ())).collect();
    let mut complexity = 0;
    let mut instances: Vec<Instance> = Vec::new();
    let mut by_key: HashMap<(String, u64, u64), usize> = HashMap::new();
    for entry in &file.entries {
        if entry.is_complexity() {
            complexity += 1;
            continue;
        }
        let (run_name, aggregate) = run_name_of(entry, &names);
        let order = (
            index(&entry.family_index),
            index(&entry.per_family_instance_index),
        );
        let key = (run_name.clone(), order.0.to_bits(), order.1.to_bits());
        let position = *by_key.entry(key).or_insert_with(|| {
            instances.push(Instance {
                run_name,
                order,
                ..Instance::default()
            });
            instances.len() - 1
        });
        let instance = &mut instances[position];
        match aggregate {
            Some(name) => instance.aggregates.push((name, entry)),
            None => instance.iterations.push(entry),
        }
    }
    // Random interleaving writes instances in completion order.
    instances.sort_by(|a, b| {
        a.order
            .0
            .total_cmp(&b.order.0)
            .then(a.order.1.total_cmp(&b.order.1))
    });
    let mut benchmarks: Vec<Benchmark> = Vec::new();
    let mut bench_at: HashMap<String, usize> = HashMap::new();
    let (mut dropped, mut dropped_states) = (0, 0);
    for instance in &instances {
        let parsed = RunName::parse(&instance.run_name);
        let axes = parsed.axes();
        let Some(state) = instance_state(path, instance, &axes, metric)? else {
            continue;
        };
        if let Some(g) = state.gbench()
            && g.dropped > 0
            && g.repetitions > 0
        {
            dropped += g.dropped;
            dropped_states += 1;
        }
        let name = parsed.benchmark();
        let position = *bench_at.entry(name.clone()).or_insert_with(|| {
            benchmarks.push(Benchmark {
                name,
                devices: vec![0],
                axes: Some(Vec::new()),
                states: Some(Vec::new()),
            });
            benchmarks.len() - 1
        });
        let bench = &mut benchmarks[position];
        let bench_axes = bench.axes.get_or_insert_with(Vec::new);
        for (axis, _) in &axes {
            if !bench_axes.iter().any(|a| &a.name == axis) {
                bench_axes.push(Axis {
                    name: axis.clone(),
                    axis_type: "int64".into(),
                    flags: Some(String::new()),
                });
            }
        }
        bench.states.get_or_insert_with(Vec::new).push(state);
    }
    let mut notes = Vec::new();
    if dropped > 0 {
        notes.push(format!(
            "{path}: {dropped} errored or skipped repetition(s) of {dropped_states} benchmark(s) left out; the others are compared"
        ));
    }
    if complexity > 0 {
        notes.push(format!(
            "{path}: {complexity} BigO/RMS entr{} of Complexity() not compared (they hold no times)",
            if complexity == 1 { "y" } else { "ies" }
        ));
    }
    Ok(Mapped {
        root: Root {
            meta: None,
            devices: Some(vec![device_of(file)]),
            benchmarks: Some(benchmarks),
        },
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(entries: serde_json::Value) -> GbenchFile {
        GbenchFile {
            context: serde_json::from_value(serde_json::json!({"num_cpus": 4, "host_name": "h"}))
                .unwrap(),
            entries: serde_json::from_value(entries).unwrap(),
        }
    }

    fn rep(name: &str, index: i64, real: f64, unit: &str) -> serde_json::Value {
        serde_json::json!({"name": name, "run_name": name, "run_type": "iteration",
            "family_index": 0, "per_family_instance_index": 0, "repetition_index": index,
            "real_time": real, "cpu_time": real, "time_unit": unit})
    }

    #[test]
    fn repetitions_become_one_state_in_seconds() {
        let f = file(serde_json::json!([
            rep("BM_x/8", 0, 10.0, "us"),
            rep("BM_x/8", 1, 12.0, "us"),
            rep("BM_x/8", 2, 11.0, "us"),
        ]));
        let mapped = map_file("f.json", &f, Metric::Real).unwrap();
        let benches = mapped.root.benchmarks.unwrap();
        assert_eq!(benches.len(), 1);
        assert_eq!(benches[0].name, "BM_x");
        let state = &benches[0].states()[0];
        assert_eq!(state.name(), "Device=0 arg0=8");
        let g = state.gbench().unwrap();
        assert_eq!(g.samples, [10.0 * 1e-6, 12.0 * 1e-6, 11.0 * 1e-6]);
        let timing = crate::loading::timing::extract_timing(
            state.summaries.as_ref().unwrap(),
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(timing.median, Some(11.0 * 1e-6));
        assert_eq!(timing.repetitions, Some(3));
        assert_eq!(
            mapped.root.devices.unwrap()[0].name,
            Some(Scalar::Str("h".into()))
        );
    }

    #[test]
    fn failed_repetitions_are_dropped_and_all_failed_is_skipped() {
        let mut bad = rep("BM_e", 0, 0.0, "ns");
        bad["error_occurred"] = true.into();
        bad["error_message"] = "boom".into();
        let f = file(serde_json::json!([bad, rep("BM_e", 1, 5.0, "ns")]));
        let mapped = map_file("f.json", &f, Metric::Real).unwrap();
        let state = mapped.root.benchmarks.unwrap()[0].states()[0]
            .gbench()
            .cloned()
            .unwrap();
        assert_eq!((state.repetitions, state.dropped), (1, 1));
        assert_eq!(mapped.notes.len(), 1);
        let f = file(serde_json::json!([bad]));
        let mapped = map_file("f.json", &f, Metric::Real).unwrap();
        let benches = mapped.root.benchmarks.unwrap();
        assert!(benches[0].states()[0].is_skipped());
    }

    #[test]
    fn unknown_units_are_errors() {
        let f = file(serde_json::json!([rep("BM_u", 0, 1.0, "fortnights")]));
        assert!(map_file("f.json", &f, Metric::Real).is_err());
    }
}
