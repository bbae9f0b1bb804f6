//! JSON as Python's `json` module reads it, for the files a strict parser
//! refuses: `NaN`, `Infinity` and `-Infinity` literals, numbers beyond the
//! float range (infinite), `-0` as the integer 0, lone surrogate escapes in
//! strings, and duplicate keys (the last value wins, at the first key's
//! place).
//!
//! Only used after the strict parse failed: the text is rewritten into
//! strict JSON (the literals become marker strings that [`special_float`]
//! turns back into floats) and duplicates are merged through a
//! `serde_json::Value`, whose ordered map behaves as a Python dict.

use std::collections::TryReserveError;

use serde::Deserialize;

/// The strings the non-standard literals are rewritten into. A NUL byte
/// starts them: no name NVBench writes holds one.
const MARKERS: [(&str, &str, f64); 3] = [
    ("-Infinity", "\\u0000-Infinity", f64::NEG_INFINITY),
    ("Infinity", "\\u0000Infinity", f64::INFINITY),
    ("NaN", "\\u0000NaN", f64::NAN),
];

/// The float a rewritten literal stood for.
pub fn special_float(text: &str) -> Option<f64> {
    let rest = text.strip_prefix('\0')?;
    MARKERS
        .iter()
        .find(|(literal, _, _)| *literal == rest)
        .map(|(_, _, value)| *value)
}

/// Whether the strict parser's `error` on `bytes` is one that Python's
/// reading would not raise (so that a huge file that is simply invalid is
/// not copied for nothing).
pub fn worth_retrying(error: &serde_json::Error, bytes: &[u8]) -> bool {
    let message = error.to_string();
    let python_reads = [
        "duplicate field",
        "floating point `-0.0`",
        "surrogate",
        "number out of range",
    ];
    if python_reads.iter().any(|what| message.contains(what)) {
        return true;
    }
    let Some(at) = byte_offset(bytes, error.line(), error.column()) else {
        return false;
    };
    // serde_json reports the column of the offending byte or the one after.
    [at.saturating_sub(1), at].iter().any(|&at| {
        let rest = &bytes[at.min(bytes.len())..];
        MARKERS
            .iter()
            .any(|(literal, _, _)| rest.starts_with(literal.as_bytes()))
    })
}

/// The byte offset of a 1-based line and column.
fn byte_offset(bytes: &[u8], line: usize, column: usize) -> Option<usize> {
    let line_start = if line <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map(|(i, _)| i + 1)?
    };
    Some(line_start + column.saturating_sub(1))
}

/// The prefix of the strings that stand for integers beyond 64 bits in a
/// device section (serde_json would read them as rounded floats, and two
/// devices differing only there would compare equal).
const BIG_INTEGER: &str = "\0int:";

/// The digits of a big-integer marker string.
pub fn big_integer(text: &str) -> Option<&str> {
    text.strip_prefix(BIG_INTEGER)
}

/// `text` with every integer literal beyond `i64`/`u64` turned into a
/// marker string, or `None` when there is none.
pub fn big_integers_as_markers(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i),
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < bytes.len()
                    && matches!(bytes[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                let literal = &text[start..i];
                // `-` before `Infinity` is no integer.
                let integral = literal.bytes().skip(1).all(|b| b.is_ascii_digit())
                    && literal.bytes().any(|b| b.is_ascii_digit());
                if integral && literal.parse::<i64>().is_err() && literal.parse::<u64>().is_err() {
                    out.push_str(&text[copied..start]);
                    out.push_str(&format!("\"\\u0000int:{literal}\""));
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// `json.load` of a file read as text, as a [`serde_json::Value`] whose
/// non-finite floats and integers beyond 64 bits are marker strings (see
/// `pycompat::pyvalue`). `Err` is why Python's reading would raise: the
/// bytes are not UTF-8, or not JSON.
pub fn loads(bytes: &[u8]) -> Result<serde_json::Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{:02x} in position {}",
            bytes[e.valid_up_to()],
            e.valid_up_to()
        )
    })?;
    let marked = big_integers_as_markers(text);
    let text = marked.as_deref().unwrap_or(text);
    let error = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    if worth_retrying(&error, text.as_bytes())
        && let Ok(Some(rewritten)) = python_compatible(text.as_bytes())
        && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&rewritten)
    {
        return Ok(value);
    }
    Err(format!("JSONDecodeError: {error}"))
}

/// `bytes` rewritten as strict JSON with Python's reading, or `None` when
/// that changes nothing (the strict parser's error then stands). The
/// rewritten copies are about as large as the file: their room is reserved
/// up front, and an error says when it cannot be had.
pub fn python_compatible(bytes: &[u8]) -> Result<Option<Vec<u8>>, TryReserveError> {
    let literals = rewrite_literals(bytes)?;
    let text = literals.as_deref().unwrap_or(bytes);
    let merged = merge_duplicate_keys(text)?;
    Ok(match (merged, literals) {
        (Some(merged), _) => Some(merged),
        (None, literals) => literals,
    })
}

