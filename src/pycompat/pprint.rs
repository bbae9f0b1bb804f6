//! Byte-exact reimplementation of Python 3.11's `pprint.pformat(value,
//! sort_dicts=False)` (width 80, indent 1) for the JSON-like values we emit,
//! plus Python's `repr(str)`.
//!
//! The bulk-debug output is a Python script whose main literal the reference
//! prints with `pprint`, so every layout decision here mirrors CPython:
//! widths are counted in code points (Python `len`), long strings are split
//! into adjacent literals at whitespace boundaries, and container items go on
//! one line each once the one-line form no longer fits.
//!
//! Strings come from untrusted input files and the output is executed as
//! Python, so `str_repr` must always produce a literal that evaluates back to
//! the same string: it escapes exactly what CPython escapes, using Unicode
//! tables generated from Python 3.11 (Unicode 14.0.0).
//!
//! Known limit: values nested thousands of levels deep exhaust the stack
//! (Python would raise `RecursionError` there too); our rows nest three deep.

use crate::pycompat::pyfmt::float_repr;

/// The subset of Python values that the bulk-debug rows contain.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    None,
    Bool(bool),
    Int(i64),
    /// An integer of any size, as decimal digits.
    IntText(String),
    Float(f64),
    Str(String),
    List(Vec<PyValue>),
    /// String keys in insertion order (`sort_dicts=False`).
    Dict(Vec<(String, PyValue)>),
}

/// `pprint`'s default target line width.
const WIDTH: i64 = 80;
/// `pprint`'s default indent per nesting level.
const INDENT_PER_LEVEL: usize = 1;

/// `pprint.pformat(value, sort_dicts=False)` — width 80, indent 1.
pub fn pformat(value: &PyValue) -> String {
    let mut printer = Printer { out: String::new() };
    printer.format(value, 0, 0, true);
    printer.out
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

// ---------------------------------------------------------------------------
// Layout

/// Accumulates the output; mirrors the stream that `PrettyPrinter` writes to.
struct Printer {
    out: String,
}

impl Printer {
    /// `PrettyPrinter._format`: the one-line repr when it fits in what is left
    /// of the line, otherwise the multi-line layout of the value's type.
    /// `allowance` reserves room for closing characters that follow the value
    /// on its last line; `is_root` marks the value passed to `pformat`.
    fn format(&mut self, value: &PyValue, indent: usize, allowance: usize, is_root: bool) {
        let room = WIDTH - to_i64(indent) - to_i64(allowance);
        match value {
            PyValue::List(items) => match flat_repr_within(value, room) {
                Some(text) => self.out.push_str(&text),
                None => self.write_list(items, indent, allowance),
            },
            PyValue::Dict(entries) => match flat_repr_within(value, room) {
                Some(text) => self.out.push_str(&text),
                None => self.write_dict(entries, indent, allowance),
            },
            PyValue::Str(text) => {
                let repr = str_repr(text);
                if char_len(&repr) <= room {
                    self.out.push_str(&repr);
                } else {
                    self.write_long_str(text, indent, allowance, is_root);
                }
            }
            scalar => self.out.push_str(&flat_repr(scalar)),
        }
    }

    /// `_pprint_list` + `_format_items`: one item per line, aligned after `[`.
    fn write_list(&mut self, items: &[PyValue], indent: usize, allowance: usize) {
        self.out.push('[');
        let indent = indent + INDENT_PER_LEVEL;
        let closing_allowance = allowance + 1; // the `]`
        for (index, item) in items.iter().enumerate() {
            let is_last = index + 1 == items.len();
            if index > 0 {
                self.push_item_separator(indent);
            }
            // Non-last items are followed by a `,` on their last line.
            let item_allowance = if is_last { closing_allowance } else { 1 };
            self.format(item, indent, item_allowance, false);
        }
        self.out.push(']');
    }

    /// `_pprint_dict` + `_format_dict_items`: one `key: value` per line;
    /// a value that spills over is indented to start after its key.
    fn write_dict(&mut self, entries: &[(String, PyValue)], indent: usize, allowance: usize) {
        self.out.push('{');
        let indent = indent + INDENT_PER_LEVEL;
        let closing_allowance = allowance + 1; // the `}`
        for (index, (key, value)) in entries.iter().enumerate() {
            let is_last = index + 1 == entries.len();
            if index > 0 {
                self.push_item_separator(indent);
            }
            let key_repr = str_repr(key);
            self.out.push_str(&key_repr);
            self.out.push_str(": ");
            let value_indent = indent + key_repr.chars().count() + 2;
            let value_allowance = if is_last { closing_allowance } else { 1 };
            self.format(value, value_indent, value_allowance, false);
        }
        self.out.push('}');
    }

    fn push_item_separator(&mut self, indent: usize) {
        self.out.push_str(",\n");
        push_spaces(&mut self.out, indent);
    }

    /// `_pprint_str`: adjacent literals, one per output line. Only the root
    /// value needs parentheses; inside a container the brackets already make
    /// the implicit concatenation a single expression.
    fn write_long_str(&mut self, text: &str, indent: usize, allowance: usize, is_root: bool) {
        let (indent, allowance) = if is_root {
            (indent + 1, allowance + 1) // room for `(` and `)`
        } else {
            (indent, allowance)
        };
        let chunks = split_str_literal(text, WIDTH - to_i64(indent), to_i64(allowance));
        if chunks.len() == 1 {
            // Python writes a lone chunk bare, even at the root.
            self.out.push_str(&chunks[0]);
            return;
        }
        if is_root {
            self.out.push('(');
        }
        for (index, chunk) in chunks.iter().enumerate() {
            if index > 0 {
                self.out.push('\n');
                push_spaces(&mut self.out, indent);
            }
            self.out.push_str(chunk);
        }
        if is_root {
            self.out.push(')');
        }
    }
}

/// Cuts `text` into string literals of at most `max_width` code points each
/// (the last one also leaves `allowance` free). Each line of the text starts
/// a new literal; a line too long for one literal is cut after whitespace
/// runs. A single word longer than the width stays whole, as in Python.
fn split_str_literal(text: &str, max_width: i64, allowance: i64) -> Vec<String> {
    let lines = split_lines_keep_ends(text);
    let mut chunks = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let is_last_line = index + 1 == lines.len();
        let last_allowance = if is_last_line { allowance } else { 0 };
        let repr = str_repr(line);
        if char_len(&repr) <= max_width - last_allowance {
            chunks.push(repr);
        } else {
            split_line_at_spaces(line, max_width, last_allowance, &mut chunks);
        }
    }
    if chunks.is_empty() {
        // Only reachable for "", which Python prints as a plain repr.
        chunks.push(str_repr(text));
    }
    chunks
}

