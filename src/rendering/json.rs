//! `--json`: the machine-readable report (schema documented in docs/ci.md).
//! Non-finite numbers are written as `null`.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::deciding::config::{KEYS, Thresholds};
use crate::deciding::decision::{Comparison, Interval};
use crate::deciding::gate::GateOutcome;
use crate::deciding::report::{
    MissingItem, MissingKind, Presence, Report, SidecarFile, StateRecord, geomeans,
};
use crate::loading::scalar::Scalar;
use crate::text::path_text::{bytes_escaped, is_reserved, to_path};

/// Version of the JSON layout; bumped on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

fn finite(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite())
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

/// The preset, then every threshold named by its dotted key with `_` for
/// `.` (`bulk.rare_support.sample_fraction` is
/// `bulk_rare_support_sample_fraction`), in the config table's order.
struct ThresholdsJson<'a> {
    preset: &'a str,
    thresholds: &'a Thresholds,
}

impl Serialize for ThresholdsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2 + KEYS.len()))?;
        map.serialize_entry("preset", self.preset)?;
        map.serialize_entry("rules", self.thresholds.rules.name())?;
        for key in &KEYS {
            let name = key.full_name().replace('.', "_");
            match key.word(self.thresholds) {
                Some(word) => map.serialize_entry(&name, word)?,
                None => map.serialize_entry(&name, &key.value(self.thresholds))?,
            }
        }
        map.end()
    }
}

#[derive(Serialize)]
struct ReasonCount<'a> {
    code: &'a str,
    count: usize,
    message: &'a str,
}

#[derive(Serialize)]
struct Summary<'a> {
    total: usize,
    same: usize,
    fast: usize,
    slow: usize,
    ambiguous: usize,
    unknown: usize,
    new: usize,
    dropped: usize,
    ambiguous_reasons: Vec<ReasonCount<'a>>,
}

#[derive(Serialize)]
struct Geomean {
    /// Geometric mean of compare center / reference center over states that are not `????`.
    overall: Option<f64>,
    benchmarks: Vec<BenchmarkGeomean>,
}

#[derive(Serialize)]
struct BenchmarkGeomean {
    benchmark: String,
    reference_json: String,
    ratio: Option<f64>,
}

#[derive(Serialize)]
struct IntervalJson {
    lower: Option<f64>,
    center: Option<f64>,
    upper: Option<f64>,
}

impl From<&Interval> for IntervalJson {
    fn from(i: &Interval) -> Self {
        IntervalJson {
            lower: finite(Some(i.lower)),
            center: finite(Some(i.center)),
            upper: finite(Some(i.upper)),
        }
    }
}

#[derive(Serialize)]
struct SideJson {
    center: Option<f64>,
    interval: Option<IntervalJson>,
    /// Relative dispersion (IQR or stdev over the center).
    noise: Option<f64>,
    samples: Option<SidecarJson>,
    frequencies: Option<SidecarJson>,
}

#[derive(Serialize)]
struct SidecarJson {
    path: String,
    /// A JSON number of any size (the count as written).
    count: Box<serde_json::value::RawValue>,
}

fn sidecar(file: &SidecarFile) -> Option<SidecarJson> {
    let (path, count) = file.as_ref()?;
    // The count is decimal digits, a valid JSON number.
    let count = serde_json::value::RawValue::from_string(count.clone()).ok()?;
    Some(SidecarJson {
        path: path.clone(),
        count,
    })
}

#[derive(Serialize)]
struct AxisJson<'a> {
    name: &'a str,
    value: Option<String>,
    display: &'a str,
}

#[derive(Serialize)]
struct ReasonJson<'a> {
    code: &'a str,
    short: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct StateJson<'a> {
    benchmark: &'a str,
    reference_json: &'a str,
    compare_json: &'a str,
    reference_device: i64,
    compare_device: i64,
    reference_device_name: Option<&'a str>,
    compare_device_name: Option<&'a str>,
    state_key: &'a str,
    axis_values: Vec<AxisJson<'a>>,
    occurrence: u32,
    occurrence_count: u32,
    status: &'static str,
    reason: ReasonJson<'a>,
    reference: SideJson,
    compare: SideJson,
    /// (compare - reference) / reference of the centers.
    diff_fraction: Option<f64>,
    /// Bounds on the relative change from the intervals: [lower, upper].
    diff_fraction_interval: Option<[Option<f64>; 2]>,
    bulk_evidence: bool,
    displayed: bool,
    /// Google Benchmark input: the U test p-value of the repetitions.
    #[serde(skip_serializing_if = "Option::is_none")]
    utest_p: Option<f64>,
    /// Repetition mode only.
    #[serde(skip_serializing_if = "Option::is_none")]
    repetitions: Option<crate::rendering::repetitions::RepetitionsJson>,
}

