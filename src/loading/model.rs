//! The NVBench JSON result format: a serde mirror that keeps only what the
//! comparison reads, with JSON scalars kept loosely typed so that the
//! reference's lazy, per-state schema errors can be reproduced.

use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, Visitor};

use crate::loading::scalar::{Scalar, present};
use crate::loading::summaries::Summaries;

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
            crate::loading::mapped::reached(v.as_ptr());
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
    #[serde(default)]
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

impl<'de> Deserialize<'de> for Device {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        // A device that is not an object has no id or name.
        let head = serde_json::from_str::<DeviceHead>(raw.get()).unwrap_or(DeviceHead {
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
        serde_json::from_str(self.raw.get()).unwrap_or(serde_json::Value::Null)
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
            || crate::pycompat::jsondiff::python_equal(&self.value(), &other.value())
    }
}

#[derive(Debug, Deserialize)]
pub struct Benchmark {
    pub name: String,
    pub devices: Vec<i64>,
    #[serde(default)]
    pub axes: Option<Vec<Axis>>,
    pub states: Vec<State>,
}

#[derive(Debug, Deserialize)]
pub struct Axis {
    pub name: String,
    #[serde(rename = "type")]
    pub axis_type: String,
    #[serde(default)]
    pub flags: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct State {
    #[serde(deserialize_with = "state_name")]
    pub name: String,
    pub device: i64,
    #[serde(default)]
    pub axis_values: Option<Vec<AxisValue>>,
    #[serde(default)]
    pub summaries: Option<Summaries>,
    #[serde(default)]
    pub is_skipped: Option<Scalar>,
    #[serde(default)]
    pub skip_reason: Option<Scalar>,
}

impl State {
    pub fn axis_values(&self) -> &[AxisValue] {
        self.axis_values.as_deref().unwrap_or(&[])
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
