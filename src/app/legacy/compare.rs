//! The classic script's `compare_benches`: the compare file's benchmarks
//! in its order, each against the reference benchmark of the same name;
//! per device id the benchmark lists, every state of the benchmark (the
//! script does not look at a state's device: a benchmark on two devices
//! prints both tables with every state), against the reference state of
//! the same name, by the mean GPU time and its relative noise.

use std::borrow::Cow;

use serde_json::Value;

use super::axes::{AxisFilter, format_axis_value, format_axis_values, matches_axis_filters};
use super::{Script, Stop, raised};
use crate::deciding::legacy::{Verdict, decide, min_noise};
use crate::pycompat::pyvalue::{
    Py, Raised, equal, getitem, iterate, percent_d, py, py_str, to_float, truthy,
};
use crate::rendering::legacy as text;
use crate::text::printable::printable;

/// The two files' benchmark lists and device sections.
pub(super) struct Sides<'a> {
    pub ref_benches: &'a Value,
    pub cmp_benches: &'a Value,
    pub ref_devices: &'a Value,
    pub cmp_devices: &'a Value,
}

const MEAN: &str = "nv/cold/time/gpu/mean";
const NOISE: &str = "nv/cold/time/gpu/stdev/relative";

/// A bar of the `--plot` chart.
struct PlotEntry {
    label_axes: String,
    fraction: f64,
    verdict: Verdict,
    benchmark: String,
}

/// What `--plot-along` collected of one state, enough to know whether
/// the script's plotting raises: a state without the axis is keyed `--`
/// (which `float()` refuses), a noise that is no number cannot be
/// multiplied.
struct AlongPoint {
    series: String,
    key: Option<f64>,
    noises_are_numbers: bool,
}

/// A noise as the row shows it: converted, or the file's falsy value.
enum Noise<'a> {
    Number(f64),
    Raw(&'a Value),
}

impl Noise<'_> {
    /// `format_percentage`'s argument: None is `inf`; other falsy values
    /// are multiplied by 100.0 (numbers) or raise (strings, lists, dicts).
    fn shown(&self) -> Result<Option<f64>, Raised> {
        match self {
            Noise::Number(x) => Ok(Some(*x)),
            Noise::Raw(value) => match py(value) {
                Py::None => Ok(None),
                Py::Bool(_) | Py::Int(_) | Py::BigInt(_) | Py::Float(_) => {
                    Ok(Some(to_float(value)?))
                }
                _ => Err(Raised::new(
                    "TypeError",
                    format!(
                        "can't multiply sequence by non-int of type 'float' ({})",
                        crate::pycompat::pyvalue::type_name(value)
                    ),
                )),
            },
        }
    }

    fn is_number(&self) -> bool {
        match self {
            Noise::Number(_) => true,
            Noise::Raw(value) => matches!(
                py(value),
                Py::Bool(_) | Py::Int(_) | Py::BigInt(_) | Py::Float(_)
            ),
        }
    }
}

/// `next(filter(lambda x: x[key] == wanted, items), None)`.
fn find_by<'a>(
    items: &'a Value,
    key: &str,
    wanted: &Value,
) -> Result<Option<Cow<'a, Value>>, Raised> {
    for item in iterate(items)? {
        if equal(getitem(&item, key)?, wanted) {
            return Ok(Some(item));
        }
    }
    Ok(None)
}

/// `extract_value(summary)`: the `value` datum, which must be a float64.
fn extract_value(summary: &Value) -> Result<Value, Raised> {
    let data = getitem(summary, "data")?;
    let datum = find_by(data, "name", &Value::String("value".into()))?
        .ok_or_else(|| Raised::new("StopIteration", ""))?;
    if !equal(getitem(&datum, "type")?, &Value::String("float64".into())) {
        return Err(Raised::new("AssertionError", ""));
    }
    Ok(getitem(&datum, "value")?.clone())
}

