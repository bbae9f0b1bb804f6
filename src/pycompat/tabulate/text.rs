//! Text primitives: ANSI codes as tabulate's `_ansi_codes` regex finds
//! them, and the Python string operations (`strip`, `len`, `splitlines`)
//! tabulate relies on.

use std::borrow::Cow;

const ESC: char = '\x1b';

/// `_strip_ansi`: CSI codes vanish, OSC 8 hyperlinks leave their link text.
pub(super) fn strip_ansi(text: &str) -> Cow<'_, str> {
    if !text.contains(ESC) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut position = 0;
    while let Some(c) = text[position..].chars().next() {
        match ansi_code_at(text, position) {
            Some((end, visible)) => {
                out.push_str(visible);
                position = end;
            }
            None => {
                out.push(c);
                position += c.len_utf8();
            }
        }
    }
    Cow::Owned(out)
}

/// `len(_strip_ansi(text))`, without building the stripped text.
pub(super) fn visible_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    // Most cells have no ESC at all (a memchr): every character is visible.
    if !bytes.contains(&(ESC as u8)) {
        return py_len(text);
    }
    ascii_visible_len(bytes).unwrap_or_else(|| visible_len_by_codes(text))
}

/// [`visible_len`] of ASCII text whose every ESC starts a CSI code (coloured
/// cells), byte by byte; `None` for any other text.
fn ascii_visible_len(bytes: &[u8]) -> Option<usize> {
    let mut count = 0;
    let mut position = 0;
    while let Some(&byte) = bytes.get(position) {
        if !byte.is_ascii() {
            return None;
        }
        if byte != ESC as u8 {
            count += 1;
            position += 1;
            continue;
        }
        // `ESC [`, parameter bytes, intermediate bytes, one final byte.
        if bytes.get(position + 1) != Some(&b'[') {
            return None;
        }
        position += 2;
        while bytes
            .get(position)
            .is_some_and(|b| (0x30..=0x3f).contains(b))
        {
            position += 1;
        }
        while bytes
            .get(position)
            .is_some_and(|b| (0x20..=0x2f).contains(b))
        {
            position += 1;
        }
        if !bytes
            .get(position)
            .is_some_and(|b| (0x40..=0x7e).contains(b))
        {
            return None;
        }
        position += 1;
    }
    Some(count)
}

/// [`visible_len`] by [`ansi_code_at`], for any text.
fn visible_len_by_codes(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut position = 0;
    while position < bytes.len() {
        if bytes[position] != ESC as u8 {
            // Up to the next ESC, every character is visible: count the
            // bytes that start one.
            let run = bytes[position..]
                .iter()
                .position(|&b| b == ESC as u8)
                .unwrap_or(bytes.len() - position);
            count += bytes[position..position + run]
                .iter()
                .filter(|&&b| b & 0xC0 != 0x80)
                .count();
            position += run;
            continue;
        }
        match ansi_code_at(text, position) {
            Some((end, visible)) => {
                count += py_len(visible);
                position = end;
            }
            None => {
                count += 1;
                position += 1;
            }
        }
    }
    count
}

pub(super) fn contains_ansi_code(text: &str) -> bool {
    text.match_indices(ESC)
        .any(|(position, _)| ansi_code_at(text, position).is_some())
}

/// A code starting at byte `start`: where it ends and the text it displays.
fn ansi_code_at(text: &str, start: usize) -> Option<(usize, &str)> {
    let rest = text.get(start..)?;
    if let Some(length) = csi_code_len(rest) {
        return Some((start + length, ""));
    }
    osc_hyperlink(rest).map(|(length, visible)| (start + length, visible))
}

/// `ESC [` parameter bytes 0x30-0x3f, intermediate bytes 0x20-0x2f, one
/// final byte 0x40-0x7e. The three ranges are disjoint, so greedy runs decide.
fn csi_code_len(text: &str) -> Option<usize> {
    let bytes = text.strip_prefix("\x1b[")?.as_bytes();
    let params = bytes
        .iter()
        .take_while(|b| (0x30..=0x3f).contains(*b))
        .count();
    let intermediates = bytes[params..]
        .iter()
        .take_while(|b| (0x20..=0x2f).contains(*b))
        .count();
    let final_byte = *bytes.get(params + intermediates)?;
    (0x40..=0x7e)
        .contains(&final_byte)
        .then_some(2 + params + intermediates + 1)
}

