//! Comparison thresholds: the built-in presets, the strict version-1 TOML config file, preset precedence, and the `--dump-config` text.
//!
//! Every rejection returns the exact line the reference prints on stdout before
//! exiting with status 1, so callers only print the `Err` text and exit.

use std::fs::File;
use std::io::{self, Read};

use toml::value::Datetime;
use toml::{Table, Value};

use crate::pyfmt::{float_repr, format_g};

/// The thresholds that steer every comparison decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub clear_gap_relative: f64,
    pub same_center_relative: f64,
    pub same_overlap_fraction: f64,
    pub same_relative_dispersion_ceiling: f64,
    pub bulk_sample_coverage: f64,
    pub bulk_support_coverage: f64,
    pub rare_sample_fraction: f64,
    pub rare_max_removed_sample_fraction: f64,
}

/// Preset names in the order argparse lists `--preset` choices (sorted).
pub const PRESET_NAMES: [&str; 3] = ["default", "permissive", "strict"];

const DEFAULT_PRESET: &str = "default";
const CONFIG_VERSION: i64 = 1;

const DEFAULT_THRESHOLDS: Thresholds = Thresholds {
    clear_gap_relative: 0.005,
    same_center_relative: 0.005,
    same_overlap_fraction: 0.5,
    same_relative_dispersion_ceiling: 0.02,
    bulk_sample_coverage: 0.97,
    bulk_support_coverage: 0.80,
    rare_sample_fraction: 0.001,
    rare_max_removed_sample_fraction: 0.01,
};

const STRICT_THRESHOLDS: Thresholds = Thresholds {
    clear_gap_relative: 0.01,
    same_center_relative: 0.0025,
    same_overlap_fraction: 0.75,
    same_relative_dispersion_ceiling: 0.01,
    bulk_sample_coverage: 0.995,
    bulk_support_coverage: 0.90,
    rare_sample_fraction: 0.001,
    rare_max_removed_sample_fraction: 0.005,
};

const PERMISSIVE_THRESHOLDS: Thresholds = Thresholds {
    clear_gap_relative: 0.0025,
    same_center_relative: 0.01,
    same_overlap_fraction: 0.25,
    same_relative_dispersion_ceiling: 0.05,
    bulk_sample_coverage: 0.98,
    bulk_support_coverage: 0.60,
    rare_sample_fraction: 0.001,
    rare_max_removed_sample_fraction: 0.02,
};

/// The thresholds of a built-in preset, or `None` for an unknown name.
pub fn preset(name: &str) -> Option<Thresholds> {
    match name {
        "default" => Some(DEFAULT_THRESHOLDS),
        "strict" => Some(STRICT_THRESHOLDS),
        "permissive" => Some(PERMISSIVE_THRESHOLDS),
        _ => None,
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        DEFAULT_THRESHOLDS
    }
}

fn known_preset(name: &str) -> Result<Thresholds, String> {
    preset(name).ok_or_else(|| format!("unknown comparison preset {}", str_repr(name)))
}

/// One configurable threshold: where it lives in `Thresholds` and which values it accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    ClearGapRelative,
    SameCenterRelative,
    SameOverlapFraction,
    SameRelativeDispersionCeiling,
    BulkSampleCoverage,
    BulkSupportCoverage,
    RareSampleFraction,
    RareMaxRemovedSampleFraction,
}

impl Field {
    fn slot(self, thresholds: &mut Thresholds) -> &mut f64 {
        match self {
            Field::ClearGapRelative => &mut thresholds.clear_gap_relative,
            Field::SameCenterRelative => &mut thresholds.same_center_relative,
            Field::SameOverlapFraction => &mut thresholds.same_overlap_fraction,
            Field::SameRelativeDispersionCeiling => {
                &mut thresholds.same_relative_dispersion_ceiling
            }
            Field::BulkSampleCoverage => &mut thresholds.bulk_sample_coverage,
            Field::BulkSupportCoverage => &mut thresholds.bulk_support_coverage,
            Field::RareSampleFraction => &mut thresholds.rare_sample_fraction,
            Field::RareMaxRemovedSampleFraction => &mut thresholds.rare_max_removed_sample_fraction,
        }
    }

