//! The NVBench JSON result format: a serde mirror that keeps only what the
//! comparison reads, with JSON scalars kept loosely typed so that the
//! reference's lazy, per-state schema errors can be reproduced.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::pyfmt;
use crate::timing::{Extracted, extract_summary};

/// Any JSON value as far as the comparison cares: scalars are kept, arrays
/// and objects only as a marker.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    /// Integers beyond `i64` (Python ints are unbounded).
    BigInt(String),
    Float(f64),
    Str(String),
    /// Arrays and objects: only whether they are empty (Python truthiness).
    Array {
        empty: bool,
    },
    Object {
        empty: bool,
    },
}

impl Scalar {
    /// Python `str(value)` of the value `json.load` would produce.
    pub fn py_str(&self) -> String {
        match self {
            Scalar::Null => "None".to_string(),
            Scalar::Bool(true) => "True".to_string(),
            Scalar::Bool(false) => "False".to_string(),
            Scalar::Int(value) => value.to_string(),
            Scalar::BigInt(text) => text.clone(),
            Scalar::Float(value) => pyfmt::float_repr(*value),
            Scalar::Str(text) => text.clone(),
            Scalar::Array { empty: true } => "[]".to_string(),
            Scalar::Object { empty: true } => "{}".to_string(),
            Scalar::Array { .. } => "[...]".to_string(),
            Scalar::Object { .. } => "{...}".to_string(),
        }
    }

    /// Python `repr(value)`.
    pub fn py_repr(&self) -> String {
        match self {
            Scalar::Str(text) => pyfmt::str_repr(text),
            other => other.py_str(),
        }
    }

    /// Python truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Scalar::Null => false,
            Scalar::Bool(value) => *value,
            Scalar::Int(value) => *value != 0,
            Scalar::BigInt(_) => true,
            Scalar::Float(value) => *value != 0.0,
            Scalar::Str(text) => !text.is_empty(),
            // Empty containers are falsy in Python (`"is_skipped": {}`).
            Scalar::Array { empty } | Scalar::Object { empty } => !empty,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Str(text) => Some(text),
            _ => None,
        }
    }

    /// Python `float(value)`; `Err` carries the reference's ValueError text,
    /// `Ok(None)` means Python would raise a TypeError (not a number at all).
    pub fn py_float(&self) -> Result<Option<f64>, String> {
        match self {
            Scalar::Bool(value) => Ok(Some(if *value { 1.0 } else { 0.0 })),
            Scalar::Int(value) => Ok(Some(*value as f64)),
            Scalar::BigInt(text) => Ok(text.parse::<f64>().ok()),
            Scalar::Float(value) => Ok(Some(*value)),
            Scalar::Str(text) => pyfmt::parse_py_float(text).map(Some).ok_or_else(|| {
                format!(
                    "could not convert string to float: {}",
                    pyfmt::str_repr(text)
                )
            }),
            Scalar::Null | Scalar::Array { .. } | Scalar::Object { .. } => Ok(None),
        }
    }

    /// Python `int(value)` for the axis formatting path.
    pub fn py_int(&self) -> Option<i128> {
        match self {
            Scalar::Bool(value) => Some(i128::from(*value)),
            Scalar::Int(value) => Some(i128::from(*value)),
            Scalar::BigInt(text) => text.parse().ok(),
            Scalar::Float(value) if value.is_finite() => Some(value.trunc() as i128),
            Scalar::Str(text) => pyfmt::parse_py_int(text),
            _ => None,
        }
    }

    /// Python `int(value)` exactly, as decimal digits (beyond `i128` too).
    pub fn py_int_decimal(&self) -> Option<String> {
        match self {
            Scalar::BigInt(text) => pyfmt::parse_py_int_decimal(text),
            Scalar::Str(text) => pyfmt::parse_py_int_decimal(text),
            // Integral floats print exactly with `{:.0}`.
            Scalar::Float(value) if value.is_finite() => {
                pyfmt::parse_py_int_decimal(&format!("{:.0}", value.trunc()))
            }
            other => other.py_int().map(|value| value.to_string()),
        }
    }

    /// Python `==` against an integer (JSON ints and integral floats).
    pub fn equals_int(&self, other: i64) -> bool {
        match self {
            Scalar::Int(value) => *value == other,
            Scalar::Float(value) => *value == other as f64,
            Scalar::Bool(value) => i64::from(*value) == other,
            _ => false,
        }
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(i64::try_from(v).map_or_else(|_| Scalar::BigInt(v.to_string()), Scalar::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        if let Some(special) = crate::pyjson::special_float(v) {
            return Ok(Scalar::Float(special));
        }
        if let Some(digits) = crate::pyjson::big_integer(v) {
            return Ok(Scalar::BigInt(digits.to_string()));
        }
        Ok(Scalar::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
        if let Some(special) = crate::pyjson::special_float(&v) {
            return Ok(Scalar::Float(special));
        }
        Ok(Scalar::Str(v))
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        let mut empty = true;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            empty = false;
        }
        Ok(Scalar::Array { empty })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        let mut empty = true;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            empty = false;
        }
        Ok(Scalar::Object { empty })
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ScalarVisitor)
    }
}

