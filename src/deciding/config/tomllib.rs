//! TOML as Python's `tomllib` parses it, where the toml crate differs:
//! oversized integers and floats, byte order marks, datetimes Python cannot
//! represent, and one-line syntax errors with line and column, in
//! tomllib's words where the toml crate's message always stands for one
//! of them.

use toml::value::Datetime;
use toml::{Table, Value};

/// A parsed document plus the integer literals that were too large for the
/// toml crate's `i64` and now stand in the table as floats of equal value.
pub(super) struct ParsedToml {
    pub(super) table: Table,
    pub(super) oversized_integers: Vec<OversizedInteger>,
}

/// Python integers are unbounded: a 20-digit literal is a valid integer to the
/// reference (a float once used as a threshold, a wrong number as a version).
#[derive(Debug)]
pub(super) struct OversizedInteger {
    pub(super) python_repr: String,
    pub(super) as_float: f64,
}

/// Parses a TOML 1.0 document, accepting and rejecting what Python's
/// `tomllib` does where the toml crate differs. The error is a one-line
/// description with the line and column when known.
pub(super) fn parse_toml(text: &str) -> Result<ParsedToml, String> {
    // tomllib treats a byte order mark as an invalid statement; the toml crate skips it.
    if text.starts_with('\u{feff}') {
        return Err("a byte order mark is not allowed (at line 1, column 1)".to_string());
    }
    let mut text = text.to_string();
    let mut oversized_integers = Vec::new();
    // Each retry rewrites one out-of-range literal, so the loop ends.
    let table = loop {
        let error = match text.parse::<Table>() {
            Ok(table) => break table,
            Err(error) => error,
        };
        if let Some(patched) = with_overflowing_float_as_inf(&text, &error) {
            text = patched;
        } else if let Some((patched, integer)) = with_oversized_integer_as_float(&text, &error) {
            text = patched;
            oversized_integers.push(integer);
        } else {
            return Err(describe_syntax_error(&text, &error));
        }
    };
    match first_datetime_python_rejects(&table) {
        Some(datetime) => Err(describe_rejected_datetime(&text, datetime)),
        None => Ok(ParsedToml {
            table,
            oversized_integers,
        }),
    }
}

/// The toml crate's messages (lines joined) that always stand for one of
/// tomllib's, at the same position, and tomllib's words for them. Checked
/// against Python 3.11's tomllib; any other message stays the crate's.
const TOMLLIB_WORDS: [(&str, &str); 6] = [
    (
        "invalid table header: expected `.`, `]`",
        "Expected ']' at the end of a table declaration",
    ),
    (
        "invalid table header: expected `.`, `]]`",
        "Expected ']]' at the end of an array declaration",
    ),
    (
        "expected `.`, `=`",
        "Expected '=' after a key in a key/value pair",
    ),
    (
        "expected newline, `#`",
        "Expected newline or end of document after a statement",
    ),
    (
        "invalid table header: expected newline, `#`",
        "Expected newline or end of document after a statement",
    ),
    ("invalid string: expected `\"`, `'`", "Invalid value"),
];

fn describe_syntax_error(text: &str, error: &toml::de::Error) -> String {
    // The crate's message spans several lines ("what failed" then "expected ...");
    // the reference prints one line, so join them.
    let message = error
        .message()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(": ");
    let message = TOMLLIB_WORDS
        .iter()
        .find(|(crate_words, _)| *crate_words == message)
        .map_or(message, |(_, words)| words.to_string());
    match error.span() {
        Some(span) => format!("{message} (at {})", describe_position(text, span.start)),
        None => message,
    }
}

/// `line L, column C`, both 1-based, columns counted in characters as
/// tomllib does, or `end of document` past the last character.
fn describe_position(text: &str, byte_offset: usize) -> String {
    if byte_offset >= text.len() {
        return "end of document".to_string();
    }
    let before: String = text
        .char_indices()
        .take_while(|(index, _)| *index < byte_offset)
        .map(|(_, c)| c)
        .collect();
    let line = 1 + before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let column = 1 + before[line_start..].chars().count();
    format!("line {line}, column {column}")
}