    /// Inclusive lower bound and optional inclusive upper bound.
    fn range(self) -> (f64, Option<f64>) {
        match self {
            Field::ClearGapRelative
            | Field::SameCenterRelative
            | Field::SameRelativeDispersionCeiling => (0.0, None),
            Field::SameOverlapFraction
            | Field::BulkSampleCoverage
            | Field::BulkSupportCoverage
            | Field::RareSampleFraction
            | Field::RareMaxRemovedSampleFraction => (0.0, Some(1.0)),
        }
    }
}

/// A TOML table of threshold values. Keys are listed in the order the
/// reference validates them, which decides which error wins when several
/// values of one table are invalid.
struct Section {
    name: &'static str,
    keys: &'static [(&'static str, Field)],
}

const CLEAR_GAP_SECTION: Section = Section {
    name: "clear_gap",
    keys: &[("relative", Field::ClearGapRelative)],
};

const SAME_SECTION: Section = Section {
    name: "same",
    keys: &[
        ("center_relative", Field::SameCenterRelative),
        ("overlap_fraction", Field::SameOverlapFraction),
        (
            "relative_dispersion_ceiling",
            Field::SameRelativeDispersionCeiling,
        ),
    ],
};

const BULK_SECTION: Section = Section {
    name: "bulk",
    keys: &[
        ("sample_coverage", Field::BulkSampleCoverage),
        ("support_coverage", Field::BulkSupportCoverage),
    ],
};

const RARE_SUPPORT_SECTION: Section = Section {
    name: "bulk.rare_support",
    keys: &[
        ("sample_fraction", Field::RareSampleFraction),
        (
            "max_removed_sample_fraction",
            Field::RareMaxRemovedSampleFraction,
        ),
    ],
};

const TOP_LEVEL_KEYS: [&str; 5] = ["version", "preset", "clear_gap", "same", "bulk"];
const RARE_SUPPORT_KEY: &str = "rare_support";

/// What a config file contributes: an optional base preset and explicit values.
#[derive(Debug, Default)]
struct ConfigFile {
    preset_name: Option<String>,
    overrides: Vec<(Field, f64)>,
}

/// Effective preset name and thresholds: default < TOML `[preset] name` <
/// CLI preset < explicit TOML values.
///
/// `Err` carries exactly the text the reference prints on stdout (then exits 1).
pub fn resolve(
    cli_preset: Option<&str>,
    config_path: Option<&str>,
) -> Result<(String, Thresholds), String> {
    // The file is validated first, so its errors win even over a bad CLI preset.
    let config = match config_path {
        Some(path) => read_config_file(path)?,
        None => ConfigFile::default(),
    };
    // An empty CLI preset counts as "not given", as the reference's `or` chain does.
    let preset_name = cli_preset
        .filter(|name| !name.is_empty())
        .or(config.preset_name.as_deref())
        .unwrap_or(DEFAULT_PRESET);
    let mut thresholds = known_preset(preset_name)?;
    for (field, value) in &config.overrides {
        *field.slot(&mut thresholds) = *value;
    }
    Ok((preset_name.to_string(), thresholds))
}