/// Keeps a present JSON `null` as `Some(Scalar::Null)`: only a missing key is `None`.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Scalar>, D::Error> {
    Scalar::deserialize(deserializer).map(Some)
}

/// The `device` of a state without one (no NVBench device id is negative).
pub const MISSING_DEVICE: i64 = i64::MIN;

fn missing_device() -> i64 {
    MISSING_DEVICE
}

/// A present `axis_values` key, `null` included.
#[allow(clippy::type_complexity)]
fn present_axis_values<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<Vec<AxisValue>>>, D::Error> {
    Option::<Vec<AxisValue>>::deserialize(deserializer).map(Some)
}

/// A state's name; its position in the input tells the reader how far
/// parsing has come (see `mapped::reached`).
fn state_name<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    struct NameVisitor;
    impl<'de> Visitor<'de> for NameVisitor {
        type Value = String;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a state name")
        }
        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<String, E> {
            crate::mapped::reached(v.as_ptr());
            Ok(v.to_string())
        }
        fn visit_str<E>(self, v: &str) -> Result<String, E> {
            Ok(v.to_string())
        }
    }
    deserializer.deserialize_str(NameVisitor)
}

/// A whole NVBench JSON file. Missing sections stay `None` so that the
/// caller can fail at the point where the reference would.
#[derive(Debug, Deserialize)]
pub struct Root {
    #[serde(default)]
    pub meta: Option<Meta>,
    #[serde(default)]
    pub devices: Option<Vec<Device>>,
    #[serde(default)]
    pub benchmarks: Option<Vec<Benchmark>>,
}

/// `meta`: only `version.json.string` is read (the rest, e.g. a long
/// `argv`, is skipped without being stored).
#[derive(Debug, Default, Deserialize)]
pub struct Meta {
    #[serde(default)]
    pub version: Option<MetaVersion>,
}

#[derive(Debug, Default, Deserialize)]
pub struct MetaVersion {
    #[serde(default)]
    pub json: Option<JsonVersion>,
}

#[derive(Debug, Default, Deserialize)]
pub struct JsonVersion {
    /// `null` is a version too (the reference warns "file version: None").
    #[serde(default, deserialize_with = "present")]
    pub string: Option<Scalar>,
}

/// One entry of `devices`: kept as its JSON text (compared and diffed as a
/// whole only when two device sections differ), with its `id` and `name`.
#[derive(Debug)]
pub struct Device {
    raw: Box<serde_json::value::RawValue>,
    pub id: Option<Scalar>,
    pub name: Option<Scalar>,
}

#[derive(Deserialize)]
struct DeviceHead {
    #[serde(default)]
    id: Option<Scalar>,
    #[serde(default)]
    name: Option<Scalar>,
}

/// How deep a device section may nest. Python's `json` reads about 1,000
/// levels before a RecursionError; serde_json's default limit of 128 made
/// a deeper device read as `null` and compare equal to any other. Up to
/// this depth devices are parsed without that limit (well within the
/// stack); deeper ones are an error, as they are for the reference.
pub const MAX_DEVICE_DEPTH: usize = 1000;

/// The deepest nesting of arrays and objects in a JSON text (strings skipped).
fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in text.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Parses a device's JSON text without serde_json's depth limit (the
/// depth was checked when the device was read).
fn parse_device<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    T::deserialize(&mut deserializer)
}

