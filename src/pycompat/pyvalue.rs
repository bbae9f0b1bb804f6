//! A parsed JSON value as a Python script sees it after `json.load` (dict,
//! list, str, int, float, bool, None), and the operations such a script
//! applies to it: `x["key"]`, `x.get("key")`, iteration, truthiness,
//! `str()`, `repr()`, `float()`, `int()`, `==`, `"%d" %`. Each gives the
//! exception Python would raise, so that a script ported on top of it
//! stops exactly where the Python one does.
//!
//! Values come from [`crate::pycompat::pyjson::loads`]: non-finite floats
//! and integers beyond 64 bits are marker strings there, read back here.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::pycompat::pyfmt::{float_repr, str_repr};
use crate::pycompat::pyjson::{big_integer, special_float};

/// An exception as the last line of Python's traceback names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raised {
    pub kind: &'static str,
    pub message: String,
}

impl Raised {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Raised {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Raised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.kind, self.message)
        }
    }
}

/// A value by its Python type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Py<'a> {
    None,
    Bool(bool),
    Int(i128),
    /// An integer beyond `i128`, as its decimal digits.
    BigInt(&'a str),
    Float(f64),
    Str(&'a str),
    List(&'a [Value]),
    Dict(&'a Map<String, Value>),
}

pub fn py(value: &Value) -> Py<'_> {
    match value {
        Value::Null => Py::None,
        Value::Bool(b) => Py::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Py::Int(i.into())
            } else if let Some(u) = n.as_u64() {
                Py::Int(u.into())
            } else {
                Py::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => {
            if let Some(x) = special_float(s) {
                Py::Float(x)
            } else if let Some(digits) = big_integer(s) {
                match digits.parse::<i128>() {
                    Ok(i) => Py::Int(i),
                    Err(_) => Py::BigInt(digits),
                }
            } else {
                Py::Str(s)
            }
        }
        Value::Array(items) => Py::List(items),
        Value::Object(map) => Py::Dict(map),
    }
}

pub fn type_name(value: &Value) -> &'static str {
    match py(value) {
        Py::None => "NoneType",
        Py::Bool(_) => "bool",
        Py::Int(_) | Py::BigInt(_) => "int",
        Py::Float(_) => "float",
        Py::Str(_) => "str",
        Py::List(_) => "list",
        Py::Dict(_) => "dict",
    }
}

/// `value[key]` with a `str` key.
pub fn getitem<'a>(value: &'a Value, key: &str) -> Result<&'a Value, Raised> {
    match py(value) {
        Py::Dict(map) => map
            .get(key)
            .ok_or_else(|| Raised::new("KeyError", str_repr(key))),
        Py::Str(_) => Err(Raised::new(
            "TypeError",
            "string indices must be integers, not 'str'",
        )),
        Py::List(_) => Err(Raised::new(
            "TypeError",
            "list indices must be integers or slices, not str",
        )),
        _ => Err(Raised::new(
            "TypeError",
            format!("'{}' object is not subscriptable", type_name(value)),
        )),
    }
}

/// `value.get(key)`: only dicts have it.
pub fn get<'a>(value: &'a Value, key: &str) -> Result<Option<&'a Value>, Raised> {
    match py(value) {
        Py::Dict(map) => Ok(map.get(key)),
        _ => Err(Raised::new(
            "AttributeError",
            format!("'{}' object has no attribute 'get'", type_name(value)),
        )),
    }
}

/// `for item in value`: a dict's keys, a list's items, a string's characters.
pub fn iterate(value: &Value) -> Result<Vec<Cow<'_, Value>>, Raised> {
    match py(value) {
        Py::List(items) => Ok(items.iter().map(Cow::Borrowed).collect()),
        Py::Dict(map) => Ok(map
            .keys()
            .map(|k| Cow::Owned(Value::String(k.clone())))
            .collect()),
        Py::Str(s) => Ok(s
            .chars()
            .map(|c| Cow::Owned(Value::String(c.to_string())))
            .collect()),
        _ => Err(Raised::new(
            "TypeError",
            format!("'{}' object is not iterable", type_name(value)),
        )),
    }
}