fn side(
    center: Option<f64>,
    interval: &Option<Interval>,
    noise: Option<f64>,
    files: [&SidecarFile; 2],
) -> SideJson {
    SideJson {
        center: finite(center),
        interval: interval.as_ref().map(IntervalJson::from),
        noise: finite(noise),
        samples: sidecar(files[0]),
        frequencies: sidecar(files[1]),
    }
}

fn axis_value_text(value: Option<&Scalar>) -> Option<String> {
    value.filter(|v| **v != Scalar::Null).map(Scalar::py_str)
}

fn state(record: &StateRecord) -> StateJson<'_> {
    let c: &Comparison = &record.comparison;
    StateJson {
        benchmark: &record.pair.benchmark,
        reference_json: &record.pair.reference_json,
        compare_json: &record.pair.compare_json,
        reference_device: record.pair.devices.0,
        compare_device: record.pair.devices.1,
        reference_device_name: record.pair.device_names.0.as_deref(),
        compare_device_name: record.pair.device_names.1.as_deref(),
        state_key: &record.state_key,
        axis_values: record
            .axis_values
            .iter()
            .map(|a| AxisJson {
                name: a.name,
                value: axis_value_text(a.value),
                display: a.display,
            })
            .collect(),
        occurrence: record.occurrence,
        occurrence_count: record.occurrence_count,
        status: c.status.label(),
        reason: ReasonJson {
            code: c.reason.code.canonical(),
            short: c.reason.code.display(),
            message: c.reason.message(),
        },
        reference: side(
            c.ref_time(),
            &c.ref_interval(),
            c.ref_noise(),
            [&record.sidecars.files()[0], &record.sidecars.files()[1]],
        ),
        compare: side(
            c.cmp_time(),
            &c.cmp_interval(),
            c.cmp_noise(),
            [&record.sidecars.files()[2], &record.sidecars.files()[3]],
        ),
        diff_fraction: finite(c.frac_diff()),
        diff_fraction_interval: c
            .frac_diff_interval()
            .map(|(l, u)| [finite(Some(l)), finite(Some(u))]),
        bulk_evidence: c.reason.code.uses_bulk_evidence(),
        displayed: record.displayed,
        utest_p: finite(c.utest_p()),
        repetitions: record
            .repetitions
            .as_deref()
            .map(crate::rendering::repetitions::RepetitionsJson::of),
    }
}

#[derive(Serialize)]
struct MissingJson<'a> {
    presence: &'static str,
    kind: &'static str,
    file: &'a str,
    benchmark: Option<&'a str>,
    reference_device: Option<i64>,
    compare_device: Option<i64>,
    state_key: Option<&'a str>,
    occurrence: Option<usize>,
}

fn missing(item: &MissingItem) -> MissingJson<'_> {
    let (kind, devices, key, occurrence) = match &item.kind {
        MissingKind::File => ("file", None, None, None),
        MissingKind::Benchmark => ("benchmark", None, None, None),
        MissingKind::State {
            devices,
            state_key,
            occurrence,
        } => (
            "state",
            Some(*devices),
            Some(state_key.as_str()),
            Some(*occurrence),
        ),
    };
    MissingJson {
        presence: item.presence.label(),
        kind,
        file: &item.file,
        benchmark: item.benchmark.as_deref(),
        reference_device: devices.map(|d| d.0),
        compare_device: devices.map(|d| d.1),
        state_key: key,
        occurrence,
    }
}

#[derive(Serialize)]
struct TrippedJson {
    category: &'static str,
    count: usize,
}

#[derive(Serialize)]
struct GateJson<'a> {
    /// The `--fail-on` categories; empty when the run is not gated.
    fail_on: Vec<&'static str>,
    /// `"passed"`, `"failed"` or `"not gated"`.
    verdict: &'static str,
    tripped: Vec<TrippedJson>,
    /// Why nothing was compared, when nothing was.
    nothing_compared: Option<&'a str>,
}

fn gate_json(gate: &GateOutcome) -> GateJson<'_> {
    GateJson {
        fail_on: gate.selected.iter().map(|c| c.name()).collect(),
        verdict: gate.verdict().name(),
        tripped: gate
            .tripped
            .iter()
            .map(|(category, count)| TrippedJson {
                category: category.name(),
                count: *count,
            })
            .collect(),
        nothing_compared: gate.nothing_compared.as_deref(),
    }
}