/// `NaN`, `Infinity`, `-Infinity` and `-0` outside strings rewritten.
fn rewrite_literals(bytes: &[u8]) -> Result<Option<Vec<u8>>, TryReserveError> {
    let mut out = Vec::new();
    out.try_reserve_exact(bytes.len() + 64)?;
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte == b'"' {
            let end = string_end(bytes, i);
            changed |= push_string(&mut out, &bytes[i..end]);
            i = end;
            continue;
        }
        if let Some((end, infinity)) = overflowing_number(bytes, i, out.last()) {
            let (_, marker, _) = MARKERS[usize::from(!infinity.is_sign_negative())];
            out.push(b'"');
            out.extend_from_slice(marker.as_bytes());
            out.push(b'"');
            i = end;
            changed = true;
            continue;
        }
        let rest = &bytes[i..];
        if let Some((literal, marker, _)) = MARKERS
            .iter()
            .find(|(literal, _, _)| rest.starts_with(literal.as_bytes()))
        {
            out.push(b'"');
            out.extend_from_slice(marker.as_bytes());
            out.push(b'"');
            i += literal.len();
            changed = true;
            continue;
        }
        // `-0` not followed by a fraction or exponent: Python's int 0.
        let after_value =
            |at: usize| !matches!(bytes.get(at), Some(b'.' | b'e' | b'E' | b'0'..=b'9'));
        if rest.starts_with(b"-0") && after_value(i + 2) && !is_number_byte(out.last()) {
            out.push(b'0');
            i += 2;
            changed = true;
            continue;
        }
        out.push(byte);
        i += 1;
    }
    Ok(changed.then_some(out))
}

/// A number literal at `start` that Python reads as an infinite float
/// (`1e309`, `-1e400`): its end and the infinity.
fn overflowing_number(bytes: &[u8], start: usize, before: Option<&u8>) -> Option<(usize, f64)> {
    if !matches!(bytes[start], b'-' | b'0'..=b'9') || is_number_byte(before) {
        return None;
    }
    let end = start
        + bytes[start..]
            .iter()
            .take_while(|b| is_number_byte(Some(b)))
            .count();
    let literal = std::str::from_utf8(&bytes[start..end]).ok()?;
    // Integers of any size are Python ints, not floats.
    if !literal.contains(['.', 'e', 'E']) {
        return None;
    }
    let value: f64 = literal.parse().ok()?;
    value.is_infinite().then_some((end, value))
}

/// Copies a JSON string, turning lone surrogate escapes (which Python reads
/// and a strict parser refuses) into the characters Python's reading gives
/// as this tool holds them: `\udc80`..`\udcff`, a byte of a non-UTF-8 file
/// name, as that byte's reserved character (see `text::path_text`), any
/// other lone surrogate as U+FFFD. Gives whether anything changed.
fn push_string(out: &mut Vec<u8>, string: &[u8]) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i < string.len() {
        if string[i] == b'\\'
            && string.get(i + 1) == Some(&b'u')
            && let Some(unit) = hex_unit(string, i + 2)
        {
            let paired = (0xD800..0xDC00).contains(&unit)
                && string.get(i + 6..i + 8) == Some(b"\\u")
                && hex_unit(string, i + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low));
            if paired {
                out.extend_from_slice(&string[i..i + 12]);
                i += 12;
                continue;
            }
            if (0xD800..0xE000).contains(&unit) {
                let replacement = match unit {
                    0xDC80..=0xDCFF => crate::text::path_text::byte_char((unit - 0xDC00) as u8),
                    _ => char::REPLACEMENT_CHARACTER,
                };
                let mut buffer = [0; 4];
                out.extend_from_slice(replacement.encode_utf8(&mut buffer).as_bytes());
                i += 6;
                changed = true;
                continue;
            }
        }
        let step = if string[i] == b'\\' { 2 } else { 1 };
        out.extend_from_slice(&string[i..(i + step).min(string.len())]);
        i += step;
    }
    changed
}

/// The code unit of the four hex digits at `at`.
fn hex_unit(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
    u32::from_str_radix(digits, 16).ok()
}

