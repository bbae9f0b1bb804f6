//! Python number recognition: what `int()`, `float()` and tabulate's
//! number regexes accept.

use std::borrow::Cow;

use super::text::is_py_space;

/// Python 3.11's default `sys.get_int_max_str_digits()`: longer digit strings
/// make `int()` raise, so tabulate does not treat them as integers.
const INT_MAX_STR_DIGITS: usize = 4300;

/// `_isnumber`: `float()` accepts it and it is finite, or it is spelled
/// exactly "inf", "-inf" or "nan" in any case (so "1e999" or " inf" are text).
pub(super) fn is_number(text: &str) -> bool {
    match python_float(text) {
        Some(value) if value.is_finite() => true,
        Some(_) => ["inf", "-inf", "nan"]
            .iter()
            .any(|word| text.eq_ignore_ascii_case(word)),
        None => false,
    }
}

/// Whether Python's `int(text)` succeeds: surrounding whitespace, a sign,
/// and decimal digits (any script) with single underscores between digits.
pub(super) fn python_int_accepts(text: &str) -> bool {
    let Some(ascii) = python_number_text(text) else {
        return false;
    };
    let body = ascii.strip_prefix(['+', '-']).unwrap_or(&ascii);
    digit_count_with_underscores(body).is_some_and(|digits| digits <= INT_MAX_STR_DIGITS)
}

/// Number of digits in `1_000`-style text; `None` unless it is digits with
/// single underscores strictly between them.
fn digit_count_with_underscores(text: &str) -> Option<usize> {
    let well_formed = !text.is_empty()
        && !text.starts_with('_')
        && !text.ends_with('_')
        && !text.contains("__")
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    well_formed.then(|| text.bytes().filter(u8::is_ascii_digit).count())
}

/// Python's `float(text)`.
pub(super) fn python_float(text: &str) -> Option<f64> {
    let ascii = python_number_text(text)?;
    let literal = remove_digit_underscores(&ascii)?;
    parse_float_literal(&literal)
}

/// CPython first maps non-ASCII whitespace to ' ' and non-ASCII decimal
/// digits to ASCII (`_PyUnicode_TransformDecimalAndSpaceToASCII`; any other
/// non-ASCII character fails), then trims C whitespace (" \t\n\v\f\r").
fn python_number_text(text: &str) -> Option<Cow<'_, str>> {
    // Table cells are nearly always ASCII, which maps to itself (except
    // DEL, which fails like any other non-digit, non-space character).
    if text.bytes().all(|b| b < 0x7f) {
        return Some(Cow::Borrowed(text.trim_matches(is_c_space)));
    }
    let ascii: String = text
        .chars()
        .map(ascii_equivalent)
        .collect::<Option<String>>()?;
    Some(Cow::Owned(ascii.trim_matches(is_c_space).to_string()))
}

fn ascii_equivalent(c: char) -> Option<char> {
    if (c as u32) < 127 {
        Some(c)
    } else if is_py_space(c) {
        Some(' ')
    } else {
        unicode_decimal_value(c).map(|digit| char::from(b'0' + digit))
    }
}

fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `float()` allows an underscore only between two digits, then ignores it.
fn remove_digit_underscores(text: &str) -> Option<Cow<'_, str>> {
    if !text.contains('_') {
        return Some(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let well_placed = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'_')
        .all(|(index, _)| {
            let digit_before = index > 0 && bytes[index - 1].is_ascii_digit();
            let digit_after = bytes.get(index + 1).is_some_and(u8::is_ascii_digit);
            digit_before && digit_after
        });
    well_placed.then(|| Cow::Owned(text.replace('_', "")))
}

/// Sign, then "inf"/"infinity"/"nan" in any case or a decimal literal.
fn parse_float_literal(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if body.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else if is_decimal_literal(body) {
        // Rust's parser rounds correctly like CPython's dtoa and saturates
        // out-of-range values to infinity or zero the same way.
        body.parse::<f64>().ok()?
    } else {
        return None;
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `digits [. digits] [e [sign] digits]` with at least one mantissa digit.
fn is_decimal_literal(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(position) => (&text[..position], Some(&text[position + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok =
        !(whole.is_empty() && fraction.is_empty()) && all_digits(whole) && all_digits(fraction);
    let exponent_ok = exponent.is_none_or(|exp| {
        let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        !digits.is_empty() && all_digits(digits)
    });
    mantissa_ok && exponent_ok
}

/// tabulate's `_float_with_thousands_separators` regex
/// `^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$`; its `$`
/// also matches before a final newline, and it accepts the empty string.
pub(super) fn matches_thousands_pattern(text: &str) -> bool {
    fully_matches_thousands(text) || text.strip_suffix('\n').is_some_and(fully_matches_thousands)
}

fn fully_matches_thousands(text: &str) -> bool {
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if text.is_empty() {
        return true;
    }
    match text.split_once('.') {
        Some(("", fraction)) => !fraction.is_empty() && all_digits(fraction),
        Some((whole, fraction)) => is_grouped_integer(whole) && all_digits(fraction),
        None => is_grouped_integer(text),
    }
}

/// `[+-]?[0-9]{1,3}(,[0-9]{3})*`
fn is_grouped_integer(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let mut groups = unsigned.split(',');
    let first_ok = groups
        .next()
        .is_some_and(|g| (1..=3).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()));
    first_ok && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

/// First code points of the runs of ten Unicode decimal digits (Python 3.11 /
/// Unicode 14 `unicodedata.decimal`), which `int()` and `float()` accept.
const DECIMAL_DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
    0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
    0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
    0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

fn unicode_decimal_value(c: char) -> Option<u8> {
    let code = c as u32;
    DECIMAL_DIGIT_ZEROS
        .iter()
        .find(|zero| (**zero..**zero + 10).contains(&code))
        .map(|zero| (code - zero) as u8)
}
