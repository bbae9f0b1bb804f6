//! Why Python's `json.load` refuses a file, in its own words: the
//! `UnicodeDecodeError` of reading the file as UTF-8 text, or the
//! `JSONDecodeError` of CPython 3.11's C scanner (`Expecting value: line 1
//! column 20 (char 19)`). The scripts that catch these print them, so the
//! first error, its wording and its position must be the scanner's: this is
//! a validator that walks the text in the scanner's order and stops where it
//! stops.
//!
//! Positions are code-point indices into the text as a file opened in text
//! mode reads it, where `\r\n` and a lone `\r` have become `\n`.

/// Python's `json` refusal of `bytes` read as a text file, as `str(exc)`
/// gives it; `None` when Python reads them (or nests deeper than this
/// validator follows, where Python raises `RecursionError`).
pub fn python_json_error(bytes: &[u8]) -> Option<String> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => return Some(unicode_decode_error(bytes, &error)),
    };
    let chars = universal_newlines(text);
    match decode(&chars) {
        Ok(()) => None,
        Err(Refusal::At(message, position)) => Some(at_position(&chars, message, position)),
        Err(Refusal::Plain(message)) => Some(message),
        Err(Refusal::TooDeep) => None,
    }
}

/// `UnicodeDecodeError`'s text for the first invalid UTF-8 sequence.
fn unicode_decode_error(bytes: &[u8], error: &std::str::Utf8Error) -> String {
    let start = error.valid_up_to();
    let (end, reason) = match error.error_len() {
        // Python's decoder, like Rust's, takes the longest valid prefix of
        // a sequence as the bytes it cannot decode.
        Some(length) if is_invalid_start(bytes[start]) => (start + length, "invalid start byte"),
        Some(length) => (start + length, "invalid continuation byte"),
        None => (bytes.len(), "unexpected end of data"),
    };
    if end - start == 1 {
        format!(
            "'utf-8' codec can't decode byte 0x{:02x} in position {start}: {reason}",
            bytes[start]
        )
    } else {
        format!(
            "'utf-8' codec can't decode bytes in position {start}-{}: {reason}",
            end - 1
        )
    }
}

fn is_invalid_start(byte: u8) -> bool {
    matches!(byte, 0x80..=0xc1 | 0xf5..=0xff)
}

/// Text mode's newline translation.
fn universal_newlines(text: &str) -> Vec<char> {
    let mut chars = Vec::with_capacity(text.len());
    let mut iter = text.chars().peekable();
    while let Some(c) = iter.next() {
        if c == '\r' {
            iter.next_if_eq(&'\n');
            chars.push('\n');
        } else {
            chars.push(c);
        }
    }
    chars
}

/// `JSONDecodeError`'s text: the message, then where.
fn at_position(chars: &[char], message: &str, position: usize) -> String {
    let before = &chars[..position.min(chars.len())];
    let line = 1 + before.iter().filter(|c| **c == '\n').count();
    let column = match before.iter().rposition(|c| *c == '\n') {
        Some(newline) => position - newline,
        None => position + 1,
    };
    format!("{message}: line {line} column {column} (char {position})")
}

