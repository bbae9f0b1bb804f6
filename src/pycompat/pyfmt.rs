//! Python-compatible formatting: `repr(float)`, `%.Ng` / `format(x, "g")`,
//! `%.Nf` with Python's handling of non-finite values, and `repr(str)`.
//!
//! The reference prints numbers and quoted names through Python's rules;
//! every byte of our output that depends on them goes through this module.
//! Names come from untrusted input files and the bulk-debug output is
//! executed as Python, so [`str_repr`] must always produce a literal that
//! evaluates back to the same string: it escapes exactly what CPython
//! escapes ([`crate::pycompat::unicode`]).

use std::fmt::Write;

use crate::pycompat::unicode::is_printable_non_ascii;

/// Shortest round-trip digits and decimal exponent of a finite, non-zero `x`:
/// `x = 0.d1d2d3... * 10^decpt` (the `decpt` convention of David Gay's dtoa).
fn shortest_digits(x: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest round-trip digits, like Python's repr,
    // but breaks exact ties upwards where Python rounds half to even; Rust's
    // fixed-precision `{:.Ne}` does round half to even, so prefer it when it
    // still round-trips.
    let shortest = format!("{:e}", x.abs());
    let digit_count = shortest
        .split('e')
        .next()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    let nearest = format!("{:.*e}", digit_count.saturating_sub(1), x.abs());
    let text = if nearest.parse::<f64>() == Ok(x.abs()) {
        nearest
    } else {
        shortest
    };
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
    let mut text = String::with_capacity(24);
    push_g(&mut text, x, precision);
    text
}

/// [`format_g`] written at the end of `out`.
pub fn push_g<W: AsciiOut>(out: &mut W, x: f64, precision: usize) {
    if x.is_finite()
        && x != 0.0
        && let Some((digits, exponent)) = significant_fast(x.abs(), precision.max(1))
    {
        return push_g_text(
            out,
            x.is_sign_negative(),
            digits,
            exponent,
            precision.max(1),
        );
    }
    let _ = out.write_str(&format_g_exact(x, precision));
}