/// `bool(value)`.
pub fn truthy(value: &Value) -> bool {
    match py(value) {
        Py::None => false,
        Py::Bool(b) => b,
        Py::Int(i) => i != 0,
        Py::BigInt(_) => true,
        Py::Float(x) => x != 0.0,
        Py::Str(s) => !s.is_empty(),
        Py::List(items) => !items.is_empty(),
        Py::Dict(map) => !map.is_empty(),
    }
}

/// `str(value)`.
pub fn py_str(value: &Value) -> String {
    match py(value) {
        Py::Str(s) => s.to_string(),
        _ => py_repr(value),
    }
}

/// `repr(value)`. Parsed values are at most 128 deep (serde_json's limit),
/// so the recursion is bounded.
pub fn py_repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, value);
    out
}

fn write_repr(out: &mut String, value: &Value) {
    match py(value) {
        Py::None => out.push_str("None"),
        Py::Bool(true) => out.push_str("True"),
        Py::Bool(false) => out.push_str("False"),
        Py::Int(i) => out.push_str(&i.to_string()),
        Py::BigInt(digits) => out.push_str(digits),
        Py::Float(x) => out.push_str(&float_repr(x)),
        Py::Str(s) => out.push_str(&str_repr(s)),
        Py::List(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_repr(out, item);
            }
            out.push(']');
        }
        Py::Dict(map) => {
            out.push('{');
            for (index, (key, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                out.push_str(&str_repr(key));
                out.push_str(": ");
                write_repr(out, item);
            }
            out.push('}');
        }
    }
}

/// `float(value)`.
pub fn to_float(value: &Value) -> Result<f64, Raised> {
    match py(value) {
        Py::Bool(b) => Ok(f64::from(u8::from(b))),
        Py::Int(i) => Ok(i as f64),
        Py::BigInt(digits) => digits
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| Raised::new("OverflowError", "int too large to convert to float")),
        Py::Float(x) => Ok(x),
        Py::Str(s) => crate::pycompat::pyfmt::parse_py_float(s).ok_or_else(|| {
            Raised::new(
                "ValueError",
                format!("could not convert string to float: {}", str_repr(s)),
            )
        }),
        _ => Err(Raised::new(
            "TypeError",
            format!(
                "float() argument must be a string or a real number, not '{}'",
                type_name(value)
            ),
        )),
    }
}

/// A Python int: in `i128`, or the decimal digits of a bigger one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PyInt {
    Small(i128),
    Big(String),
}

impl PyInt {
    /// `float(int)`, without the overflow error (an int beyond the float
    /// range is infinite here).
    pub fn approx(&self) -> f64 {
        match self {
            PyInt::Small(i) => *i as f64,
            PyInt::Big(digits) => digits.parse().unwrap_or(f64::INFINITY),
        }
    }

    pub fn is_positive(&self) -> bool {
        match self {
            PyInt::Small(i) => *i > 0,
            PyInt::Big(digits) => !digits.starts_with('-'),
        }
    }

    /// `math.log2(int)` for a positive int (exact for ints beyond the float
    /// range too, as Python's is).
    pub fn log2(&self) -> f64 {
        let approx = self.approx();
        if approx.is_finite() {
            return approx.log2();
        }
        let PyInt::Big(digits) = self else {
            return f64::INFINITY;
        };
        // Python splits the int into a float mantissa and a power of two.
        let head: f64 = digits[..17].parse().unwrap_or(f64::INFINITY);
        head.log2() + (digits.len() - 17) as f64 * std::f64::consts::LOG2_10
    }
}

impl fmt::Display for PyInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PyInt::Small(i) => write!(f, "{i}"),
            PyInt::Big(digits) => f.write_str(digits),
        }
    }
}

/// `int(float)`: toward zero.
pub fn float_to_int(x: f64) -> Result<PyInt, Raised> {
    if x.is_nan() {
        return Err(Raised::new(
            "ValueError",
            "cannot convert float NaN to integer",
        ));
    }
    if x.is_infinite() {
        return Err(Raised::new(
            "OverflowError",
            "cannot convert float infinity to integer",
        ));
    }
    let t = x.trunc();
    if t.abs() < 1.0e38 {
        Ok(PyInt::Small(t as i128))
    } else {
        // Rust prints integral floats exactly with `{:.0}`.
        Ok(PyInt::Big(format!("{t:.0}")))
    }
}