/// Exactly the reference's `--dump-config` text (ends with a newline).
pub fn dump(preset_name: &str, thresholds: &Thresholds) -> String {
    let t = thresholds;
    let lines = [
        format!("version = {CONFIG_VERSION}"),
        String::new(),
        "[preset]".to_string(),
        format!("name = \"{preset_name}\""),
        String::new(),
        "[clear_gap]".to_string(),
        format!("relative = {}", float_repr(t.clear_gap_relative)),
        String::new(),
        "[same]".to_string(),
        format!("center_relative = {}", float_repr(t.same_center_relative)),
        format!("overlap_fraction = {}", float_repr(t.same_overlap_fraction)),
        format!(
            "relative_dispersion_ceiling = {}",
            float_repr(t.same_relative_dispersion_ceiling)
        ),
        String::new(),
        "[bulk]".to_string(),
        format!("sample_coverage = {}", float_repr(t.bulk_sample_coverage)),
        format!("support_coverage = {}", float_repr(t.bulk_support_coverage)),
        String::new(),
        "[bulk.rare_support]".to_string(),
        format!("sample_fraction = {}", float_repr(t.rare_sample_fraction)),
        format!(
            "max_removed_sample_fraction = {}",
            float_repr(t.rare_max_removed_sample_fraction)
        ),
    ];
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

// ---------------------------------------------------------------------------
// Reading and parsing the file
// ---------------------------------------------------------------------------

fn read_config_file(path: &str) -> Result<ConfigFile, String> {
    let bytes = read_config_bytes(path)?;
    let text = decode_utf8(bytes)?;
    let table = parse_toml(&text).map_err(|detail| {
        format!(
            "failed to parse comparison config {}: {detail}",
            str_repr(path)
        )
    })?;
    interpret_config(&table)
}

fn read_config_bytes(path: &str) -> Result<Vec<u8>, String> {
    // Python refuses such a path before touching the file system, with a bare
    // ValueError that the reference prints without its "failed to read" prefix.
    if path.contains('\0') {
        return Err("embedded null byte".to_string());
    }
    read_file_like_python(path).map_err(|os_error| {
        format!(
            "failed to read comparison config {}: {os_error}",
            str_repr(path)
        )
    })
}

/// Reads the whole file, describing failures the way Python's `OSError` prints.
fn read_file_like_python(path: &str) -> Result<Vec<u8>, String> {
    const EISDIR: i32 = 21;
    let mut file = File::open(path).map_err(|error| describe_os_error(&error, Some(path)))?;
    // Linux lets open(2) succeed on a directory; Python's open() rejects it
    // right away with EISDIR naming the path, so do the same.
    if file.metadata().is_ok_and(|metadata| metadata.is_dir()) {
        let error = io::Error::from_raw_os_error(EISDIR);
        return Err(describe_os_error(&error, Some(path)));
    }
    let mut bytes = Vec::new();
    // Read failures after a successful open carry no file name in Python.
    file.read_to_end(&mut bytes)
        .map_err(|error| describe_os_error(&error, None))?;
    Ok(bytes)
}

/// Python's `str(OSError)`: `[Errno N] strerror` plus `: 'filename'` when known.
fn describe_os_error(error: &io::Error, filename: Option<&str>) -> String {
    let Some(code) = error.raw_os_error() else {
        return error.to_string();
    };
    // Rust and Python both take the text from the C library's strerror();
    // Rust appends " (os error N)", which Python does not print.
    let rendered = error.to_string();
    let suffix = format!(" (os error {code})");
    let reason = rendered.strip_suffix(&suffix).unwrap_or(&rendered);
    match filename {
        Some(name) => format!("[Errno {code}] {reason}: {}", str_repr(name)),
        None => format!("[Errno {code}] {reason}"),
    }
}

/// Strict UTF-8 decoding; the error text is Python's `UnicodeDecodeError`
/// message, which the reference prints bare (it is not a TOML or OS error).
fn decode_utf8(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes)
        .map_err(|error| describe_utf8_error(error.as_bytes(), error.utf8_error()))
}

fn describe_utf8_error(bytes: &[u8], error: std::str::Utf8Error) -> String {
    let start = error.valid_up_to();
    let first = bytes.get(start).copied().unwrap_or(0);
    let (length, reason) = match error.error_len() {
        None => (bytes.len().saturating_sub(start), "unexpected end of data"),
        Some(length) if is_utf8_lead_byte(first) => (length, "invalid continuation byte"),
        Some(length) => (length, "invalid start byte"),
    };
    let location = if length <= 1 {
        format!("byte 0x{first:02x} in position {start}")
    } else {
        format!("bytes in position {start}-{}", start + length - 1)
    };
    format!("'utf-8' codec can't decode {location}: {reason}")
}

