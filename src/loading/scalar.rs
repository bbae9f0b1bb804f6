//! JSON scalars kept loosely typed, as Python's `json.load` gives them, so
//! that the reference's lazy, per-state schema errors and its `str()` /
//! `repr()` of odd values can be reproduced.

use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use compact_str::CompactString;

use crate::pycompat::pyfmt;

/// Any JSON value as far as the comparison cares: scalars are kept, arrays
/// and objects only as a marker.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    /// Integers beyond `i64` (Python ints are unbounded). Boxed, so that
    /// the enum fits in the niche of [`Scalar::Str`]'s 24 bytes.
    BigInt(Box<str>),
    Float(f64),
    /// Inline up to 24 bytes: the short names, types and values of axes
    /// take no allocation of their own.
    Str(CompactString),
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
            Scalar::BigInt(text) => text.to_string(),
            Scalar::Float(value) => pyfmt::float_repr(*value),
            Scalar::Str(text) => text.to_string(),
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

    /// Equal and printed alike: `==`, but floats by their bits (`-0.0`
    /// equals `0.0` yet prints apart; a NaN prints as itself).
    pub fn identical(&self, other: &Scalar) -> bool {
        match (self, other) {
            (Scalar::Float(a), Scalar::Float(b)) => a.to_bits() == b.to_bits(),
            _ => self == other,
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

pub(crate) struct ScalarVisitor;

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
        Ok(i64::try_from(v).map_or_else(|_| Scalar::BigInt(v.to_string().into()), Scalar::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        if let Some(special) = crate::pycompat::pyjson::special_float(v) {
            return Ok(Scalar::Float(special));
        }
        if let Some(digits) = crate::pycompat::pyjson::big_integer(v) {
            return Ok(Scalar::BigInt(digits.into()));
        }
        Ok(Scalar::Str(v.into()))
    }
    fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
        if let Some(special) = crate::pycompat::pyjson::special_float(&v) {
            return Ok(Scalar::Float(special));
        }
        Ok(Scalar::Str(v.into()))
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
pub(crate) fn present<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Scalar>, D::Error> {
    Scalar::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod size_tests {
    use super::Scalar;

    /// Every axis value and state holds several: the enum lives in the
    /// niche of its inline string (`Option` too), 24 bytes, not 32.
    #[test]
    fn a_scalar_takes_24_bytes() {
        assert_eq!(std::mem::size_of::<Scalar>(), 24);
        assert_eq!(std::mem::size_of::<Option<Scalar>>(), 24);
    }
}