fn is_number_byte(byte: Option<&u8>) -> bool {
    matches!(byte, Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'))
}

/// Index just past the string starting at `start` (or the end of input).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The document with duplicate keys merged, when it has any (`None` also
/// when it is no JSON: the strict parser's error then stands).
fn merge_duplicate_keys(text: &[u8]) -> Result<Option<Vec<u8>>, TryReserveError> {
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let Ok(value) = serde_json::Value::deserialize(&mut deserializer) else {
        return Ok(None);
    };
    // Without duplicates the strict parser's error stands.
    if deserializer.end().is_err() || count_keys(&value) >= count_key_tokens(text) {
        return Ok(None);
    }
    // About the file's size (less the duplicates; a number may be written
    // longer), reserved up front where a failure can be reported.
    let mut merged = Vec::new();
    merged.try_reserve_exact(text.len())?;
    Ok(serde_json::to_writer(&mut merged, &value)
        .ok()
        .map(|()| merged))
}

fn count_keys(value: &serde_json::Value) -> usize {
    match value {
        serde_json::Value::Object(map) => map.len() + map.values().map(count_keys).sum::<usize>(),
        serde_json::Value::Array(items) => items.iter().map(count_keys).sum(),
        _ => 0,
    }
}

/// Strings followed by a `:` in the text: its keys, duplicates included.
fn count_key_tokens(text: &[u8]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'"' {
            i = string_end(text, i);
            let next = text[i..].iter().find(|b| !b.is_ascii_whitespace());
            count += usize::from(next == Some(&b':'));
        } else {
            i += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(text: &str) -> Option<String> {
        python_compatible(text.as_bytes())
            .unwrap()
            .map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn special_literals_become_markers() {
        assert_eq!(
            rewritten(r#"{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN -0"}"#).unwrap(),
            r#"{"a": "\u0000NaN", "b": ["\u0000Infinity", "\u0000-Infinity"], "c": "NaN -0"}"#
        );
        assert_eq!(special_float("\0Infinity"), Some(f64::INFINITY));
        assert!(special_float("\0NaN").unwrap().is_nan());
        assert_eq!(special_float("NaN"), None);
    }

    #[test]
    fn big_integers_become_markers() {
        let text = r#"{"id": 123456789012345678901234567890, "x": [-99999999999999999999, 5, 1.5e300], "s": "123456789012345678901234567890"}"#;
        let rewritten = big_integers_as_markers(text).unwrap();
        assert_eq!(
            rewritten,
            r#"{"id": "\u0000int:123456789012345678901234567890", "x": ["\u0000int:-99999999999999999999", 5, 1.5e300], "s": "123456789012345678901234567890"}"#
        );
        let value: serde_json::Value = serde_json::from_str(&rewritten).unwrap();
        assert_eq!(
            big_integer(value["id"].as_str().unwrap()),
            Some("123456789012345678901234567890")
        );
        assert_eq!(
            big_integers_as_markers(r#"{"id": 18446744073709551615}"#),
            None
        );
    }

    #[test]
    fn minus_zero_integers_become_zero() {
        assert_eq!(
            rewritten(r#"{"a": -0, "b": [-0]}"#).unwrap(),
            r#"{"a": 0, "b": [0]}"#
        );
        // Floats and other numbers stay.
        assert_eq!(rewritten(r#"{"a": -0.0, "b": -0e1, "c": -01}"#), None);
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_at_the_first_place() {
        assert_eq!(
            rewritten(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap(),
            r#"{"a":3,"b":2}"#
        );
        assert_eq!(rewritten(r#"{"a": {"x": 1}, "b": ["a", "a"]}"#), None);
        assert_eq!(rewritten("not json"), None);
    }

    #[test]
    fn overflowing_numbers_and_lone_surrogates_are_read_as_python_reads_them() {
        let text = br#"{"a": 1e309, "b": -1.5e400, "c": 12e3, "d": "x\udcffy\ud800", "e": "\ud83d\ude00", "f": "1e999"}"#;
        let strict = serde_json::from_slice::<serde_json::Value>(text).unwrap_err();
        assert!(worth_retrying(&strict, text), "{strict}");
        let rewritten = python_compatible(text).unwrap().unwrap();
        let value: serde_json::Value = serde_json::from_slice(&rewritten).unwrap();
        assert_eq!(
            special_float(value["a"].as_str().unwrap()),
            Some(f64::INFINITY)
        );
        assert_eq!(
            special_float(value["b"].as_str().unwrap()),
            Some(f64::NEG_INFINITY)
        );
        assert_eq!(value["c"], serde_json::json!(12e3));
        let byte = crate::text::path_text::byte_char(0xff);
        assert_eq!(value["d"].as_str().unwrap(), format!("x{byte}y\u{fffd}"));
        // A surrogate pair is a character; a number in a string stays text.
        assert_eq!(value["e"].as_str().unwrap(), "\u{1f600}");
        assert_eq!(value["f"].as_str().unwrap(), "1e999");
    }
}
