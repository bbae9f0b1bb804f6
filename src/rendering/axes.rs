//! Axis values as table cells and labels: `2^N` for pow2 int64 axes,
//! `%.5g` for float64 axes, the raw text for string and type axes.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use compact_str::CompactString;

use crate::deciding::report::AxisDisplays;
use crate::failure::Failure;
use crate::loading::model::{Axis, AxisValue};
use crate::loading::scalar::Scalar;
use crate::pycompat::pyfmt::{AsciiOut, push_f, push_g, str_repr};
use crate::text::digits::{DIGITS_ROOM, decimal_digits};
use crate::text::printable::printable;

fn int64_cell<W: AsciiOut>(value: &Scalar, axis: &Axis, cell: &mut W) -> Result<(), Failure> {
    // Canonical digits (what NVBench writes) are `str(int(text))` themselves.
    let canonical = match value {
        Scalar::Str(text) => canonical_int(text).map(|number| (i128::from(number), text)),
        _ => None,
    };
    let number = match canonical {
        Some((number, _)) => number,
        None => value.py_int().ok_or_else(|| match value {
            Scalar::Str(text) => Failure::reported(format!(
                "invalid literal for int() with base 10: {}",
                str_repr(text)
            )),
            other => Failure::fatal(format!(
                "int64 axis value {} is not an integer",
                other.py_repr()
            )),
        })?,
    };
    let flags = axis
        .flags
        .as_deref()
        .ok_or_else(|| Failure::fatal(format!("axis {} has no 'flags'", str_repr(&axis.name))))?;
    if flags != "pow2" {
        match canonical {
            Some((_, text)) => cell.push_ascii(text.as_bytes()),
            None => push_int(cell, number),
        }
        return Ok(());
    }
    if number <= 0 {
        return Err(Failure::reported("math domain error"));
    }
    cell.push_ascii(b"2^");
    push_pow2_exponent(cell, number);
    Ok(())
}

/// `int(text)` of text in the form `str(int(text))` gives back: `0`, or up
/// to 18 digits without a leading zero, maybe after a `-`. `None` for any
/// other text (which takes `parse_py_int`).
fn canonical_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes() {
        [b'-', digits @ ..] => (true, digits),
        digits => (false, digits),
    };
    match digits {
        [b'0'] if !negative => return Some(0),
        [] | [b'0', ..] => return None,
        _ if digits.len() > 18 => return None,
        _ => {}
    }
    let mut number: i64 = 0;
    for &digit in digits {
        if !digit.is_ascii_digit() {
            return None;
        }
        number = number * 10 + i64::from(digit - b'0');
    }
    Some(if negative { -number } else { number })
}

/// `str(number)`, written without `core::fmt` when it fits in 64 bits.
fn push_int<W: AsciiOut>(cell: &mut W, number: i128) {
    let Ok(magnitude) = u64::try_from(number.unsigned_abs()) else {
        let _ = write!(cell, "{number}");
        return;
    };
    let mut room = [0u8; DIGITS_ROOM];
    cell.push_ascii(decimal_digits(magnitude, number < 0, &mut room));
}

/// `f"{math.log2(number):.0f}"` of a positive number. A power of two
/// (nearly every pow2 axis value) has an exact logarithm: its exponent,
/// written without the float (checked against the float path for every
/// power by the tests).
fn push_pow2_exponent<W: AsciiOut>(cell: &mut W, number: i128) {
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
        cell.push_ascii(&digits[first..]);
    } else {
        push_f(cell, (number as f64).log2(), 0);
    }
}

