//! The classic script's axis filters (`-a`, applied to every benchmark)
//! and its formatting of axis values, over values as Python reads them.

use std::borrow::Cow;

use serde_json::Value;

use crate::pycompat::pyfmt::{float_repr, format_g, parse_py_int_decimal};
use crate::pycompat::pyvalue::{
    Raised, equal, get, getitem, iterate, py_str, to_float, to_int, truthy,
};
use crate::pycompat::unicode::is_python_space;

/// One `-a NAME=VALUE` filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisFilter {
    pub name: String,
    /// Matched against `str(value)` of the state's axis value.
    pub values: Vec<String>,
    /// `NAME=VALUE` or `NAME=[A,B]`, as the plot's title shows it.
    pub display: String,
}

fn strip(text: &str) -> &str {
    text.trim_matches(is_python_space)
}

/// `parse_axis_filters`: `Err` is the message the script prints (then
/// exits 1).
pub fn parse_axis_filters(args: &[String]) -> Result<Vec<AxisFilter>, String> {
    args.iter().map(|arg| parse_axis_filter(arg)).collect()
}

fn parse_axis_filter(arg: &str) -> Result<AxisFilter, String> {
    let must = || format!("Axis filter must be NAME=VALUE: {arg}");
    let (name, value) = arg.split_once('=').ok_or_else(must)?;
    let (mut name, value) = (strip(name).to_string(), strip(value));
    if name.is_empty() || value.is_empty() {
        return Err(must());
    }
    let mut values: Vec<String> = if value.starts_with('[') && value.ends_with(']') {
        // Both brackets are one byte, and distinct: the value holds both.
        let inner = &value[1..value.len() - 1];
        strip(inner)
            .split(',')
            .map(strip)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
            .collect()
    } else {
        vec![value.to_string()]
    };
    let mut display_values = values.clone();
    if let Some(base) = name.strip_suffix("[pow2]") {
        let base = strip(base).to_string();
        if base.is_empty() {
            return Err(format!("Axis filter missing name before [pow2]: {arg}"));
        }
        let exponents: Vec<String> = values
            .iter()
            .map(|v| parse_py_int_decimal(v))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("Axis filter [pow2] value must be integer: {arg}"))?;
        values = exponents.iter().map(|e| power_of_two_text(e)).collect();
        display_values = exponents.iter().map(|e| format!("2^{e}")).collect();
        name = base;
    }
    if values.is_empty() {
        return Err(format!(
            "Axis filter must specify at least one value: {arg}"
        ));
    }
    let joined = display_values.join(",");
    let display = if display_values.len() > 1 {
        format!("{name}=[{joined}]")
    } else {
        format!("{name}={joined}")
    };
    Ok(AxisFilter {
        name,
        values,
        display,
    })
}

/// Exponents beyond this are not computed: `str(2**e)` has more than
/// 30,000 digits, which no axis value written by NVBench has.
const LARGEST_EXPONENT: u32 = 100_000;

/// `str(2**exponent)` for a decimal exponent: an int, or for a negative
/// exponent a float.
fn power_of_two_text(exponent: &str) -> String {
    if let Some(negative) = exponent.strip_prefix('-') {
        let e: i32 = negative.parse().unwrap_or(i32::MAX);
        return float_repr(if e > 1100 { 0.0 } else { 2f64.powi(-e) });
    }
    match exponent.parse::<u32>() {
        Ok(e) if e <= LARGEST_EXPONENT => decimal_power_of_two(e),
        _ => format!("2**{exponent}"),
    }
}