impl Script<'_> {
    pub(super) fn compare_benches(
        &mut self,
        sides: &Sides,
        filters: &[AxisFilter],
    ) -> Result<(), Stop> {
        let mut entries = Vec::new();
        let mut device_names: Vec<Value> = Vec::new();
        for cmp_bench in
            iterate(sides.cmp_benches).map_err(raised("reading the compare benchmarks"))?
        {
            let found = (|| -> Result<Option<Cow<Value>>, Raised> {
                for hay in iterate(sides.ref_benches)? {
                    if equal(getitem(&hay, "name")?, getitem(&cmp_bench, "name")?) {
                        return Ok(Some(hay));
                    }
                }
                Ok(None)
            })()
            .map_err(raised("matching benchmarks"))?;
            let Some(ref_bench) = found.filter(|b| truthy(b)) else {
                continue;
            };
            let name = getitem(&cmp_bench, "name").map_err(raised("matching benchmarks"))?;
            if !self.settings.benchmark.is_empty()
                && !self
                    .settings
                    .benchmark
                    .iter()
                    .any(|b| equal(&Value::String(b.clone()), name))
            {
                continue;
            }
            let name = py_str(name);
            write!(self.out, "{}", text::benchmark_heading(&printable(&name)))?;
            self.compare_bench(
                &cmp_bench,
                &ref_bench,
                &name,
                sides,
                filters,
                &mut entries,
                &mut device_names,
            )
            .map_err(|stop| match stop {
                Stop::Raised { raised, what } => Stop::Raised {
                    raised,
                    what: format!("benchmark {}: {what}", printable(&name)),
                },
                other => other,
            })?;
        }
        if self.settings.plot {
            self.plot(&entries, &device_names, filters)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn compare_bench(
        &mut self,
        cmp_bench: &Value,
        ref_bench: &Value,
        bench_name: &str,
        sides: &Sides,
        filters: &[AxisFilter],
        entries: &mut Vec<PlotEntry>,
        device_names: &mut Vec<Value>,
    ) -> Result<(), Stop> {
        let bench = raised("reading the benchmark");
        let fields = (|| -> Result<_, Raised> {
            Ok((
                getitem(cmp_bench, "devices")?,
                getitem(cmp_bench, "axes")?,
                getitem(ref_bench, "states")?,
                getitem(cmp_bench, "states")?,
            ))
        })();
        let (cmp_device_ids, axes, ref_states, cmp_states) = fields.map_err(bench)?;
        let no_axes = Value::Array(Vec::new());
        let axes = if truthy(axes) { axes } else { &no_axes };
        let headers = (|| -> Result<Vec<String>, Raised> {
            iterate(axes)?
                .iter()
                .map(|axis| Ok(printable(&py_str(getitem(axis, "name")?)).into_owned()))
                .collect()
        })()
        .map_err(raised("reading the axes"))?;
        let device_ids = iterate(cmp_device_ids).map_err(raised("reading the devices"))?;
        for cmp_device_id in device_ids {
            let mut rows: Vec<Vec<String>> = Vec::new();
            let mut along: Vec<AlongPoint> = Vec::new();
            // The script's `ref_state` outlives its loop: the heading looks
            // up the device of the last state's reference.
            let mut last_ref_state: Option<Cow<Value>> = None;
            for cmp_state in iterate(cmp_states).map_err(raised("reading the states"))? {
                let state_stop = raised("comparing a state");
                let row = self
                    .compare_state(
                        &cmp_state,
                        ref_states,
                        axes,
                        filters,
                        &mut last_ref_state,
                        &mut along,
                    )
                    .map_err(state_stop)?;
                let Some((row, entry)) = row else {
                    continue;
                };
                rows.push(row);
                if let Some(entry) = entry {
                    let (label_axes, fraction, verdict) = entry;
                    let device = (|| -> Result<Option<Value>, Raised> {
                        let id = getitem(&cmp_state, "device")?;
                        match find_by(sides.cmp_devices, "id", id)? {
                            Some(device) => Ok(Some(getitem(&device, "name")?.clone())),
                            None => Ok(None),
                        }
                    })()
                    .map_err(raised("looking up a state's device"))?;
                    if let Some(name) = device
                        && !device_names.iter().any(|n| equal(n, &name))
                    {
                        device_names.push(name);
                    }
                    entries.push(PlotEntry {
                        label_axes,
                        fraction,
                        verdict,
                        benchmark: bench_name.to_string(),
                    });
                }
            }
            if rows.is_empty() {
                continue;
            }
            let heading = (|| -> Result<String, Raised> {
                let cmp_device = find_by(sides.cmp_devices, "id", &cmp_device_id)?;
                let ref_state = last_ref_state.as_deref().ok_or_else(|| {
                    Raised::new("TypeError", "'NoneType' object is not subscriptable")
                })?;
                let ref_device = find_by(sides.ref_devices, "id", getitem(ref_state, "device")?)?;
                let none = || Raised::new("TypeError", "'NoneType' object is not subscriptable");
                let id_name = |device: &Option<Cow<Value>>| -> Result<(String, String), Raised> {
                    let device = device.as_deref().ok_or_else(none)?;
                    Ok((
                        percent_d(getitem(device, "id")?)?,
                        printable(&py_str(getitem(device, "name")?)).into_owned(),
                    ))
                };
                let same = match (&cmp_device, &ref_device) {
                    (Some(c), Some(r)) => equal(c, r),
                    (None, None) => true,
                    _ => false,
                };
                if same {
                    let (id, name) = id_name(&cmp_device)?;
                    Ok(text::device_heading((&id, &name), None))
                } else {
                    let reference = id_name(&ref_device)?;
                    let compare = id_name(&cmp_device)?;
                    Ok(text::device_heading(
                        (&reference.0, &reference.1),
                        Some((&compare.0, &compare.1)),
                    ))
                }
            })()
            .map_err(raised("the device heading"))?;
            write!(self.out, "{heading}")?;
            write!(self.out, "{}", text::table(&headers, &rows))?;
            if self.settings.plot_along.is_some() {
                check_along(&along).map_err(raised("--plot-along"))?;
            }
        }
        Ok(())
    }

    /// One state of the script's inner loop: `None` when it is skipped or
    /// hidden, else its row, and its plot bar with `--plot`.
    #[allow(clippy::type_complexity)]
    fn compare_state<'v>(
        &mut self,
        cmp_state: &Value,
        ref_states: &'v Value,
        axes: &Value,
        filters: &[AxisFilter],
        last_ref_state: &mut Option<Cow<'v, Value>>,
        along: &mut Vec<AlongPoint>,
    ) -> Result<Option<(Vec<String>, Option<(String, f64, Verdict)>)>, Raised> {
        let cmp_state_name = getitem(cmp_state, "name")?;
        *last_ref_state = find_by(ref_states, "name", cmp_state_name)?;
        let Some(ref_state) = last_ref_state.as_deref().filter(|s| truthy(s)) else {
            return Ok(None);
        };
        if !matches_axis_filters(cmp_state, filters)? {
            return Ok(None);
        }
        let no_values = Value::Array(Vec::new());
        let axis_values = getitem(cmp_state, "axis_values")?;
        let axis_values = if truthy(axis_values) {
            axis_values
        } else {
            &no_values
        };
        let mut row = Vec::new();
        for axis_value in iterate(axis_values)? {
            let name = getitem(&axis_value, "name")?;
            let cell = format_axis_value(name, &axis_value, axes)?;
            row.push(printable(&cell.unwrap_or_default()).into_owned());
        }
        let cmp_summaries = getitem(cmp_state, "summaries")?;
        let ref_summaries = getitem(ref_state, "summaries")?;
        if !truthy(ref_summaries) || !truthy(cmp_summaries) {
            return Ok(None);
        }
        let tag = |t: &str| Value::String(t.to_string());
        let cmp_time = find_by(cmp_summaries, "tag", &tag(MEAN))?;
        let ref_time = find_by(ref_summaries, "tag", &tag(MEAN))?;
        let cmp_noise = find_by(cmp_summaries, "tag", &tag(NOISE))?;
        let ref_noise = find_by(ref_summaries, "tag", &tag(NOISE))?;
        let (Some(cmp_time), Some(ref_time), Some(cmp_noise), Some(ref_noise)) =
            (cmp_time, ref_time, cmp_noise, ref_noise)
        else {
            return Ok(None);
        };
        let cmp_time = extract_value(&cmp_time)?;
        let ref_time = extract_value(&ref_time)?;
        let cmp_noise = extract_value(&cmp_noise)?;
        let ref_noise = extract_value(&ref_noise)?;
        let cmp_time = to_float(&cmp_time)?;
        let ref_time = to_float(&ref_time)?;
        let diff = cmp_time - ref_time;
        if ref_time == 0.0 {
            return Err(Raised::new("ZeroDivisionError", "float division by zero"));
        }
        let fraction = diff / ref_time;
        let (ref_shown, cmp_shown, noise) = match (truthy(&ref_noise), truthy(&cmp_noise)) {
            (true, true) => {
                let (r, c) = (to_float(&ref_noise)?, to_float(&cmp_noise)?);
                (
                    Noise::Number(r),
                    Noise::Number(c),
                    min_noise(Some(r), Some(c)),
                )
            }
            (true, false) => {
                let r = to_float(&ref_noise)?;
                (Noise::Number(r), Noise::Raw(&cmp_noise), Some(r))
            }
            (false, true) => {
                let c = to_float(&cmp_noise)?;
                (Noise::Raw(&ref_noise), Noise::Number(c), Some(c))
            }
            (false, false) => (Noise::Raw(&ref_noise), Noise::Raw(&cmp_noise), None),
        };
        if let Some(plot_along) = &self.settings.plot_along {
            along.push(along_point(
                axis_values,
                plot_along,
                ref_shown.is_number() && cmp_shown.is_number(),
            )?);
        }
        let verdict = decide(diff, fraction, noise);
        self.tally.add(verdict);
        // A NaN threshold or change hides the row, as `>=` is false.
        let shown = fraction.abs() >= self.settings.threshold;
        if !shown {
            return Ok(None);
        }
        let values = text::RowValues {
            reference_time: ref_time,
            reference_noise: ref_shown.shown()?,
            compare_time: cmp_time,
            compare_noise: cmp_shown.shown()?,
            diff,
            fraction,
            verdict,
        };
        text::push_values(&mut row, &values, self.settings.no_color);
        let entry = if self.settings.plot {
            Some((
                format_axis_values(axis_values, axes, filters)?,
                fraction,
                verdict,
            ))
        } else {
            None
        };
        Ok(Some((row, entry)))
    }

    /// `plot_comparison_entries`: the chart of every shown row's change,
    /// written where the script writes it without a display.
    fn plot(
        &mut self,
        entries: &[PlotEntry],
        device_names: &[Value],
        filters: &[AxisFilter],
    ) -> Result<(), Stop> {
        use crate::rendering::charts::labels::NamePart;
        use crate::rendering::charts::summary::{
            DEFAULT_SUMMARY_OUTPUT, NO_SUMMARY_DATA, SummaryEntry, SummaryPlan,
        };
        if entries.is_empty() {
            writeln!(self.out, "{NO_SUMMARY_DATA}")?;
            return Ok(());
        }
        let values: Vec<f64> = entries.iter().map(|e| e.fraction).collect();
        check_limits(&values).map_err(raised("--plot"))?;
        let mut title = "GPU timing change".to_string();
        if let [name] = device_names {
            title.push_str(&format!(" - {}", printable(&py_str(name))));
        }
        let pinned: Vec<&str> = filters
            .iter()
            .filter(|f| f.values.len() == 1)
            .map(|f| f.display.as_str())
            .collect();
        if !pinned.is_empty() {
            title.push_str(&format!(" ({})", pinned.join(", ")));
        }
        let bars = entries
            .iter()
            .map(|e| {
                let mut name = vec![NamePart::new("benchmark", printable(&e.benchmark), 0)];
                if !e.label_axes.is_empty() {
                    name.push(NamePart::new("axes", printable(&e.label_axes), 1));
                }
                SummaryEntry {
                    name,
                    fraction: e.fraction,
                    range: None,
                    status: e.verdict.label(),
                    benchmark: e.benchmark.clone(),
                }
            })
            .collect();
        let plan = SummaryPlan::new(bars);
        let path = std::path::Path::new(DEFAULT_SUMMARY_OUTPUT);
        let chart = plan
            .draw_part(0..entries.len(), &title, self.settings.dark, path)
            .map_err(|e| raised("--plot")(Raised::new("RuntimeError", e)))?;
        crate::output::atomic::write_file(path, &chart.bytes)
            .map_err(|e| raised("--plot")(super::os_error(&e, DEFAULT_SUMMARY_OUTPUT)))?;
        writeln!(self.out, "{}", chart.saved)?;
        Ok(())
    }
}