/// Greedily packs the line's words (each with its trailing whitespace) into
/// literals. Quote choice can change between pieces, so every candidate's
/// repr is measured rather than summed.
fn split_line_at_spaces(line: &str, max_width: i64, last_allowance: i64, chunks: &mut Vec<String>) {
    let words = split_words_keep_spaces(line);
    let mut current_start = 0;
    let mut current_end = 0;
    for (index, &(word_start, word_end)) in words.iter().enumerate() {
        let is_last_word = index + 1 == words.len();
        let limit = if is_last_word {
            max_width - last_allowance
        } else {
            max_width
        };
        let candidate = slice(line, current_start, word_end);
        if char_len(&str_repr(candidate)) > limit {
            if current_end > current_start {
                chunks.push(str_repr(slice(line, current_start, current_end)));
            }
            current_start = word_start;
        }
        current_end = word_end;
    }
    if current_end > current_start {
        chunks.push(str_repr(slice(line, current_start, current_end)));
    }
}

/// `&text[start..end]` for offsets taken from `char_indices`; never panics.
fn slice(text: &str, start: usize, end: usize) -> &str {
    text.get(start..end).unwrap_or_default()
}

/// Byte ranges of the matches of `re.findall(r'\S*\s*', line)`, without the
/// final empty match: each is a run of non-space followed by a run of space.
fn split_words_keep_spaces(line: &str) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut start = 0;
    let mut in_spaces = false;
    for (offset, ch) in line.char_indices() {
        let is_space = is_python_space(ch);
        if in_spaces && !is_space {
            words.push((start, offset));
            start = offset;
        }
        in_spaces = is_space;
    }
    if start < line.len() {
        words.push((start, line.len()));
    }
    words
}

/// `str.splitlines(keepends=True)`: `\r\n` counts as one line break.
fn split_lines_keep_ends(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((offset, ch)) = chars.next() {
        if !is_python_line_break(ch) {
            continue;
        }
        let mut end = offset + ch.len_utf8();
        if ch == '\r' && chars.peek().map(|&(_, next)| next) == Some('\n') {
            chars.next();
            end += 1;
        }
        lines.push(slice(text, start, end));
        start = end;
    }
    if start < text.len() {
        lines.push(slice(text, start, text.len()));
    }
    lines
}

/// Line boundaries recognised by `str.splitlines`.
fn is_python_line_break(ch: char) -> bool {
    matches!(
        ch,
        '\n' | '\r'
            | '\x0B'
            | '\x0C'
            | '\x1C'
            | '\x1D'
            | '\x1E'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

// ---------------------------------------------------------------------------
// One-line reprs

/// Builds the one-line repr, giving up once it exceeds `room` code points
/// so that the fit test costs at most one line's worth of work per level.
fn flat_repr_within(value: &PyValue, room: i64) -> Option<String> {
    let mut writer = BoundedWriter {
        text: String::new(),
        chars: 0,
        limit: room,
    };
    writer.write_value(value).ok()?;
    Some(writer.text)
}

/// The one-line repr of any value, without a width limit.
fn flat_repr(value: &PyValue) -> String {
    // Nothing reaches an `i64::MAX` limit, so this is never empty.
    flat_repr_within(value, i64::MAX).unwrap_or_default()
}

/// Signals that a one-line repr grew past its limit.
struct TooWide;

struct BoundedWriter {
    text: String,
    chars: i64,
    limit: i64,
}

impl BoundedWriter {
    fn push(&mut self, piece: &str) -> Result<(), TooWide> {
        self.chars = self.chars.saturating_add(char_len(piece));
        if self.chars > self.limit {
            return Err(TooWide);
        }
        self.text.push_str(piece);
        Ok(())
    }

    /// Python's `repr` for these types (what `PrettyPrinter._safe_repr` yields).
    fn write_value(&mut self, value: &PyValue) -> Result<(), TooWide> {
        match value {
            PyValue::None => self.push("None"),
            PyValue::Bool(true) => self.push("True"),
            PyValue::Bool(false) => self.push("False"),
            PyValue::Int(number) => self.push(&number.to_string()),
            PyValue::IntText(digits) => self.push(digits),
            PyValue::Float(number) => self.push(&float_repr(*number)),
            PyValue::Str(text) => self.push(&str_repr(text)),
            PyValue::List(items) => self.write_list(items),
            PyValue::Dict(entries) => self.write_dict(entries),
        }
    }

    fn write_list(&mut self, items: &[PyValue]) -> Result<(), TooWide> {
        self.push("[")?;
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.push(", ")?;
            }
            self.write_value(item)?;
        }
        self.push("]")
    }

    fn write_dict(&mut self, entries: &[(String, PyValue)]) -> Result<(), TooWide> {
        self.push("{")?;
        for (index, (key, value)) in entries.iter().enumerate() {
            if index > 0 {
                self.push(", ")?;
            }
            self.push(&str_repr(key))?;
            self.push(": ")?;
            self.write_value(value)?;
        }
        self.push("}")
    }
}

// ---------------------------------------------------------------------------
// String repr

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

/// `str.isprintable` for one non-ASCII character.
fn is_printable_non_ascii(ch: char) -> bool {
    !in_ranges(NON_PRINTABLE_RANGES, ch)
}

/// `str.isspace`, which is also what `re`'s `\s` matches in a str pattern.
fn is_python_space(ch: char) -> bool {
    in_ranges(PYTHON_SPACE_RANGES, ch)
}