#[derive(Debug, PartialEq)]
enum Refusal {
    /// A `JSONDecodeError` at a code-point index.
    At(&'static str, usize),
    /// Another `ValueError`, worded in full.
    Plain(String),
    /// Nested deeper than Python's recursion limit lets it go.
    TooDeep,
}

/// Python's recursion limit is 1000 frames, some of which the script
/// itself holds; nesting anywhere near it is no NVBench file.
const MAX_DEPTH: usize = 900;

/// CPython refuses integer literals longer than this (`sys.int_info`).
const MAX_INT_DIGITS: usize = 4300;

const EXPECTING_VALUE: &str = "Expecting value";
const EXPECTING_COMMA: &str = "Expecting ',' delimiter";
const EXPECTING_COLON: &str = "Expecting ':' delimiter";
const EXPECTING_NAME: &str = "Expecting property name enclosed in double quotes";
const BAD_UNICODE_ESCAPE: &str = "Invalid \\uXXXX escape";

#[derive(Clone, Copy, PartialEq)]
enum Open {
    Array,
    Object,
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn skip_space(chars: &[char], mut at: usize) -> usize {
    while at < chars.len() && is_space(chars[at]) {
        at += 1;
    }
    at
}

/// `json.loads`: the BOM check, one value, then only whitespace.
fn decode(chars: &[char]) -> Result<(), Refusal> {
    if chars.first() == Some(&'\u{feff}') {
        return Err(Refusal::At(
            "Unexpected UTF-8 BOM (decode using utf-8-sig)",
            0,
        ));
    }
    let end = scan_document(chars, skip_space(chars, 0))?;
    let end = skip_space(chars, end);
    if end != chars.len() {
        return Err(Refusal::At("Extra data", end));
    }
    Ok(())
}

/// One value at `at` with everything nested in it; gives its end. The
/// scanner recurses; this keeps the open containers on a stack instead.
fn scan_document(chars: &[char], mut at: usize) -> Result<usize, Refusal> {
    let mut open: Vec<Open> = Vec::new();
    loop {
        // Start a value: a container opens, anything else ends here.
        let mut end = match chars.get(at) {
            Some('{') | Some('[') if open.len() >= MAX_DEPTH => return Err(Refusal::TooDeep),
            Some('{') => {
                let inside = skip_space(chars, at + 1);
                if chars.get(inside) == Some(&'}') {
                    inside + 1
                } else {
                    open.push(Open::Object);
                    at = member_value(chars, inside)?;
                    continue;
                }
            }
            Some('[') => {
                let inside = skip_space(chars, at + 1);
                if chars.get(inside) == Some(&']') {
                    inside + 1
                } else {
                    open.push(Open::Array);
                    at = inside;
                    continue;
                }
            }
            _ => scan_scalar(chars, at)?,
        };
        // Close containers the value was the last of; go on after a comma.
        loop {
            let Some(&container) = open.last() else {
                return Ok(end);
            };
            let close = if container == Open::Array { ']' } else { '}' };
            let next = skip_space(chars, end);
            match chars.get(next) {
                Some(&c) if c == close => {
                    open.pop();
                    end = next + 1;
                }
                Some(',') => {
                    let after = skip_space(chars, next + 1);
                    at = match container {
                        Open::Array => after,
                        Open::Object => member_value(chars, after)?,
                    };
                    break;
                }
                _ => return Err(Refusal::At(EXPECTING_COMMA, next)),
            }
        }
    }
}

/// An object member's name and colon at `at`; gives where its value starts.
fn member_value(chars: &[char], at: usize) -> Result<usize, Refusal> {
    if chars.get(at) != Some(&'"') {
        return Err(Refusal::At(EXPECTING_NAME, at));
    }
    let after_name = skip_space(chars, scan_string(chars, at + 1)?);
    if chars.get(after_name) != Some(&':') {
        return Err(Refusal::At(EXPECTING_COLON, after_name));
    }
    Ok(skip_space(chars, after_name + 1))
}

/// A string, a named constant or a number at `at`; gives its end.
fn scan_scalar(chars: &[char], at: usize) -> Result<usize, Refusal> {
    let Some(&first) = chars.get(at) else {
        return Err(Refusal::At(EXPECTING_VALUE, at));
    };
    if first == '"' {
        return scan_string(chars, at + 1);
    }
    let constant = match first {
        'n' => "null",
        't' => "true",
        'f' => "false",
        'N' => "NaN",
        'I' => "Infinity",
        '-' => "-Infinity",
        _ => "",
    };
    let length = constant.chars().count();
    // The scanner needs the whole word within the text.
    if !constant.is_empty()
        && at + length <= chars.len()
        && chars[at..at + length].iter().copied().eq(constant.chars())
    {
        return Ok(at + length);
    }
    scan_number(chars, at)
}

fn is_digit(c: Option<&char>) -> bool {
    c.is_some_and(char::is_ascii_digit)
}

/// The scanner's number: as long a number as it can read; what follows is
/// its caller's to judge.
fn scan_number(chars: &[char], start: usize) -> Result<usize, Refusal> {
    let mut at = start;
    if chars.get(at) == Some(&'-') {
        at += 1;
    }
    match chars.get(at) {
        Some('1'..='9') => {
            at += 1;
            while is_digit(chars.get(at)) {
                at += 1;
            }
        }
        Some('0') => at += 1,
        _ => return Err(Refusal::At(EXPECTING_VALUE, start)),
    }
    let mut is_float = false;
    // A fraction or an exponent needs a character after its first one.
    if chars.get(at) == Some(&'.') && is_digit(chars.get(at + 1)) {
        is_float = true;
        at += 2;
        while is_digit(chars.get(at)) {
            at += 1;
        }
    }
    if at + 1 < chars.len() && matches!(chars[at], 'e' | 'E') {
        let exponent = at;
        at += 1;
        if at + 1 < chars.len() && matches!(chars[at], '-' | '+') {
            at += 1;
        }
        while is_digit(chars.get(at)) {
            at += 1;
        }
        if is_digit(chars.get(at - 1)) {
            is_float = true;
        } else {
            at = exponent;
        }
    }
    let digits = chars[start..at]
        .iter()
        .filter(|c| c.is_ascii_digit())
        .count();
    if !is_float && digits > MAX_INT_DIGITS {
        return Err(Refusal::Plain(format!(
            "Exceeds the limit ({MAX_INT_DIGITS} digits) for integer string conversion: value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
        )));
    }
    Ok(at)
}

/// A string whose opening quote is just before `at`; gives its end.
fn scan_string(chars: &[char], mut at: usize) -> Result<usize, Refusal> {
    let begin = at - 1;
    let unterminated = || Refusal::At("Unterminated string starting at", begin);
    loop {
        let mut next = at;
        while next < chars.len() && !matches!(chars[next], '"' | '\\') {
            if u32::from(chars[next]) <= 0x1f {
                return Err(Refusal::At("Invalid control character at", next));
            }
            next += 1;
        }
        match chars.get(next) {
            Some('"') => return Ok(next + 1),
            Some(_) => {}
            None => return Err(unterminated()),
        }
        let Some(&escaped) = chars.get(next + 1) else {
            return Err(unterminated());
        };
        at = if escaped == 'u' {
            unicode_escape(chars, next + 2)?
        } else if matches!(escaped, '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') {
            next + 2
        } else {
            return Err(Refusal::At("Invalid \\escape", next));
        };
    }
}

/// The hex digits of `\uXXXX` at `at` (just after the `u`), and the low
/// half of a surrogate pair after a high half; gives where the string goes on.
fn unicode_escape(chars: &[char], at: usize) -> Result<usize, Refusal> {
    let end = at + 4;
    // The scanner wants a character after the digits (the closing quote).
    if end >= chars.len() {
        return Err(Refusal::At(BAD_UNICODE_ESCAPE, at - 1));
    }
    let unit = hex_unit(&chars[at..end]).ok_or(Refusal::At(BAD_UNICODE_ESCAPE, at - 1))?;
    let pair = (0xd800..=0xdbff).contains(&unit)
        && end + 6 < chars.len()
        && chars[end] == '\\'
        && chars[end + 1] == 'u';
    if !pair {
        return Ok(end);
    }
    let low = hex_unit(&chars[end + 2..end + 6]).ok_or(Refusal::At(BAD_UNICODE_ESCAPE, end + 1))?;
    // A second escape that is no low half is read again on its own.
    Ok(if (0xdc00..=0xdfff).contains(&low) {
        end + 6
    } else {
        end
    })
}

fn hex_unit(digits: &[char]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0u32, |unit, c| Some(unit * 16 + c.to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> Option<String> {
        python_json_error(text.as_bytes())
    }

    #[test]
    fn valid_documents_pass() {
        for text in [
            "{}",
            " [1, -2.5e3, \"a\\u00e9\\ud83d\\ude00\", null, true, false, NaN, -Infinity] ",
            "{\"a\": {\"b\": []}}\r\n",
            "0",
        ] {
            assert_eq!(error(text), None, "{text}");
        }
    }

    #[test]
    fn positions_count_code_points_and_lines() {
        assert_eq!(
            error("{\"meta\": {\"argv\": [}").as_deref(),
            Some("Expecting value: line 1 column 20 (char 19)")
        );
        assert_eq!(
            error("{\n  \"é\": 1,\n}").as_deref(),
            Some("Expecting property name enclosed in double quotes: line 3 column 1 (char 12)")
        );
        assert_eq!(
            error("").as_deref(),
            Some("Expecting value: line 1 column 1 (char 0)")
        );
        assert_eq!(
            error("{} x").as_deref(),
            Some("Extra data: line 1 column 4 (char 3)")
        );
        assert_eq!(
            error("[1 2]").as_deref(),
            Some("Expecting ',' delimiter: line 1 column 4 (char 3)")
        );
        assert_eq!(
            error("{\"a\" 1}").as_deref(),
            Some("Expecting ':' delimiter: line 1 column 6 (char 5)")
        );
    }

    #[test]
    fn strings() {
        assert_eq!(
            error("[\"abc").as_deref(),
            Some("Unterminated string starting at: line 1 column 2 (char 1)")
        );
        assert_eq!(
            error("[\"a\tb\"]").as_deref(),
            Some("Invalid control character at: line 1 column 4 (char 3)")
        );
        assert_eq!(
            error("[\"a\\x\"]").as_deref(),
            Some("Invalid \\escape: line 1 column 4 (char 3)")
        );
        assert_eq!(
            error("[\"\\u12G4\"]").as_deref(),
            Some("Invalid \\uXXXX escape: line 1 column 4 (char 3)")
        );
    }

    #[test]
    fn undecodable_bytes() {
        assert_eq!(
            python_json_error(b"{\"a\": \"\xff\"}").as_deref(),
            Some("'utf-8' codec can't decode byte 0xff in position 7: invalid start byte")
        );
        assert_eq!(
            python_json_error(b"{\"a\": \"\xe2\x82").as_deref(),
            Some("'utf-8' codec can't decode bytes in position 7-8: unexpected end of data")
        );
        assert_eq!(
            python_json_error(b"\"\xe2\x82x\"").as_deref(),
            Some("'utf-8' codec can't decode bytes in position 1-2: invalid continuation byte")
        );
    }

    #[test]
    fn nesting_beyond_the_limit_is_left_to_the_caller() {
        let deep = "[".repeat(MAX_DEPTH + 10);
        assert_eq!(error(&deep), None);
    }
}
