//! Google Benchmark JSON results (`--benchmark_format=json` or
//! `--benchmark_out`): recognising a file by its shape, reading its
//! entries as the library writes them ([`GbenchFile`]), and mapping them
//! into the comparison's model ([`mapping`], with run names parsed by
//! [`names`]): one device section per file, a benchmark per family, a state
//! per instance, a sample per repetition. Spec: `gbench-input.md`.

pub mod mapping;
pub mod names;

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::failure::Failure;
use crate::loading::mapped::open_input;
use crate::loading::opening::{cannot_read, out_of_memory};
use crate::loading::scalar::{Scalar, present};

/// Which reader a file is given to (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// By the file's shape.
    #[default]
    Auto,
    NvBench,
    Gbench,
}

/// One entry of `benchmarks`, as written (only what is read is kept).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Entry {
    #[serde(default, deserialize_with = "present")]
    pub name: Option<Scalar>,
    #[serde(default)]
    pub run_name: Option<String>,
    #[serde(default)]
    pub run_type: Option<String>,
    #[serde(default)]
    pub aggregate_name: Option<String>,
    #[serde(default)]
    pub aggregate_unit: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub family_index: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub per_family_instance_index: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub repetition_index: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub repetitions: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub threads: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub iterations: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub real_time: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub cpu_time: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub time_unit: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub error_occurred: Option<Scalar>,
    #[serde(default)]
    pub error_message: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub skipped: Option<Scalar>,
    #[serde(default)]
    pub skip_message: Option<String>,
    #[serde(default)]
    pub label: Option<String>,
    /// BigO (`big_o`, `cpu_coefficient`) and RMS (`rms`) entries have no times.
    #[serde(default)]
    pub big_o: Option<IgnoredAny>,
    #[serde(default)]
    pub rms: Option<IgnoredAny>,
    /// Only looked at to tell an NVBench benchmark from a gbench entry.
    #[serde(default)]
    pub states: Option<IgnoredAny>,
}

impl Entry {
    /// The `name` as text (it is a string in every file the library writes).
    pub fn name(&self) -> &str {
        self.name.as_ref().and_then(Scalar::as_str).unwrap_or("")
    }

    pub fn is_aggregate(&self) -> bool {
        self.run_type.as_deref() == Some("aggregate")
    }

    /// The time unit as written (`ns`, `us`, `ms`, `s`).
    pub fn unit(&self) -> Option<&str> {
        self.time_unit.as_ref().and_then(Scalar::as_str)
    }

    /// `real_time` / `cpu_time` as Python's `float()` reads them.
    pub fn time(&self, cpu: bool) -> Option<f64> {
        let value = if cpu { &self.cpu_time } else { &self.real_time };
        value.as_ref().and_then(|v| v.py_float().ok().flatten())
    }

    /// A repetition that failed (`SkipWithError`) or was skipped (`SkipWithMessage`).
    pub fn failed(&self) -> bool {
        let truthy = |v: &Option<Scalar>| v.as_ref().is_some_and(Scalar::truthy);
        truthy(&self.error_occurred) || truthy(&self.skipped)
    }

    /// The message of a failed repetition.
    pub fn failure_message(&self) -> Option<&str> {
        self.error_message
            .as_deref()
            .or(self.skip_message.as_deref())
    }

    /// A BigO or RMS entry of `Complexity()`: no times to compare.
    pub fn is_complexity(&self) -> bool {
        self.big_o.is_some()
            || self.rms.is_some()
            || matches!(self.aggregate_name.as_deref(), Some("BigO" | "RMS"))
    }
}

/// The seconds one `time_unit` stands for (compare.py's table).
pub fn unit_seconds(unit: &str) -> Option<f64> {
    match unit {
        "s" => Some(1.0),
        "ms" => Some(1e-3),
        "us" => Some(1e-6),
        "ns" => Some(1e-9),
        _ => None,
    }
}

/// A whole file as read.
#[derive(Debug, Deserialize)]
struct RawFile {
    #[serde(default)]
    context: Option<serde_json::Value>,
    #[serde(default)]
    benchmarks: Option<Vec<Entry>>,
    #[serde(default)]
    meta: Option<IgnoredAny>,
    #[serde(default)]
    devices: Option<IgnoredAny>,
}

/// A Google Benchmark result file.
#[derive(Debug, Clone)]
pub struct GbenchFile {
    /// `context`: host, CPUs, caches, library version and build type.
    pub context: serde_json::Map<String, serde_json::Value>,
    pub entries: Vec<Entry>,
}

impl GbenchFile {
    /// A `context` field as text (strings as they are, numbers and
    /// booleans as JSON writes them).
    pub fn context_text(&self, key: &str) -> Option<String> {
        match self.context.get(key)? {
            serde_json::Value::String(text) => Some(text.clone()),
            serde_json::Value::Null => None,
            other => Some(other.to_string()),
        }
    }
}

