//! Column types (tabulate's `_type`) and the re-printing of numbers in
//! numeric columns, colour codes included.

use std::borrow::Cow;

use crate::pycompat::pyfmt::format_g;

use super::numbers::{is_number, matches_thousands_pattern, python_float, python_int_accepts};
use super::text::strip_ansi;

/// Deduced cell type, ordered by generality as in tabulate's `_more_generic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum CellType {
    Missing,
    Bool,
    Int,
    Float,
    Text,
}

/// `_column_type`: the most generic cell type, starting from `bool` (so a
/// column of empty cells counts as bool, which prints like text).
pub(super) fn column_type<'a>(cells: impl IntoIterator<Item = Option<&'a str>>) -> CellType {
    let mut column = CellType::Bool;
    for cell in cells {
        column = column.max(cell.map_or(CellType::Missing, cell_type));
        // Nothing is more generic than text: the other cells cannot change it.
        if column == CellType::Text {
            break;
        }
    }
    column
}

/// `_type` on a string, which always looks at the text without ANSI codes.
fn cell_type(cell: &str) -> CellType {
    let text = strip_ansi(cell);
    if text.is_empty() {
        CellType::Missing
    } else if text == "True" || text == "False" {
        CellType::Bool
    } else if python_int_accepts(&text) || (matches_thousands_pattern(&text) && !text.contains('.'))
    {
        CellType::Int
    } else if is_number(&text) || matches_thousands_pattern(&text) {
        CellType::Float
    } else {
        CellType::Text
    }
}

/// `_format`: only numeric columns change their cells.
pub(super) fn format_cell(cell: Option<&str>, ty: CellType, has_invisible: bool) -> Cow<'_, str> {
    match (cell, ty) {
        (None, _) | (Some(""), _) => Cow::Borrowed(""),
        (Some(text), CellType::Int) if escapes_to_itself(text) => Cow::Borrowed(text),
        (Some(text), CellType::Int) => Cow::Owned(normalize_colored_int(text)),
        (Some(text), CellType::Float) => Cow::Owned(format_float_cell(text, has_invisible)),
        (Some(text), _) => Cow::Borrowed(text),
    }
}

/// Printable ASCII without backslashes is its own `unicode_escape` form, in
/// which the colour-code pattern of [`normalize_colored_int`] (it needs a
/// backslash) cannot match.
fn escapes_to_itself(text: &str) -> bool {
    text.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'\\')
}

/// Floats print with `format(x, "g")`. When the table has ANSI codes tabulate
/// replaces the plain number inside the coloured text (so thousands
/// separators are not understood there); otherwise it drops commas first.
/// Unparseable cells (e.g. "True" in a float column) stay as they are.
fn format_float_cell(text: &str, has_invisible: bool) -> String {
    if has_invisible {
        let plain = strip_ansi(text);
        match python_float(&plain) {
            Some(value) => text.replace(plain.as_ref(), &format_g(value, 6)),
            None => text.to_string(),
        }
    } else {
        let without_commas = text.replace(',', "");
        match python_float(&without_commas) {
            Some(value) => format_g(value, 6),
            None => without_commas,
        }
    }
}

/// Int columns keep their text (`format(str, "")`), except that tabulate
/// searches the `unicode_escape` form for a colour code directly followed by
/// digits and a backslash, and re-prints those digits via `int()`, which drops
/// leading zeros. It rebuilds the cell from the match alone, so whatever
/// precedes that colour code is lost: "\x1b[1m\x1b[31m05\x1b[0m" becomes
/// "\x1b[31m5\x1b[0m".
fn normalize_colored_int(cell: &str) -> String {
    let escaped = unicode_escape(cell);
    let Some(found) = find_colored_digits(escaped.as_bytes()) else {
        return cell.to_string();
    };
    let digits = &escaped[found.digits_start..found.digits_end];
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return cell.to_string();
    }
    let trimmed = digits.trim_start_matches('0');
    let canonical = if trimmed.is_empty() { "0" } else { trimmed };
    let rebuilt = format!(
        "{}{}{}",
        &escaped[found.match_start..found.digits_start],
        canonical,
        &escaped[found.digits_end..]
    );
    // Python raises on a malformed escape here; keeping the cell is the
    // closest non-crashing behaviour.
    unicode_unescape(&rebuilt).unwrap_or_else(|| cell.to_string())
}

