//! `--plot` and `--plot-along`: which decided states become bars and
//! series, where the charts are written, and what is printed about them.
//! The drawing itself lives in the [`summary`](super::summary) and
//! [`along`](super::along) modules.

use std::path::Path;

use crate::deciding::report::{RecordAxes, StateRecord};
use crate::failure::Failure;
use crate::matching::filters::AxisFilter;
use crate::rendering::charts::along::{
    AlongAxis, AlongPoint, AlongSeries, along_axis_value, draw_along_chart, missing_along_axis,
};
use crate::rendering::charts::labels::{NamePart, section};
use crate::rendering::charts::legend::{COMPARE_KEY, REFERENCE_KEY};
use crate::rendering::charts::output::{ChartFile, OutputPaths, PlotKind, numbered_path};
use crate::rendering::charts::summary::{
    DEFAULT_SUMMARY_OUTPUT, NO_SUMMARY_DATA, SummaryEntry, SummaryPlan, summary_title,
};
use crate::rendering::charts::template::along_output_path;
use crate::text::printable::printable;

/// Where `--plot-along` charts go without `--plot-along-output`: the
/// reference draws them only on a display; a file keeps them usable in CI.
pub const DEFAULT_ALONG_TEMPLATE: &str = "nvbench_compare-{benchmark}-{axis}-{pair}.png";

/// The chart options of the command line.
#[derive(Debug, Clone, Default)]
pub struct ChartSettings {
    pub summary: bool,
    pub summary_output: Option<String>,
    pub dark: bool,
    pub along: Option<String>,
    pub along_template: Option<String>,
    /// "No comparison data to plot." goes to stderr, as the robust
    /// command prints it (else stdout).
    pub no_data_on_stderr: bool,
}

impl ChartSettings {
    pub fn any(&self) -> bool {
        self.summary || self.along.is_some()
    }
}

/// Chart state of a whole run.
pub struct Charts<'s> {
    settings: &'s ChartSettings,
    paths: OutputPaths,
    /// Bars of the current input pair's summary chart.
    entries: Vec<SummaryEntry>,
    /// Compare device names of those bars.
    device_names: Vec<String>,
    /// Compare device id and name of each bar, to tell the devices of a
    /// multi-GPU file apart in the row labels.
    entry_devices: Vec<(i64, String)>,
}

/// What finishing a chart gives, in order: lines to print and files to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChartEvent {
    /// A line printed with the tables (`stdout`) or on stderr.
    Message { text: String, stdout: bool },
    /// A chart file; its `saved` line is printed where `stdout` says once
    /// it is written.
    File { file: ChartFile, stdout: bool },
}

/// `name=display` parts of the axes not pinned by a single-valued filter
/// (the title names those).
fn axis_parts(values: &RecordAxes, filters: &[AxisFilter]) -> Vec<NamePart> {
    values
        .iter()
        .filter(|v| {
            !filters
                .iter()
                .any(|f| f.values.len() == 1 && f.name == v.name)
        })
        .map(|v| {
            // Control characters are not allowed in SVG text.
            let text = printable(&format!("{}={}", v.name, v.display)).into_owned();
            NamePart::new(format!("axis {}", v.name), text, section::AXES)
        })
        .collect()
}

/// Whether a side of the state merges several runs (`--vs` with
/// repetitions): its interval is then the hull of the runs' intervals,
/// drawn as whiskers. A single run a side (N-way without repetitions)
/// draws as a pair does.
fn merges_runs(record: &StateRecord) -> bool {
    record
        .repetitions
        .as_ref()
        .is_some_and(|r| r.reference.reps() > 1 || r.compare.reps() > 1)
}

/// Repetition mode: the lowest and highest change the runs' interval
/// hulls allow (`compare lower / reference upper - 1` to `compare upper /
/// reference lower - 1`).
fn hull_change(record: &StateRecord) -> Option<(f64, f64)> {
    if !merges_runs(record) {
        return None;
    }
    let c = &record.comparison;
    let (r, m) = (c.ref_interval()?, c.cmp_interval()?);
    let (low, high) = (m.lower / r.upper - 1.0, m.upper / r.lower - 1.0);
    (low.is_finite() && high.is_finite()).then_some((low, high))
}

