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
    let mut previous = None;
    for cell in cells {
        // Columns repeat their values: a cell like the one above is typed alike.
        if cell.is_some() && cell == previous {
            continue;
        }
        previous = cell;
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
    plain_number_type(cell).unwrap_or_else(|| cell_type_by_rules(cell))
}

/// [`cell_type`] by tabulate's rules alone.
fn cell_type_by_rules(cell: &str) -> CellType {
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

/// The split of `-?[0-9]+(\.[0-9]*)?` text into its digits before the
/// point and the rest after it (`None` when there is no point), or `None`
/// for any other text.
fn plain_decimal(text: &str) -> Option<(&[u8], Option<&[u8]>)> {
    let bytes = text.as_bytes();
    let body = bytes.strip_prefix(b"-").unwrap_or(bytes);
    let whole = body.iter().take_while(|b| b.is_ascii_digit()).count();
    if whole == 0 {
        return None;
    }
    match &body[whole..] {
        [] => Some((body, None)),
        [b'.', fraction @ ..] if fraction.iter().all(u8::is_ascii_digit) => {
            Some((&body[..whole], Some(fraction)))
        }
        _ => None,
    }
}

/// Plain decimal text, the kind most cells of numbers are, is typed from its
/// shape without parsing: digits alone are what `int()` reads, digits with a
/// point and more digits are only what `float()` reads (and finite, being
/// short). `None` for any other text, which takes the general rules.
fn plain_number_type(cell: &str) -> Option<CellType> {
    // 300 digits stay finite as a float and within `int()`'s digit limit.
    if cell.len() > 300 {
        return None;
    }
    match plain_decimal(cell)? {
        (_, None) => Some(CellType::Int),
        (_, Some(fraction)) if !fraction.is_empty() => Some(CellType::Float),
        _ => None,
    }
}

/// Text that `format(float(text), "g")` prints back unchanged: plain decimal
/// text in `%g`'s fixed notation, which has at most 6 significant digits, a
/// first one between the 4th decimal and the 6th integer digit (a lone 0
/// aside), no leading zero and no trailing zero after the point. The float
/// nearest such a number rounds back to it at 6 digits, and fixed notation
/// without trailing zeros writes exactly those digits.
fn prints_as_itself_with_g(text: &str) -> bool {
    if let Some((mantissa, exponent)) = text.split_once('e') {
        return prints_as_itself_in_scientific(mantissa, exponent);
    }
    let Some((whole, fraction)) = plain_decimal(text) else {
        return false;
    };
    let fraction = match fraction {
        None => &[][..],
        Some([.., b'0']) | Some([]) => return false,
        Some(fraction) => fraction,
    };
    match whole {
        [b'0'] => {
            let zeros = fraction.iter().take_while(|b| **b == b'0').count();
            zeros <= 3 && fraction.len() - zeros <= 6
        }
        [b'0', ..] => false,
        _ => whole.len() + fraction.len() <= 6,
    }
}

/// What `format(float(text), "g")` prints for plain decimal text that
/// only differs from `%g`'s own form by zeros: without the leading zeros
/// of its digits before the point and the trailing zeros after it, the
/// same number is written, and when that is text `%g` prints back
/// ([`prints_as_itself_with_g`]), it is the result (`1.000` gives `1`).
fn g_of_plain_decimal(text: &str) -> Option<String> {
    let (whole, fraction) = plain_decimal(text)?;
    let zeros = whole.iter().take_while(|b| **b == b'0').count();
    let whole = &whole[zeros.min(whole.len() - 1)..];
    let fraction = fraction.unwrap_or_default();
    let kept = fraction.len() - fraction.iter().rev().take_while(|b| **b == b'0').count();
    let mut normal = String::with_capacity(text.len());
    if text.starts_with('-') {
        normal.push('-');
    }
    normal.extend(whole.iter().map(|&b| char::from(b)));
    if kept > 0 {
        normal.push('.');
        normal.extend(fraction[..kept].iter().map(|&b| char::from(b)));
    }
    prints_as_itself_with_g(&normal).then_some(normal)
}

/// [`prints_as_itself_with_g`] for `%g`'s scientific notation: one digit
/// from 1 to 9, at most 5 decimals without a trailing zero, and the
/// exponent (below -4 or above 5) as `%g` writes it, with a sign and at
/// least two digits. Exponents beyond 300 are left to the general path:
/// near the subnormals fewer digits round back.
fn prints_as_itself_in_scientific(mantissa: &str, exponent: &str) -> bool {
    let Some((whole, fraction)) = plain_decimal(mantissa) else {
        return false;
    };
    let mantissa_ok = match (whole, fraction) {
        ([b'0'], _) | ([_, _, ..], _) | (_, Some([.., b'0'] | [])) => false,
        (_, None) => true,
        (_, Some(fraction)) => fraction.len() <= 5,
    };
    let (negative, digits) = match exponent.as_bytes() {
        [b'-', digits @ ..] => (true, digits),
        [b'+', digits @ ..] => (false, digits),
        _ => return false,
    };
    let exponent_ok = match digits {
        [a, b] => a.is_ascii_digit() && b.is_ascii_digit(),
        [a, b, c] => *a != b'0' && [a, b, c].iter().all(|d| d.is_ascii_digit()),
        _ => false,
    };
    if !(mantissa_ok && exponent_ok) {
        return false;
    }
    let magnitude = digits
        .iter()
        .fold(0i32, |value, digit| value * 10 + i32::from(digit - b'0'));
    let value = if negative { -magnitude } else { magnitude };
    !(-4..6).contains(&value) && magnitude <= 300
}

/// `_format`: only numeric columns change their cells.
pub(super) fn format_cell(cell: Option<&str>, ty: CellType, has_invisible: bool) -> Cow<'_, str> {
    match (cell, ty) {
        (None, _) | (Some(""), _) => Cow::Borrowed(""),
        (Some(text), CellType::Int) if escapes_to_itself(text) => Cow::Borrowed(text),
        (Some(text), CellType::Int) => Cow::Owned(normalize_colored_int(text)),
        (Some(text), CellType::Float) if prints_as_itself_with_g(text) => Cow::Borrowed(text),
        (Some(text), CellType::Float) => Cow::Owned(
            g_of_plain_decimal(text).unwrap_or_else(|| format_float_cell(text, has_invisible)),
        ),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift64 stream: the random inputs of these tests, reproducible.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            crate::testing::xorshift_step(&mut state);
            state
        }
    }

    /// Texts built from pieces that make numbers, near-numbers and words.
    fn random_texts(count: usize) -> Vec<String> {
        const PIECES: &[&str] = &[
            "0", "1", "9", "5", "00", "000", "123", "-", "+", ".", "e", "E", "-3", "_", " ", ",",
            "\x1b[31m", "\x1b[39m", "inf", "nan", "True", "x", "\u{663}", "\n",
        ];
        let mut next = xorshift(0x0DDB_1A5E_5BAD_5EED);
        (0..count)
            .map(|_| {
                let length = 1 + next() % 7;
                (0..length)
                    .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    /// The shape rules against the general ones: `_type` and `_format`.
    #[test]
    fn plain_numbers_are_typed_and_printed_as_the_general_rules_do() {
        let mut texts = random_texts(200_000);
        texts.extend([
            "1".repeat(300),
            "1".repeat(301),
            format!("{}.5", "9".repeat(299)),
        ]);
        for text in &texts {
            let text = text.as_str();
            if let Some(fast) = plain_number_type(text) {
                assert_eq!(fast, cell_type_by_rules(text), "{text:?}");
            }
            if prints_as_itself_with_g(text) {
                for has_invisible in [false, true] {
                    assert_eq!(format_float_cell(text, has_invisible), text, "{text:?}");
                }
            }
        }
    }

    /// Decimal texts as axis values and figures print them, and their
    /// neighbours in digits: every one `%g` keeps is recognised, and no other.
    #[test]
    fn texts_g_prints_back_are_recognised() {
        let mut next = xorshift(0x5851_F42D_4C95_7F2D);
        let mut recognised = 0;
        for _ in 0..200_000 {
            let digits = next() % 10_000_000;
            let scale = (next() % 12) as i32;
            let value = digits as f64 / 10f64.powi(scale);
            let decimals = (next() % 9) as usize;
            let mut text = format!("{value:.decimals$}");
            if next().is_multiple_of(4) {
                text.insert(0, '-');
            }
            let printed = format_float_cell(&text, false);
            assert_eq!(
                prints_as_itself_with_g(&text),
                printed == text,
                "{text:?} prints as {printed:?}"
            );
            recognised += usize::from(printed == text);
        }
        assert!(recognised > 10_000, "{recognised}");
    }

    /// Decimal texts with leading and trailing zeros: the shortcut prints
    /// what the general path prints, whenever it answers.
    #[test]
    fn zeros_around_decimals_are_dropped_as_g_drops_them() {
        let mut next = xorshift(0x1D87_2B41_5F3C_6A97);
        let mut answered = 0;
        for _ in 0..200_000 {
            let digits = next() % 10_000_000;
            let scale = (next() % 12) as i32;
            let value = digits as f64 / 10f64.powi(scale);
            let decimals = (next() % 12) as usize;
            let mut text = format!("{value:.decimals$}");
            for _ in 0..next() % 3 {
                text.insert(0, '0');
            }
            if next().is_multiple_of(4) {
                text.insert(0, '-');
            }
            if let Some(shortcut) = g_of_plain_decimal(&text) {
                assert_eq!(shortcut, format_float_cell(&text, false), "{text:?}");
                assert_eq!(shortcut, format_float_cell(&text, true), "{text:?}");
                answered += 1;
            }
        }
        assert!(answered > 10_000, "{answered}");
        assert_eq!(g_of_plain_decimal("1.000").as_deref(), Some("1"));
        assert_eq!(g_of_plain_decimal("-0.000").as_deref(), Some("-0"));
        assert_eq!(g_of_plain_decimal("00.50").as_deref(), Some("0.5"));
        assert_eq!(g_of_plain_decimal("1.0000001"), None);
    }

    /// Scientific texts around `%g`'s form: a recognised one prints back,
    /// and within the exponents handled so does no other.
    #[test]
    fn scientific_texts_g_prints_back_are_recognised() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut recognised = 0;
        for _ in 0..200_000 {
            let digits = next() % 10_000_000;
            let scale = (next() % 8) as i32;
            let mantissa = digits as f64 / 10f64.powi(scale);
            let decimals = (next() % 8) as usize;
            let mut mantissa = format!("{mantissa:.decimals$}");
            if next().is_multiple_of(4) {
                mantissa.insert(0, '-');
            }
            let exponent = (next() % 661) as i32 - 330;
            let sign = if exponent < 0 || next().is_multiple_of(16) {
                '-'
            } else {
                '+'
            };
            let width = (next() % 4) as usize;
            let text = format!("{mantissa}e{sign}{:0width$}", exponent.abs());
            let printed = format_float_cell(&text, false);
            let fast = prints_as_itself_with_g(&text);
            if fast {
                assert_eq!(printed, text);
                assert_eq!(format_float_cell(&text, true), text);
            } else if exponent.abs() <= 300 {
                assert_ne!(printed, text, "{text:?} is not recognised");
            }
            recognised += usize::from(fast);
        }
        assert!(recognised > 1_000, "{recognised}");
    }
}