fn is_utf8_lead_byte(byte: u8) -> bool {
    (0xC2..=0xF4).contains(&byte)
}

/// Parses a TOML 1.0 document, accepting and rejecting what Python's
/// `tomllib` does where the toml crate differs. The error is a one-line
/// description with the line and column when known.
fn parse_toml(text: &str) -> Result<Table, String> {
    // tomllib treats a byte order mark as an invalid statement; the toml crate skips it.
    if text.starts_with('\u{feff}') {
        return Err("a byte order mark is not allowed (at line 1, column 1)".to_string());
    }
    let mut text = text.to_string();
    let table = loop {
        match text.parse::<Table>() {
            Ok(table) => break table,
            Err(error) => match with_overflowing_float_as_inf(&text, &error) {
                Some(patched) => text = patched,
                None => return Err(describe_syntax_error(&text, &error)),
            },
        }
    };
    match first_datetime_python_rejects(&table) {
        Some(datetime) => Err(describe_rejected_datetime(&text, datetime)),
        None => Ok(table),
    }
}

fn describe_syntax_error(text: &str, error: &toml::de::Error) -> String {
    // The crate's message spans several lines ("what failed" then "expected ...");
    // the reference prints one line, so join them.
    let message = error
        .message()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(": ");
    match error.span() {
        Some(span) => format!("{message} (at {})", describe_position(text, span.start)),
        None => message,
    }
}

/// `line L, column C`, both 1-based, columns counted in characters as tomllib does.
fn describe_position(text: &str, byte_offset: usize) -> String {
    let before: String = text
        .char_indices()
        .take_while(|(index, _)| *index < byte_offset)
        .map(|(_, c)| c)
        .collect();
    let line = 1 + before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let column = 1 + before[line_start..].chars().count();
    format!("line {line}, column {column}")
}

/// tomllib turns a float literal beyond the f64 range into `inf` (which the
/// checks below then reject as non-finite); the toml crate refuses positive
/// overflow as a syntax error. Rewrite that literal to `inf` so the document
/// means what it means to the reference.
fn with_overflowing_float_as_inf(text: &str, error: &toml::de::Error) -> Option<String> {
    if error.message().trim() != "invalid floating-point number" {
        return None;
    }
    let start = error.span()?.start;
    let rest = text.get(start..)?;
    let length = rest
        .find(|c: char| !is_float_literal_char(c))
        .unwrap_or(rest.len());
    let literal = &rest[..length];
    // Requiring a digit keeps a literal `inf` from being "fixed" into itself forever.
    if !literal.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let value: f64 = literal.replace('_', "").parse().ok()?;
    if value != f64::INFINITY {
        return None;
    }
    Some(format!("{}inf{}", &text[..start], &rest[length..]))
}

fn is_float_literal_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '_' | 'e' | 'E')
}

/// Python's datetime types have no year 0 and no leap second, so tomllib
/// fails to parse such values while the toml crate accepts them.
fn first_datetime_python_rejects(table: &Table) -> Option<&Datetime> {
    table.values().find_map(first_rejected_datetime_in)
}

fn first_rejected_datetime_in(value: &Value) -> Option<&Datetime> {
    match value {
        Value::Datetime(datetime) if python_rejects_datetime(datetime) => Some(datetime),
        Value::Array(items) => items.iter().find_map(first_rejected_datetime_in),
        Value::Table(table) => first_datetime_python_rejects(table),
        _ => None,
    }
}

fn python_rejects_datetime(datetime: &Datetime) -> bool {
    let year_zero = datetime.date.is_some_and(|date| date.year == 0);
    let leap_second = datetime.time.is_some_and(|time| time.second >= 60);
    year_zero || leap_second
}