impl<'de> Deserialize<'de> for Device {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        if nesting_depth(raw.get()) > MAX_DEVICE_DEPTH {
            return Err(de::Error::custom(format!(
                "a device section is nested deeper than {MAX_DEVICE_DEPTH} levels"
            )));
        }
        // A device that is not an object has no id or name.
        let text = crate::pyjson::big_integers_as_markers(raw.get());
        let text = text.as_deref().unwrap_or(raw.get());
        let head = parse_device::<DeviceHead>(text).unwrap_or(DeviceHead {
            id: None,
            name: None,
        });
        Ok(Device {
            raw,
            id: head.id,
            name: head.name,
        })
    }
}

impl Device {
    /// The device as a JSON value (parsed on demand).
    pub fn value(&self) -> serde_json::Value {
        // The text was valid JSON when it was read, and no deeper than
        // MAX_DEVICE_DEPTH: this parse does not fail. Integers beyond 64
        // bits are kept exact (as markers `device_diff` reads as ints).
        let text = crate::pyjson::big_integers_as_markers(self.raw.get());
        let text = text.as_deref().unwrap_or(self.raw.get());
        parse_device(text).unwrap_or(serde_json::Value::Null)
    }

    /// The `id` as an integer, when it is one (Python `==` with an int).
    pub fn integer_id(&self) -> Option<i64> {
        match self.id.as_ref()? {
            Scalar::Int(id) => Some(*id),
            Scalar::Bool(b) => Some(i64::from(*b)),
            Scalar::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Some(*f as i64),
            _ => None,
        }
    }

    /// Python equality of two devices: identical text is equal without parsing.
    pub fn python_eq(&self, other: &Device) -> bool {
        self.raw.get() == other.raw.get()
            || crate::device_diff::python_equal(&self.value(), &other.value())
    }
}

/// An integer field read as Python compares it: an integral float (`0.0`,
/// `-0.0`) is that integer, as `0.0 == 0` in the reference.
fn loose_int<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let value = Scalar::deserialize(deserializer)?;
    match value {
        Scalar::Int(v) => Ok(v),
        Scalar::Float(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => Ok(v as i64),
        other => Err(de::Error::custom(format!(
            "invalid type: {}, expected an integer",
            other.py_repr()
        ))),
    }
}

fn loose_ints<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<i64>, D::Error> {
    struct LooseInt(i64);
    impl<'de> Deserialize<'de> for LooseInt {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            loose_int(deserializer).map(LooseInt)
        }
    }
    let values = Vec::<LooseInt>::deserialize(deserializer)?;
    Ok(values.into_iter().map(|v| v.0).collect())
}

/// A name the reference prints with `str()`: a number is a name too.
fn loose_name<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    match Scalar::deserialize(deserializer)? {
        Scalar::Str(text) => Ok(text),
        other @ (Scalar::Int(_) | Scalar::BigInt(_) | Scalar::Float(_) | Scalar::Bool(_)) => {
            Ok(other.py_str())
        }
        other => Err(de::Error::custom(format!(
            "invalid type: {}, expected a benchmark name",
            other.py_repr()
        ))),
    }
}

#[derive(Debug, Deserialize)]
pub struct Benchmark {
    #[serde(deserialize_with = "loose_name")]
    pub name: String,
    #[serde(deserialize_with = "loose_ints")]
    pub devices: Vec<i64>,
    #[serde(default)]
    pub axes: Option<Vec<Axis>>,
    /// Missing `states` fail only when the benchmark is compared (after
    /// its heading), as in the reference.
    #[serde(default)]
    pub states: Option<Vec<State>>,
}

impl Benchmark {
    pub fn states(&self) -> &[State] {
        self.states.as_deref().unwrap_or(&[])
    }
}

#[derive(Debug, Deserialize)]
pub struct Axis {
    pub name: String,
    #[serde(rename = "type")]
    pub axis_type: String,
    #[serde(default)]
    pub flags: Option<String>,
}