/// What `--plot-along` keeps of a state: the series (the other axes) and
/// the plotted axis's value.
fn along_point(
    axis_values: &Value,
    plot_along: &str,
    noises_are_numbers: bool,
) -> Result<AlongPoint, Raised> {
    let mut series = Vec::new();
    let mut key = None;
    let wanted = Value::String(plot_along.to_string());
    for axis_value in iterate(axis_values)? {
        let name = getitem(&axis_value, "name")?;
        if !equal(name, &wanted) {
            series.push(format!(
                "{} = {}",
                py_str(name),
                py_str(getitem(&axis_value, "value")?)
            ));
        } else {
            key = Some(to_float(getitem(&axis_value, "value")?)?);
        }
    }
    Ok(AlongPoint {
        series: series.join(", "),
        key,
        noises_are_numbers,
    })
}

/// The script's `plot_line` calls after a table: `float()` of every key
/// and `y * noise` of every point kept (a later state of the same series
/// and key replaces an earlier one, as in the script's dicts).
fn check_along(points: &[AlongPoint]) -> Result<(), Raised> {
    let mut kept: Vec<&AlongPoint> = Vec::new();
    for point in points {
        let same = |p: &&AlongPoint| {
            p.series == point.series
                && match (p.key, point.key) {
                    (None, None) => true,
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
        };
        match kept.iter().position(same) {
            Some(at) => kept[at] = point,
            None => kept.push(point),
        }
    }
    if kept.iter().any(|p| p.key.is_none()) {
        return Err(Raised::new(
            "ValueError",
            "could not convert string to float: '--'",
        ));
    }
    if kept.iter().any(|p| !p.noises_are_numbers) {
        return Err(Raised::new(
            "TypeError",
            "unsupported operand type(s) for *: 'float' and a noise that is no number",
        ));
    }
    Ok(())
}

/// matplotlib's `set_xlim` refuses limits that are NaN or infinite.
fn check_limits(values: &[f64]) -> Result<(), Raised> {
    // Python's min() and max() keep the first value unless another is
    // smaller (larger): a NaN first stays.
    let first = values[0];
    let min = values.iter().fold(first, |m, &v| if v < m { v } else { m });
    let max = values.iter().fold(first, |m, &v| if v > m { v } else { m });
    let (low, high) = if min == max {
        let pad = if min == 0.0 { 0.05 } else { min.abs() * 0.1 };
        (min - pad, max + pad)
    } else {
        let pad = (max - min) * 0.1;
        (min - pad, max + pad)
    };
    if low.is_finite() && high.is_finite() {
        Ok(())
    } else {
        Err(Raised::new(
            "ValueError",
            "Axis limits cannot be NaN or Inf",
        ))
    }
}