fn float64_cell<W: AsciiOut>(value: &Scalar, cell: &mut W) -> Result<(), Failure> {
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
#[cfg(test)]
pub fn axis_cell(axis_value: &AxisValue, axes: &[Axis]) -> Result<String, Failure> {
    let axis = axes.iter().find(|axis| axis.name == axis_value.name);
    let mut cell = CompactString::default();
    format_axis_value(axis_value, axis, &mut cell)?;
    Ok(cell.into_string())
}

/// Writes the displayed form of the value at the end of `cell`.
fn format_axis_value<W: AsciiOut>(
    axis_value: &AxisValue,
    axis: Option<&Axis>,
    cell: &mut W,
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
                Scalar::Str(text) => {
                    let _ = cell.write_str(text);
                }
                other => {
                    let _ = cell.write_str(&other.py_str());
                }
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
/// axes, so that time stays linear in their number.
pub fn axis_cells(values: &[AxisValue], axes: &[Axis]) -> Result<AxisDisplays, Failure> {
    let mut cells = Vec::with_capacity(values.len());
    // Made at the first value that needs it, and only then.
    let many: OnceCell<HashMap<&str, &Axis>> = OnceCell::new();
    let axis_of = |value: &AxisValue| {
        if axes.len() <= AXES_SEARCHED_IN_ORDER {
            return axes.iter().find(|axis| axis.name == value.name);
        }
        let first = many.get_or_init(|| {
            let mut first = HashMap::with_capacity(axes.len());
            for axis in axes {
                first.entry(axis.name.as_str()).or_insert(axis);
            }
            first
        });
        first.get(value.name.as_str()).copied()
    };
    for value in values {
        let mut cell = CompactString::default();
        if !value.is_absent() {
            format_axis_value(value, axis_of(value), &mut cell)?;
        }
        cells.push(cell);
    }
    Ok(AxisDisplays::new(cells))
}

/// A state's axis values one for each of its benchmark's axes, in the
/// axes' order, when they are not already so many: the first value of each
/// axis's name, or an absent place (an empty cell). `None` when the state
/// has one value an axis, kept in its own order as the reference prints
/// it. Google Benchmark families mix instances with and without an
/// argument (`BM_x` and `BM_x/8`), and a hand-edited NVBench state may
/// miss or repeat a value: their rows still line up under the headers.
pub fn aligned_to_axes(values: &[AxisValue], axes: &[Axis]) -> Option<Arc<[AxisValue]>> {
    if values.len() == axes.len() {
        return None;
    }
    let aligned = axes.iter().map(|axis| {
        values
            .iter()
            .find(|value| value.name == axis.name)
            .cloned()
            .unwrap_or_else(|| AxisValue::absent(axis.name.as_str().into()))
    });
    Some(aligned.collect())
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

    /// Canonical digits are copied, other integers written without
    /// `core::fmt`: both as `str(int(value))` prints them.
    #[test]
    fn integers_are_written_as_python_prints_them() {
        let axes = [axis("B", "int64", "")];
        let mut state = 0x2545_f491_4f6c_dd1d;
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "00",
            "007",
            "+5",
            " 5",
            "5 ",
            "1_000",
            "-",
            "",
            "abc",
            "1e3",
            "-123",
            "999999999999999999",
            "1000000000000000000",
            "-9223372036854775808",
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105728",
        ]
        .map(String::from)
        .to_vec();
        for _ in 0..2000 {
            let r = crate::testing::xorshift_step(&mut state);
            let number = (r >> (r % 64)) as i64 * if r & 1 == 0 { 1 } else { -1 };
            texts.push(number.to_string());
            texts.push(format!("{}{number}", if r & 2 == 0 { "" } else { "0" }));
        }
        let mut written = 0;
        for text in &texts {
            let expected = crate::pycompat::pyfmt::parse_py_int(text).map(|n| n.to_string());
            let cell = axis_cell(&value("B", text), &axes).ok();
            assert_eq!(cell, expected, "{text:?}");
            written += usize::from(cell.is_some());
            let json = Scalar::Int(text.parse().unwrap_or(0));
            let expected = json.py_int().map(|n| n.to_string());
            let cell = AxisValue::new("B".into(), None, Some(json));
            assert_eq!(axis_cell(&cell, &axes).ok(), expected);
        }
        assert!(written > 3000, "{written}");
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