/// `ESC ]8;` params `;` URI `ESC \` link-text `ESC ]8;; ESC \`, where params
/// is `(\w+=\w+:?)*` and URI and text are non-empty runs without ESC.
fn osc_hyperlink(text: &str) -> Option<(usize, &str)> {
    const OPEN: &str = "\x1b]8;";
    const TERMINATOR: &str = "\x1b\\";
    const CLOSE: &str = "\x1b]8;;\x1b\\";
    let after_open = text.strip_prefix(OPEN)?;
    let params_len = after_open
        .find(|c: char| !(is_regex_word_char(c) || c == '=' || c == ':'))
        .unwrap_or(after_open.len());
    let (params, rest) = after_open.split_at(params_len);
    if !is_link_params(params) {
        return None;
    }
    let rest = rest.strip_prefix(';')?;
    let uri_len = non_empty_run_before_esc(rest)?;
    let rest = rest[uri_len..].strip_prefix(TERMINATOR)?;
    let link_len = non_empty_run_before_esc(rest)?;
    let (link_text, rest) = rest.split_at(link_len);
    let rest = rest.strip_prefix(CLOSE)?;
    Some((text.len() - rest.len(), link_text))
}

fn non_empty_run_before_esc(text: &str) -> Option<usize> {
    let run = text.find(ESC)?;
    (run > 0).then_some(run)
}

/// Whether `text` matches `(\w+=\w+:?)*`, run as a small NFA because the
/// regex may split "a=bc=d" as "a=b" + "c=d".
fn is_link_params(text: &str) -> bool {
    const GROUP_START: u8 = 1;
    const IN_KEY: u8 = 2;
    const AFTER_EQUALS: u8 = 4;
    const IN_VALUE: u8 = 8;
    let mut states = GROUP_START;
    for c in text.chars() {
        let mut next = 0;
        if is_regex_word_char(c) {
            if states & (GROUP_START | IN_KEY | IN_VALUE) != 0 {
                next |= IN_KEY;
            }
            if states & (AFTER_EQUALS | IN_VALUE) != 0 {
                next |= IN_VALUE;
            }
        } else if c == '=' && states & IN_KEY != 0 {
            next = AFTER_EQUALS;
        } else if c == ':' && states & IN_VALUE != 0 {
            next = GROUP_START;
        }
        states = next;
        if states == 0 {
            return false;
        }
    }
    states & (GROUP_START | IN_VALUE) != 0
}

/// Python's Unicode `\w`, approximated with Rust's alphanumeric property.
fn is_regex_word_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

// ---------------------------------------------------------------------------
// Python string primitives
// ---------------------------------------------------------------------------

/// Python's `str.isspace()` (used by `strip`/`rstrip`).
pub(super) fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\x1c'..='\x20'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

pub(super) fn py_strip(text: &str) -> &str {
    // ASCII other than spaces at both ends (most cells, coloured ones
    // included) is no space: nothing to strip.
    let solid = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii() && !is_py_space(char::from(*b)));
    let bytes = text.as_bytes();
    if bytes.is_empty() || (solid(bytes.first()) && solid(bytes.last())) {
        return text;
    }
    // Spaces that are ASCII up to ASCII that is not (cells padded with
    // spaces): the bytes tell where the text starts and ends, each an ASCII
    // character of its own. Anything else is decoded.
    let ascii_space = |b: &u8| b.is_ascii() && is_py_space(char::from(*b));
    let start = bytes.iter().position(|b| !ascii_space(b));
    let end = bytes.iter().rposition(|b| !ascii_space(b));
    match (start, end) {
        (None, _) => "",
        (Some(start), Some(end)) if bytes[start].is_ascii() && bytes[end].is_ascii() => {
            &text[start..=end]
        }
        _ => text.trim_matches(is_py_space),
    }
}

/// Whether every byte is printable ASCII (0x20..0x7f), eight at a time.
pub(super) fn is_printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A byte below 0x20 (exact for bounds up to 0x80), or one with its
        // high bit set, or 0x7f (which adding 1 carries into the high bit
        // when no byte has it set already).
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
        let high_or_del = (x | x.wrapping_add(ONES)) & HIGHS;
        if below_space | high_or_del != 0 {
            return false;
        }
    }
    chunks.remainder().iter().all(|b| (0x20..0x7f).contains(b))
}

pub(super) fn py_rstrip(text: &str) -> &str {
    text.trim_end_matches(is_py_space)
}

