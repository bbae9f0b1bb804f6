//! Axis values as table cells and labels: `2^N` for pow2 int64 axes,
//! `%.5g` for float64 axes, the raw text for string and type axes.

use compact_str::CompactString;
use smallvec::SmallVec;

use crate::deciding::report::AxisDisplays;
use crate::failure::Failure;
use crate::loading::model::{Axis, AxisValue};
use crate::loading::scalar::Scalar;
use crate::pycompat::pyfmt::{push_f, push_g, str_repr};
use crate::text::printable::printable;

fn int64_cell(value: &Scalar, axis: &Axis, cell: &mut CompactString) -> Result<(), Failure> {
    let number = value.py_int().ok_or_else(|| match value {
        Scalar::Str(text) => Failure::reported(format!(
            "invalid literal for int() with base 10: {}",
            str_repr(text)
        )),
        other => Failure::fatal(format!(
            "int64 axis value {} is not an integer",
            other.py_repr()
        )),
    })?;
    let flags = axis
        .flags
        .as_deref()
        .ok_or_else(|| Failure::fatal(format!("axis {} has no 'flags'", str_repr(&axis.name))))?;
    if flags != "pow2" {
        use std::fmt::Write;
        let _ = write!(cell, "{number}");
        return Ok(());
    }
    if number <= 0 {
        return Err(Failure::reported("math domain error"));
    }
    cell.push_str("2^");
    push_pow2_exponent(cell, number);
    Ok(())
}

/// `f"{math.log2(number):.0f}"` of a positive number. A power of two
/// (nearly every pow2 axis value) has an exact logarithm: its exponent,
/// written without the float (checked against the float path for every
/// power by the tests).
fn push_pow2_exponent(cell: &mut CompactString, number: i128) {
    if number.count_ones() == 1 {
        let exponent = number.trailing_zeros();
        let mut digits = [b'0'; 3];
        digits[0] += (exponent / 100) as u8;
        digits[1] += (exponent / 10 % 10) as u8;
        digits[2] += (exponent % 10) as u8;
        let first = match exponent {
            0..=9 => 2,
            10..=99 => 1,
            _ => 0,
        };
        cell.push_str(std::str::from_utf8(&digits[first..]).unwrap_or_default());
    } else {
        push_f(cell, (number as f64).log2(), 0);
    }
}

fn float64_cell(value: &Scalar, cell: &mut CompactString) -> Result<(), Failure> {
    match value.py_float() {
        Ok(Some(number)) => {
            push_g(cell, number, 5);
            Ok(())
        }
        Ok(None) => Err(Failure::fatal(format!(
            "float64 axis value {} is not a number",
            value.py_repr()
        ))),
        Err(message) => Err(Failure::reported(message)),
    }
}

/// The displayed form of one axis value of a state.
pub fn axis_cell(axis_value: &AxisValue, axes: &[Axis]) -> Result<String, Failure> {
    let axis = axes.iter().find(|axis| axis.name == axis_value.name);
    let mut cell = CompactString::default();
    format_axis_value(axis_value, axis, &mut cell)?;
    Ok(cell.into_string())
}

/// Writes the displayed form of the value at the end of `cell`.
fn format_axis_value(
    axis_value: &AxisValue,
    axis: Option<&Axis>,
    cell: &mut CompactString,
) -> Result<(), Failure> {
    let axis = axis.ok_or_else(|| {
        Failure::fatal(format!(
            "axis value {} names no axis of its benchmark",
            str_repr(&axis_value.name)
        ))
    })?;
    let value = axis_value.value.as_ref().ok_or_else(|| {
        Failure::fatal(format!(
            "axis value {} has no 'value'",
            str_repr(&axis_value.name)
        ))
    })?;
    match axis.axis_type.as_str() {
        "int64" => int64_cell(value, axis, cell),
        "float64" => float64_cell(value, cell),
        "type" | "string" => {
            match value {
                Scalar::Str(text) => *cell = text.clone(),
                other => cell.push_str(&other.py_str()),
            }
            Ok(())
        }
        // The reference formats unknown axis types as nothing at all.
        _ => Ok(()),
    }
}

/// Up to this many axes a linear search is quicker than building a map.
const AXES_SEARCHED_IN_ORDER: usize = 16;