/// tomllib turns a float literal beyond the f64 range into `inf` (which the
/// checks below then reject as non-finite); the toml crate refuses positive
/// overflow as a syntax error. Rewrite that literal to `inf` so the document
/// means what it means to the reference.
fn with_overflowing_float_as_inf(text: &str, error: &toml::de::Error) -> Option<String> {
    if error.message().trim() != "invalid floating-point number" {
        return None;
    }
    let start = error.span()?.start;
    let rest = text.get(start..)?;
    let length = rest
        .find(|c: char| !is_float_literal_char(c))
        .unwrap_or(rest.len());
    let literal = &rest[..length];
    // Requiring a digit keeps a literal `inf` from being "fixed" into itself forever.
    if !literal.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let value: f64 = literal.replace('_', "").parse().ok()?;
    if value != f64::INFINITY {
        return None;
    }
    Some(format!("{}inf{}", &text[..start], &rest[length..]))
}

fn is_float_literal_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '_' | 'e' | 'E')
}

/// The literal at the error position as the text to re-parse (the same value
/// spelled as a float) and the integer the reference sees. Only decimal
/// literals are handled; oversized hex/octal/binary literals stay errors.
fn with_oversized_integer_as_float(
    text: &str,
    error: &toml::de::Error,
) -> Option<(String, OversizedInteger)> {
    let message = error.message().trim();
    if !message.starts_with("number too large") && !message.starts_with("number too small") {
        return None;
    }
    let start = error.span()?.start;
    let rest = text.get(start..)?;
    let length = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '+' | '-' | '_')))
        .unwrap_or(rest.len());
    let digits = rest[..length].replace('_', "");
    let python_repr = digits.strip_prefix('+').unwrap_or(&digits).to_string();
    let unsigned = python_repr.strip_prefix('-').unwrap_or(&python_repr);
    let is_decimal = !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit());
    // Only a literal that really overflows is rewritten, so a retry never sees it again.
    if !is_decimal || python_repr.parse::<i64>().is_ok() {
        return None;
    }
    // Rust's float parsing rounds correctly, as Python's float(int) does.
    let as_float: f64 = python_repr.parse().ok()?;
    let patched = format!("{}{python_repr}.0{}", &text[..start], &rest[length..]);
    Some((
        patched,
        OversizedInteger {
            python_repr,
            as_float,
        },
    ))
}

/// Python's datetime types have no year 0 and no leap second, so tomllib
/// fails to parse such values while the toml crate accepts them.
fn first_datetime_python_rejects(table: &Table) -> Option<&Datetime> {
    table.values().find_map(first_rejected_datetime_in)
}

fn first_rejected_datetime_in(value: &Value) -> Option<&Datetime> {
    match value {
        Value::Datetime(datetime) if python_rejects_datetime(datetime) => Some(datetime),
        Value::Array(items) => items.iter().find_map(first_rejected_datetime_in),
        Value::Table(table) => first_datetime_python_rejects(table),
        _ => None,
    }
}

fn python_rejects_datetime(datetime: &Datetime) -> bool {
    let year_zero = datetime.date.is_some_and(|date| date.year == 0);
    let leap_second = datetime.time.is_some_and(|time| time.second >= 60);
    year_zero || leap_second
}

fn describe_rejected_datetime(text: &str, datetime: &Datetime) -> String {
    let rendered = datetime.to_string();
    let message =
        format!("invalid date or time {rendered} (year 0 and second 60 are not supported)");
    // The parsed value carries no position; its usual spelling locates it.
    match text.find(&rendered) {
        Some(offset) => format!("{message} (at {})", describe_position(text, offset)),
        None => message,
    }
}
