//! Python-compatible number formatting: `repr(float)`, `%.Ng` / `format(x, "g")`,
//! and `%.Nf` with Python's handling of non-finite values.
//!
//! The reference prints numbers through Python's formatting rules; every
//! byte of our output that depends on them goes through this module.

/// Shortest round-trip digits and decimal exponent of a finite, non-zero `x`:
/// `x = 0.d1d2d3... * 10^decpt` (the `decpt` convention of David Gay's dtoa).
fn shortest_digits(x: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest round-trip digits, like Python's repr.
    let text = format!("{:e}", x.abs());
    let (mantissa, exponent) = text.split_once('e').expect("`{:e}` always has an exponent");
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    (digits, exponent + 1)
}

fn exponent_suffix(exponent: i32) -> String {
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("e{sign}{:02}", exponent.abs())
}

/// Python `repr(float)`.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0.0");
    }
    let (digits, decpt) = shortest_digits(x);
    let body = if !(-4 < decpt && decpt <= 16) {
        let (first, rest) = digits.split_at(1);
        let mantissa = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        format!("{mantissa}{}", exponent_suffix(decpt - 1))
    } else if decpt <= 0 {
        format!("0.{}{}", "0".repeat((-decpt) as usize), digits)
    } else if decpt as usize >= digits.len() {
        format!("{}{}.0", digits, "0".repeat(decpt as usize - digits.len()))
    } else {
        let (int_part, frac_part) = digits.split_at(decpt as usize);
        format!("{int_part}.{frac_part}")
    };
    format!("{sign}{body}")
}

fn strip_trailing_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// Python `"%.{precision}g" % x` (also `format(x, "g")` with precision 6).
pub fn format_g(x: f64, precision: usize) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let precision = precision.max(1);
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Round to `precision` significant digits first; the exponent after
    // rounding decides between fixed and scientific notation.
    let sci = format!("{:.*e}", precision - 1, x);
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` always has an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    if exponent < -4 || exponent >= precision as i32 {
        format!("{}{}", strip_trailing_zeros(mantissa), exponent_suffix(exponent))
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        strip_trailing_zeros(&format!("{:.*}", decimals, x)).to_string()
    }
}

/// Python `f"{x:.{decimals}f}"`, including `nan`/`inf` spellings.
pub fn format_f(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    format!("{:.*}", decimals, x)
}

/// Python `f"{x:+.{decimals}f}"`.
pub fn format_f_signed(x: f64, decimals: usize) -> String {
    let text = format_f(x, decimals);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_matches_python() {
        let cases = [
            (0.005, "0.005"),
            (1e-05, "1e-05"),
            (0.97, "0.97"),
            (0.0001, "0.0001"),
            (1.0, "1.0"),
            (0.5, "0.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789.125, "123456789.125"),
            (1.5e-7, "1.5e-07"),
            (-2.5, "-2.5"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        for (value, expected) in cases {
            assert_eq!(float_repr(value), expected, "repr({value:e})");
        }
    }

    #[test]
    fn g_matches_python() {
        let cases = [
            (0.0005, 5, "0.0005"),
            (0.00005, 5, "5e-05"),
            (100000.0, 5, "1e+05"),
            (12345.0, 5, "12345"),
            (123456.0, 5, "1.2346e+05"),
            (1.0, 5, "1"),
            (0.1, 5, "0.1"),
            (100000.0, 6, "100000"),
            (1234567.0, 6, "1.23457e+06"),
            (0.0, 5, "0"),
            (-1.5, 5, "-1.5"),
            (99999.5, 5, "1e+05"),
            (2.5, 1, "2"),
            (f64::NAN, 5, "nan"),
            (f64::NEG_INFINITY, 5, "-inf"),
        ];
        for (value, precision, expected) in cases {
            assert_eq!(format_g(value, precision), expected, "%.{precision}g of {value}");
        }
    }

    #[test]
    fn fixed_matches_python() {
        assert_eq!(format_f(1.0025, 3), "1.002");
        assert_eq!(format_f(f64::INFINITY, 2), "inf");
        assert_eq!(format_f_signed(0.0, 1), "+0.0");
        assert_eq!(format_f_signed(-0.04, 1), "-0.0");
        assert_eq!(format_f_signed(12.345, 2), "+12.35");
    }
}
