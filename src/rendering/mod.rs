//! Rendering: takes decided comparisons and the run's report, gives the
//! bytes the user sees — the reference's tables ([`table`], [`units`],
//! [`axes`]), the summary and advice ([`summary`], [`advice`]), the
//! `--bulk-debug-python` script ([`bulk_debug`]), the `--json` and
//! `--markdown-summary` documents ([`json`], [`markdown`]), the charts
//! ([`charts`]) and Google Benchmark's compare.py report ([`gbench`]). Renderers decide nothing; Python-exact text comes from
//! [`crate::pycompat`].

pub mod advice;
pub mod axes;
pub mod bulk_debug;
pub mod charts;
pub mod csv;
pub mod gbench;
pub mod json;
pub mod legacy;
pub mod markdown;
pub mod markdown_budget;
pub mod nway;
pub mod repetitions;
pub mod rerun_plan;
pub mod summary;
pub mod table;
pub mod units;

use owo_colors::OwoColorize;

use crate::deciding::status::Status;

/// ANSI foreground colors the reference uses. owo-colors writes colorama's
/// codes (`ESC[31m` ... `ESC[39m`, bright black as `ESC[90m`), so the bytes
/// are the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    Red,
    Green,
    Yellow,
    Blue,
    Gray,
}

impl Color {
    /// The codes owo-colors writes before and after the text (checked
    /// against [`Color::paint`] by the tests).
    fn codes(self) -> (&'static str, &'static str) {
        let open = match self {
            Color::Red => "\x1b[31m",
            Color::Green => "\x1b[32m",
            Color::Yellow => "\x1b[33m",
            Color::Blue => "\x1b[34m",
            Color::Gray => "\x1b[90m",
        };
        (open, "\x1b[39m")
    }

    fn paint(self, text: &str) -> String {
        match self {
            Color::Red => text.red().to_string(),
            Color::Green => text.green().to_string(),
            Color::Yellow => text.yellow().to_string(),
            Color::Blue => text.blue().to_string(),
            Color::Gray => text.bright_black().to_string(),
        }
    }
}

/// Colored text, or (with `--no-color`) text behind an emoji marker.
pub fn colorize(text: &str, color: Color, emoji: Option<&str>, no_color: bool) -> String {
    if !no_color {
        return color.paint(text);
    }
    match emoji {
        Some(emoji) => format!("{emoji} {text}"),
        None => text.to_string(),
    }
}

#[cfg(test)]
pub fn status_cell(status: Status, no_color: bool) -> String {
    let mut text = String::with_capacity(16);
    push_status_cell(&mut text, status, no_color);
    text
}

/// [`status_cell`] written at the end of `text` (table cells are written
/// in place): the colour's codes around the label, as [`colorize`] paints
/// them, or the emoji marker.
pub fn push_status_cell(text: &mut String, status: Status, no_color: bool) {
    let (color, emoji) = status_marks(status);
    if no_color {
        text.push_str(emoji);
        text.push(' ');
        text.push_str(status.label());
    } else {
        let (open, close) = color.codes();
        text.push_str(open);
        text.push_str(status.label());
        text.push_str(close);
    }
}

fn status_marks(status: Status) -> (Color, &'static str) {
    match status {
        Status::Unknown => (Color::Yellow, "\u{1f7e1}"),
        Status::Undecided => (Color::Gray, "\u{1f937}"),
        Status::Same => (Color::Blue, "\u{1f535}"),
        Status::Fast => (Color::Green, "\u{1f7e2}"),
        Status::Slow => (Color::Red, "\u{1f534}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_are_colorama_codes() {
        let painted: Vec<String> = [
            Color::Red,
            Color::Green,
            Color::Yellow,
            Color::Blue,
            Color::Gray,
        ]
        .into_iter()
        .map(|color| colorize("x", color, None, false))
        .collect();
        assert_eq!(
            painted,
            [
                "\x1b[31mx\x1b[39m",
                "\x1b[32mx\x1b[39m",
                "\x1b[33mx\x1b[39m",
                "\x1b[34mx\x1b[39m",
                "\x1b[90mx\x1b[39m"
            ]
        );
    }

    #[test]
    fn status_cells_are_the_painted_or_marked_labels() {
        use Status::{Fast, Same, Slow, Undecided, Unknown};
        for status in [Unknown, Undecided, Same, Fast, Slow] {
            let (color, emoji) = status_marks(status);
            for no_color in [false, true] {
                let expected = colorize(status.label(), color, Some(emoji), no_color);
                assert_eq!(status_cell(status, no_color), expected);
            }
        }
    }

    #[test]
    fn no_color_puts_the_marker_before_the_text() {
        assert_eq!(status_cell(Status::Slow, true), "\u{1f534} SLOW");
        assert_eq!(colorize("x", Color::Red, None, true), "x");
    }
}
