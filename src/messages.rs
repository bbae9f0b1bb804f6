//! Every line the tool writes to stderr goes through here: warnings,
//! errors, hints and notes, each after the program's name, and the lines
//! printed as others word them (clap's usage errors, chart messages the
//! reference prints). Callers that print among the tables flush stdout
//! first, so that the two streams interleave as they were written.
//!
//! The one exception is the SIGBUS handler (`loading::sigbus`), which may
//! only make async-signal-safe calls and writes its prepared message with
//! `write(2)` itself.

use std::fmt::Display;
use std::io::Write;

/// The name every message starts with: the command the binary stands in
/// for (see [`set_program`]).
static PROGRAM: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// Names the program in every later message (once, at start-up; the
/// default is `nvbench-compare`).
pub fn set_program(name: &'static str) {
    let _ = PROGRAM.set(name);
}

fn program() -> &'static str {
    PROGRAM.get().copied().unwrap_or("nvbench-compare")
}

/// `nvbench-compare: warning: MESSAGE`.
pub fn warning(message: impl Display) {
    line(format_args!("{}: warning: {message}", program()));
}

/// `nvbench-compare: error: MESSAGE`.
pub fn error(message: impl Display) {
    line(format_args!("{}: error: {message}", program()));
}

/// `nvbench-compare: hint: MESSAGE`.
pub fn hint(message: impl Display) {
    line(format_args!("{}: hint: {message}", program()));
}

/// `nvbench-compare: MESSAGE`, for lines that carry their own kind
/// (`gate failed: ...`, a candidate's label).
pub fn note(message: impl Display) {
    line(format_args!("{}: {message}", program()));
}

/// Text as it is, worded elsewhere (one or more whole lines, each ending
/// with a newline, or a line to end with one).
pub fn verbatim(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = stderr.write_all(b"\n");
    }
}

/// Stderr as a writer, for notes that go to stdout or stderr as the run's
/// outputs decide (see `output::Console`).
pub fn stream() -> std::io::Stderr {
    std::io::stderr()
}

/// A failure to write to stderr itself cannot be reported anywhere.
fn line(text: std::fmt::Arguments) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_fmt(text);
    let _ = stderr.write_all(b"\n");
}