impl<'s> Charts<'s> {
    pub fn new(settings: &'s ChartSettings) -> Self {
        Charts {
            settings,
            paths: OutputPaths::new(),
            entries: Vec::new(),
            device_names: Vec::new(),
            entry_devices: Vec::new(),
        }
    }

    /// A displayed row becomes a bar; a row without a finite change (a
    /// `????` row) keeps its place, marked as having none.
    pub fn add_row(
        &mut self,
        record: &StateRecord,
        filters: &[AxisFilter],
        device_name: Option<String>,
    ) {
        self.add_labelled_row(record, filters, device_name, None);
    }

    /// A bar whose label ends with the candidate it is about (N-way: the
    /// bars of a state stand together, one per candidate).
    pub fn add_labelled_row(
        &mut self,
        record: &StateRecord,
        filters: &[AxisFilter],
        device_name: Option<String>,
        candidate: Option<&str>,
    ) {
        if !self.settings.summary {
            return;
        }
        let fraction = record
            .comparison
            .frac_diff()
            .filter(|f| f.is_finite())
            .unwrap_or(f64::NAN);
        let benchmark = printable(&record.pair.benchmark).into_owned();
        let mut name = vec![NamePart::new("benchmark", benchmark, section::BENCHMARK)];
        name.extend(axis_parts(&record.axis_values, filters));
        if let Some(candidate) = candidate {
            let text = printable(candidate).into_owned();
            name.push(NamePart::new("candidate", text, section::CANDIDATE));
        }
        let device_name = device_name.map(|n| printable(&n).into_owned());
        if let Some(name) = &device_name
            && !self.device_names.contains(name)
        {
            self.device_names.push(name.clone());
        }
        self.entry_devices
            .push((record.pair.devices.1, device_name.unwrap_or_default()));
        self.entries.push(SummaryEntry {
            name,
            fraction,
            range: hull_change(record),
            status: record.comparison.status.label(),
            benchmark: record.pair.benchmark.to_string(),
        });
    }

    /// Draws the summary chart of one input pair (the reference draws one per pair).
    pub fn finish_input_pair(
        &mut self,
        global_filters: &[AxisFilter],
    ) -> Result<Vec<ChartEvent>, Failure> {
        let mut events = Vec::new();
        if !self.settings.summary {
            return Ok(events);
        }
        let mut entries = std::mem::take(&mut self.entries);
        let device_names = std::mem::take(&mut self.device_names);
        label_devices(&mut entries, &std::mem::take(&mut self.entry_devices));
        // The reference draws no chart when no row has a change.
        if entries.iter().all(|e| !e.fraction.is_finite()) {
            events.push(ChartEvent::Message {
                text: NO_SUMMARY_DATA.to_string(),
                stdout: !self.settings.no_data_on_stderr,
            });
            return Ok(events);
        }
        let displays: Vec<String> = global_filters
            .iter()
            .filter(|f| f.values.len() == 1)
            .map(|f| f.display.clone())
            .collect();
        let title = printable(&summary_title(&device_names, &displays)).into_owned();
        let requested = self
            .settings
            .summary_output
            .as_deref()
            .unwrap_or(DEFAULT_SUMMARY_OUTPUT);
        let plan = SummaryPlan::new(entries);
        let parts = plan.parts();
        if parts.len() > 1 {
            let text = split_message(plan.len(), parts.len(), plan.rows_per_chart(), requested);
            events.push(ChartEvent::Message {
                text,
                stdout: self.summary_messages_on_stdout(),
            });
        }
        for (index, rows) in parts.iter().enumerate() {
            let (requested, title) = if parts.len() > 1 {
                let part = format!("{title} (part {} of {})", index + 1, parts.len());
                (numbered_path(requested, index + 1), part)
            } else {
                (requested.to_string(), title.clone())
            };
            let (path, warning) = self.paths.claim(&requested, PlotKind::Summary);
            if let Some(text) = warning {
                events.push(ChartEvent::Message {
                    text,
                    stdout: false,
                });
            }
            let file = plan
                .draw_part(rows.clone(), &title, self.settings.dark, Path::new(&path))
                .map_err(Failure::Fatal)?;
            events.push(ChartEvent::File {
                file,
                stdout: self.summary_messages_on_stdout(),
            });
        }
        Ok(events)
    }