/// Python's `len()`: code points.
pub(super) fn py_len(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    text.chars().count()
}

/// `re.split("[\r\n]", text)`: every `\r` and `\n` splits, empty pieces kept.
pub(super) fn split_on_cr_lf(text: &str) -> std::str::Split<'_, [char; 2]> {
    text.split(['\r', '\n'])
}

/// Python's `str.splitlines()`: more line breaks, `\r\n` counts once, and no
/// empty last line after a final break.
pub(super) fn py_splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut line_start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((position, c)) = chars.next() {
        if !is_line_boundary(c) {
            continue;
        }
        lines.push(&text[line_start..position]);
        line_start = position + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|(_, next)| *next == '\n') {
            chars.next();
            line_start += 1;
        }
    }
    if line_start < text.len() {
        lines.push(&text[line_start..]);
    }
    lines
}

#[cfg(test)]
#[test]
fn printable_ascii_eight_at_a_time_is_the_bytewise_check() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let interesting = [0x00, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xff, b'a', b' '];
    for _ in 0..200_000 {
        crate::testing::xorshift_step(&mut state);
        let length = (state % 20) as usize;
        let bytes: Vec<u8> = (0..length)
            .map(|i| {
                let bits = state.rotate_left(i as u32 * 7);
                match bits % 4 {
                    0 => (bits >> 8) as u8,
                    _ => interesting[((bits >> 8) % interesting.len() as u64) as usize],
                }
            })
            .collect();
        let expected = bytes.iter().all(|b| (0x20..0x7f).contains(b));
        assert_eq!(is_printable_ascii(&bytes), expected, "{bytes:?}");
    }
}

#[cfg(test)]
#[test]
fn strip_shortcut_is_python_strip() {
    for text in [
        "",
        " ",
        "a",
        " a",
        "a ",
        "\x1b[31mX\x1b[39m",
        "\x1cx",
        "x\x1f",
        "\u{a0}x",
        "x\u{3000}",
        "\x7f",
    ] {
        assert_eq!(py_strip(text), text.trim_matches(is_py_space), "{text:?}");
    }
    // Random texts from pieces with and without spaces at their ends.
    let pieces = [
        "", " ", "a", "\t", "\x1b[31m", "\x1c", "\x1f", "\u{a0}", "\u{3000}", "\x7f", "é", "1.5",
    ];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..50_000 {
        let mut text = String::new();
        for _ in 0..state % 6 {
            crate::testing::xorshift_step(&mut state);
            text.push_str(pieces[(state % pieces.len() as u64) as usize]);
        }
        assert_eq!(py_strip(&text), text.trim_matches(is_py_space), "{text:?}");
    }
}

#[cfg(test)]
#[test]
fn visible_len_is_the_length_of_the_stripped_text() {
    let texts = [
        "",
        "plain",
        "\x1b[31mSLOW\x1b[39m",
        "a\x1b[1;2mé\x1b",
        "\x1b\x1b[m\x1b[",
        "\x1b]8;id=1;http://x\x1b\\link\x1b]8;;\x1b\\ tail \x1b[0m",
        "\x1b]8;;u\x1b\\\x1b]8;;\x1b\\",
        "日本\x1b[4m語\x1b[24m",
    ];
    for text in texts {
        assert_eq!(visible_len(text), py_len(&strip_ansi(text)), "{text:?}");
    }
    // Random texts of codes, broken codes and characters: the byte-by-byte
    // count agrees with the general one whenever it answers.
    let pieces = [
        "\x1b[31m",
        "\x1b[39m",
        "\x1b[1;2m",
        "\x1b[",
        "\x1b",
        "\x1b[ !m",
        "\x1b[0",
        "\x1b]8;;u\x1b\\",
        "a",
        "SLOW",
        " ",
        "é",
        "\x7f",
        "[",
        "m",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..50_000 {
        let mut text = String::new();
        for _ in 0..state % 7 {
            crate::testing::xorshift_step(&mut state);
            text.push_str(pieces[(state % pieces.len() as u64) as usize]);
        }
        let general = visible_len_by_codes(&text);
        assert_eq!(general, py_len(&strip_ansi(&text)), "{text:?}");
        if let Some(fast) = ascii_visible_len(text.as_bytes()) {
            assert_eq!(fast, general, "{text:?}");
        }
    }
}

fn is_line_boundary(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0b'
            | '\x0c'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}