/// A state. The derived reader (`remote = "Self"`) reads objects; the
/// `Deserialize` impl below also takes an array, which serde would read
/// positionally, as a marked state that fails when its benchmark is
/// compared (the reference fails there, after the benchmark's heading).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self")]
pub struct State {
    /// Written as an array instead of an object.
    #[serde(skip)]
    pub positional: bool,
    #[serde(deserialize_with = "state_name")]
    pub name: String,
    /// [`MISSING_DEVICE`] when the key is missing: the reference fails
    /// only when it filters the benchmark's states by device.
    #[serde(default = "missing_device", deserialize_with = "loose_int")]
    pub device: i64,
    /// `None` when the key is missing (the reference's KeyError where it
    /// reads the row), `Some(None)` for a JSON `null` (no axis values).
    #[serde(default, deserialize_with = "present_axis_values")]
    pub axis_values: Option<Option<Vec<AxisValue>>>,
    #[serde(default)]
    pub summaries: Option<Summaries>,
    #[serde(default)]
    pub is_skipped: Option<Scalar>,
    #[serde(default)]
    pub skip_reason: Option<Scalar>,
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StateVisitor;
        impl<'de> Visitor<'de> for StateVisitor {
            type Value = State;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct State")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<State, A::Error> {
                State::deserialize(de::value::MapAccessDeserializer::new(map))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<State, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(State {
                    positional: true,
                    name: String::new(),
                    device: i64::MIN,
                    axis_values: None,
                    summaries: None,
                    is_skipped: None,
                    skip_reason: None,
                })
            }
        }
        deserializer.deserialize_any(StateVisitor)
    }
}

impl State {
    pub fn axis_values(&self) -> &[AxisValue] {
        self.axis_values
            .as_ref()
            .and_then(Option::as_deref)
            .unwrap_or(&[])
    }

    pub fn is_skipped(&self) -> bool {
        self.is_skipped.as_ref().is_some_and(Scalar::truthy)
    }

    /// `bool(state.get("summaries"))`.
    pub fn has_summaries(&self) -> bool {
        self.summaries.as_ref().is_some_and(|s| s.count > 0)
    }
}

#[derive(Debug, Deserialize)]
pub struct AxisValue {
    pub name: String,
    #[serde(rename = "type", default)]
    pub value_type: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Scalar>,
}

/// The summary tags the comparison reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Min,
    Max,
    Mean,
    Stdev,
    StdevRelative,
    Q1,
    Median,
    Q3,
    Iqr,
    IqrRelative,
    LegacyIr,
    LegacyIrRelative,
    SmClockRateMean,
    SampleTimes,
    SampleFrequencies,
}

impl Tag {
    pub const COUNT: usize = 15;