    /// Without --plot-output the reference's `Saved ...` line goes to
    /// stdout, where the reference prints it; upstream prints it on stderr
    /// otherwise. Other summary chart messages go with it.
    fn summary_messages_on_stdout(&self) -> bool {
        self.settings.summary_output.is_none()
    }

    /// The compare and reference series of one device pair along the axis:
    /// one pair of series per combination of the other axes' values, and
    /// the values every state shares (said under the title).
    fn along_series(
        axis: &str,
        records: &[StateRecord],
    ) -> Result<(Vec<AlongSeries>, String), Failure> {
        let mut placed = Vec::new();
        for record in records {
            if let Some((x, key)) = along_place(axis, record)? {
                placed.push((x, key, record));
            }
        }
        let common = shared_values(placed.iter().map(|(_, key, _)| key.as_slice()));
        let mut keys: Vec<&[AxisValue]> = Vec::new();
        let mut series: Vec<AlongSeries> = Vec::new();
        for (x, key, record) in &placed {
            let index = match keys.iter().position(|k| *k == key.as_slice()) {
                Some(group) => 2 * group,
                None => {
                    let group = keys.len();
                    keys.push(key);
                    let label = key_label(key, &common);
                    series.push(along_line(&label, (COMPARE_KEY, 1), group));
                    series.push(along_line(&label, (REFERENCE_KEY, 0), group));
                    2 * group
                }
            };
            // A side's measured point is drawn even when the other side has
            // none (a state the compare run skipped keeps its reference point).
            series[index].points.extend(side_point(*x, record, false));
            series[index + 1]
                .points
                .extend(side_point(*x, record, true));
        }
        Ok((series, key_label(&common, &[])))
    }

    /// N-way: per combination of the other axes' values (a colour) the
    /// baseline's series (dashed) and one series per candidate (each its
    /// own marker and dash);
    /// `states` hold each candidate's record of a state, `labels` the
    /// sides' labels (baseline first). Also gives the values every state
    /// shares.
    fn nway_along_series(
        axis: &str,
        states: &[Vec<Option<&StateRecord>>],
        labels: &[String],
    ) -> Result<(Vec<AlongSeries>, String), Failure> {
        let mut placed = Vec::new();
        for records in states {
            for record in records.iter().flatten() {
                if let Some((x, key)) = along_place(axis, record)? {
                    placed.push((x, key, records));
                    break;
                }
            }
        }
        let common = shared_values(placed.iter().map(|(_, key, _)| key.as_slice()));
        let sides = labels.len();
        let mut keys: Vec<&[AxisValue]> = Vec::new();
        let mut series: Vec<AlongSeries> = Vec::new();
        for (x, key, records) in &placed {
            let base = match keys.iter().position(|k| *k == key.as_slice()) {
                Some(index) => index * sides,
                None => {
                    let group = keys.len();
                    keys.push(key);
                    let key = key_label(key, &common);
                    for (side, label) in labels.iter().enumerate() {
                        let side_name = printable(label);
                        series.push(along_line(&key, (&side_name, side), group));
                    }
                    series.len() - sides
                }
            };
            // The baseline's point comes from the first record that has it.
            let baseline = records
                .iter()
                .flatten()
                .find_map(|r| side_point(*x, r, true));
            series[base].points.extend(baseline);
            for (candidate, record) in records.iter().enumerate() {
                if let Some(record) = record {
                    let point = side_point(*x, record, false);
                    series[base + candidate + 1].points.extend(point);
                }
            }
        }
        Ok((series, key_label(&common, &[])))
    }

    /// Draws the along chart of one device pair, titled with the benchmark
    /// and the compare device's name.
    pub fn finish_device_pair(
        &mut self,
        records: &[StateRecord],
        device: (i64, usize),
        device_name: &str,
    ) -> Result<Vec<ChartEvent>, Failure> {
        let Some(axis) = self.settings.along.as_deref() else {
            return Ok(Vec::new());
        };
        let (series, shared) = Self::along_series(axis, records)?;
        self.along_chart(
            axis,
            (&series, &shared),
            records.iter(),
            device,
            device_name,
        )
    }

