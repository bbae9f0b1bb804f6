//! The reference's error lines for a bad config, word for word: each is
//! printed on stdout before exiting with status 1 (conformance cases
//! 136-160 hold them).

use super::keys::CONFIG_VERSION;
use crate::pycompat::pyfmt::{format_g, str_repr};

pub(super) fn unknown_preset(name: &str) -> String {
    format!("unknown comparison preset {}", str_repr(name))
}

/// Python refuses a path with a NUL before any system call, with a bare
/// `ValueError` that the reference prints without a prefix.
pub(super) const EMBEDDED_NULL_BYTE: &str = "embedded null byte";

pub(super) fn read_failed(path: &str, os_error: &str) -> String {
    format!(
        "failed to read comparison config {}: {os_error}",
        str_repr(path)
    )
}

/// The detail is ours: for a syntax error only the exit code is held.
pub(super) fn parse_failed(path: &str, detail: &str) -> String {
    format!(
        "failed to parse comparison config {}: {detail}",
        str_repr(path)
    )
}

/// `unknown` is sorted and comma-separated.
pub(super) fn unknown_top_level_keys(unknown: &str) -> String {
    format!("unknown top-level config key(s): {unknown}")
}

pub(super) fn unknown_keys_in(table: &str, unknown: &str) -> String {
    format!("unknown config key(s) in [{table}]: {unknown}")
}

pub(super) fn not_a_table(table: &str) -> String {
    format!("config table [{table}] must be a TOML table")
}

/// `shown` is the version as Python prints the integer.
pub(super) fn unsupported_version(shown: &str) -> String {
    format!("unsupported comparison config version {shown}; expected {CONFIG_VERSION}")
}

pub(super) fn missing_version() -> String {
    format!("comparison config must specify integer version = {CONFIG_VERSION}")
}

/// `key` is the dotted name, e.g. `preset.name` or `same.center_relative`.
pub(super) fn not_a_string(key: &str) -> String {
    format!("config value {} must be a string", str_repr(key))
}

pub(super) fn not_a_number(key: &str) -> String {
    format!("config value {} must be a finite number", str_repr(key))
}

pub(super) fn not_finite(key: &str) -> String {
    format!("config value {} must be finite", str_repr(key))
}

pub(super) fn below_minimum(key: &str, minimum: f64) -> String {
    format!(
        "config value {} must be >= {}",
        str_repr(key),
        format_g(minimum, 6)
    )
}

pub(super) fn above_maximum(key: &str, maximum: f64) -> String {
    format!(
        "config value {} must be <= {}",
        str_repr(key),
        format_g(maximum, 6)
    )
}