/// 2^e in decimal, by doubling base-10^9 limbs.
fn decimal_power_of_two(e: u32) -> String {
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![1];
    for _ in 0..e {
        let mut carry = 0;
        for limb in &mut limbs {
            let doubled = *limb * 2 + carry;
            *limb = doubled % BASE;
            carry = doubled / BASE;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut text = limbs.last().map(u64::to_string).unwrap_or_default();
    for limb in limbs.iter().rev().skip(1) {
        text.push_str(&format!("{limb:09}"));
    }
    text
}

/// `matches_axis_filters(state, filters)`.
pub fn matches_axis_filters(state: &Value, filters: &[AxisFilter]) -> Result<bool, Raised> {
    if filters.is_empty() {
        return Ok(true);
    }
    let empty = Value::Array(Vec::new());
    let axis_values = match get(state, "axis_values")? {
        Some(values) if truthy(values) => values,
        _ => &empty,
    };
    for filter in filters {
        let name = Value::String(filter.name.clone());
        let mut matched = false;
        for axis_value in iterate(axis_values)? {
            let same_name = get(&axis_value, "name")?.is_some_and(|n| equal(n, &name));
            if !same_name {
                continue;
            }
            let Some(value) = get(&axis_value, "value")?.filter(|v| !v.is_null()) else {
                continue;
            };
            if filter.values.contains(&py_str(value)) {
                matched = true;
                break;
            }
        }
        if !matched {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `next(filter(lambda ax: ax["name"] == axis_name, axes))`.
fn find_axis<'a>(axis_name: &Value, axes: &'a Value) -> Result<Cow<'a, Value>, Raised> {
    for axis in iterate(axes)? {
        if equal(getitem(&axis, "name")?, axis_name) {
            return Ok(axis);
        }
    }
    Err(Raised::new("StopIteration", ""))
}

/// `format_axis_value(name, axis_value, axes)`; `None` where the script
/// returns None (an axis type it does not know).
pub fn format_axis_value(
    axis_name: &Value,
    axis_value: &Value,
    axes: &Value,
) -> Result<Option<String>, Raised> {
    let axis = find_axis(axis_name, axes)?;
    let axis_type = getitem(&axis, "type")?;
    let is = |name: &str| equal(axis_type, &Value::String(name.to_string()));
    if is("int64") {
        let flags = getitem(&axis, "flags")?;
        let value = to_int(getitem(axis_value, "value")?)?;
        if equal(flags, &Value::String("pow2".to_string())) {
            if !value.is_positive() {
                return Err(Raised::new("ValueError", "math domain error"));
            }
            let exponent = crate::pycompat::pyvalue::float_to_int(value.log2())?;
            return Ok(Some(format!("2^{exponent}")));
        }
        return Ok(Some(value.to_string()));
    }
    if is("float64") {
        let value = to_float(getitem(axis_value, "value")?)?;
        return Ok(Some(format_g(value, 5)));
    }
    if is("type") || is("string") {
        return Ok(Some(py_str(getitem(axis_value, "value")?)));
    }
    Ok(None)
}

/// `format_axis_values(axis_values, axes, filters)`: the plot label of a
/// row, without the axes a filter pins to one value.
pub fn format_axis_values(
    axis_values: &Value,
    axes: &Value,
    filters: &[AxisFilter],
) -> Result<String, Raised> {
    if !truthy(axis_values) {
        return Ok(String::new());
    }
    let pinned: Vec<&str> = filters
        .iter()
        .filter(|f| f.values.len() == 1)
        .map(|f| f.name.as_str())
        .collect();
    let mut parts = Vec::new();
    for axis_value in iterate(axis_values)? {
        let name = getitem(&axis_value, "name")?;
        if pinned
            .iter()
            .any(|p| equal(name, &Value::String(p.to_string())))
        {
            continue;
        }
        let formatted = format_axis_value(name, &axis_value, axes)?;
        parts.push(format!(
            "{}={}",
            py_str(name),
            formatted.unwrap_or_else(|| "None".to_string())
        ));
    }
    Ok(parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn filter(arg: &str) -> Result<AxisFilter, String> {
        parse_axis_filter(arg)
    }

    #[test]
    fn filters_as_the_script_parses_them() {
        let f = filter(" T = [ F32 , I32 ] ").unwrap();
        assert_eq!(
            (f.name.as_str(), f.values.clone()),
            ("T", vec!["F32".into(), "I32".into()])
        );
        assert_eq!(f.display, "T=[F32,I32]");
        let f = filter("Elements{io}[pow2]=[16,+20]").unwrap();
        assert_eq!(f.values, ["65536", "1048576"]);
        assert_eq!(f.display, "Elements{io}=[2^16,2^20]");
        assert_eq!(filter("X[pow2]=-1").unwrap().values, ["0.5"]);
        assert_eq!(
            filter("X[pow2]=70").unwrap().values,
            ["1180591620717411303424"]
        );
        assert_eq!(
            filter("Elements").unwrap_err(),
            "Axis filter must be NAME=VALUE: Elements"
        );
        assert_eq!(
            filter("=3").unwrap_err(),
            "Axis filter must be NAME=VALUE: =3"
        );
        assert_eq!(
            filter("[pow2]=3").unwrap_err(),
            "Axis filter missing name before [pow2]: [pow2]=3"
        );
        assert_eq!(
            filter("T=[ , ]").unwrap_err(),
            "Axis filter must specify at least one value: T=[ , ]"
        );
        // "[" does not end with "]": a value of its own.
        assert_eq!(filter("T=[").unwrap().values, ["["]);
        assert_eq!(
            filter("N[pow2]=x").unwrap_err(),
            "Axis filter [pow2] value must be integer: N[pow2]=x"
        );
    }

    #[test]
    fn axis_values_as_the_script_formats_them() {
        let axes = json!([
            {"name": "N", "type": "int64", "flags": "pow2"},
            {"name": "M", "type": "int64", "flags": ""},
            {"name": "D", "type": "float64", "flags": ""},
            {"name": "T", "type": "type", "flags": ""},
            {"name": "Q", "type": "other", "flags": ""}
        ]);
        let format = |name: &str, value: Value| {
            format_axis_value(&json!(name), &json!({"name": name, "value": value}), &axes)
        };
        assert_eq!(format("N", json!("1000")).unwrap().unwrap(), "2^9");
        assert_eq!(format("M", json!(12)).unwrap().unwrap(), "12");
        assert_eq!(
            format("D", json!("0.00051234")).unwrap().unwrap(),
            "0.00051234"
        );
        assert_eq!(format("D", json!("100000")).unwrap().unwrap(), "1e+05");
        assert_eq!(format("T", json!("F32")).unwrap().unwrap(), "F32");
        assert_eq!(format("Q", json!("x")).unwrap(), None);
        assert_eq!(
            format("N", json!(0)).unwrap_err().message,
            "math domain error"
        );
        assert_eq!(format("Z", json!(1)).unwrap_err().kind, "StopIteration");
    }
}