fn in_ranges(ranges: &[(u32, u32)], ch: char) -> bool {
    let code = u32::from(ch);
    ranges
        .binary_search_by(|&(first, last)| {
            if last < code {
                std::cmp::Ordering::Less
            } else if first > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

// ---------------------------------------------------------------------------
// Small helpers

/// Python `len` of a str: code points, not bytes.
fn char_len(text: &str) -> i64 {
    to_i64(text.chars().count())
}

fn to_i64(count: usize) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

fn push_spaces(out: &mut String, count: usize) {
    out.extend(std::iter::repeat_n(' ', count));
}

// ---------------------------------------------------------------------------
// Unicode tables (Python 3.11 / Unicode 14.0.0)

// Generated from Python 3.11 `unicodedata` (Unicode 14.0.0); code points
// outside these tables are printable / not whitespace.
/// Inclusive ranges of non-ASCII code points that `str.isprintable` rejects.
#[rustfmt::skip]
const NON_PRINTABLE_RANGES: &[(u32, u32)] = &[
    (0x80, 0xA0), (0xAD, 0xAD), (0x378, 0x379), (0x380, 0x383),
    (0x38B, 0x38B), (0x38D, 0x38D), (0x3A2, 0x3A2), (0x530, 0x530),
    (0x557, 0x558), (0x58B, 0x58C), (0x590, 0x590), (0x5C8, 0x5CF),
    (0x5EB, 0x5EE), (0x5F5, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD),
    (0x70E, 0x70F), (0x74B, 0x74C), (0x7B2, 0x7BF), (0x7FB, 0x7FC),
    (0x82E, 0x82F), (0x83F, 0x83F), (0x85C, 0x85D), (0x85F, 0x85F),
    (0x86B, 0x86F), (0x88F, 0x897), (0x8E2, 0x8E2), (0x984, 0x984),
    (0x98D, 0x98E), (0x991, 0x992), (0x9A9, 0x9A9), (0x9B1, 0x9B1),
    (0x9B3, 0x9B5), (0x9BA, 0x9BB), (0x9C5, 0x9C6), (0x9C9, 0x9CA),
    (0x9CF, 0x9D6), (0x9D8, 0x9DB), (0x9DE, 0x9DE), (0x9E4, 0x9E5),
    (0x9FF, 0xA00), (0xA04, 0xA04), (0xA0B, 0xA0E), (0xA11, 0xA12),
    (0xA29, 0xA29), (0xA31, 0xA31), (0xA34, 0xA34), (0xA37, 0xA37),
    (0xA3A, 0xA3B), (0xA3D, 0xA3D), (0xA43, 0xA46), (0xA49, 0xA4A),
    (0xA4E, 0xA50), (0xA52, 0xA58), (0xA5D, 0xA5D), (0xA5F, 0xA65),
    (0xA77, 0xA80), (0xA84, 0xA84), (0xA8E, 0xA8E), (0xA92, 0xA92),
    (0xAA9, 0xAA9), (0xAB1, 0xAB1), (0xAB4, 0xAB4), (0xABA, 0xABB),
    (0xAC6, 0xAC6), (0xACA, 0xACA), (0xACE, 0xACF), (0xAD1, 0xADF),
    (0xAE4, 0xAE5), (0xAF2, 0xAF8), (0xB00, 0xB00), (0xB04, 0xB04),
    (0xB0D, 0xB0E), (0xB11, 0xB12), (0xB29, 0xB29), (0xB31, 0xB31),
    (0xB34, 0xB34), (0xB3A, 0xB3B), (0xB45, 0xB46), (0xB49, 0xB4A),
    (0xB4E, 0xB54), (0xB58, 0xB5B), (0xB5E, 0xB5E), (0xB64, 0xB65),
    (0xB78, 0xB81), (0xB84, 0xB84), (0xB8B, 0xB8D), (0xB91, 0xB91),
    (0xB96, 0xB98), (0xB9B, 0xB9B), (0xB9D, 0xB9D), (0xBA0, 0xBA2),
    (0xBA5, 0xBA7), (0xBAB, 0xBAD), (0xBBA, 0xBBD), (0xBC3, 0xBC5),
    (0xBC9, 0xBC9), (0xBCE, 0xBCF), (0xBD1, 0xBD6), (0xBD8, 0xBE5),
    (0xBFB, 0xBFF), (0xC0D, 0xC0D), (0xC11, 0xC11), (0xC29, 0xC29),
    (0xC3A, 0xC3B), (0xC45, 0xC45), (0xC49, 0xC49), (0xC4E, 0xC54),
    (0xC57, 0xC57), (0xC5B, 0xC5C), (0xC5E, 0xC5F), (0xC64, 0xC65),
    (0xC70, 0xC76), (0xC8D, 0xC8D), (0xC91, 0xC91), (0xCA9, 0xCA9),
    (0xCB4, 0xCB4), (0xCBA, 0xCBB), (0xCC5, 0xCC5), (0xCC9, 0xCC9),
    (0xCCE, 0xCD4), (0xCD7, 0xCDC), (0xCDF, 0xCDF), (0xCE4, 0xCE5),
    (0xCF0, 0xCF0), (0xCF3, 0xCFF), (0xD0D, 0xD0D), (0xD11, 0xD11),
    (0xD45, 0xD45), (0xD49, 0xD49), (0xD50, 0xD53), (0xD64, 0xD65),
    (0xD80, 0xD80), (0xD84, 0xD84), (0xD97, 0xD99), (0xDB2, 0xDB2),
    (0xDBC, 0xDBC), (0xDBE, 0xDBF), (0xDC7, 0xDC9), (0xDCB, 0xDCE),
    (0xDD5, 0xDD5), (0xDD7, 0xDD7), (0xDE0, 0xDE5), (0xDF0, 0xDF1),
    (0xDF5, 0xE00), (0xE3B, 0xE3E), (0xE5C, 0xE80), (0xE83, 0xE83),
    (0xE85, 0xE85), (0xE8B, 0xE8B), (0xEA4, 0xEA4), (0xEA6, 0xEA6),
    (0xEBE, 0xEBF), (0xEC5, 0xEC5), (0xEC7, 0xEC7), (0xECE, 0xECF),
    (0xEDA, 0xEDB), (0xEE0, 0xEFF), (0xF48, 0xF48), (0xF6D, 0xF70),
    (0xF98, 0xF98), (0xFBD, 0xFBD), (0xFCD, 0xFCD), (0xFDB, 0xFFF),
    (0x10C6, 0x10C6), (0x10C8, 0x10CC), (0x10CE, 0x10CF), (0x1249, 0x1249),
    (0x124E, 0x124F), (0x1257, 0x1257), (0x1259, 0x1259), (0x125E, 0x125F),
    (0x1289, 0x1289), (0x128E, 0x128F), (0x12B1, 0x12B1), (0x12B6, 0x12B7),
    (0x12BF, 0x12BF), (0x12C1, 0x12C1), (0x12C6, 0x12C7), (0x12D7, 0x12D7),
    (0x1311, 0x1311), (0x1316, 0x1317), (0x135B, 0x135C), (0x137D, 0x137F),
    (0x139A, 0x139F), (0x13F6, 0x13F7), (0x13FE, 0x13FF), (0x1680, 0x1680),
    (0x169D, 0x169F), (0x16F9, 0x16FF), (0x1716, 0x171E), (0x1737, 0x173F),
    (0x1754, 0x175F), (0x176D, 0x176D), (0x1771, 0x1771), (0x1774, 0x177F),
    (0x17DE, 0x17DF), (0x17EA, 0x17EF), (0x17FA, 0x17FF), (0x180E, 0x180E),
    (0x181A, 0x181F), (0x1879, 0x187F), (0x18AB, 0x18AF), (0x18F6, 0x18FF),
    (0x191F, 0x191F), (0x192C, 0x192F), (0x193C, 0x193F), (0x1941, 0x1943),
    (0x196E, 0x196F), (0x1975, 0x197F), (0x19AC, 0x19AF), (0x19CA, 0x19CF),
    (0x19DB, 0x19DD), (0x1A1C, 0x1A1D), (0x1A5F, 0x1A5F), (0x1A7D, 0x1A7E),
    (0x1A8A, 0x1A8F), (0x1A9A, 0x1A9F), (0x1AAE, 0x1AAF), (0x1ACF, 0x1AFF),
    (0x1B4D, 0x1B4F), (0x1B7F, 0x1B7F), (0x1BF4, 0x1BFB), (0x1C38, 0x1C3A),
    (0x1C4A, 0x1C4C), (0x1C89, 0x1C8F), (0x1CBB, 0x1CBC), (0x1CC8, 0x1CCF),
    (0x1CFB, 0x1CFF), (0x1F16, 0x1F17), (0x1F1E, 0x1F1F), (0x1F46, 0x1F47),
    (0x1F4E, 0x1F4F), (0x1F58, 0x1F58), (0x1F5A, 0x1F5A), (0x1F5C, 0x1F5C),
    (0x1F5E, 0x1F5E), (0x1F7E, 0x1F7F), (0x1FB5, 0x1FB5), (0x1FC5, 0x1FC5),
    (0x1FD4, 0x1FD5), (0x1FDC, 0x1FDC), (0x1FF0, 0x1FF1), (0x1FF5, 0x1FF5),
    (0x1FFF, 0x200F), (0x2028, 0x202F), (0x205F, 0x206F), (0x2072, 0x2073),
    (0x208F, 0x208F), (0x209D, 0x209F), (0x20C1, 0x20CF), (0x20F1, 0x20FF),
    (0x218C, 0x218F), (0x2427, 0x243F), (0x244B, 0x245F), (0x2B74, 0x2B75),
    (0x2B96, 0x2B96), (0x2CF4, 0x2CF8), (0x2D26, 0x2D26), (0x2D28, 0x2D2C),
    (0x2D2E, 0x2D2F), (0x2D68, 0x2D6E), (0x2D71, 0x2D7E), (0x2D97, 0x2D9F),
    (0x2DA7, 0x2DA7), (0x2DAF, 0x2DAF), (0x2DB7, 0x2DB7), (0x2DBF, 0x2DBF),
    (0x2DC7, 0x2DC7), (0x2DCF, 0x2DCF), (0x2DD7, 0x2DD7), (0x2DDF, 0x2DDF),
    (0x2E5E, 0x2E7F), (0x2E9A, 0x2E9A), (0x2EF4, 0x2EFF), (0x2FD6, 0x2FEF),
    (0x2FFC, 0x3000), (0x3040, 0x3040), (0x3097, 0x3098), (0x3100, 0x3104),
    (0x3130, 0x3130), (0x318F, 0x318F), (0x31E4, 0x31EF), (0x321F, 0x321F),
    (0xA48D, 0xA48F), (0xA4C7, 0xA4CF), (0xA62C, 0xA63F), (0xA6F8, 0xA6FF),
    (0xA7CB, 0xA7CF), (0xA7D2, 0xA7D2), (0xA7D4, 0xA7D4), (0xA7DA, 0xA7F1),
    (0xA82D, 0xA82F), (0xA83A, 0xA83F), (0xA878, 0xA87F), (0xA8C6, 0xA8CD),
    (0xA8DA, 0xA8DF), (0xA954, 0xA95E), (0xA97D, 0xA97F), (0xA9CE, 0xA9CE),
    (0xA9DA, 0xA9DD), (0xA9FF, 0xA9FF), (0xAA37, 0xAA3F), (0xAA4E, 0xAA4F),
    (0xAA5A, 0xAA5B), (0xAAC3, 0xAADA), (0xAAF7, 0xAB00), (0xAB07, 0xAB08),
    (0xAB0F, 0xAB10), (0xAB17, 0xAB1F), (0xAB27, 0xAB27), (0xAB2F, 0xAB2F),
    (0xAB6C, 0xAB6F), (0xABEE, 0xABEF), (0xABFA, 0xABFF), (0xD7A4, 0xD7AF),
    (0xD7C7, 0xD7CA), (0xD7FC, 0xF8FF), (0xFA6E, 0xFA6F), (0xFADA, 0xFAFF),
    (0xFB07, 0xFB12), (0xFB18, 0xFB1C), (0xFB37, 0xFB37), (0xFB3D, 0xFB3D),
    (0xFB3F, 0xFB3F), (0xFB42, 0xFB42), (0xFB45, 0xFB45), (0xFBC3, 0xFBD2),
    (0xFD90, 0xFD91), (0xFDC8, 0xFDCE), (0xFDD0, 0xFDEF), (0xFE1A, 0xFE1F),
    (0xFE53, 0xFE53), (0xFE67, 0xFE67), (0xFE6C, 0xFE6F), (0xFE75, 0xFE75),
    (0xFEFD, 0xFF00), (0xFFBF, 0xFFC1), (0xFFC8, 0xFFC9), (0xFFD0, 0xFFD1),
    (0xFFD8, 0xFFD9), (0xFFDD, 0xFFDF), (0xFFE7, 0xFFE7), (0xFFEF, 0xFFFB),
    (0xFFFE, 0xFFFF), (0x1000C, 0x1000C), (0x10027, 0x10027), (0x1003B, 0x1003B),
    (0x1003E, 0x1003E), (0x1004E, 0x1004F), (0x1005E, 0x1007F), (0x100FB, 0x100FF),
    (0x10103, 0x10106), (0x10134, 0x10136), (0x1018F, 0x1018F), (0x1019D, 0x1019F),
    (0x101A1, 0x101CF), (0x101FE, 0x1027F), (0x1029D, 0x1029F), (0x102D1, 0x102DF),
    (0x102FC, 0x102FF), (0x10324, 0x1032C), (0x1034B, 0x1034F), (0x1037B, 0x1037F),
    (0x1039E, 0x1039E), (0x103C4, 0x103C7), (0x103D6, 0x103FF), (0x1049E, 0x1049F),
    (0x104AA, 0x104AF), (0x104D4, 0x104D7), (0x104FC, 0x104FF), (0x10528, 0x1052F),
    (0x10564, 0x1056E), (0x1057B, 0x1057B), (0x1058B, 0x1058B), (0x10593, 0x10593),
    (0x10596, 0x10596), (0x105A2, 0x105A2), (0x105B2, 0x105B2), (0x105BA, 0x105BA),
    (0x105BD, 0x105FF), (0x10737, 0x1073F), (0x10756, 0x1075F), (0x10768, 0x1077F),
    (0x10786, 0x10786), (0x107B1, 0x107B1), (0x107BB, 0x107FF), (0x10806, 0x10807),
    (0x10809, 0x10809), (0x10836, 0x10836), (0x10839, 0x1083B), (0x1083D, 0x1083E),
    (0x10856, 0x10856), (0x1089F, 0x108A6), (0x108B0, 0x108DF), (0x108F3, 0x108F3),
    (0x108F6, 0x108FA), (0x1091C, 0x1091E), (0x1093A, 0x1093E), (0x10940, 0x1097F),
    (0x109B8, 0x109BB), (0x109D0, 0x109D1), (0x10A04, 0x10A04), (0x10A07, 0x10A0B),
    (0x10A14, 0x10A14), (0x10A18, 0x10A18), (0x10A36, 0x10A37), (0x10A3B, 0x10A3E),
    (0x10A49, 0x10A4F), (0x10A59, 0x10A5F), (0x10AA0, 0x10ABF), (0x10AE7, 0x10AEA),
    (0x10AF7, 0x10AFF), (0x10B36, 0x10B38), (0x10B56, 0x10B57), (0x10B73, 0x10B77),
    (0x10B92, 0x10B98), (0x10B9D, 0x10BA8), (0x10BB0, 0x10BFF), (0x10C49, 0x10C7F),
    (0x10CB3, 0x10CBF), (0x10CF3, 0x10CF9), (0x10D28, 0x10D2F), (0x10D3A, 0x10E5F),
    (0x10E7F, 0x10E7F), (0x10EAA, 0x10EAA), (0x10EAE, 0x10EAF), (0x10EB2, 0x10EFF),
    (0x10F28, 0x10F2F), (0x10F5A, 0x10F6F), (0x10F8A, 0x10FAF), (0x10FCC, 0x10FDF),
    (0x10FF7, 0x10FFF), (0x1104E, 0x11051), (0x11076, 0x1107E), (0x110BD, 0x110BD),
    (0x110C3, 0x110CF), (0x110E9, 0x110EF), (0x110FA, 0x110FF), (0x11135, 0x11135),
    (0x11148, 0x1114F), (0x11177, 0x1117F), (0x111E0, 0x111E0), (0x111F5, 0x111FF),
    (0x11212, 0x11212), (0x1123F, 0x1127F), (0x11287, 0x11287), (0x11289, 0x11289),
    (0x1128E, 0x1128E), (0x1129E, 0x1129E), (0x112AA, 0x112AF), (0x112EB, 0x112EF),
    (0x112FA, 0x112FF), (0x11304, 0x11304), (0x1130D, 0x1130E), (0x11311, 0x11312),
    (0x11329, 0x11329), (0x11331, 0x11331), (0x11334, 0x11334), (0x1133A, 0x1133A),
    (0x11345, 0x11346), (0x11349, 0x1134A), (0x1134E, 0x1134F), (0x11351, 0x11356),
    (0x11358, 0x1135C), (0x11364, 0x11365), (0x1136D, 0x1136F), (0x11375, 0x113FF),
    (0x1145C, 0x1145C), (0x11462, 0x1147F), (0x114C8, 0x114CF), (0x114DA, 0x1157F),
    (0x115B6, 0x115B7), (0x115DE, 0x115FF), (0x11645, 0x1164F), (0x1165A, 0x1165F),
    (0x1166D, 0x1167F), (0x116BA, 0x116BF), (0x116CA, 0x116FF), (0x1171B, 0x1171C),
    (0x1172C, 0x1172F), (0x11747, 0x117FF), (0x1183C, 0x1189F), (0x118F3, 0x118FE),
    (0x11907, 0x11908), (0x1190A, 0x1190B), (0x11914, 0x11914), (0x11917, 0x11917),
    (0x11936, 0x11936), (0x11939, 0x1193A), (0x11947, 0x1194F), (0x1195A, 0x1199F),
    (0x119A8, 0x119A9), (0x119D8, 0x119D9), (0x119E5, 0x119FF), (0x11A48, 0x11A4F),
    (0x11AA3, 0x11AAF), (0x11AF9, 0x11BFF), (0x11C09, 0x11C09), (0x11C37, 0x11C37),
    (0x11C46, 0x11C4F), (0x11C6D, 0x11C6F), (0x11C90, 0x11C91), (0x11CA8, 0x11CA8),
    (0x11CB7, 0x11CFF), (0x11D07, 0x11D07), (0x11D0A, 0x11D0A), (0x11D37, 0x11D39),
    (0x11D3B, 0x11D3B), (0x11D3E, 0x11D3E), (0x11D48, 0x11D4F), (0x11D5A, 0x11D5F),
    (0x11D66, 0x11D66), (0x11D69, 0x11D69), (0x11D8F, 0x11D8F), (0x11D92, 0x11D92),
    (0x11D99, 0x11D9F), (0x11DAA, 0x11EDF), (0x11EF9, 0x11FAF), (0x11FB1, 0x11FBF),
    (0x11FF2, 0x11FFE), (0x1239A, 0x123FF), (0x1246F, 0x1246F), (0x12475, 0x1247F),
    (0x12544, 0x12F8F), (0x12FF3, 0x12FFF), (0x1342F, 0x143FF), (0x14647, 0x167FF),
    (0x16A39, 0x16A3F), (0x16A5F, 0x16A5F), (0x16A6A, 0x16A6D), (0x16ABF, 0x16ABF),
    (0x16ACA, 0x16ACF), (0x16AEE, 0x16AEF), (0x16AF6, 0x16AFF), (0x16B46, 0x16B4F),
    (0x16B5A, 0x16B5A), (0x16B62, 0x16B62), (0x16B78, 0x16B7C), (0x16B90, 0x16E3F),
    (0x16E9B, 0x16EFF), (0x16F4B, 0x16F4E), (0x16F88, 0x16F8E), (0x16FA0, 0x16FDF),
    (0x16FE5, 0x16FEF), (0x16FF2, 0x16FFF), (0x187F8, 0x187FF), (0x18CD6, 0x18CFF),
    (0x18D09, 0x1AFEF), (0x1AFF4, 0x1AFF4), (0x1AFFC, 0x1AFFC), (0x1AFFF, 0x1AFFF),
    (0x1B123, 0x1B14F), (0x1B153, 0x1B163), (0x1B168, 0x1B16F), (0x1B2FC, 0x1BBFF),
    (0x1BC6B, 0x1BC6F), (0x1BC7D, 0x1BC7F), (0x1BC89, 0x1BC8F), (0x1BC9A, 0x1BC9B),
    (0x1BCA0, 0x1CEFF), (0x1CF2E, 0x1CF2F), (0x1CF47, 0x1CF4F), (0x1CFC4, 0x1CFFF),
    (0x1D0F6, 0x1D0FF), (0x1D127, 0x1D128), (0x1D173, 0x1D17A), (0x1D1EB, 0x1D1FF),
    (0x1D246, 0x1D2DF), (0x1D2F4, 0x1D2FF), (0x1D357, 0x1D35F), (0x1D379, 0x1D3FF),
    (0x1D455, 0x1D455), (0x1D49D, 0x1D49D), (0x1D4A0, 0x1D4A1), (0x1D4A3, 0x1D4A4),
    (0x1D4A7, 0x1D4A8), (0x1D4AD, 0x1D4AD), (0x1D4BA, 0x1D4BA), (0x1D4BC, 0x1D4BC),
    (0x1D4C4, 0x1D4C4), (0x1D506, 0x1D506), (0x1D50B, 0x1D50C), (0x1D515, 0x1D515),
    (0x1D51D, 0x1D51D), (0x1D53A, 0x1D53A), (0x1D53F, 0x1D53F), (0x1D545, 0x1D545),
    (0x1D547, 0x1D549), (0x1D551, 0x1D551), (0x1D6A6, 0x1D6A7), (0x1D7CC, 0x1D7CD),
    (0x1DA8C, 0x1DA9A), (0x1DAA0, 0x1DAA0), (0x1DAB0, 0x1DEFF), (0x1DF1F, 0x1DFFF),
    (0x1E007, 0x1E007), (0x1E019, 0x1E01A), (0x1E022, 0x1E022), (0x1E025, 0x1E025),
    (0x1E02B, 0x1E0FF), (0x1E12D, 0x1E12F), (0x1E13E, 0x1E13F), (0x1E14A, 0x1E14D),
    (0x1E150, 0x1E28F), (0x1E2AF, 0x1E2BF), (0x1E2FA, 0x1E2FE), (0x1E300, 0x1E7DF),
    (0x1E7E7, 0x1E7E7), (0x1E7EC, 0x1E7EC), (0x1E7EF, 0x1E7EF), (0x1E7FF, 0x1E7FF),
    (0x1E8C5, 0x1E8C6), (0x1E8D7, 0x1E8FF), (0x1E94C, 0x1E94F), (0x1E95A, 0x1E95D),
    (0x1E960, 0x1EC70), (0x1ECB5, 0x1ED00), (0x1ED3E, 0x1EDFF), (0x1EE04, 0x1EE04),
    (0x1EE20, 0x1EE20), (0x1EE23, 0x1EE23), (0x1EE25, 0x1EE26), (0x1EE28, 0x1EE28),
    (0x1EE33, 0x1EE33), (0x1EE38, 0x1EE38), (0x1EE3A, 0x1EE3A), (0x1EE3C, 0x1EE41),
    (0x1EE43, 0x1EE46), (0x1EE48, 0x1EE48), (0x1EE4A, 0x1EE4A), (0x1EE4C, 0x1EE4C),
    (0x1EE50, 0x1EE50), (0x1EE53, 0x1EE53), (0x1EE55, 0x1EE56), (0x1EE58, 0x1EE58),
    (0x1EE5A, 0x1EE5A), (0x1EE5C, 0x1EE5C), (0x1EE5E, 0x1EE5E), (0x1EE60, 0x1EE60),
    (0x1EE63, 0x1EE63), (0x1EE65, 0x1EE66), (0x1EE6B, 0x1EE6B), (0x1EE73, 0x1EE73),
    (0x1EE78, 0x1EE78), (0x1EE7D, 0x1EE7D), (0x1EE7F, 0x1EE7F), (0x1EE8A, 0x1EE8A),
    (0x1EE9C, 0x1EEA0), (0x1EEA4, 0x1EEA4), (0x1EEAA, 0x1EEAA), (0x1EEBC, 0x1EEEF),
    (0x1EEF2, 0x1EFFF), (0x1F02C, 0x1F02F), (0x1F094, 0x1F09F), (0x1F0AF, 0x1F0B0),
    (0x1F0C0, 0x1F0C0), (0x1F0D0, 0x1F0D0), (0x1F0F6, 0x1F0FF), (0x1F1AE, 0x1F1E5),
    (0x1F203, 0x1F20F), (0x1F23C, 0x1F23F), (0x1F249, 0x1F24F), (0x1F252, 0x1F25F),
    (0x1F266, 0x1F2FF), (0x1F6D8, 0x1F6DC), (0x1F6ED, 0x1F6EF), (0x1F6FD, 0x1F6FF),
    (0x1F774, 0x1F77F), (0x1F7D9, 0x1F7DF), (0x1F7EC, 0x1F7EF), (0x1F7F1, 0x1F7FF),
    (0x1F80C, 0x1F80F), (0x1F848, 0x1F84F), (0x1F85A, 0x1F85F), (0x1F888, 0x1F88F),
    (0x1F8AE, 0x1F8AF), (0x1F8B2, 0x1F8FF), (0x1FA54, 0x1FA5F), (0x1FA6E, 0x1FA6F),
    (0x1FA75, 0x1FA77), (0x1FA7D, 0x1FA7F), (0x1FA87, 0x1FA8F), (0x1FAAD, 0x1FAAF),
    (0x1FABB, 0x1FABF), (0x1FAC6, 0x1FACF), (0x1FADA, 0x1FADF), (0x1FAE8, 0x1FAEF),
    (0x1FAF7, 0x1FAFF), (0x1FB93, 0x1FB93), (0x1FBCB, 0x1FBEF), (0x1FBFA, 0x1FFFF),
    (0x2A6E0, 0x2A6FF), (0x2B739, 0x2B73F), (0x2B81E, 0x2B81F), (0x2CEA2, 0x2CEAF),
    (0x2EBE1, 0x2F7FF), (0x2FA1E, 0x2FFFF), (0x3134B, 0xE00FF), (0xE01F0, 0x10FFFF),
];
/// Inclusive ranges of code points that `str.isspace` (and `re`'s `\s`) accept.
#[rustfmt::skip]
const PYTHON_SPACE_RANGES: &[(u32, u32)] = &[
    (0x9, 0xD), (0x1C, 0x20), (0x85, 0x85), (0xA0, 0xA0),
    (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F),
    (0x205F, 0x205F), (0x3000, 0x3000),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> PyValue {
        PyValue::Str(text.to_string())
    }

    fn list(items: Vec<PyValue>) -> PyValue {
        PyValue::List(items)
    }

    fn dict(entries: Vec<(&str, PyValue)>) -> PyValue {
        PyValue::Dict(
            entries
                .into_iter()
                .map(|(key, value)| (key.to_string(), value))
                .collect(),
        )
    }

    #[test]
    fn splitlines_keeps_ends_and_joins_crlf() {
        assert_eq!(
            split_lines_keep_ends("a\r\nb\rc\u{2028}d\n"),
            ["a\r\n", "b\r", "c\u{2028}", "d\n"]
        );
        assert!(split_lines_keep_ends("").is_empty());
    }

    #[test]
    fn words_carry_their_trailing_whitespace() {
        let line = "  ab\u{3000}cd\t ef";
        let words: Vec<&str> = split_words_keep_spaces(line)
            .into_iter()
            .map(|(start, end)| &line[start..end])
            .collect();
        assert_eq!(words, ["  ", "ab\u{3000}", "cd\t ", "ef"]);
    }

    #[test]
    fn deep_nesting_does_not_panic() {
        let mut value = s("leaf with some words in it that will need to be split at some point");
        for depth in 0..200 {
            value = if depth % 2 == 0 {
                list(vec![value])
            } else {
                dict(vec![("key", value)])
            };
        }
        let text = pformat(&value);
        assert!(text.starts_with("{'key': [{'key': "));
    }

    // Expected outputs below were produced by Python 3.11 `pprint.pformat(v, sort_dicts=False)`
    // and `repr`.
    #[test]
    fn pformat_bulk_rows_layout() {
        let value = list(vec![
            dict(vec![
                ("row_index", PyValue::Int(0)),
                ("benchmark", s("bench")),
                ("reference_json", s("ref.json")),
                ("state_key", s("Elements{io}=2^16")),
                (
                    "axis_values",
                    list(vec![dict(vec![
                        ("name", s("Elements{io}")),
                        ("type", s("int64")),
                        ("value", s("65536")),
                        ("display", s("2^16")),
                    ])]),
                ),
                ("status", s("AMBG")),
                (
                    "reason_message",
                    s("bulk time and cycle nearest-neighbor coverage both support same"),
                ),
                ("reference_time", PyValue::Float(0.00012001238536637857)),
                ("compare_time", PyValue::Float(f64::NAN)),
                ("fractional_difference", PyValue::None),
                ("matched", PyValue::Bool(true)),
                ("reference_sample_filename", PyValue::None),
            ]),
            dict(vec![
                ("row_index", PyValue::Int(1)),
                ("benchmark", s("bench")),
                ("reference_json", s("ref.json")),
                ("state_key", s("Elements{io}=2^16")),
                (
                    "axis_values",
                    list(vec![dict(vec![
                        ("name", s("Elements{io}")),
                        ("type", s("int64")),
                        ("value", s("65536")),
                        ("display", s("2^16")),
                    ])]),
                ),
                ("status", s("AMBG")),
                ("reason_message", s("short")),
                ("reference_time", PyValue::Float(f64::INFINITY)),
                ("compare_time", PyValue::Float(f64::NEG_INFINITY)),
                ("fractional_difference", PyValue::None),
                ("matched", PyValue::Bool(true)),
                ("reference_sample_filename", PyValue::None),
            ]),
        ]);
        let expected = r#"[{'row_index': 0,
  'benchmark': 'bench',
  'reference_json': 'ref.json',
  'state_key': 'Elements{io}=2^16',
  'axis_values': [{'name': 'Elements{io}',
                   'type': 'int64',
                   'value': '65536',
                   'display': '2^16'}],
  'status': 'AMBG',
  'reason_message': 'bulk time and cycle nearest-neighbor coverage both '
                    'support same',
  'reference_time': 0.00012001238536637857,
  'compare_time': nan,
  'fractional_difference': None,
  'matched': True,
  'reference_sample_filename': None},
 {'row_index': 1,
  'benchmark': 'bench',
  'reference_json': 'ref.json',
  'state_key': 'Elements{io}=2^16',
  'axis_values': [{'name': 'Elements{io}',
                   'type': 'int64',
                   'value': '65536',
                   'display': '2^16'}],
  'status': 'AMBG',
  'reason_message': 'short',
  'reference_time': inf,
  'compare_time': -inf,
  'fractional_difference': None,
  'matched': True,
  'reference_sample_filename': None}]"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_empty_containers() {
        let value = dict(vec![
            ("list", list(vec![])),
            ("dict", dict(vec![])),
            ("str", s("")),
            (
                "nested",
                list(vec![list(vec![]), dict(vec![]), list(vec![list(vec![])])]),
            ),
        ]);
        let expected = r#"{'list': [], 'dict': {}, 'str': '', 'nested': [[], {}, [[]]]}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_empty_list_root() {
        let value = list(vec![]);
        let expected = r#"[]"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_empty_dict_root() {
        let value = dict(vec![]);
        let expected = r#"{}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_scalars() {
        let value = list(vec![
            PyValue::None,
            PyValue::Bool(true),
            PyValue::Bool(false),
            PyValue::Int(0),
            PyValue::Int(-1),
            PyValue::Int(9223372036854775807),
            PyValue::Int(i64::MIN),
            PyValue::Float(f64::NAN),
            PyValue::Float(f64::INFINITY),
            PyValue::Float(f64::NEG_INFINITY),
            PyValue::Float(-0.0),
            PyValue::Float(1e+16),
            PyValue::Float(1000000000000000.0),
            PyValue::Float(1e-05),
            PyValue::Float(0.30000000000000004),
            PyValue::Float(5e-324),
        ]);
        let expected = r#"[None,
 True,
 False,
 0,
 -1,
 9223372036854775807,
 -9223372036854775808,
 nan,
 inf,
 -inf,
 -0.0,
 1e+16,
 1000000000000000.0,
 1e-05,
 0.30000000000000004,
 5e-324]"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_str_split_with_parens() {
        let value = s(
            "the quick brown fox jumps over the lazy dog the quick brown fox jumps over the lazy dog the quick brown fox jumps over the lazy dog ",
        );
        let expected = r#"('the quick brown fox jumps over the lazy dog the quick brown fox jumps over '
 'the lazy dog the quick brown fox jumps over the lazy dog ')"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_str_single_long_word() {
        let value = s(
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        );
        let expected = r#"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_str_multiline() {
        let value = s(
            "first line\nsecond line that is long enough to be split somewhere past the eightieth column of output\u{d}\nthird",
        );
        let expected = r#"('first line\n'
 'second line that is long enough to be split somewhere past the eightieth '
 'column of output\r\n'
 'third')"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_nested_str_split_without_parens() {
        let value = dict(vec![(
            "file",
            s(
                "dir with spaces/dir with spaces/dir with spaces/dir with spaces/dir with spaces/dir with spaces/name.json",
            ),
        )]);
        let expected = r#"{'file': 'dir with spaces/dir with spaces/dir with spaces/dir with spaces/dir '
         'with spaces/dir with spaces/name.json'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_quotes_and_escapes() {
        let value = dict(vec![
            ("it's", s("say \"hi\"")),
            ("both", s("it's \"x\"")),
            ("bs", s("a\\b")),
            ("triple", s("\"\"\"x\"\"\"")),
            ("ctl", s("nul\u{0}bell\u{7}del\u{7f}")),
            ("lines", s("a\nb\u{d}c\u{2028}d")),
            ("uni", s("caf\u{e9} \u{4e2d} \u{1f600} \u{a0}\u{feff}")),
        ]);
        let expected = r#"{"it's": 'say "hi"',
 'both': 'it\'s "x"',
 'bs': 'a\\b',
 'triple': '"""x"""',
 'ctl': 'nul\x00bell\x07del\x7f',
 'lines': 'a\nb\rc\u2028d',
 'uni': 'café 中 😀 \xa0\ufeff'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_long_str_with_quotes_changes_quote_per_chunk() {
        let value = list(vec![s(
            "it's a long line with a single quote that wants double quotes while this \"part\" has double quotes and so uses single quotes again",
        )]);
        let expected = r#"["it's a long line with a single quote that wants double quotes while this "
 '"part" has double quotes and so uses single quotes again']"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_key_wider_than_line() {
        let value = dict(vec![
            (
                "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
                dict(vec![
                    ("inner", list(vec![PyValue::Int(1), PyValue::Int(2)])),
                    ("s", s("")),
                    ("e", dict(vec![])),
                ]),
            ),
            (
                "x",
                s(
                    "a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b ",
                ),
            ),
        ]);
        let expected = r#"{'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk': {'inner': [1,
                                                                                                          2],
                                                                                                's': '',
                                                                                                'e': {}},
 'x': 'a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b a b '
      'a b a b a b a b a b a b a b a b a b a b a b a b '}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_list_of_lists() {
        let value = list(vec![
            list(vec![PyValue::Int(1), PyValue::Int(2), PyValue::Int(3)]),
            list(vec![
                s("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
                s("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
                s("cccccccccccccccccccccccccccccc"),
            ]),
            list(vec![list(vec![dict(vec![(
                "k",
                list(vec![PyValue::Float(1.5), PyValue::None]),
            )])])]),
        ]);
        let expected = r#"[[1, 2, 3],
 ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  'cccccccccccccccccccccccccccccc'],
 [[{'k': [1.5, None]}]]]"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_dict_79_columns() {
        let value = dict(vec![(
            "key",
            s("vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"),
        )]);
        let expected =
            r#"{'key': 'vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_list_79_columns() {
        let value = list(vec![
            s("aaaaaaaaaa"),
            s("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
        ]);
        let expected =
            r#"['aaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb']"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_str_79_columns() {
        let value =
            s("w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w");
        let expected =
            r#"'w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w'"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_dict_split_str_79_columns() {
        let value = dict(vec![(
            "k",
            s("word word word word word word word word word word word word zzzzzzzzzz"),
        )]);
        let expected =
            r#"{'k': 'word word word word word word word word word word word word zzzzzzzzzz'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_dict_80_columns() {
        let value = dict(vec![(
            "key",
            s("vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"),
        )]);
        let expected =
            r#"{'key': 'vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_list_80_columns() {
        let value = list(vec![
            s("aaaaaaaaaa"),
            s("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
        ]);
        let expected =
            r#"['aaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb']"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_str_80_columns() {
        let value =
            s("w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w ");
        let expected =
            r#"'w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w '"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_dict_split_str_80_columns() {
        let value = dict(vec![(
            "k",
            s("word word word word word word word word word word word word zzzzzzzzzzz"),
        )]);
        let expected =
            r#"{'k': 'word word word word word word word word word word word word zzzzzzzzzzz'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_dict_81_columns() {
        let value = dict(vec![(
            "key",
            s("vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"),
        )]);
        let expected =
            r#"{'key': 'vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_list_81_columns() {
        let value = list(vec![
            s("aaaaaaaaaa"),
            s("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"),
        ]);
        let expected = r#"['aaaaaaaaaa',
 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb']"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_root_str_81_columns() {
        let value =
            s("w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w");
        let expected = r#"('w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w '
 'w w')"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_dict_split_str_81_columns() {
        let value = dict(vec![(
            "k",
            s("word word word word word word word word word word word word zzzzzzzzzzzz"),
        )]);
        let expected = r#"{'k': 'word word word word word word word word word word word word '
      'zzzzzzzzzzzz'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_dict_str_tail_79() {
        let value = dict(vec![
            ("first", PyValue::Int(0)),
            (
                "k",
                s("ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab cccccccccc"),
            ),
        ]);
        let expected = r#"{'first': 0,
 'k': 'ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab cccccccccc'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_dict_str_tail_80() {
        let value = dict(vec![
            ("first", PyValue::Int(0)),
            (
                "k",
                s("ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ccccccccccc"),
            ),
        ]);
        let expected = r#"{'first': 0,
 'k': 'ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ccccccccccc'}"#;
        assert_eq!(pformat(&value), expected);
    }

    #[test]
    fn pformat_dict_str_tail_wrap() {
        let value = dict(vec![
            ("first", PyValue::Int(0)),
            (
                "k",
                s("ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab cccccccccccc"),
            ),
        ]);
        let expected = r#"{'first': 0,
 'k': 'ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab '
      'cccccccccccc'}"#;
        assert_eq!(pformat(&value), expected);
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
    }
}