fn describe_rejected_datetime(text: &str, datetime: &Datetime) -> String {
    let rendered = datetime.to_string();
    let message =
        format!("invalid date or time {rendered} (year 0 and second 60 are not supported)");
    // The parsed value carries no position; its usual spelling locates it.
    match text.find(&rendered) {
        Some(offset) => format!("{message} (at {})", describe_position(text, offset)),
        None => message,
    }
}

// ---------------------------------------------------------------------------
// Validating the parsed document
// ---------------------------------------------------------------------------

/// Checks the document in the reference's order: unknown top-level keys,
/// version, `[preset]`, `[clear_gap]`, `[same]`, `[bulk]`, `[bulk.rare_support]`.
fn interpret_config(document: &Table) -> Result<ConfigFile, String> {
    if let Some(unknown) = unknown_keys(document, &TOP_LEVEL_KEYS) {
        return Err(format!("unknown top-level config key(s): {unknown}"));
    }
    check_version(document.get("version"))?;
    let preset_name = match document.get("preset") {
        Some(value) => read_preset_table(value)?,
        None => None,
    };
    let mut overrides = Vec::new();
    for section in [&CLEAR_GAP_SECTION, &SAME_SECTION] {
        if let Some(value) = document.get(section.name) {
            overrides.extend(read_section(value, section)?);
        }
    }
    if let Some(value) = document.get("bulk") {
        overrides.extend(read_bulk_table(value)?);
    }
    Ok(ConfigFile {
        preset_name,
        overrides,
    })
}

fn check_version(version: Option<&Value>) -> Result<(), String> {
    match version {
        Some(Value::Integer(CONFIG_VERSION)) => Ok(()),
        Some(Value::Integer(other)) => Err(format!(
            "unsupported comparison config version {other}; expected {CONFIG_VERSION}"
        )),
        _ => Err(format!(
            "comparison config must specify integer version = {CONFIG_VERSION}"
        )),
    }
}

fn read_preset_table(value: &Value) -> Result<Option<String>, String> {
    let table = expect_table(value, "preset")?;
    if let Some(unknown) = unknown_keys(table, &["name"]) {
        return Err(format!("unknown config key(s) in [preset]: {unknown}"));
    }
    let Some(name) = table.get("name") else {
        return Ok(None);
    };
    let Value::String(name) = name else {
        return Err("config value 'preset.name' must be a string".to_string());
    };
    known_preset(name)?;
    Ok(Some(name.clone()))
}

fn read_bulk_table(value: &Value) -> Result<Vec<(Field, f64)>, String> {
    let table = expect_table(value, BULK_SECTION.name)?;
    let known: Vec<&str> = BULK_SECTION
        .keys
        .iter()
        .map(|(key, _)| *key)
        .chain([RARE_SUPPORT_KEY])
        .collect();
    if let Some(unknown) = unknown_keys(table, &known) {
        return Err(format!("unknown config key(s) in [bulk]: {unknown}"));
    }
    let mut overrides = read_section_values(table, &BULK_SECTION)?;
    if let Some(rare_support) = table.get(RARE_SUPPORT_KEY) {
        overrides.extend(read_section(rare_support, &RARE_SUPPORT_SECTION)?);
    }
    Ok(overrides)
}

fn read_section(value: &Value, section: &Section) -> Result<Vec<(Field, f64)>, String> {
    let table = expect_table(value, section.name)?;
    let known: Vec<&str> = section.keys.iter().map(|(key, _)| *key).collect();
    if let Some(unknown) = unknown_keys(table, &known) {
        return Err(format!(
            "unknown config key(s) in [{}]: {unknown}",
            section.name
        ));
    }
    read_section_values(table, section)
}

fn read_section_values(table: &Table, section: &Section) -> Result<Vec<(Field, f64)>, String> {
    let mut overrides = Vec::new();
    for (key, field) in section.keys {
        if let Some(value) = table.get(*key) {
            let full_key = format!("{}.{key}", section.name);
            overrides.push((*field, read_threshold(value, &full_key, *field)?));
        }
    }
    Ok(overrides)
}

