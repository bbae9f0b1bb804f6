//! Names from input files as they may appear on stdout.
//!
//! The documented bulk-debug workflow pipes stdout through
//! `sed -n '/^# NVB-BULK-BEGIN$/,/^# NVB-BULK-END$/p'` into `python -i`.
//! A name holding a newline could add a marker line of its own and smuggle
//! code into that block; a C0/C1 control character could also move the
//! cursor or retitle the terminal. So every name printed on stdout goes
//! through [`printable`], and a line that is a whole name (the `# <benchmark>`
//! heading) through [`not_a_marker`].

use std::borrow::Cow;

use crate::text::path_text::{byte_escape, is_reserved};

/// The marker lines around the generated bulk-debug Python.
pub const BULK_BEGIN: &str = "# NVB-BULK-BEGIN";
pub const BULK_END: &str = "# NVB-BULK-END";

/// `text` with its control characters (C0, DEL, C1) and the two
/// characters XML forbids besides them (U+FFFE, U+FFFF) escaped as Rust
/// writes them (`\n`, `\r`, `\t`, `\u{1b}`, `\u{fffe}`), and the bytes of a
/// non-UTF-8 file name as `\xff` (see `text::path_text`): the text stays on
/// one line, sends nothing to the terminal and is valid in an SVG chart.
/// Text without them (every real name) is borrowed, not copied.
pub fn printable(text: &str) -> Cow<'_, str> {
    let escaped = |c: char| needs_escape(c) || is_reserved(c);
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if let Some(byte) = byte_escape(c) {
            out.push_str(&byte);
        } else if needs_escape(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control() || c == '\u{fffe}' || c == '\u{ffff}'
}

/// A line that would read as a bulk-debug marker gets its first name
/// character escaped (`# \u{4e}VB-BULK-BEGIN`), so that only the generated
/// block's own markers are marker lines.
pub fn not_a_marker(line: String) -> String {
    if line != BULK_BEGIN && line != BULK_END {
        return line;
    }
    let (prefix, name) = line.split_at(2);
    let mut chars = name.chars();
    let first = chars.next().map(|c| c.escape_unicode().to_string());
    format!("{prefix}{}{}", first.unwrap_or_default(), chars.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("plain name"), "plain name");
        assert!(matches!(printable("plain name"), Cow::Borrowed(_)));
        assert_eq!(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
        assert_eq!(printable("\x1b[31mred\x07"), "\\u{1b}[31mred\\u{7}");
        // C1 controls (NEL, CSI) and DEL as well; other Unicode stays.
        assert_eq!(
            printable("x\u{85}y\u{9b}z\u{7f}"),
            "x\\u{85}y\\u{9b}z\\u{7f}"
        );
        assert_eq!(printable("Ä | µs"), "Ä | µs");
        // What XML forbids besides controls; the last valid characters stay.
        assert_eq!(printable("a\u{fffe}b\u{ffff}"), "a\\u{fffe}b\\u{ffff}");
        assert_eq!(printable("\u{fffd}\u{10ffff}"), "\u{fffd}\u{10ffff}");
    }

    #[test]
    fn marker_lines_are_disguised() {
        assert_eq!(
            not_a_marker("# NVB-BULK-BEGIN".into()),
            "# \\u{4e}VB-BULK-BEGIN"
        );
        assert_eq!(
            not_a_marker("# NVB-BULK-END".into()),
            "# \\u{4e}VB-BULK-END"
        );
        assert_eq!(
            not_a_marker("# NVB-BULK-BEGIN2".into()),
            "# NVB-BULK-BEGIN2"
        );
        assert_eq!(not_a_marker("# bench".into()), "# bench");
    }
}