/// `int(value)`.
pub fn to_int(value: &Value) -> Result<PyInt, Raised> {
    match py(value) {
        Py::Bool(b) => Ok(PyInt::Small(i128::from(b))),
        Py::Int(i) => Ok(PyInt::Small(i)),
        Py::BigInt(digits) => Ok(PyInt::Big(digits.to_string())),
        Py::Float(x) => float_to_int(x),
        Py::Str(s) => match crate::pycompat::pyfmt::parse_py_int_decimal(s) {
            Some(digits) => Ok(match digits.parse::<i128>() {
                Ok(i) => PyInt::Small(i),
                Err(_) => PyInt::Big(digits),
            }),
            None => Err(Raised::new(
                "ValueError",
                format!("invalid literal for int() with base 10: {}", str_repr(s)),
            )),
        },
        _ => Err(Raised::new(
            "TypeError",
            format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                type_name(value)
            ),
        )),
    }
}

/// `"%d" % value`.
pub fn percent_d(value: &Value) -> Result<String, Raised> {
    match py(value) {
        Py::Bool(_) | Py::Int(_) | Py::BigInt(_) | Py::Float(_) => Ok(to_int(value)?.to_string()),
        _ => Err(Raised::new(
            "TypeError",
            format!(
                "%d format: a real number is required, not {}",
                type_name(value)
            ),
        )),
    }
}

/// `a == b`.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (py(a), py(b)) {
        // Two floats parsed apart are two objects: nan is unequal to nan.
        (Py::Float(x), Py::Float(y)) => x == y,
        _ => crate::pycompat::jsondiff::python_equal(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subscripts_and_their_errors() {
        let v = json!({"a": [1, "x"], "s": "text"});
        assert_eq!(getitem(&v, "a").unwrap(), &json!([1, "x"]));
        assert_eq!(getitem(&v, "b").unwrap_err().to_string(), "KeyError: 'b'");
        assert_eq!(
            getitem(&v["s"], "name").unwrap_err().to_string(),
            "TypeError: string indices must be integers, not 'str'"
        );
        assert_eq!(
            getitem(&Value::Null, "x").unwrap_err().to_string(),
            "TypeError: 'NoneType' object is not subscriptable"
        );
        assert!(get(&v["a"], "x").is_err());
        assert_eq!(get(&v, "zz").unwrap(), None);
    }

    #[test]
    fn iteration_truth_and_text() {
        let v = json!({"k1": 1, "k2": 2});
        let keys: Vec<String> = iterate(&v).unwrap().iter().map(|k| py_str(k)).collect();
        assert_eq!(keys, ["k1", "k2"]);
        assert_eq!(iterate(&json!("ab")).unwrap().len(), 2);
        assert!(iterate(&json!(3)).is_err());
        assert!(!truthy(&json!(0.0)) && truthy(&json!("0")) && !truthy(&json!([])));
        assert_eq!(
            py_repr(&json!({"a": [true, null, 1.5, "it's"]})),
            "{'a': [True, None, 1.5, \"it's\"]}"
        );
        assert_eq!(py_str(&json!(1e20)), "1e+20");
    }

    #[test]
    fn conversions() {
        assert_eq!(to_float(&json!(" 1_5 ")).unwrap(), 15.0);
        assert_eq!(
            to_float(&json!("x")).unwrap_err().to_string(),
            "ValueError: could not convert string to float: 'x'"
        );
        assert!(to_float(&Value::Null).is_err());
        assert_eq!(to_int(&json!("1024")).unwrap(), PyInt::Small(1024));
        assert_eq!(to_int(&json!(2.9)).unwrap(), PyInt::Small(2));
        assert!(to_int(&json!("1.5")).is_err());
        assert_eq!(percent_d(&json!(true)).unwrap(), "1");
        assert!(percent_d(&json!("1")).is_err());
        assert!(equal(&json!(1), &json!(1.0)));
    }
}