#[derive(Serialize)]
struct Document<'a> {
    schema_version: u32,
    tool: Tool,
    thresholds: ThresholdsJson<'a>,
    gate: GateJson<'a>,
    summary: Summary<'a>,
    geomean: Geomean,
    states: Vec<StateJson<'a>>,
    missing: Vec<MissingJson<'a>>,
}

fn tool() -> Tool {
    Tool {
        name: "nvbench-compare",
        version: env!("CARGO_PKG_VERSION"),
    }
}

fn summary_json(report: &Report) -> Summary<'_> {
    let tally = &report.tally;
    Summary {
        total: tally.total,
        same: tally.same,
        fast: tally.fast,
        slow: tally.slow,
        ambiguous: tally.undecided,
        unknown: tally.unknown,
        new: report.count_missing(Presence::New),
        dropped: report.count_missing(Presence::Dropped),
        ambiguous_reasons: tally
            .undecided_reasons()
            .into_iter()
            .map(|(code, count, message)| ReasonCount {
                code: code.canonical(),
                count,
                message,
            })
            .collect(),
    }
}

fn geomean_json(report: &Report) -> Geomean {
    let (overall, per_benchmark) = geomeans(&report.records);
    Geomean {
        overall: finite(overall),
        benchmarks: per_benchmark
            .into_iter()
            .map(|g| BenchmarkGeomean {
                benchmark: g.benchmark,
                reference_json: g.reference_json,
                ratio: finite(Some(g.ratio)),
            })
            .collect(),
    }
}

fn pretty(document: &impl Serialize) -> String {
    let text = serde_json::to_string_pretty(document)
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    let mut text = with_exact_bytes(text);
    text.push('\n');
    text
}

/// The document with every text that holds bytes of a non-UTF-8 name (a
/// file name, or a name read from a lone `\udcXX` escape) written as valid
/// text, those bytes shown `\xff` as on stdout, and the exact bytes beside
/// it in hex: `"path": "d\\xff/r.json"` and `"path_bytes": "64ff2f722e6a736f6e"`
/// (Python: `os.fsdecode(bytes.fromhex(...))` names the file). Strict JSON
/// readers (serde_json, jq) refuse the lone surrogates Python would read.
/// A list of such texts gets a list of hex texts beside it. Documents
/// without such bytes (nearly all) are left as they are.
fn with_exact_bytes(text: String) -> String {
    if !text.chars().any(is_reserved) {
        return text;
    }
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(mut document) => {
            exact_bytes_beside_texts(&mut document);
            serde_json::to_string_pretty(&document).unwrap_or(text)
        }
        Err(_) => text,
    }
}

fn exact_bytes_beside_texts(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut value) in entries {
                exact_bytes_beside_texts(&mut value);
                let bytes = exact_bytes_of(&value);
                map.insert(key.clone(), shown_as_text(value));
                if let Some(bytes) = bytes {
                    map.insert(format!("{key}_bytes"), bytes);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(exact_bytes_beside_texts),
        _ => {}
    }
}

/// The hex of a text holding odd bytes, or of each text of a list that
/// holds one (`null` for entries that are not texts).
fn exact_bytes_of(value: &serde_json::Value) -> Option<serde_json::Value> {
    use serde_json::Value;
    let odd = |text: &str| text.chars().any(is_reserved);
    match value {
        Value::String(text) if odd(text) => Some(Value::String(hex_bytes(text))),
        Value::Array(items) if items.iter().any(|i| i.as_str().is_some_and(odd)) => {
            let hex = |item: &Value| item.as_str().map(|t| Value::String(hex_bytes(t)));
            Some(Value::Array(
                items
                    .iter()
                    .map(|i| hex(i).unwrap_or(Value::Null))
                    .collect(),
            ))
        }
        _ => None,
    }
}

fn shown_as_text(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(text) => Value::String(bytes_escaped(&text).into_owned()),
        Value::Array(items) => Value::Array(items.into_iter().map(shown_as_text).collect()),
        other => other,
    }
}

/// The bytes a text stands for (`text::path_text`), in lowercase hex.
fn hex_bytes(text: &str) -> String {
    let path = to_path(text);
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str());
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The whole JSON report, pretty-printed, ending with a newline.
pub fn render_json(report: &Report, gate: &GateOutcome, preset: &str, t: &Thresholds) -> String {
    let document = Document {
        schema_version: SCHEMA_VERSION,
        tool: tool(),
        thresholds: ThresholdsJson {
            preset,
            thresholds: t,
        },
        gate: gate_json(gate),
        summary: summary_json(report),
        geomean: geomean_json(report),
        states: report.records.iter().map(state).collect(),
        missing: report.missing.iter().map(missing).collect(),
    };
    pretty(&document)
}