    /// N-way: the along chart of one baseline device section, a series per
    /// side (the baseline dashed); `states` hold each candidate's record of
    /// a state, `labels` the sides' labels, baseline first.
    pub fn finish_nway_device_pair(
        &mut self,
        states: &[Vec<Option<&StateRecord>>],
        labels: &[String],
        device: (i64, usize),
        device_name: &str,
    ) -> Result<Vec<ChartEvent>, Failure> {
        let Some(axis) = self.settings.along.as_deref() else {
            return Ok(Vec::new());
        };
        let (series, shared) = Self::nway_along_series(axis, states, labels)?;
        let records = states.iter().flatten().flatten().copied();
        self.along_chart(axis, (&series, &shared), records, device, device_name)
    }

    /// Draws an along chart of `series` for one device pair, titled with
    /// the benchmark and the device's name, the axis values every state
    /// shares (`shared`) under the title.
    fn along_chart<'r>(
        &mut self,
        axis: &str,
        (series, shared): (&[AlongSeries], &str),
        records: impl Iterator<Item = &'r StateRecord> + Clone,
        device: (i64, usize),
        device_name: &str,
    ) -> Result<Vec<ChartEvent>, Failure> {
        let mut events = Vec::new();
        if series.iter().all(|s| s.points.is_empty()) {
            return Ok(events);
        }
        let benchmark = records.clone().next().map_or("", |r| &*r.pair.benchmark);
        let template = self
            .settings
            .along_template
            .as_deref()
            .unwrap_or(DEFAULT_ALONG_TEMPLATE);
        let requested = along_output_path(template, benchmark, device.0, axis, device.1)
            .map_err(Failure::Fatal)?;
        let (path, warning) = self.paths.claim(&requested, PlotKind::Along);
        if let Some(text) = warning {
            events.push(ChartEvent::Message {
                text,
                stdout: false,
            });
        }
        let title = match device_name {
            "" => printable(&format!("{benchmark} (device {})", device.0)).into_owned(),
            name => printable(&format!("{benchmark} - {name} (device {})", device.0)).into_owned(),
        };
        let axis_name = printable(axis).into_owned();
        let along_axis = AlongAxis {
            name: &axis_name,
            pow2: is_pow2_axis(axis, records),
        };
        let file = draw_along_chart(&title, shared, along_axis, series, Path::new(&path))
            .map_err(Failure::Fatal)?;
        // As for --plot: the `Saved` line goes with the tables unless the
        // file names were chosen (--plot-along-output), then to stderr.
        events.push(ChartEvent::File {
            file,
            stdout: self.settings.along_template.is_none(),
        });
        Ok(events)
    }
}

/// An axis' name and value as the reference writes them in series names.
type AxisValue = (String, String);

/// Where a state goes on an along chart: its axis value as `x` and the
/// other axes' names and values as the series key; `None` when neither
/// side's time is a positive finite number. The reference skips a state
/// when either side lacks a time, which hides the point the other side
/// measured.
fn along_place(axis: &str, record: &StateRecord) -> Result<Option<(f64, Vec<AxisValue>)>, Failure> {
    let c = &record.comparison;
    if !(usable_time(c.ref_time()) || usable_time(c.cmp_time())) {
        return Ok(None);
    }
    let value = record
        .axis_values
        .iter()
        .find(|v| v.name == axis)
        .ok_or_else(|| {
            let names = record.axis_values.iter().map(|v| v.name);
            Failure::fatal(format!(
                "{}{}",
                missing_along_axis(axis, &record.pair.benchmark, &record.state_key),
                axis_hint(axis, names)
            ))
        })?;
    let text = value.value.as_ref().map(|v| v.py_str()).unwrap_or_default();
    let x = along_axis_value(axis, &text).map_err(Failure::Fatal)?;
    let key = record
        .axis_values
        .iter()
        .filter(|v| v.name != axis)
        .map(|v| {
            let value = v.value.as_ref().map(|s| s.py_str()).unwrap_or_default();
            (v.name.to_string(), value)
        })
        .collect();
    Ok(Some((x, key)))
}

/// The axis values every key has, when there are two keys or more (one
/// series says nothing by its name: its values all go under the title).
fn shared_values<'k>(mut keys: impl Iterator<Item = &'k [AxisValue]> + Clone) -> Vec<AxisValue> {
    let Some(first) = keys.next() else {
        return Vec::new();
    };
    first
        .iter()
        .filter(|value| keys.clone().all(|key| key.contains(value)))
        .cloned()
        .collect()
}