/// Where tabulate's int-colour regex matched in the escaped text: the match
/// start and the byte range of its digits group.
struct ColoredDigits {
    match_start: usize,
    digits_start: usize,
    digits_end: usize,
}

/// Leftmost match of `(\\[xX]+[0-9a-fA-F]+\[\d+[mM]+)([0-9.]+)(\\.*)$` in
/// escaped (ASCII) text. Every quantifier there is followed by a disjoint
/// character class, so the greedy runs are the only possible match at a start.
fn find_colored_digits(escaped: &[u8]) -> Option<ColoredDigits> {
    (0..escaped.len()).find_map(|start| colored_digits_at(escaped, start))
}

fn colored_digits_at(escaped: &[u8], start: usize) -> Option<ColoredDigits> {
    if escaped.get(start) != Some(&b'\\') {
        return None;
    }
    let after_x = skip_run(escaped, start + 1, |b| matches!(b, b'x' | b'X'))?;
    let after_hex = skip_run(escaped, after_x, |b| b.is_ascii_hexdigit())?;
    if escaped.get(after_hex) != Some(&b'[') {
        return None;
    }
    let after_params = skip_run(escaped, after_hex + 1, |b| b.is_ascii_digit())?;
    let digits_start = skip_run(escaped, after_params, |b| matches!(b, b'm' | b'M'))?;
    let digits_end = skip_run(escaped, digits_start, |b| b.is_ascii_digit() || b == b'.')?;
    (escaped.get(digits_end) == Some(&b'\\')).then_some(ColoredDigits {
        match_start: start,
        digits_start,
        digits_end,
    })
}

/// End of a non-empty run of bytes satisfying `accept` starting at `from`.
fn skip_run(bytes: &[u8], from: usize, accept: impl Fn(u8) -> bool) -> Option<usize> {
    let run = bytes
        .get(from..)?
        .iter()
        .take_while(|b| accept(**b))
        .count();
    (run > 0).then_some(from + run)
}

/// Python's `str.encode("unicode_escape")` (as text).
fn unicode_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let code = c as u32;
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if code < 0x20 || (0x7f..0x100).contains(&code) => {
                out.push_str(&format!("\\x{code:02x}"))
            }
            _ if (0x100..0x10000).contains(&code) => out.push_str(&format!("\\u{code:04x}")),
            _ if code >= 0x10000 => out.push_str(&format!("\\U{code:08x}")),
            _ => out.push(c),
        }
    }
    out
}

/// Inverse of [`unicode_escape`] (Python's `decode("unicode_escape")` for
/// the escapes that encoding produces).
fn unicode_unescape(escaped: &str) -> Option<String> {
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped;
    while let Some(position) = rest.find('\\') {
        out.push_str(&rest[..position]);
        let sequence = &rest[position + 1..];
        let (decoded, used) = match sequence.as_bytes().first()? {
            b'\\' => ('\\', 1),
            b't' => ('\t', 1),
            b'n' => ('\n', 1),
            b'r' => ('\r', 1),
            b'x' => (hex_char(sequence.get(1..3)?)?, 3),
            b'u' => (hex_char(sequence.get(1..5)?)?, 5),
            b'U' => (hex_char(sequence.get(1..9)?)?, 9),
            // Python keeps an unknown escape such as `\X` as it is.
            _ => ('\\', 0),
        };
        out.push(decoded);
        rest = &sequence[used..];
    }
    out.push_str(rest);
    Some(out)
}

fn hex_char(hex: &str) -> Option<char> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
}