/// What a JSON document is, by its shape.
enum Shape {
    Gbench(GbenchFile),
    /// `--benchmark_list_tests` with JSON output: names, no results.
    Listing,
    NotGbench(String),
}

/// The context keys every library version writes one of.
const CONTEXT_KEYS: [&str; 3] = ["num_cpus", "library_build_type", "json_schema_version"];

fn shape(file: RawFile) -> Shape {
    if file.meta.is_some() || file.devices.is_some() {
        return Shape::NotGbench("it has NVBench's 'meta'/'devices' sections".into());
    }
    let Some(benchmarks) = file.benchmarks else {
        return Shape::NotGbench("it has no 'benchmarks' list".into());
    };
    if benchmarks.iter().any(|b| b.states.is_some()) {
        return Shape::NotGbench("its benchmarks have NVBench 'states'".into());
    }
    let context = match file.context {
        Some(serde_json::Value::Object(context)) => context,
        _ => {
            let names_only = benchmarks
                .iter()
                .all(|b| b.real_time.is_none() && b.run_name.is_none());
            return if names_only && !benchmarks.is_empty() {
                Shape::Listing
            } else {
                Shape::NotGbench("it has no 'context' object".into())
            };
        }
    };
    if !CONTEXT_KEYS.iter().any(|key| context.contains_key(*key)) {
        return Shape::NotGbench(
            "its 'context' has none of num_cpus, library_build_type, json_schema_version".into(),
        );
    }
    Shape::Gbench(GbenchFile {
        context,
        entries: benchmarks,
    })
}

/// Why a file could not be read as Google Benchmark JSON.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// Not JSON (or not JSON of the expected types).
    Json(String),
    /// JSON, but not a Google Benchmark result file.
    Shape(String),
}

/// Parses a Google Benchmark file's bytes (NaN and Infinity literals and
/// duplicate keys read as Python reads them).
fn parse(bytes: &[u8]) -> Result<RawFile, ReadError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{') {
        // Valid JSON or not, it is no result file.
        return match serde_json::from_slice::<IgnoredAny>(bytes) {
            Ok(_) => Err(ReadError::Shape(
                "the top level is not a JSON object".into(),
            )),
            Err(e) => Err(ReadError::Json(e.to_string())),
        };
    }
    match serde_json::from_slice::<RawFile>(bytes) {
        Ok(file) => Ok(file),
        Err(error) if crate::pycompat::pyjson::worth_retrying(&error, bytes) => {
            match crate::pycompat::pyjson::python_compatible(bytes) {
                Ok(Some(text)) => {
                    serde_json::from_slice(&text).map_err(|_| ReadError::Json(error.to_string()))
                }
                Ok(None) => Err(ReadError::Json(error.to_string())),
                Err(_) => Err(ReadError::Io(out_of_memory())),
            }
        }
        Err(error) => Err(ReadError::Json(error.to_string())),
    }
}

/// Reads a file as Google Benchmark JSON.
pub fn read_file(path: &str) -> Result<GbenchFile, ReadError> {
    let bytes = open_input(path).map_err(ReadError::Io)?;
    match shape(parse(bytes.as_ref())?) {
        Shape::Gbench(file) => Ok(file),
        Shape::Listing => Err(ReadError::Shape(
            "it lists benchmark names only (--benchmark_list_tests): run the benchmarks with --benchmark_format=json or --benchmark_out to get results".into(),
        )),
        Shape::NotGbench(why) => Err(ReadError::Shape(why)),
    }
}

/// Whether a file that the NVBench reader refused is a Google Benchmark
/// file (or a listing of one, which is an error of its own).
pub fn read_if_gbench(path: &str) -> Option<Result<GbenchFile, Failure>> {
    let bytes = open_input(path).ok()?;
    let raw = parse(bytes.as_ref()).ok()?;
    match shape(raw) {
        Shape::Gbench(file) => Some(Ok(file)),
        Shape::Listing => Some(Err(listing_failure(path))),
        Shape::NotGbench(_) => None,
    }
}

fn listing_failure(path: &str) -> Failure {
    Failure::fatal(format!(
        "{path}: a Google Benchmark listing of benchmark names only (--benchmark_list_tests), without results: run the benchmarks with --benchmark_format=json or --benchmark_out"
    ))
}

/// The failure of [`read_file`], in this tool's words.
pub fn read_failure(path: &str, error: ReadError) -> Failure {
    match error {
        ReadError::Io(e) => Failure::fatal(cannot_read(&e, path)),
        ReadError::Json(why) => Failure::fatal(format!(
            "{path}: not a valid Google Benchmark JSON file: {why}"
        )),
        ReadError::Shape(why) if why.contains("--benchmark_list_tests") => listing_failure(path),
        ReadError::Shape(why) => {
            Failure::fatal(format!("{path}: not a Google Benchmark JSON file: {why}"))
        }
    }
}