/// `name = value, ...` of a key's values other than `shared`.
fn key_label(key: &[AxisValue], shared: &[AxisValue]) -> String {
    let parts: Vec<String> = key
        .iter()
        .filter(|value| !shared.contains(value))
        .map(|(name, value)| format!("{name} = {value}"))
        .collect();
    printable(&parts.join(", ")).into_owned()
}

/// A mistyped `--plot-along` axis: the close names, else the axes there are.
fn axis_hint<'a>(axis: &str, names: impl Iterator<Item = &'a str> + Clone) -> String {
    let close = crate::suggest::close_names(axis, names.clone());
    let quoted = |names: Vec<&str>| {
        names
            .iter()
            .map(|n| crate::pycompat::pyfmt::str_repr(n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !close.is_empty() {
        format!(" (close names: {})", quoted(close))
    } else {
        let all: Vec<&str> = names.collect();
        if all.is_empty() {
            " (the state has no axes)".to_string()
        } else {
            format!(" (its axes are {})", quoted(all))
        }
    }
}

/// An empty series of group `group` named `label`, on the side named
/// `side` with style `style` (0 the reference).
fn along_line(label: &str, (side, style): (&str, usize), group: usize) -> AlongSeries {
    AlongSeries {
        label: label.to_string(),
        side: side.to_string(),
        style,
        group,
        points: Vec::new(),
    }
}

fn usable_time(time: Option<f64>) -> bool {
    time.is_some_and(|t| t.is_finite() && t > 0.0)
}

/// The point of one side of a state, when that side measured a usable
/// time; in repetition mode with the hull of the runs' intervals as its
/// range, and no noise band (the whisker shows the spread).
fn side_point(x: f64, record: &StateRecord, reference: bool) -> Option<AlongPoint> {
    let c = &record.comparison;
    let (time, noise, interval) = if reference {
        (c.ref_time(), c.ref_noise(), c.ref_interval())
    } else {
        (c.cmp_time(), c.cmp_noise(), c.cmp_interval())
    };
    let time = time.filter(|t| usable_time(Some(*t)))?;
    let point = if merges_runs(record) {
        AlongPoint {
            x,
            time,
            noise: None,
            range: interval.map(|i| (i.lower, i.upper)),
        }
    } else {
        AlongPoint {
            x,
            time,
            noise,
            range: None,
        }
    };
    Some(point)
}

/// Appends the compare device to the row labels when the bars come from
/// more than one device, so that the rows of a multi-GPU file can be told
/// apart.
fn label_devices(entries: &mut [SummaryEntry], devices: &[(i64, String)]) {
    let mut ids: Vec<i64> = devices.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() < 2 {
        return;
    }
    // GPUs of one model are told apart by id alone (the title names them).
    let one_model = devices.iter().all(|(_, name)| *name == devices[0].1);
    for (entry, (id, name)) in entries.iter_mut().zip(devices) {
        let text = if one_model || name.is_empty() {
            format!("device {id}")
        } else {
            format!("device {id}: {name}")
        };
        // The candidate, when there is one, stays last.
        let at = entry
            .name
            .iter()
            .position(|p| p.section > section::DEVICE)
            .unwrap_or(entry.name.len());
        entry
            .name
            .insert(at, NamePart::new("device", text, section::DEVICE));
    }
}

/// The message of a summary chart split into numbered files.
fn split_message(rows: usize, files: usize, per_chart: usize, requested: &str) -> String {
    format!(
        "Comparison plot has {rows} rows: splitting it into {files} charts of at most \
         {per_chart} rows, {} to {}",
        numbered_path(requested, 1),
        numbered_path(requested, files)
    )
}

/// NVBench shows the values of a pow2 axis as `2^N`: an axis whose every
/// plotted value reads so gets power-of-two ticks.
fn is_pow2_axis<'r>(axis: &str, records: impl Iterator<Item = &'r StateRecord>) -> bool {
    let mut values = records
        .flat_map(|r| r.axis_values.iter().filter(|v| v.name == axis))
        .peekable();
    values.peek().is_some() && values.all(|v| v.display.starts_with("2^"))
}
