//! Byte-exact reimplementation of Python 3.11's `pprint.pformat(value,
//! sort_dicts=False)` (width 80, indent 1) for the JSON-like values we emit.
//!
//! The bulk-debug output is a Python script whose main literal the reference
//! prints with `pprint`, so every layout decision here mirrors CPython:
//! widths are counted in code points (Python `len`), long strings are split
//! into adjacent literals at whitespace boundaries, and container items go on
//! one line each once the one-line form no longer fits.
//!
//! Strings come from untrusted input files and the output is executed as
//! Python: every literal is a [`str_repr`], which evaluates back to the same
//! string.
//!
//! Known limit: values nested thousands of levels deep exhaust the stack
//! (Python would raise `RecursionError` there too); our rows nest three deep.

use crate::pycompat::pyfmt::{float_repr, str_repr};
use crate::pycompat::unicode::is_python_space;

/// The subset of Python values that the bulk-debug rows contain.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    None,
    Bool(bool),
    Int(i64),
    /// An integer of any size, as decimal digits.
    IntText(String),
    Float(f64),
    /// A numpy float64 scalar: numpy 2's repr, `np.float64(...)`.
    NumpyFloat(f64),
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
            PyValue::NumpyFloat(number) => {
                self.push("np.float64(")?;
                self.push(&float_repr(*number))?;
                self.push(")")
            }
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
}