/// Both `[name]` tables and inline tables count; arrays of tables do not.
fn expect_table<'a>(value: &'a Value, table_name: &str) -> Result<&'a Table, String> {
    match value {
        Value::Table(table) => Ok(table),
        _ => Err(format!("config table [{table_name}] must be a TOML table")),
    }
}

/// Keys of `table` outside `known`, sorted and comma-separated, if any.
fn unknown_keys(table: &Table, known: &[&str]) -> Option<String> {
    let mut unknown: Vec<&str> = table
        .keys()
        .map(String::as_str)
        .filter(|key| !known.contains(key))
        .collect();
    if unknown.is_empty() {
        return None;
    }
    unknown.sort_unstable();
    Some(unknown.join(", "))
}

/// A threshold must be a number (integers count, booleans do not), finite,
/// and inside the field's range.
fn read_threshold(value: &Value, full_key: &str, field: Field) -> Result<f64, String> {
    let key = str_repr(full_key);
    let number = match value {
        Value::Integer(integer) => *integer as f64,
        Value::Float(float) => *float,
        _ => return Err(format!("config value {key} must be a finite number")),
    };
    if !number.is_finite() {
        return Err(format!("config value {key} must be finite"));
    }
    let (minimum, maximum) = field.range();
    if number < minimum {
        return Err(format!(
            "config value {key} must be >= {}",
            format_g(minimum, 6)
        ));
    }
    if let Some(maximum) = maximum.filter(|maximum| number > *maximum) {
        return Err(format!(
            "config value {key} must be <= {}",
            format_g(maximum, 6)
        ));
    }
    Ok(number)
}

// ---------------------------------------------------------------------------
// Python string repr
// ---------------------------------------------------------------------------

/// Python's `repr(str)`: single quotes unless the text contains a single
/// quote and no double quote; backslash, the chosen quote, and characters
/// Python deems unprintable are escaped.
pub fn str_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut repr = String::with_capacity(text.len() + 2);
    repr.push(quote);
    for c in text.chars() {
        push_repr_char(&mut repr, c, quote);
    }
    repr.push(quote);
    repr
}

fn push_repr_char(repr: &mut String, c: char, quote: char) {
    match c {
        '\\' => repr.push_str("\\\\"),
        '\t' => repr.push_str("\\t"),
        '\n' => repr.push_str("\\n"),
        '\r' => repr.push_str("\\r"),
        _ if c == quote => {
            repr.push('\\');
            repr.push(c);
        }
        _ if is_python_printable(c) => repr.push(c),
        _ => repr.push_str(&hex_escape(c)),
    }
}

fn hex_escape(c: char) -> String {
    let code = u32::from(c);
    if code <= 0xFF {
        format!("\\x{code:02x}")
    } else if code <= 0xFFFF {
        format!("\\u{code:04x}")
    } else {
        format!("\\U{code:08x}")
    }
}

/// Code points Python 3.11 (Unicode 14.0) escapes in `repr`: control and
/// format characters, separators other than the ASCII space, and private-use
/// characters. Unassigned code points are not listed (they would need the
/// whole Unicode table); Python escapes those too.
const UNPRINTABLE_RANGES: [(u32, u32); 28] = [
    (0x0000, 0x001F),
    (0x007F, 0x00A0),
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x1680, 0x1680),
    (0x180E, 0x180E),
    (0x2000, 0x200F),
    (0x2028, 0x202F),
    (0x205F, 0x2064),
    (0x2066, 0x206F),
    (0x3000, 0x3000),
    (0xE000, 0xF8FF),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
    (0xF0000, 0xFFFFD),
    (0x100000, 0x10FFFD),
];

fn is_python_printable(c: char) -> bool {
    let code = u32::from(c);
    !UNPRINTABLE_RANGES
        .iter()
        .any(|&(low, high)| (low..=high).contains(&code))
}
