//! Renderers: everything that turns decided comparisons into text.
pub mod advice;
pub mod axes;
pub mod bulk_debug;
pub mod json;
pub mod markdown;
pub mod plot;
pub mod printable;
pub mod summary;
pub mod table;
pub mod units;

use crate::compare::Status;

/// ANSI foreground colors the reference uses (colorama's codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    Red,
    Green,
    Yellow,
    Blue,
    Gray,
}

impl Color {
    fn code(self) -> &'static str {
        match self {
            Color::Red => "\x1b[31m",
            Color::Green => "\x1b[32m",
            Color::Yellow => "\x1b[33m",
            Color::Blue => "\x1b[34m",
            Color::Gray => "\x1b[90m",
        }
    }
}

const RESET: &str = "\x1b[39m";

/// Colored text, or (with `--no-color`) text behind an emoji marker.
pub fn colorize(text: &str, color: Color, emoji: Option<&str>, no_color: bool) -> String {
    if !no_color {
        return format!("{}{text}{RESET}", color.code());
    }
    match emoji {
        Some(emoji) => format!("{emoji} {text}"),
        None => text.to_string(),
    }
}

pub fn status_cell(status: Status, no_color: bool) -> String {
    let (color, emoji) = match status {
        Status::Unknown => (Color::Yellow, "\u{1f7e1}"),
        Status::Undecided => (Color::Gray, "\u{1f937}"),
        Status::Same => (Color::Blue, "\u{1f535}"),
        Status::Fast => (Color::Green, "\u{1f7e2}"),
        Status::Slow => (Color::Red, "\u{1f534}"),
    };
    colorize(status.label(), color, Some(emoji), no_color)
}