/// `%g` from `digits` (exactly `precision` of them) and the decimal
/// exponent of the first: `x = digits * 10^(exponent + 1 - precision)`.
fn push_g_text<W: AsciiOut>(
    text: &mut W,
    negative: bool,
    digits: u64,
    exponent: i32,
    precision: usize,
) {
    if exponent < -4 || exponent >= precision as i32 {
        let mut buffer = [0u8; 20];
        let mut at = buffer.len();
        let mut rest = digits;
        while rest != 0 {
            at -= 1;
            buffer[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        let all = &buffer[at..];
        let fraction = {
            let mut end = all.len();
            while end > 1 && all[end - 1] == b'0' {
                end -= 1;
            }
            &all[1..end]
        };
        if negative {
            let _ = text.write_char('-');
        }
        let _ = text.write_char(char::from(all[0]));
        if !fraction.is_empty() {
            let _ = text.write_char('.');
            push_ascii(text, fraction);
        }
        let _ = text.write_str(&exponent_suffix(exponent));
        return;
    }
    // Fixed notation without the trailing zeros of the decimals (nor the
    // point, when no decimal is left).
    let (mut digits, mut decimals) = (digits, (precision as i32 - 1 - exponent) as usize);
    while decimals > 0 && digits % 10 == 0 {
        digits /= 10;
        decimals -= 1;
    }
    push_scaled(text, negative, digits, decimals);
}

/// ASCII bytes written the way cheapest for the text they end up in.
fn push_ascii<W: AsciiOut>(out: &mut W, ascii: &[u8]) {
    out.push_ascii(ascii);
}

/// Where numbers are written: a `String` (table cells) or a
/// `CompactString` (axis values, inline when short).
pub trait AsciiOut: Write {
    /// Appends bytes that are all ASCII.
    fn push_ascii(&mut self, ascii: &[u8]);
}

impl AsciiOut for String {
    /// Copied at once, unchecked: a number's text went one `char` at a time
    /// (about 130 of the 207 instructions of a 7-byte `push_scaled`), and
    /// checking it as UTF-8 costs about 60.
    #[inline]
    fn push_ascii(&mut self, ascii: &[u8]) {
        if !ascii.is_ascii() {
            // Never taken: every caller writes digits, signs and points.
            self.push_str(&String::from_utf8_lossy(ascii));
            return;
        }
        // SAFETY: ASCII bytes (checked above) are UTF-8 on their own, and
        // appended after the string's last character they keep it UTF-8.
        unsafe { self.as_mut_vec().extend_from_slice(ascii) };
    }
}

impl AsciiOut for compact_str::CompactString {
    /// At once: each push of a `CompactString` checks where it is held.
    fn push_ascii(&mut self, ascii: &[u8]) {
        self.push_str(std::str::from_utf8(ascii).unwrap_or_default());
    }
}

/// `|x|` rounded to `precision` significant digits as the exact path
/// (`{:.Ne}`) rounds it: the digits and the decimal exponent of the first,
/// or `None` when [`round_scaled`] cannot decide or the scale is not an
/// exact power of ten. The exponent estimate may be off by one near powers
/// of ten; a scaled value outside `[10^(p-1), 10^p)` moves it. Where the
/// computed and the exact scaled value fall on different sides of such a
/// bound, both exponents give the same rounded number (`10^(p-1)` at the
/// higher exponent, after a carry at the lower one).
fn significant_fast(a: f64, precision: usize) -> Option<(u64, i32)> {
    if precision > 12 {
        return None;
    }
    let low = EXACT_POWERS_OF_TEN[precision - 1];
    let high = EXACT_POWERS_OF_TEN[precision];
    let mut exponent = a.log10().floor() as i32;
    for _ in 0..3 {
        let shift = precision as i32 - 1 - exponent;
        let power = *EXACT_POWERS_OF_TEN.get(shift.unsigned_abs() as usize)?;
        // One correctly rounded operation either way.
        let m = if shift >= 0 { a * power } else { a / power };
        if m < low {
            exponent -= 1;
            continue;
        }
        if m >= high {
            exponent += 1;
            continue;
        }
        let rounded = round_scaled(m)?;
        return Some(if rounded as f64 >= high {
            (low as u64, exponent + 1)
        } else {
            (rounded, exponent)
        });
    }
    None
}

/// The exact path of [`format_g`].
fn format_g_exact(x: f64, precision: usize) -> String {
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
        format!(
            "{}{}",
            strip_trailing_zeros(mantissa),
            exponent_suffix(exponent)
        )
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        strip_trailing_zeros(&format!("{:.*}", decimals, x)).to_string()
    }
}

/// Python `f"{x:.{decimals}f}"`, including `nan`/`inf` spellings.
pub fn format_f(x: f64, decimals: usize) -> String {
    let mut text = String::with_capacity(24);
    push_f(&mut text, x, decimals);
    text
}

/// Python `f"{x:+.{decimals}f}"`.
pub fn format_f_signed(x: f64, decimals: usize) -> String {
    let mut text = String::with_capacity(24);
    push_f_signed(&mut text, x, decimals);
    text
}

/// Appends Python's `f"{x:+.{decimals}f}"` to `out`.
pub fn push_f_signed<W: AsciiOut>(out: &mut W, x: f64, decimals: usize) {
    if !x.is_sign_negative() || x.is_nan() {
        out.push_ascii(b"+");
    }
    push_f(out, x, decimals);
}

/// Appends Python's `f"{x:.{decimals}f}"` to `out`: the exact binary value
/// rounded half to even, as `format!("{:.N}")` (the exact path) prints it.
/// Most values take [`fixed_fast`], which is proven to give the same digits
/// or to decline.
pub fn push_f<W: AsciiOut>(out: &mut W, x: f64, decimals: usize) {
    if x.is_nan() {
        let _ = out.write_str("nan");
        return;
    }
    if x.is_infinite() {
        let _ = out.write_str(if x > 0.0 { "inf" } else { "-inf" });
        return;
    }
    match fixed_fast(x, decimals) {
        Some(scaled) => push_scaled(out, x.is_sign_negative(), scaled, decimals),
        None => push_f_exact(out, x, decimals),
    }
}

/// The exact path: Rust's correctly rounded fixed-precision formatting.
fn push_f_exact<W: Write>(out: &mut W, x: f64, decimals: usize) {
    let _ = write!(out, "{:.*}", decimals, x);
}

/// Powers of ten that `f64` holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Scaled values below this (2^40) leave a wide margin for the test below.
const FAST_SCALED_LIMIT: f64 = 1_099_511_627_776.0;

/// `round(|x| * 10^decimals)` of the exact product, or `None` when the
/// product may lie too close to a half-way point to decide in `f64`.
///
/// Why it is exact: `m = fl(|x| * 10^d)` is one correctly rounded product
/// (`10^d` is exact for `d <= 22`), so `|m - p| <= 2^-53 * m` for the exact
/// product `p` (plus at most 2^-1075 when `m` is subnormal, where the margin
/// below is about 0.5). `m < 2^40` makes `m - floor(m)` exact, and
/// `|frac - 0.5|` is off by at most one rounding (relative 2^-53). When the
/// computed distance to the half-way point exceeds `m * 2^-51`, the true
/// distance exceeds `|m - p|`, so `p` lies on the same side of the half-way
/// point as `m`, and both round to `m.round()`. Exact ties (`p` half-way)
/// have distance 0 and are always declined.
fn fixed_fast(x: f64, decimals: usize) -> Option<u64> {
    let power = *EXACT_POWERS_OF_TEN.get(decimals)?;
    round_scaled(x.abs() * power)
}

/// `round(p)` of the exact value `p` that `m >= 0` approximates with one
/// rounding (relative error at most 2^-53), or `None` when `m` is too close
/// to a half-way point, or too large, to tell (see [`fixed_fast`]).
fn round_scaled(m: f64) -> Option<u64> {
    if m >= FAST_SCALED_LIMIT {
        return None;
    }
    // `m` is non-negative and below 2^40: the conversion is its floor, exactly.
    let whole = m as u64;
    let fraction = m - whole as f64;
    let distance = (fraction - 0.5).abs();
    let margin = m * (1.0 / 2_251_799_813_685_248.0); // 2^-51
    if distance <= margin {
        return None;
    }
    Some(if fraction > 0.5 { whole + 1 } else { whole })
}

/// The length of what [`push_f`] writes, without writing it when the fast
/// path applies: the sign, the digits before the point (at least one), and
/// the point and decimals.
pub fn fixed_len(x: f64, decimals: usize) -> usize {
    if !x.is_finite() {
        return if x == f64::NEG_INFINITY { 4 } else { 3 };
    }
    let Some(scaled) = fixed_fast(x, decimals) else {
        let mut text = String::new();
        push_f_exact(&mut text, x, decimals);
        return text.len();
    };
    let digits = decimal_digits(scaled).max(decimals + 1);
    let point = usize::from(decimals > 0);
    usize::from(x.is_sign_negative()) + digits + point
}

/// The length of what [`push_f_signed`] writes.
pub fn fixed_len_signed(x: f64, decimals: usize) -> usize {
    let plus = !x.is_sign_negative() || x.is_nan();
    usize::from(plus) + fixed_len(x, decimals)
}

/// Decimal digits of `n` (1 for 0).
fn decimal_digits(n: u64) -> usize {
    let mut digits = 1;
    let mut rest = n;
    while rest >= 10 {
        rest /= 10;
        digits += 1;
    }
    digits
}

/// Writes `scaled / 10^decimals` with exactly `decimals` decimals.
/// (`scaled < 2^40` has at most 13 digits, and `decimals <= 22`.)
/// Digits go two at a time where two of them are left on the same side
/// of the point.
#[inline]
fn push_scaled<W: AsciiOut>(out: &mut W, negative: bool, scaled: u64, decimals: usize) {
    let mut text = [b'0'; 48];
    let mut at = text.len();
    let mut rest = scaled;
    // The decimals from the last, then the point, then the digits before
    // it: at least one.
    let mut left = decimals;
    while left >= 2 {
        at -= 2;
        put_pair(&mut text, at, rest % 100);
        rest /= 100;
        left -= 2;
    }
    if left == 1 {
        at -= 1;
        text[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    if decimals > 0 {
        at -= 1;
        text[at] = b'.';
    }
    while rest >= 100 {
        at -= 2;
        put_pair(&mut text, at, rest % 100);
        rest /= 100;
    }
    if rest >= 10 {
        at -= 2;
        put_pair(&mut text, at, rest);
    } else {
        at -= 1;
        text[at] = b'0' + rest as u8;
    }
    if negative {
        at -= 1;
        text[at] = b'-';
    }
    push_ascii(out, &text[at..]);
}

/// "00" to "99".
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// The two digits of `pair` (below 100) at `text[at..at + 2]`.
#[inline(always)]
fn put_pair(text: &mut [u8; 48], at: usize, pair: u64) {
    let from = pair as usize * 2;
    text[at] = DIGIT_PAIRS[from];
    text[at + 1] = DIGIT_PAIRS[from + 1];
}

/// Python `float(text)` for a `str`: surrounding whitespace, `_` between
/// digits, and the `inf`/`infinity`/`nan` spellings are accepted.
pub fn parse_py_float(text: &str) -> Option<f64> {
    // Plain decimal text, the only kind NVBench writes, needs none of the
    // clean-up below (no whitespace, underscores or letters but `e`).
    let plain = |b: u8| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-');
    if !text.is_empty() && text.bytes().all(plain) {
        return parse_sign_checked(text);
    }
    let trimmed = text.trim_matches(|c: char| c.is_whitespace());
    let cleaned = remove_digit_underscores(trimmed)?;
    let unsigned = cleaned.trim_start_matches(['+', '-']);
    if cleaned.len() - unsigned.len() > 1 {
        return None;
    }
    let lower = unsigned.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        let value = if lower == "nan" {
            f64::NAN
        } else {
            f64::INFINITY
        };
        return Some(if cleaned.starts_with('-') {
            -value
        } else {
            value
        });
    }
    parse_sign_checked(&cleaned)
}

/// Rust's float grammar, restricted to Python's: one sign at most, then a
/// digit or a point.
fn parse_sign_checked(cleaned: &str) -> Option<f64> {
    let unsigned = cleaned.trim_start_matches(['+', '-']);
    if cleaned.len() - unsigned.len() > 1 {
        return None;
    }
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    cleaned.parse::<f64>().ok()
}

/// Python `int(text)` for a `str` in base 10.
pub fn parse_py_int(text: &str) -> Option<i128> {
    // Plain digits, the only kind NVBench writes, need no clean-up (an
    // optional sign, and few enough digits to fit).
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if (1..=38).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse::<i128>().ok();
    }
    let trimmed = text.trim_matches(|c: char| c.is_whitespace());
    let cleaned = remove_digit_underscores(trimmed)?;
    let digits = cleaned.strip_prefix(['+', '-']).unwrap_or(&cleaned);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    cleaned.parse::<i128>().ok()
}

/// Python `int(text)` exactly, as decimal digits (Python ints are
/// unbounded): `" +0_12 "` is `"12"`, `"-0"` is `"0"`.
pub fn parse_py_int_decimal(text: &str) -> Option<String> {
    let trimmed = text.trim_matches(|c: char| c.is_whitespace());
    let cleaned = remove_digit_underscores(trimmed)?;
    let negative = cleaned.starts_with('-');
    let digits = cleaned.strip_prefix(['+', '-']).unwrap_or(&cleaned);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    Some(match (digits.is_empty(), negative) {
        (true, _) => "0".to_string(),
        (false, true) => format!("-{digits}"),
        (false, false) => digits.to_string(),
    })
}

/// Python numeric literals allow single underscores between digits only.
fn remove_digit_underscores(text: &str) -> Option<String> {
    if !text.contains('_') {
        return Some(text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    for (index, c) in chars.iter().enumerate() {
        if *c == '_' {
            let before = index.checked_sub(1).map(|i| chars[i]);
            let after = chars.get(index + 1).copied();
            let digit_around = before.is_some_and(|b| b.is_ascii_digit())
                && after.is_some_and(|a| a.is_ascii_digit());
            if !digit_around {
                return None;
            }
        }
    }
    Some(text.replace('_', ""))
}

/// Python `repr(str)`: the same quote choice and escapes as CPython, so the
/// result is a valid literal that evaluates back to `text`.
pub fn str_repr(text: &str) -> String {
    let quote = choose_quote(text);
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for ch in text.chars() {
        push_escaped_char(&mut out, ch, quote);
    }
    out.push(quote);
    out
}

/// The lone surrogate Python's `surrogateescape` decodes a file name's odd
/// byte to (U+DC80..=U+DCFF), for a character of `text::path_text`'s
/// reserved range.
pub fn surrogate_escape(ch: char) -> u32 {
    0xDC00 + u32::from(crate::text::path_text::reserved_byte(ch).unwrap_or(0xFD))
}

/// CPython prefers `'`; it switches to `"` only when that avoids escaping,
/// i.e. the text has a `'` but no `"`.
fn choose_quote(text: &str) -> char {
    if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    }
}

/// Appends `ch` as it appears inside a CPython string repr quoted with `quote`.
fn push_escaped_char(out: &mut String, ch: char, quote: char) {
    match ch {
        '\\' => out.push_str("\\\\"),
        _ if ch == quote => {
            out.push('\\');
            out.push(ch);
        }
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        ' '..='~' => out.push(ch),
        _ if ch.is_ascii() => push_hex_escape(out, ch), // C0 controls and DEL
        // A byte of a non-UTF-8 file name, as Python's surrogateescape
        // decoding holds it: `open` turns it back into the byte.
        _ if crate::text::path_text::is_reserved(ch) => {
            out.push_str(&format!("\\u{:04x}", surrogate_escape(ch)))
        }
        _ if is_printable_non_ascii(ch) => out.push(ch),
        _ => push_hex_escape(out, ch),
    }
}

/// `\xNN`, `\uNNNN` or `\UNNNNNNNN` (lowercase hex), the shortest form that
/// holds the code point, as CPython chooses.
fn push_hex_escape(out: &mut String, ch: char) {
    let code = u32::from(ch);
    let escaped = if code <= 0xFF {
        format!("\\x{code:02x}")
    } else if code <= 0xFFFF {
        format!("\\u{code:04x}")
    } else {
        format!("\\U{code:08x}")
    };
    out.push_str(&escaped);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain text takes a shortcut; padding it with whitespace forces the
    /// general path, which must agree.
    #[test]
    fn plain_float_text_shortcut_agrees_with_the_general_path() {
        let pieces = [
            "", "0", "1", "12", ".", "e", "E", "+", "-", "5", "e-", "E+", "00",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..1 + state % 6 {
                crate::testing::xorshift_step(&mut state);
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            let general = parse_py_float(&format!(" {text}\t"));
            let shortcut = parse_py_float(&text);
            assert_eq!(
                shortcut.map(f64::to_bits),
                general.map(f64::to_bits),
                "{text:?}"
            );
        }
        assert_eq!(parse_py_float("1.5e-3"), Some(1.5e-3));
        assert_eq!(parse_py_float("+-1"), None);
        assert_eq!(parse_py_float("."), None);
    }

    /// Plain digits take a shortcut; padding them with whitespace forces
    /// the general path, which must agree.
    #[test]
    fn plain_int_text_shortcut_agrees_with_the_general_path() {
        let pieces = ["", "0", "1", "9", "42", "+", "-", "_", "x", "1234567890"];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            let mut text = String::new();
            for _ in 0..1 + state % 8 {
                crate::testing::xorshift_step(&mut state);
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            assert_eq!(
                parse_py_int(&text),
                parse_py_int(&format!(" {text}\t")),
                "{text:?}"
            );
        }
        let long = "9".repeat(38);
        assert_eq!(parse_py_int(&long), parse_py_int(&format!(" {long} ")));
        assert_eq!(parse_py_int(&"9".repeat(39)), None);
        let ones: i128 = "1".repeat(38).parse().unwrap();
        assert_eq!(parse_py_int(&format!("-{}", "1".repeat(38))), Some(-ones));
    }

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
            (-214579997379076.12, "-214579997379076.12"),
            (-901127953080556.2, "-901127953080556.2"),
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
            assert_eq!(
                format_g(value, precision),
                expected,
                "%.{precision}g of {value}"
            );
        }
    }

    #[test]
    fn parses_like_python_float() {
        assert_eq!(parse_py_float(" 1.5 "), Some(1.5));
        assert_eq!(parse_py_float("1_000.5"), Some(1000.5));
        assert_eq!(parse_py_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(parse_py_float("nan").is_some_and(f64::is_nan));
        assert_eq!(parse_py_float("1e-3"), Some(0.001));
        assert_eq!(parse_py_float("abc"), None);
        assert_eq!(parse_py_float("1__0"), None);
        assert_eq!(parse_py_float("--1"), None);
        assert_eq!(parse_py_float(""), None);
        assert_eq!(parse_py_int("64"), Some(64));
        assert_eq!(parse_py_int("64.0"), None);
        assert_eq!(parse_py_int(" -7 "), Some(-7));
    }

    #[test]
    fn file_name_bytes_are_written_as_python_decodes_them() {
        // b"a\xffb".decode("utf-8", "surrogateescape") == "a\udcffb"
        use std::os::unix::ffi::OsStrExt;
        let name = crate::text::path_text::to_text(std::ffi::OsStr::from_bytes(b"a\xffb"));
        assert_eq!(str_repr(&name), "'a\\udcffb'");
        assert_eq!(str_repr("plain"), "'plain'");
    }

    #[test]
    fn str_repr_matches_python() {
        let cases = [
            ("", "''"),
            ("plain", "'plain'"),
            ("'", "\"'\""),
            ("\"", "'\"'"),
            ("'\"", "'\\'\"'"),
            ("it's", "\"it's\""),
            ("say \"hi\"", "'say \"hi\"'"),
            ("\\", "'\\\\'"),
            ("\"\"\"", "'\"\"\"'"),
            ("'''", "\"'''\""),
            ("\u{0}\u{1}\u{1b}\u{7f}", "'\\x00\\x01\\x1b\\x7f'"),
            ("\t\n\u{d}\u{b}\u{c}", "'\\t\\n\\r\\x0b\\x0c'"),
            (
                "\u{80}\u{9f}\u{a0}\u{ad}\u{e9}\u{ff}",
                "'\\x80\\x9f\\xa0\\xad\u{e9}\u{ff}'",
            ),
            (
                "\u{378}\u{2028}\u{2029}\u{200b}\u{feff}\u{3000}",
                "'\\u0378\\u2028\\u2029\\u200b\\ufeff\\u3000'",
            ),
            (
                "\u{e000}\u{1f600}\u{e0001}\u{10ffff}\u{2a6e0}",
                "'\\ue000\u{1f600}\\U000e0001\\U0010ffff\\U0002a6e0'",
            ),
            ("\u{4e2d}\u{6587} \u{e9}", "'\u{4e2d}\u{6587} \u{e9}'"),
        ];
        for (text, expected) in cases {
            assert_eq!(str_repr(text), expected, "repr of {text:?}");
        }

        assert_eq!(str_repr("abc"), "'abc'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(str_repr("x\ny\\"), "'x\\ny\\\\'");
        assert_eq!(str_repr("\u{1}\u{7f}\u{85}"), "'\\x01\\x7f\\x85'");
        assert_eq!(str_repr("\u{2028}é"), "'\\u2028é'");
    }

    /// The fast fixed path against the exact one: random bit patterns,
    /// decimal-looking values, and the neighbours of every half-way point
    /// of small scaled values, at every precision the tables use and more.
    /// Scaled integers written two digits at a time: the digits of the
    /// integer with a point put before its last `decimals`.
    #[test]
    fn scaled_integers_are_their_digits_with_a_point() {
        let mut state = 0x1234_5678_9abc_def1u64;
        for round in 0..200_000u64 {
            let bits = crate::testing::xorshift_step(&mut state);
            let scaled = match round % 4 {
                0 => bits >> 24,
                1 => bits >> (24 + bits % 40),
                2 => round % 1000,
                _ => 10u64.pow((bits % 13) as u32) - (bits >> 60) % 2,
            };
            let decimals = (bits >> 8) as usize % 23;
            let negative = bits & 1 == 1;
            let digits = format!("{scaled:0>width$}", width = decimals + 1);
            let (whole, fraction) = digits.split_at(digits.len() - decimals);
            let point = if decimals > 0 { "." } else { "" };
            let sign = if negative { "-" } else { "" };
            let mut text = String::new();
            push_scaled(&mut text, negative, scaled, decimals);
            assert_eq!(text, format!("{sign}{whole}{point}{fraction}"));
            assert_eq!(decimal_digits(scaled), scaled.to_string().len());
        }
    }

    #[test]
    fn fast_fixed_agrees_with_the_exact_path() {
        fn check(x: f64, decimals: usize) {
            if !x.is_finite() {
                return;
            }
            let mut exact = String::new();
            push_f_exact(&mut exact, x, decimals);
            assert_eq!(
                format_f(x, decimals),
                exact,
                "{x:e} with {decimals} decimals"
            );
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            crate::testing::xorshift_step(&mut state);
            state
        };
        for _ in 0..300_000 {
            let bits = next();
            let decimals = (bits % 23) as usize;
            // Any bit pattern, then magnitudes where the fast path applies.
            check(f64::from_bits(next()), decimals);
            let exponent = (next() % 80) as i32 - 40;
            let mantissa = (next() >> 11) as f64 / (1u64 << 53) as f64;
            check(mantissa * 2f64.powi(exponent), decimals);
            check(-mantissa * 10f64.powi(exponent / 4), decimals);
            // Decimal text as NVBench writes it, and its neighbours.
            let x = (next() % 100_000_000) as f64 / 10f64.powi((next() % 12) as i32);
            for y in [x, x.next_up(), x.next_down()] {
                check(y, decimals);
            }
        }
        for decimals in 0..8usize {
            let power = 10f64.powi(decimals as i32);
            for k in 0..20_000u64 {
                let half = (k as f64 + 0.5) / power;
                let mut y = half;
                for _ in 0..3 {
                    y = y.next_down();
                }
                for _ in 0..7 {
                    check(y, decimals);
                    check(-y, decimals);
                    y = y.next_up();
                }
            }
        }
        for x in [
            0.0, -0.0, 5e-324, 0.5, 1.5, 2.5, 0.125, 0.375, 1e12, 1.1e12, 4.5e15,
        ] {
            for decimals in 0..25 {
                check(x, decimals);
                check(-x, decimals);
            }
        }
        assert_eq!(format_f_signed(f64::NAN, 1), "+nan");
        assert_eq!(format_f_signed(-f64::NAN, 1), "+nan");
        assert_eq!(format_f_signed(-0.0, 1), "-0.0");
        assert_eq!(format_f_signed(f64::INFINITY, 1), "+inf");
    }

    /// The fast `%g` path against the exact one, at every precision, on
    /// random bit patterns, decimal-looking values and their neighbours,
    /// powers of ten and the half-way points of short decimals.
    #[test]
    fn fast_g_agrees_with_the_exact_path() {
        fn check(x: f64) {
            for precision in 0..15 {
                assert_eq!(
                    format_g(x, precision),
                    format_g_exact(x, precision),
                    "%.{precision}g of {x:e}"
                );
            }
        }
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            crate::testing::xorshift_step(&mut state);
            state
        };
        for _ in 0..60_000 {
            check(f64::from_bits(next()));
            let x = (next() % 10_000_000) as f64 / 10f64.powi((next() % 16) as i32 - 4);
            for y in [x, x.next_up(), x.next_down(), -x] {
                check(y);
            }
        }
        for e in -30..30 {
            let p = 10f64.powi(e);
            for y in [
                p,
                p.next_up(),
                p.next_down(),
                5.0 * p,
                9.5 * p,
                9.9999995 * p,
            ] {
                check(y);
                check(y.next_up());
                check(y.next_down());
            }
        }
        for k in 0..20_000u64 {
            for scale in [1.0, 10.0, 1000.0, 1e5] {
                let half = (k as f64 + 0.5) / scale;
                check(half);
                check(half.next_up());
                check(half.next_down());
            }
        }
        for x in [
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            5e-324,
            f64::MAX,
        ] {
            check(x);
        }
    }

    /// The lengths without the text against the text, on the values of
    /// the fast path's test and the special ones.
    #[test]
    fn fixed_lengths_are_the_lengths_of_the_texts() {
        let mut state = 0x3C6E_F372_FE94_F82Bu64;
        let mut next = || {
            crate::testing::xorshift_step(&mut state);
            state
        };
        let check = |x: f64, decimals: usize| {
            assert_eq!(
                fixed_len(x, decimals),
                format_f(x, decimals).len(),
                "{x:e} {decimals}"
            );
            assert_eq!(
                fixed_len_signed(x, decimals),
                format_f_signed(x, decimals).len(),
                "{x:e} {decimals}"
            );
        };
        for _ in 0..200_000 {
            let decimals = (next() % 12) as usize;
            check(f64::from_bits(next()), decimals);
            let exponent = (next() % 60) as i32 - 30;
            let mantissa = (next() >> 11) as f64 / (1u64 << 53) as f64;
            check(mantissa * 10f64.powi(exponent), decimals);
            check(-mantissa * 10f64.powi(exponent / 3), decimals);
            let x = (next() % 100_000_000) as f64 / 10f64.powi((next() % 12) as i32);
            for y in [x, x.next_up(), x.next_down(), 9.9995, 0.9995, 999.9995] {
                check(y, decimals);
                check(-y, decimals);
            }
        }
        for x in [
            0.0,
            -0.0,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            5e-324,
        ] {
            for decimals in 0..25 {
                check(x, decimals);
            }
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