/// The cells of a state's axis values, in the state's order. Each value's
/// axis is the first of its name, found through a map when there are many
/// axes, so that time stays linear in their number. Cells are written in
/// place, inline when short (most are), and packed for the record.
pub fn axis_cells(values: &[AxisValue], axes: &[Axis]) -> Result<AxisDisplays, Failure> {
    let mut cells: SmallVec<[CompactString; 4]> = SmallVec::with_capacity(values.len());
    let mut push = |value: &AxisValue, axis: Option<&Axis>| {
        let mut cell = CompactString::default();
        format_axis_value(value, axis, &mut cell)?;
        cells.push(cell);
        Ok::<(), Failure>(())
    };
    if axes.len() <= AXES_SEARCHED_IN_ORDER {
        for value in values {
            push(value, axes.iter().find(|axis| axis.name == value.name))?;
        }
    } else {
        let mut first: std::collections::HashMap<&str, &Axis> =
            std::collections::HashMap::with_capacity(axes.len());
        for axis in axes {
            first.entry(axis.name.as_str()).or_insert(axis);
        }
        for value in values {
            push(value, first.get(value.name.as_str()).copied())?;
        }
    }
    Ok(AxisDisplays::new(&cells))
}

/// Axis names as table headers. Names and values come from the input and
/// go to stdout: no control characters, no line that could pass for a
/// bulk-debug marker.
pub fn axis_headers(axis_names: &[String]) -> Vec<String> {
    axis_names
        .iter()
        .map(|name| printable(name).into_owned())
        .collect()
}

/// A row's axis cells as printed (see [`axis_headers`]).
pub fn printable_axis_cells(cells: &[String]) -> impl Iterator<Item = String> + '_ {
    cells.iter().map(|cell| printable(cell).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(name: &str, axis_type: &str, flags: &str) -> Axis {
        Axis {
            name: name.to_string(),
            axis_type: axis_type.to_string(),
            flags: Some(flags.to_string()),
        }
    }

    fn value(name: &str, value: &str) -> AxisValue {
        AxisValue::new(name.into(), None, Some(Scalar::Str(value.into())))
    }

    #[test]
    fn formats_each_axis_type() {
        let axes = [
            axis("N", "int64", "pow2"),
            axis("B", "int64", ""),
            axis("D", "float64", ""),
            axis("T", "type", ""),
        ];
        assert_eq!(axis_cell(&value("N", "1048576"), &axes).unwrap(), "2^20");
        assert_eq!(axis_cell(&value("B", "256"), &axes).unwrap(), "256");
        assert_eq!(axis_cell(&value("D", "0.0005"), &axes).unwrap(), "0.0005");
        assert_eq!(axis_cell(&value("D", "100000"), &axes).unwrap(), "1e+05");
        assert_eq!(axis_cell(&value("T", "F32"), &axes).unwrap(), "F32");
    }

    /// Powers of two take the exponent; it is what the float path writes.
    #[test]
    fn pow2_exponents_are_the_float_paths() {
        let float_path = |number: i128| {
            let mut cell = CompactString::default();
            push_f(&mut cell, (number as f64).log2(), 0);
            cell
        };
        for exponent in 0..127 {
            let number = 1i128 << exponent;
            for n in [number, number + 1, number - 1, number + number / 3] {
                if n > 0 {
                    let mut cell = CompactString::default();
                    push_pow2_exponent(&mut cell, n);
                    assert_eq!(cell, float_path(n), "{n}");
                }
            }
        }
    }

    #[test]
    fn reports_the_reference_errors() {
        let axes = [axis("N", "int64", "pow2")];
        assert_eq!(
            axis_cell(&value("N", "0"), &axes).unwrap_err(),
            Failure::reported("math domain error")
        );
        assert_eq!(
            axis_cell(&value("N", "x"), &axes).unwrap_err(),
            Failure::reported("invalid literal for int() with base 10: 'x'")
        );
    }

    #[test]
    fn many_axes_give_the_cells_of_the_first_axis_of_each_name() {
        for count in [3, AXES_SEARCHED_IN_ORDER + 1, 1000] {
            let mut axes: Vec<Axis> = (0..count)
                .map(|i| axis(&format!("A{i}"), "int64", ""))
                .collect();
            // A second axis of the first name: the first one formats.
            axes.push(axis("A0", "int64", "pow2"));
            let values: Vec<AxisValue> = (0..count)
                .rev()
                .map(|i| value(&format!("A{i}"), "1024"))
                .collect();
            let displays = axis_cells(&values, &axes).unwrap();
            let cells: Vec<&str> = displays.cells().collect();
            assert_eq!(cells.len(), count);
            for (value, cell) in values.iter().zip(&cells) {
                assert_eq!(*cell, axis_cell(value, &axes).unwrap());
            }
            assert!(cells.iter().all(|c| *c == "1024"), "{count}: {cells:?}");
            let unknown = [value("Q", "1")];
            let error = axis_cells(&unknown, &axes).unwrap_err();
            assert_eq!(
                error,
                Failure::fatal("axis value 'Q' names no axis of its benchmark")
            );
        }
    }
}