    pub fn name(self) -> &'static str {
        match self {
            Tag::Min => "nv/cold/time/gpu/min",
            Tag::Max => "nv/cold/time/gpu/max",
            Tag::Mean => "nv/cold/time/gpu/mean",
            Tag::Stdev => "nv/cold/time/gpu/stdev/absolute",
            Tag::StdevRelative => "nv/cold/time/gpu/stdev/relative",
            Tag::Q1 => "nv/cold/time/gpu/q1",
            Tag::Median => "nv/cold/time/gpu/median",
            Tag::Q3 => "nv/cold/time/gpu/q3",
            Tag::Iqr => "nv/cold/time/gpu/iqr/absolute",
            Tag::IqrRelative => "nv/cold/time/gpu/iqr/relative",
            Tag::LegacyIr => "nv/cold/time/gpu/ir/absolute",
            Tag::LegacyIrRelative => "nv/cold/time/gpu/ir/relative",
            Tag::SmClockRateMean => "nv/cold/sm_clock_rate/mean",
            Tag::SampleTimes => "nv/json/bin:nv/cold/sample_times",
            Tag::SampleFrequencies => "nv/json/freqs-bin:nv/cold/sample_freqs",
        }
    }

    fn from_name(name: &str) -> Option<Tag> {
        // A `match` on strings compares lengths first: most of the ~30
        // tags NVBench writes are rejected without comparing bytes.
        Some(match name {
            "nv/cold/time/gpu/min" => Tag::Min,
            "nv/cold/time/gpu/max" => Tag::Max,
            "nv/cold/time/gpu/mean" => Tag::Mean,
            "nv/cold/time/gpu/stdev/absolute" => Tag::Stdev,
            "nv/cold/time/gpu/stdev/relative" => Tag::StdevRelative,
            "nv/cold/time/gpu/q1" => Tag::Q1,
            "nv/cold/time/gpu/median" => Tag::Median,
            "nv/cold/time/gpu/q3" => Tag::Q3,
            "nv/cold/time/gpu/iqr/absolute" => Tag::Iqr,
            "nv/cold/time/gpu/iqr/relative" => Tag::IqrRelative,
            "nv/cold/time/gpu/ir/absolute" => Tag::LegacyIr,
            "nv/cold/time/gpu/ir/relative" => Tag::LegacyIrRelative,
            "nv/cold/sm_clock_rate/mean" => Tag::SmClockRateMean,
            "nv/json/bin:nv/cold/sample_times" => Tag::SampleTimes,
            "nv/json/freqs-bin:nv/cold/sample_freqs" => Tag::SampleFrequencies,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tag_tests {
    use super::*;

    #[test]
    fn every_tag_is_found_by_its_name() {
        const ALL: [Tag; Tag::COUNT] = [
            Tag::Min,
            Tag::Max,
            Tag::Mean,
            Tag::Stdev,
            Tag::StdevRelative,
            Tag::Q1,
            Tag::Median,
            Tag::Q3,
            Tag::Iqr,
            Tag::IqrRelative,
            Tag::LegacyIr,
            Tag::LegacyIrRelative,
            Tag::SmClockRateMean,
            Tag::SampleTimes,
            Tag::SampleFrequencies,
        ];
        for tag in ALL {
            assert_eq!(Tag::from_name(tag.name()), Some(tag));
        }
        assert_eq!(Tag::from_name("nv/cold/time/cpu/min"), None);
        assert_eq!(Tag::from_name("nv/cold/time/gpu/min "), None);
    }
}

/// One `{"name", "type", "value"}` entry of a summary's `data` list.
#[derive(Debug, Clone, Deserialize)]
pub struct DataEntry {
    #[serde(default)]
    pub name: Option<Word>,
    #[serde(rename = "type", default)]
    pub value_type: Option<Word>,
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Scalar>,
}

/// The `name` or `type` of a data entry: the few words NVBench writes
/// there are recognised without allocating; anything else is kept whole.
#[derive(Debug, Clone, PartialEq)]
pub enum Word {
    Known(&'static str),
    Other(Scalar),
}

const KNOWN_WORDS: [&str; 6] = ["value", "size", "filename", "float64", "int64", "string"];

impl Word {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Word::Known(word) => Some(word),
            Word::Other(scalar) => scalar.as_str(),
        }
    }

    /// Python `repr` of the value.
    pub fn py_repr(&self) -> String {
        match self {
            Word::Known(word) => pyfmt::str_repr(word),
            Word::Other(scalar) => scalar.py_repr(),
        }
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WordVisitor;
        impl<'de> Visitor<'de> for WordVisitor {
            type Value = Word;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Word, E> {
                Ok(KNOWN_WORDS.iter().find(|word| **word == v).map_or_else(
                    || Word::Other(Scalar::Str(v.to_string())),
                    |word| Word::Known(word),
                ))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Bool(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Int(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Word, E> {
                ScalarVisitor.visit_u64(v).map(Word::Other)
            }
            fn visit_f64<E>(self, v: f64) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Float(v)))
            }
            fn visit_unit<E>(self) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Word, A::Error> {
                ScalarVisitor.visit_seq(seq).map(Word::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Word, A::Error> {
                ScalarVisitor.visit_map(map).map(Word::Other)
            }
        }
        deserializer.deserialize_any(WordVisitor)
    }
}

/// A summary's `tag`, read without allocating.
struct TagField(RawTag);

impl<'de> Deserialize<'de> for TagField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TagVisitor;
        impl<'de> Visitor<'de> for TagVisitor {
            type Value = TagField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<TagField, E> {
                Ok(TagField(
                    Tag::from_name(v).map_or(RawTag::Other, RawTag::Known),
                ))
            }
            fn visit_bool<E>(self, _: bool) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_i64<E>(self, _: i64) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_u64<E>(self, _: u64) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_f64<E>(self, _: f64) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_unit<E>(self) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TagField, A::Error> {
                ScalarVisitor
                    .visit_seq(seq)
                    .map(|_| TagField(RawTag::Other))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TagField, A::Error> {
                ScalarVisitor
                    .visit_map(map)
                    .map(|_| TagField(RawTag::Other))
            }
        }
        deserializer.deserialize_any(TagVisitor)
    }
}

/// A summary as looked up by tag: its data list, or the reason it has none.
#[derive(Debug, Clone)]
pub enum SummaryData {
    Entries(Vec<DataEntry>),
    /// `data` was present but not a list of objects.
    Malformed,
}

/// The `summaries` list of a state, reduced to what the comparison reads:
/// the extracted value of the first summary of each known tag, as a linear
/// search would find it.
#[derive(Debug, Clone, Default)]
pub struct Summaries {
    pub count: usize,
    /// `(tag, position in the list, value)` of the first summary of each tag.
    first: Vec<(Tag, usize, Extracted)>,
    /// Position of the first summary without a `tag` key: a linear search
    /// reaching it fails.
    first_untagged: Option<usize>,
    /// `summaries` is a truthy value that is not a list (a number, a
    /// string, an object): the reference fails only where it looks inside.
    not_a_list: bool,
}

/// What a tag lookup finds.
pub enum Lookup<'a> {
    /// `summaries` is not a list.
    NotAList,
    Found(&'a Extracted),
    Missing,
    /// A summary without a `tag` key precedes any match.
    Untagged,
}

impl Summaries {
    /// A `summaries` value that is not a list; a falsy one is no summaries
    /// at all (`bool(state.get("summaries"))`), a truthy one fails when read.
    fn not_a_list(truthy: bool) -> Summaries {
        Summaries {
            count: usize::from(truthy),
            not_a_list: truthy,
            ..Summaries::default()
        }
    }

    pub fn lookup(&self, tag: Tag) -> Lookup<'_> {
        if self.not_a_list {
            return Lookup::NotAList;
        }
        let found = self.first.iter().find(|(t, _, _)| *t == tag);
        match (found, self.first_untagged) {
            (Some((_, position, _)), Some(untagged)) if untagged < *position => Lookup::Untagged,
            (None, Some(_)) => Lookup::Untagged,
            (Some((_, _, value)), _) => Lookup::Found(value),
            (None, None) => Lookup::Missing,
        }
    }

    fn record(&mut self, position: usize, summary: RawSummary) {
        match summary.tag {
            RawTag::Missing => {
                self.first_untagged.get_or_insert(position);
            }
            RawTag::Known(tag) if !self.first.iter().any(|(t, _, _)| *t == tag) => {
                let value = extract_summary(tag, &summary.data);
                self.first.push((tag, position, value));
            }
            RawTag::Known(_) | RawTag::Other => {}
        }
    }
}

/// A summary's `tag`: one the comparison reads, another one, or none.
enum RawTag {
    Known(Tag),
    Other,
    Missing,
}

struct RawSummary {
    tag: RawTag,
    data: SummaryData,
}

impl<'de> Deserialize<'de> for RawSummary {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SummaryVisitor;
        impl<'de> Visitor<'de> for SummaryVisitor {
            type Value = RawSummary;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a summary object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawSummary, A::Error> {
                let mut tag = RawTag::Missing;
                let mut data = SummaryData::Entries(Vec::new());
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "tag" => tag = map.next_value::<TagField>()?.0,
                        // NVBench writes the tag first: the data of summaries
                        // the comparison never reads is skipped unparsed.
                        "data" if matches!(tag, RawTag::Other) => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        "data" => data = map.next_value::<DataField>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(RawSummary { tag, data })
            }
        }
        deserializer.deserialize_map(SummaryVisitor)
    }
}

struct DataField(SummaryData);

impl<'de> Deserialize<'de> for DataField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DataVisitor;
        impl<'de> Visitor<'de> for DataVisitor {
            type Value = DataField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of summary data entries")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DataField, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = seq.next_element::<DataEntry>()? {
                    entries.push(entry);
                }
                Ok(DataField(SummaryData::Entries(entries)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DataField, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_unit<E: de::Error>(self) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
        }
        deserializer.deserialize_any(DataVisitor)
    }
}

impl<'de> Deserialize<'de> for Summaries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SummariesVisitor;
        impl<'de> Visitor<'de> for SummariesVisitor {
            type Value = Summaries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of summaries")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Summaries, E> {
                Ok(Summaries::default())
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v != 0))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v != 0))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v != 0.0))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(!v.is_empty()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Summaries, A::Error> {
                let truthy = ScalarVisitor.visit_map(map)?.truthy();
                Ok(Summaries::not_a_list(truthy))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Summaries, A::Error> {
                let mut summaries = Summaries::default();
                while let Some(summary) = seq.next_element::<RawSummary>()? {
                    summaries.record(summaries.count, summary);
                    summaries.count += 1;
                }
                Ok(summaries)
            }
        }
        deserializer.deserialize_any(SummariesVisitor)
    }
}