/// Version of the N-way JSON layout (pairs and `--vs` keep version 1).
pub const NWAY_SCHEMA_VERSION: u32 = 2;

/// The sides of an N-way run: the baseline's label and paths, and each
/// candidate's label, paths, report and gate.
pub struct NWaySides<'a> {
    pub baseline: (&'a str, &'a [String]),
    pub candidates: Vec<(&'a str, &'a [String], &'a Report, &'a GateOutcome)>,
}

#[derive(Serialize)]
struct SideLabel<'a> {
    label: &'a str,
    paths: &'a [String],
}

#[derive(Serialize)]
struct CandidateJson<'a> {
    label: &'a str,
    paths: &'a [String],
    gate: GateJson<'a>,
    summary: Summary<'a>,
    geomean: Geomean,
    states: Vec<StateJson<'a>>,
    missing: Vec<MissingJson<'a>>,
}

#[derive(Serialize)]
struct NWayDocument<'a> {
    schema_version: u32,
    tool: Tool,
    thresholds: ThresholdsJson<'a>,
    baseline: SideLabel<'a>,
    candidates: Vec<CandidateJson<'a>>,
}

/// The N-way JSON report (`schema_version` 2): the baseline, and per
/// candidate its gate, summary, geomean, states and missing items, each as
/// in version 1.
pub fn render_json_nway(sides: &NWaySides, preset: &str, t: &Thresholds) -> String {
    let document = NWayDocument {
        schema_version: NWAY_SCHEMA_VERSION,
        tool: tool(),
        thresholds: ThresholdsJson {
            preset,
            thresholds: t,
        },
        baseline: SideLabel {
            label: sides.baseline.0,
            paths: sides.baseline.1,
        },
        candidates: sides
            .candidates
            .iter()
            .map(|(label, paths, report, gate)| CandidateJson {
                label,
                paths,
                gate: gate_json(gate),
                summary: summary_json(report),
                geomean: geomean_json(report),
                states: report.records.iter().map(state).collect(),
                missing: report.missing.iter().map(missing).collect(),
            })
            .collect(),
    };
    pretty(&document)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::config::preset;

    #[test]
    fn thresholds_are_named_by_their_dotted_keys() {
        let report = Report::default();
        let gate = GateOutcome::decide(&report, &[], None);
        let t = Thresholds {
            same_overlap_fraction: 0.3,
            ..preset("strict").unwrap()
        };
        let text = render_json(&report, &gate, "strict", &t);
        let document: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::to_string(&document["thresholds"]).unwrap(),
            "{\"preset\":\"strict\",\"rules\":\"nvbench_compare.py@4fabe3f\",\"clear_gap_relative\":0.01,\"clear_gap_without_clock\":\"ambg\",\
             \"same_center_relative\":0.0025,\
             \"same_overlap_fraction\":0.3,\"same_relative_dispersion_ceiling\":0.01,\
             \"bulk_sample_coverage\":0.995,\"bulk_support_coverage\":0.9,\
             \"bulk_rare_support_sample_fraction\":0.001,\
             \"bulk_rare_support_max_removed_sample_fraction\":0.005}"
        );
        assert!(
            text.contains("  \"thresholds\": {\n    \"preset\": \"strict\",\n    \"rules\": \"nvbench_compare.py@4fabe3f\",\n    \"clear_gap_relative\": 0.01,\n"),
            "{text}"
        );
    }

    #[test]
    fn odd_bytes_are_valid_text_with_their_exact_bytes_beside() {
        let odd = crate::text::path_text::to_text(std::os::unix::ffi::OsStrExt::from_bytes(
            b"d\xff/r.json",
        ));
        let document = serde_json::json!({
            "file": odd, "clean": "x", "paths": ["a.json", odd], "n": 1
        });
        let text = with_exact_bytes(serde_json::to_string_pretty(&document).unwrap());
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back,
            serde_json::json!({
                "file": "d\\xff/r.json", "file_bytes": "64ff2f722e6a736f6e", "clean": "x",
                "paths": ["a.json", "d\\xff/r.json"],
                "paths_bytes": ["612e6a736f6e", "64ff2f722e6a736f6e"], "n": 1
            })
        );
        let keys: Vec<_> = back.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["file", "file_bytes", "clean", "paths", "paths_bytes", "n"]
        );
        assert!(text.is_ascii() && !text.contains("\\udc"), "{text}");
    }
}