/// compare.py's check: `context.json_schema_version`, when present, must
/// equal 1 as Python compares (`1.0` and `true` pass, `"1"` does not).
pub fn check_schema_version(path: &str, file: &GbenchFile) -> Result<(), Failure> {
    let Some(version) = file.context.get("json_schema_version") else {
        return Ok(());
    };
    let equals_one = match version {
        serde_json::Value::Number(n) => n.as_f64() == Some(1.0),
        serde_json::Value::Bool(b) => *b,
        _ => false,
    };
    if equals_one {
        return Ok(());
    }
    Err(Failure::reported(format!(
        "In {path}, got unsupported JSON schema version: {}, expected 1",
        py_str(version)
    )))
}

/// Python `str()` of a JSON value as `json.load` gives it.
fn py_str(value: &serde_json::Value) -> String {
    use crate::pycompat::pyfmt::{float_repr, str_repr};
    match value {
        serde_json::Value::Null => "None".into(),
        serde_json::Value::Bool(true) => "True".into(),
        serde_json::Value::Bool(false) => "False".into(),
        serde_json::Value::Number(n) if n.is_f64() => float_repr(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(text) => match crate::pycompat::pyjson::special_float(text) {
            Some(special) => float_repr(special),
            None => text.clone(),
        },
        serde_json::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", items.join(", "))
        }
        serde_json::Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", str_repr(k), py_repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

fn py_repr(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text)
            if crate::pycompat::pyjson::special_float(text).is_none() =>
        {
            crate::pycompat::pyfmt::str_repr(text)
        }
        other => py_str(other),
    }
}

/// Warnings about how a file was measured: a debug build, CPU frequency
/// scaling (both as the library itself warns).
pub fn context_warnings(path: &str, file: &GbenchFile) -> Vec<String> {
    let mut warnings = Vec::new();
    if file.context_text("library_build_type").as_deref() == Some("debug") {
        warnings.push(format!(
            "{path}: the benchmark library was a debug build; its timings may be noisy and slow"
        ));
    }
    if file.context.get("cpu_scaling_enabled") == Some(&serde_json::Value::Bool(true)) {
        warnings.push(format!(
            "{path}: CPU frequency scaling was enabled; real time measurements may be noisy"
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(json: &str) -> Shape {
        shape(parse(json.as_bytes()).unwrap())
    }

    #[test]
    fn detection_by_shape() {
        let gbench = r#"{"context": {"num_cpus": 8}, "benchmarks": [{"name": "BM_x", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}"#;
        assert!(matches!(shape_of(gbench), Shape::Gbench(_)));
        let empty = r#"{"context": {"library_build_type": "release"}, "benchmarks": []}"#;
        assert!(matches!(shape_of(empty), Shape::Gbench(_)));
        let nvbench = r#"{"meta": {}, "devices": [], "benchmarks": []}"#;
        assert!(matches!(shape_of(nvbench), Shape::NotGbench(_)));
        let states = r#"{"context": {"num_cpus": 8}, "benchmarks": [{"name": "b", "states": []}]}"#;
        assert!(matches!(shape_of(states), Shape::NotGbench(_)));
        let listing = r#"{"benchmarks": [{"name": "BM_memcpy/bytes:64"}]}"#;
        assert!(matches!(shape_of(listing), Shape::Listing));
        let odd_context = r#"{"context": {"host": "x"}, "benchmarks": []}"#;
        assert!(matches!(shape_of(odd_context), Shape::NotGbench(_)));
    }

    #[test]
    fn python_literals_are_read() {
        let text = r#"{"context": {"num_cpus": 1}, "benchmarks": [{"name": "a", "real_time": NaN, "cpu_time": Infinity, "time_unit": "ns"}]}"#;
        let Shape::Gbench(file) = shape_of(text) else {
            panic!("not read");
        };
        assert!(file.entries[0].time(false).unwrap().is_nan());
        assert_eq!(file.entries[0].time(true), Some(f64::INFINITY));
    }

    #[test]
    fn schema_versions_compare_as_python_does() {
        let file = |version: &str| GbenchFile {
            context: serde_json::from_str(&format!(r#"{{"json_schema_version": {version}}}"#))
                .unwrap(),
            entries: Vec::new(),
        };
        for ok in ["1", "1.0", "true"] {
            assert!(check_schema_version("f", &file(ok)).is_ok(), "{ok}");
        }
        for (bad, shown) in [("2", "2"), ("\"1\"", "1"), ("null", "None"), ("2.5", "2.5")] {
            assert_eq!(
                check_schema_version("f.json", &file(bad)),
                Err(Failure::reported(format!(
                    "In f.json, got unsupported JSON schema version: {shown}, expected 1"
                )))
            );
        }
    }
}
