//! Comparison thresholds: the built-in presets, the strict version-1 TOML config file, preset precedence, and the `--dump-config` text.
//!
//! Every rejection returns the exact line the reference prints on stdout before
//! exiting with status 1, so callers only print the `Err` text and exit.

use std::fs::File;
use std::io::{self, Read};

use toml::value::Datetime;
use toml::{Table, Value};

use crate::pycompat::pyfmt::{float_repr, format_g, str_repr};
use crate::suggest::{close_names, did_you_mean};

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

/// The top-level keys besides the threshold tables, and the one key of `[preset]`.
const VERSION_KEY: &str = "version";
const PRESET_TABLE: &str = "preset";
const PRESET_NAME_KEY: &str = "name";

/// The values a threshold accepts besides being a finite number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// `>= 0`.
    NonNegative,
    /// `>= 0` and `<= 1`.
    Fraction,
}

impl Bound {
    /// Inclusive lower bound and optional inclusive upper bound.
    fn range(self) -> (f64, Option<f64>) {
        match self {
            Bound::NonNegative => (0.0, None),
            Bound::Fraction => (0.0, Some(1.0)),
        }
    }
}

/// A threshold's value in each built-in preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresetValues {
    pub default: f64,
    pub permissive: f64,
    pub strict: f64,
}

/// One configurable threshold: its TOML table and key, the field of
/// [`Thresholds`] it sets, the values it accepts and its preset values.
pub struct Key {
    /// The dotted TOML table, e.g. `bulk.rare_support`.
    pub section: &'static str,
    pub name: &'static str,
    pub field: fn(&mut Thresholds) -> &mut f64,
    pub bound: Bound,
    pub presets: PresetValues,
}

impl Key {
    /// `section.name`, as messages and the markdown report spell it.
    pub fn full_name(&self) -> String {
        format!("{}.{}", self.section, self.name)
    }

    /// This threshold's value in `thresholds`.
    pub fn value(&self, thresholds: &Thresholds) -> f64 {
        // `Thresholds` is `Copy`: one accessor serves reads and writes.
        let mut copy = *thresholds;
        *(self.field)(&mut copy)
    }
}

/// Every threshold, grouped by table, in the reference's order: the order
/// it validates them (which decides which error wins when several values
/// are invalid), dumps them and reports them. A table's sub-tables follow
/// it, as `bulk.rare_support` follows `bulk`.
pub const KEYS: [Key; 8] = [
    Key {
        section: "clear_gap",
        name: "relative",
        field: |t| &mut t.clear_gap_relative,
        bound: Bound::NonNegative,
        presets: PresetValues {
            default: 0.005,
            permissive: 0.0025,
            strict: 0.01,
        },
    },
    Key {
        section: "same",
        name: "center_relative",
        field: |t| &mut t.same_center_relative,
        bound: Bound::NonNegative,
        presets: PresetValues {
            default: 0.005,
            permissive: 0.01,
            strict: 0.0025,
        },
    },
    Key {
        section: "same",
        name: "overlap_fraction",
        field: |t| &mut t.same_overlap_fraction,
        bound: Bound::Fraction,
        presets: PresetValues {
            default: 0.5,
            permissive: 0.25,
            strict: 0.75,
        },
    },
    Key {
        section: "same",
        name: "relative_dispersion_ceiling",
        field: |t| &mut t.same_relative_dispersion_ceiling,
        bound: Bound::NonNegative,
        presets: PresetValues {
            default: 0.02,
            permissive: 0.05,
            strict: 0.01,
        },
    },
    Key {
        section: "bulk",
        name: "sample_coverage",
        field: |t| &mut t.bulk_sample_coverage,
        bound: Bound::Fraction,
        presets: PresetValues {
            default: 0.97,
            permissive: 0.98,
            strict: 0.995,
        },
    },
    Key {
        section: "bulk",
        name: "support_coverage",
        field: |t| &mut t.bulk_support_coverage,
        bound: Bound::Fraction,
        presets: PresetValues {
            default: 0.80,
            permissive: 0.60,
            strict: 0.90,
        },
    },
    Key {
        section: "bulk.rare_support",
        name: "sample_fraction",
        field: |t| &mut t.rare_sample_fraction,
        bound: Bound::Fraction,
        presets: PresetValues {
            default: 0.001,
            permissive: 0.001,
            strict: 0.001,
        },
    },
    Key {
        section: "bulk.rare_support",
        name: "max_removed_sample_fraction",
        field: |t| &mut t.rare_max_removed_sample_fraction,
        bound: Bound::Fraction,
        presets: PresetValues {
            default: 0.01,
            permissive: 0.02,
            strict: 0.005,
        },
    },
];

/// The threshold tables in [`KEYS`] order, each once.
fn sections() -> impl Iterator<Item = &'static str> {
    KEYS.iter()
        .enumerate()
        .filter(|(i, key)| *i == 0 || KEYS[i - 1].section != key.section)
        .map(|(_, key)| key.section)
}

/// The threshold tables directly inside `parent` (`""`: the top level),
/// with the key that names each in its parent.
fn child_sections(parent: &str) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    sections().filter_map(move |section| {
        let (above, leaf) = section.rsplit_once('.').unwrap_or(("", section));
        (above == parent).then_some((section, leaf))
    })
}

fn keys_of(section: &str) -> impl Iterator<Item = &'static Key> + '_ {
    KEYS.iter().filter(move |key| key.section == section)
}

/// The keys a table may hold: for a threshold table its thresholds and
/// sub-tables; at the top level the version, `[preset]` and the tables.
fn known_keys(section: &str) -> Vec<&'static str> {
    let fixed = if section.is_empty() {
        vec![VERSION_KEY, PRESET_TABLE]
    } else {
        Vec::new()
    };
    let thresholds = keys_of(section).map(|key| key.name);
    let tables = child_sections(section).map(|(_, leaf)| leaf);
    fixed.into_iter().chain(thresholds).chain(tables).collect()
}

/// The thresholds of a built-in preset, or `None` for an unknown name.
pub fn preset(name: &str) -> Option<Thresholds> {
    let value: fn(&PresetValues) -> f64 = match name {
        "default" => |p| p.default,
        "permissive" => |p| p.permissive,
        "strict" => |p| p.strict,
        _ => return None,
    };
    Some(Thresholds::from_keys(|key| value(&key.presets)))
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds::from_keys(|key| key.presets.default)
    }
}

impl Thresholds {
    /// Every field set from its row of [`KEYS`].
    fn from_keys(value: impl Fn(&Key) -> f64) -> Self {
        // Each field has exactly one row (tested), so none stays NaN.
        let mut thresholds = Thresholds {
            clear_gap_relative: f64::NAN,
            same_center_relative: f64::NAN,
            same_overlap_fraction: f64::NAN,
            same_relative_dispersion_ceiling: f64::NAN,
            bulk_sample_coverage: f64::NAN,
            bulk_support_coverage: f64::NAN,
            rare_sample_fraction: f64::NAN,
            rare_max_removed_sample_fraction: f64::NAN,
        };
        for key in &KEYS {
            *(key.field)(&mut thresholds) = value(key);
        }
        thresholds
    }
}

fn known_preset(name: &str) -> Result<Thresholds, String> {
    preset(name).ok_or_else(|| format!("unknown comparison preset {}", str_repr(name)))
}

/// What a config file contributes: an optional base preset and explicit values.
#[derive(Default)]
struct ConfigFile {
    preset_name: Option<String>,
    overrides: Vec<(&'static Key, f64)>,
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
    for (key, value) in &config.overrides {
        *(key.field)(&mut thresholds) = *value;
    }
    Ok((preset_name.to_string(), thresholds))
}

/// Exactly the reference's `--dump-config` text (ends with a newline).
pub fn dump(preset_name: &str, thresholds: &Thresholds) -> String {
    let mut lines = vec![
        format!("{VERSION_KEY} = {CONFIG_VERSION}"),
        String::new(),
        format!("[{PRESET_TABLE}]"),
        format!("{PRESET_NAME_KEY} = \"{preset_name}\""),
    ];
    for section in sections() {
        lines.push(String::new());
        lines.push(format!("[{section}]"));
        for key in keys_of(section) {
            lines.push(format!(
                "{} = {}",
                key.name,
                float_repr(key.value(thresholds))
            ));
        }
    }
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
    let parsed = parse_toml(&text).map_err(|detail| {
        format!(
            "failed to parse comparison config {}: {detail}",
            str_repr(path)
        )
    })?;
    interpret_config(&parsed)
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

/// A parsed document plus the integer literals that were too large for the
/// toml crate's `i64` and now stand in the table as floats of equal value.
struct ParsedToml {
    table: Table,
    oversized_integers: Vec<OversizedInteger>,
}

/// Python integers are unbounded: a 20-digit literal is a valid integer to the
/// reference (a float once used as a threshold, a wrong number as a version).
#[derive(Debug)]
struct OversizedInteger {
    python_repr: String,
    as_float: f64,
}

/// Parses a TOML 1.0 document, accepting and rejecting what Python's
/// `tomllib` does where the toml crate differs. The error is a one-line
/// description with the line and column when known.
fn parse_toml(text: &str) -> Result<ParsedToml, String> {
    // tomllib treats a byte order mark as an invalid statement; the toml crate skips it.
    if text.starts_with('\u{feff}') {
        return Err("a byte order mark is not allowed (at line 1, column 1)".to_string());
    }
    let mut text = text.to_string();
    let mut oversized_integers = Vec::new();
    // Each retry rewrites one out-of-range literal, so the loop ends.
    let table = loop {
        let error = match text.parse::<Table>() {
            Ok(table) => break table,
            Err(error) => error,
        };
        if let Some(patched) = with_overflowing_float_as_inf(&text, &error) {
            text = patched;
        } else if let Some((patched, integer)) = with_oversized_integer_as_float(&text, &error) {
            text = patched;
            oversized_integers.push(integer);
        } else {
            return Err(describe_syntax_error(&text, &error));
        }
    };
    match first_datetime_python_rejects(&table) {
        Some(datetime) => Err(describe_rejected_datetime(&text, datetime)),
        None => Ok(ParsedToml {
            table,
            oversized_integers,
        }),
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

/// The literal at the error position as the text to re-parse (the same value
/// spelled as a float) and the integer the reference sees. Only decimal
/// literals are handled; oversized hex/octal/binary literals stay errors.
fn with_oversized_integer_as_float(
    text: &str,
    error: &toml::de::Error,
) -> Option<(String, OversizedInteger)> {
    let message = error.message().trim();
    if !message.starts_with("number too large") && !message.starts_with("number too small") {
        return None;
    }
    let start = error.span()?.start;
    let rest = text.get(start..)?;
    let length = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '+' | '-' | '_')))
        .unwrap_or(rest.len());
    let digits = rest[..length].replace('_', "");
    let python_repr = digits.strip_prefix('+').unwrap_or(&digits).to_string();
    let unsigned = python_repr.strip_prefix('-').unwrap_or(&python_repr);
    let is_decimal = !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit());
    // Only a literal that really overflows is rewritten, so a retry never sees it again.
    if !is_decimal || python_repr.parse::<i64>().is_ok() {
        return None;
    }
    // Rust's float parsing rounds correctly, as Python's float(int) does.
    let as_float: f64 = python_repr.parse().ok()?;
    let patched = format!("{}{python_repr}.0{}", &text[..start], &rest[length..]);
    Some((
        patched,
        OversizedInteger {
            python_repr,
            as_float,
        },
    ))
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
fn interpret_config(parsed: &ParsedToml) -> Result<ConfigFile, String> {
    let document = &parsed.table;
    if let Some(unknown) = unknown_keys(document, &known_keys("")) {
        return Err(format!("unknown top-level config key(s): {unknown}"));
    }
    check_version(document.get(VERSION_KEY), &parsed.oversized_integers)?;
    let preset_name = match document.get(PRESET_TABLE) {
        Some(value) => read_preset_table(value)?,
        None => None,
    };
    let mut overrides = Vec::new();
    read_sections_in(document, "", &mut overrides)?;
    Ok(ConfigFile {
        preset_name,
        overrides,
    })
}

fn check_version(
    version: Option<&Value>,
    oversized_integers: &[OversizedInteger],
) -> Result<(), String> {
    let unsupported = |shown: &str| {
        format!("unsupported comparison config version {shown}; expected {CONFIG_VERSION}")
    };
    match version {
        Some(Value::Integer(CONFIG_VERSION)) => Ok(()),
        Some(Value::Integer(other)) => Err(unsupported(&other.to_string())),
        // A float here may be an oversized integer literal in disguise. (A float
        // version equal to an oversized integer written elsewhere would be
        // mistaken for it; both are errors either way.)
        Some(Value::Float(value)) => match oversized_integers.iter().find(|i| i.as_float == *value)
        {
            Some(integer) => Err(unsupported(&integer.python_repr)),
            None => Err(missing_version_message()),
        },
        _ => Err(missing_version_message()),
    }
}

fn missing_version_message() -> String {
    format!("comparison config must specify integer version = {CONFIG_VERSION}")
}

fn read_preset_table(value: &Value) -> Result<Option<String>, String> {
    let table = expect_table(value, PRESET_TABLE)?;
    if let Some(unknown) = unknown_keys(table, &[PRESET_NAME_KEY]) {
        return Err(format!(
            "unknown config key(s) in [{PRESET_TABLE}]: {unknown}"
        ));
    }
    let Some(name) = table.get(PRESET_NAME_KEY) else {
        return Ok(None);
    };
    let Value::String(name) = name else {
        return Err("config value 'preset.name' must be a string".to_string());
    };
    known_preset(name)?;
    Ok(Some(name.clone()))
}

/// Reads the threshold tables directly inside `parent` (`""`: the top
/// level) that `table` holds, in [`KEYS`] order.
fn read_sections_in(
    table: &Table,
    parent: &str,
    overrides: &mut Vec<(&'static Key, f64)>,
) -> Result<(), String> {
    for (section, leaf) in child_sections(parent) {
        if let Some(value) = table.get(leaf) {
            read_section(value, section, overrides)?;
        }
    }
    Ok(())
}

/// One threshold table: unknown keys first, then its own values, then its
/// sub-tables.
fn read_section(
    value: &Value,
    section: &str,
    overrides: &mut Vec<(&'static Key, f64)>,
) -> Result<(), String> {
    let table = expect_table(value, section)?;
    if let Some(unknown) = unknown_keys(table, &known_keys(section)) {
        return Err(format!("unknown config key(s) in [{section}]: {unknown}"));
    }
    for key in keys_of(section) {
        if let Some(value) = table.get(key.name) {
            overrides.push((key, read_threshold(value, key)?));
        }
    }
    read_sections_in(table, section, overrides)
}

/// Both `[name]` tables and inline tables count; arrays of tables do not.
fn expect_table<'a>(value: &'a Value, table_name: &str) -> Result<&'a Table, String> {
    match value {
        Value::Table(table) => Ok(table),
        _ => Err(format!("config table [{table_name}] must be a TOML table")),
    }
}

/// "Did you mean" notes for the unknown keys and preset name of a config
/// file that failed validation (read again: this is the error path). The
/// reference's message stays as it is; these go to stderr beside it.
pub fn unknown_key_hints(path: &str) -> Vec<String> {
    let Some(parsed) = read_config_bytes(path)
        .and_then(decode_utf8)
        .ok()
        .and_then(|text| parse_toml(&text).ok())
    else {
        return Vec::new();
    };
    let document = &parsed.table;
    let mut tables: Vec<(&str, &Table, Vec<&str>)> = vec![("", document, known_keys(""))];
    if let Some(preset) = sub_table(document, PRESET_TABLE) {
        tables.push((PRESET_TABLE, preset, vec![PRESET_NAME_KEY]));
    }
    threshold_tables_in(document, "", &mut tables);
    let mut hints = Vec::new();
    for (name, table, known) in tables {
        for key in table.keys().filter(|key| !known.contains(&key.as_str())) {
            if let Some(hint) = did_you_mean(&close_names(key, known.iter().copied())) {
                let place = if name.is_empty() {
                    "at the top level".to_string()
                } else {
                    format!("in [{name}]")
                };
                hints.push(format!("unknown key '{key}' {place}: {hint}"));
            }
        }
    }
    let preset_name = sub_table(document, PRESET_TABLE).and_then(|p| p.get(PRESET_NAME_KEY));
    if let Some(Value::String(name)) = preset_name {
        if preset(name).is_none() {
            if let Some(hint) = did_you_mean(&close_names(name, PRESET_NAMES)) {
                hints.push(format!("unknown preset '{name}': {hint}"));
            }
        }
    }
    hints
}

fn sub_table<'a>(table: &'a Table, key: &str) -> Option<&'a Table> {
    match table.get(key) {
        Some(Value::Table(table)) => Some(table),
        _ => None,
    }
}

/// The threshold tables that `table` holds inside `parent`, depth first,
/// each with its known keys.
fn threshold_tables_in<'a>(
    table: &'a Table,
    parent: &str,
    tables: &mut Vec<(&'static str, &'a Table, Vec<&'static str>)>,
) {
    for (section, leaf) in child_sections(parent) {
        if let Some(sub) = sub_table(table, leaf) {
            tables.push((section, sub, known_keys(section)));
            threshold_tables_in(sub, section, tables);
        }
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
/// and inside the key's bound.
fn read_threshold(value: &Value, threshold: &Key) -> Result<f64, String> {
    let key = str_repr(&threshold.full_name());
    let number = match value {
        Value::Integer(integer) => *integer as f64,
        Value::Float(float) => *float,
        _ => return Err(format!("config value {key} must be a finite number")),
    };
    if !number.is_finite() {
        return Err(format!("config value {key} must be finite"));
    }
    let (minimum, maximum) = threshold.bound.range();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A config file in a per-process scratch directory, removed when dropped.
    struct TempConfig {
        path: PathBuf,
    }

    impl TempConfig {
        fn new(content: impl AsRef<[u8]>) -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let dir = scratch_dir();
            let number = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!("config-{}-{number}.toml", std::process::id()));
            std::fs::write(&path, content).expect("write temp config");
            TempConfig { path }
        }

        fn path(&self) -> &str {
            self.path.to_str().expect("temp path is UTF-8")
        }
    }

    impl Drop for TempConfig {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.path);
        }
    }

    /// One shared directory; file names carry the process id so parallel runs never collide.
    fn scratch_dir() -> PathBuf {
        let dir = std::env::temp_dir().join("nvbench-compare-config-tests");
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        dir
    }

    fn resolve_text(
        cli_preset: Option<&str>,
        content: &str,
    ) -> Result<(String, Thresholds), String> {
        let config = TempConfig::new(content);
        resolve(cli_preset, Some(config.path()))
    }

    fn error_for(content: &str) -> String {
        match resolve_text(None, content) {
            Ok(resolved) => panic!("expected an error for {content:?}, got {resolved:?}"),
            Err(message) => message,
        }
    }

    fn thresholds_for(content: &str) -> Thresholds {
        match resolve_text(None, content) {
            Ok((_, thresholds)) => thresholds,
            Err(message) => panic!("unexpected error for {content:?}: {message}"),
        }
    }

    const ALL_KEYS: [(&str, &str); 8] = [
        ("clear_gap", "relative"),
        ("same", "center_relative"),
        ("same", "overlap_fraction"),
        ("same", "relative_dispersion_ceiling"),
        ("bulk", "sample_coverage"),
        ("bulk", "support_coverage"),
        ("bulk.rare_support", "sample_fraction"),
        ("bulk.rare_support", "max_removed_sample_fraction"),
    ];

    fn single_value_config(section: &str, key: &str, value: &str) -> String {
        format!("version = 1\n[{section}]\n{key} = {value}\n")
    }

    fn has_upper_limit(key: &str) -> bool {
        !matches!(
            key,
            "relative" | "center_relative" | "relative_dispersion_ceiling"
        )
    }

    // -- conformance cases 136-160 -------------------------------------------

    /// (case, TOML content, expected stdout line) copied from the corpus.
    const CONFORMANCE_ERRORS: [(&str, &str, &str); 22] = [
        (
            "136",
            "version = 1\n[thresholds]\nx = 1\n",
            "unknown top-level config key(s): thresholds",
        ),
        (
            "137",
            "version = 1\n[same]\ncenter = 0.1\n",
            "unknown config key(s) in [same]: center",
        ),
        (
            "138",
            "version = 1\n[clear_gap]\nrelative = 0.1\nabsolute = 0.2\n",
            "unknown config key(s) in [clear_gap]: absolute",
        ),
        (
            "139",
            "version = 1\n[bulk]\ncoverage = 0.5\n",
            "unknown config key(s) in [bulk]: coverage",
        ),
        (
            "140",
            "version = 1\n[bulk.rare_support]\nfraction = 0.5\n",
            "unknown config key(s) in [bulk.rare_support]: fraction",
        ),
        (
            "141",
            "version = 1\n[preset]\nname = \"strict\"\nbase = \"x\"\n",
            "unknown config key(s) in [preset]: base",
        ),
        (
            "142",
            "version = 1\nsame = 0.1\n",
            "config table [same] must be a TOML table",
        ),
        (
            "143",
            "version = 1\n[bulk]\nrare_support = 0.1\n",
            "config table [bulk.rare_support] must be a TOML table",
        ),
        (
            "144",
            "version = 2\n",
            "unsupported comparison config version 2; expected 1",
        ),
        (
            "145",
            "[same]\ncenter_relative = 0.1\n",
            "comparison config must specify integer version = 1",
        ),
        (
            "146",
            "version = \"1\"\n",
            "comparison config must specify integer version = 1",
        ),
        (
            "147",
            "version = true\n",
            "comparison config must specify integer version = 1",
        ),
        (
            "148",
            "version = 1.0\n",
            "comparison config must specify integer version = 1",
        ),
        (
            "149",
            "version = 1\n[same]\ncenter_relative = \"0.1\"\n",
            "config value 'same.center_relative' must be a finite number",
        ),
        (
            "150",
            "version = 1\n[bulk]\nsample_coverage = false\n",
            "config value 'bulk.sample_coverage' must be a finite number",
        ),
        (
            "151",
            "version = 1\n[clear_gap]\nrelative = nan\n",
            "config value 'clear_gap.relative' must be finite",
        ),
        (
            "152",
            "version = 1\n[same]\nrelative_dispersion_ceiling = inf\n",
            "config value 'same.relative_dispersion_ceiling' must be finite",
        ),
        (
            "153",
            "version = 1\n[clear_gap]\nrelative = -0.01\n",
            "config value 'clear_gap.relative' must be >= 0",
        ),
        (
            "154",
            "version = 1\n[same]\noverlap_fraction = 1.5\n",
            "config value 'same.overlap_fraction' must be <= 1",
        ),
        (
            "155",
            "version = 1\n[preset]\nname = \"fast\"\n",
            "unknown comparison preset 'fast'",
        ),
        (
            "157",
            "version = 1\nbulk = { rare_support = { sample_fraction = \"x\" } }\n",
            "config value 'bulk.rare_support.sample_fraction' must be a finite number",
        ),
        (
            "159",
            "version = 1\n[same]\nx = 1\n",
            "unknown config key(s) in [same]: x",
        ),
    ];

    #[test]
    fn conformance_error_messages_match_exactly() {
        for (case, content, expected) in CONFORMANCE_ERRORS {
            assert_eq!(error_for(content), expected, "case {case}");
        }
    }

    #[test]
    fn syntax_error_names_file_line_and_column() {
        // Case 156: only the exit code is held; the text is ours.
        let config = TempConfig::new("version = 1\n[same\ncenter_relative = 0.1\n");
        let message = resolve(None, Some(config.path())).unwrap_err();
        let prefix = format!(
            "failed to parse comparison config {}: ",
            str_repr(config.path())
        );
        assert!(message.starts_with(&prefix), "{message}");
        assert!(message.ends_with("(at line 2, column 6)"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }

    #[test]
    fn missing_file_is_reported_like_python() {
        // Case 158, with the same relative path (tests run in the package root).
        assert!(!Path::new("nope.toml").exists());
        assert_eq!(
            resolve(None, Some("nope.toml")).unwrap_err(),
            "failed to read comparison config 'nope.toml': [Errno 2] No such file or directory: 'nope.toml'"
        );
        assert_eq!(
            resolve(None, Some("")).unwrap_err(),
            "failed to read comparison config '': [Errno 2] No such file or directory: ''"
        );
    }

    #[test]
    fn directory_is_reported_like_python() {
        // Case 160.
        let dir = scratch_dir().join(format!("confdir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.to_str().unwrap();
        let quoted = str_repr(path);
        let message = resolve(None, Some(path)).unwrap_err();
        let _ = std::fs::remove_dir(&dir);
        assert_eq!(
            message,
            format!(
                "failed to read comparison config {quoted}: [Errno 21] Is a directory: {quoted}"
            )
        );
    }

    #[test]
    fn path_below_a_file_is_not_a_directory() {
        let config = TempConfig::new("version = 1\n");
        let path = format!("{}/x", config.path());
        let quoted = str_repr(&path);
        assert_eq!(
            resolve(None, Some(&path)).unwrap_err(),
            format!(
                "failed to read comparison config {quoted}: [Errno 20] Not a directory: {quoted}"
            )
        );
    }

    #[test]
    fn os_errors_use_python_wording() {
        let denied = io::Error::from_raw_os_error(13);
        assert_eq!(
            describe_os_error(&denied, Some("x")),
            "[Errno 13] Permission denied: 'x'"
        );
        let io_failure = io::Error::from_raw_os_error(5);
        assert_eq!(
            describe_os_error(&io_failure, None),
            "[Errno 5] Input/output error"
        );
        assert_eq!(
            describe_os_error(&io::Error::from_raw_os_error(2), Some("it's.toml")),
            "[Errno 2] No such file or directory: \"it's.toml\""
        );
    }

    #[test]
    fn embedded_null_byte_is_python_value_error() {
        assert_eq!(
            resolve(None, Some("a\0b")).unwrap_err(),
            "embedded null byte"
        );
    }

    #[test]
    fn invalid_utf8_reports_python_decode_error() {
        // Texts produced by Python 3.11's bytes.decode().
        let cases: [(&[u8], &str); 10] = [
            (b"ab\xff", "byte 0xff in position 2: invalid start byte"),
            (b"\xc0\xaf", "byte 0xc0 in position 0: invalid start byte"),
            (
                b"\xe2(\xa1",
                "byte 0xe2 in position 0: invalid continuation byte",
            ),
            (
                b"ok\xe2\x82",
                "bytes in position 2-3: unexpected end of data",
            ),
            (
                b"\xf0\x90(",
                "bytes in position 0-1: invalid continuation byte",
            ),
            (
                b"\xf0\x90\x8c",
                "bytes in position 0-2: unexpected end of data",
            ),
            (
                b"a\xed\xa0",
                "byte 0xed in position 1: invalid continuation byte",
            ),
            (
                b"\xe0\x80",
                "byte 0xe0 in position 0: invalid continuation byte",
            ),
            (b"\xc3", "byte 0xc3 in position 0: unexpected end of data"),
            (b"\xf5", "byte 0xf5 in position 0: invalid start byte"),
        ];
        for (bytes, detail) in cases {
            let config = TempConfig::new(bytes);
            assert_eq!(
                resolve(None, Some(config.path())).unwrap_err(),
                format!("'utf-8' codec can't decode {detail}"),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn byte_order_mark_is_a_parse_error() {
        let message = error_for("\u{feff}version = 1\n");
        assert!(
            message.starts_with("failed to parse comparison config "),
            "{message}"
        );
        assert!(message.ends_with("(at line 1, column 1)"), "{message}");
    }

    #[test]
    fn toml_1_1_syntax_is_rejected_like_tomllib() {
        for content in [
            "version = 1\n[preset]\nname = \"\\e\"\n",
            "version = 1\n[preset]\nname = \"\\x41\"\n",
            "version = 1\nsame = {\n center_relative = 0.1 }\n",
            "version = 1\nsame = {center_relative = 0.1,}\n",
            "version = 1\n[clear_gap]\nrelative = 07:32\n",
        ] {
            let message = error_for(content);
            assert!(
                message.starts_with("failed to parse comparison config "),
                "{content:?}: {message}"
            );
        }
    }

    #[test]
    fn datetimes_python_cannot_represent_are_parse_errors() {
        for value in ["1979-05-27T23:59:60Z", "0000-01-01", "23:59:60"] {
            let message = error_for(&single_value_config("clear_gap", "relative", value));
            assert!(
                message.starts_with("failed to parse comparison config "),
                "{value}: {message}"
            );
            assert!(
                message.contains("(at line 3, column 12)"),
                "{value}: {message}"
            );
        }
    }

    // -- presets and precedence ----------------------------------------------

    #[test]
    fn preset_values_match_the_reference() {
        let default = preset("default").unwrap();
        assert_eq!(default, Thresholds::default());
        assert_eq!(
            [
                default.clear_gap_relative,
                default.same_center_relative,
                default.same_overlap_fraction,
                default.same_relative_dispersion_ceiling,
                default.bulk_sample_coverage,
                default.bulk_support_coverage,
                default.rare_sample_fraction,
                default.rare_max_removed_sample_fraction,
            ],
            [0.005, 0.005, 0.5, 0.02, 0.97, 0.8, 0.001, 0.01]
        );
        let strict = preset("strict").unwrap();
        assert_eq!(
            [
                strict.clear_gap_relative,
                strict.same_center_relative,
                strict.same_overlap_fraction,
                strict.same_relative_dispersion_ceiling,
                strict.bulk_sample_coverage,
                strict.bulk_support_coverage,
                strict.rare_sample_fraction,
                strict.rare_max_removed_sample_fraction,
            ],
            [0.01, 0.0025, 0.75, 0.01, 0.995, 0.9, 0.001, 0.005]
        );
        let permissive = preset("permissive").unwrap();
        assert_eq!(
            [
                permissive.clear_gap_relative,
                permissive.same_center_relative,
                permissive.same_overlap_fraction,
                permissive.same_relative_dispersion_ceiling,
                permissive.bulk_sample_coverage,
                permissive.bulk_support_coverage,
                permissive.rare_sample_fraction,
                permissive.rare_max_removed_sample_fraction,
            ],
            [0.0025, 0.01, 0.25, 0.05, 0.98, 0.6, 0.001, 0.02]
        );
    }

    #[test]
    fn preset_names_are_sorted_and_known() {
        let mut sorted = PRESET_NAMES;
        sorted.sort_unstable();
        assert_eq!(sorted, PRESET_NAMES);
        for name in PRESET_NAMES {
            assert!(preset(name).is_some(), "{name}");
            assert_eq!(
                resolve(Some(name), None).unwrap(),
                (name.to_string(), preset(name).unwrap())
            );
        }
        assert_eq!(preset("fast"), None);
        assert_eq!(preset("Default"), None);
    }

    #[test]
    fn no_preset_anywhere_means_default() {
        assert_eq!(
            resolve(None, None).unwrap(),
            ("default".to_string(), Thresholds::default())
        );
        assert_eq!(
            resolve(Some(""), None).unwrap(),
            ("default".to_string(), Thresholds::default())
        );
        let resolved = resolve_text(None, "version = 1\n").unwrap();
        assert_eq!(resolved, ("default".to_string(), Thresholds::default()));
    }

    #[test]
    fn toml_preset_replaces_default() {
        let resolved =
            resolve_text(None, "version = 1\n[preset]\nname = \"permissive\"\n").unwrap();
        assert_eq!(
            resolved,
            ("permissive".to_string(), preset("permissive").unwrap())
        );
    }

    #[test]
    fn cli_preset_replaces_toml_preset() {
        let resolved = resolve_text(
            Some("strict"),
            "version = 1\n[preset]\nname = \"permissive\"\n",
        )
        .unwrap();
        assert_eq!(resolved, ("strict".to_string(), preset("strict").unwrap()));
    }

    #[test]
    fn explicit_toml_values_override_any_preset() {
        // Case 130: permissive in TOML, strict on the command line, one explicit value.
        let content =
            "version = 1\n[preset]\nname = \"permissive\"\n[bulk]\nsample_coverage = 0.99\n";
        let (name, thresholds) = resolve_text(Some("strict"), content).unwrap();
        assert_eq!(name, "strict");
        let expected = Thresholds {
            bulk_sample_coverage: 0.99,
            ..preset("strict").unwrap()
        };
        assert_eq!(thresholds, expected);
        let (name, thresholds) = resolve_text(None, content).unwrap();
        assert_eq!(name, "permissive");
        let expected = Thresholds {
            bulk_sample_coverage: 0.99,
            ..preset("permissive").unwrap()
        };
        assert_eq!(thresholds, expected);
    }

    #[test]
    fn every_key_lands_in_its_field() {
        let content = "version = 1\n[clear_gap]\nrelative = 0.11\n[same]\ncenter_relative = 0.12\n\
                       overlap_fraction = 0.13\nrelative_dispersion_ceiling = 0.14\n[bulk]\n\
                       sample_coverage = 0.15\nsupport_coverage = 0.16\n[bulk.rare_support]\n\
                       sample_fraction = 0.17\nmax_removed_sample_fraction = 0.18\n";
        let expected = Thresholds {
            clear_gap_relative: 0.11,
            same_center_relative: 0.12,
            same_overlap_fraction: 0.13,
            same_relative_dispersion_ceiling: 0.14,
            bulk_sample_coverage: 0.15,
            bulk_support_coverage: 0.16,
            rare_sample_fraction: 0.17,
            rare_max_removed_sample_fraction: 0.18,
        };
        for cli in [None, Some("strict"), Some("permissive")] {
            assert_eq!(resolve_text(cli, content).unwrap().1, expected);
        }
    }

    #[test]
    fn empty_tables_and_dotted_keys_are_accepted() {
        // Case 131 and the other ways TOML spells the same tables.
        let empty = "version = 1\n[clear_gap]\n[same]\n[bulk]\n[bulk.rare_support]\n[preset]\n";
        assert_eq!(thresholds_for(empty), Thresholds::default());
        let dotted =
            "version = 1\nsame.center_relative = 0.2\nbulk.rare_support.sample_fraction = 0.5\n";
        let thresholds = thresholds_for(dotted);
        assert_eq!(thresholds.same_center_relative, 0.2);
        assert_eq!(thresholds.rare_sample_fraction, 0.5);
        let inline = "version = 1\nbulk = { sample_coverage = 0.3, rare_support = { sample_fraction = 0.4 } }\n";
        let thresholds = thresholds_for(inline);
        assert_eq!(thresholds.bulk_sample_coverage, 0.3);
        assert_eq!(thresholds.rare_sample_fraction, 0.4);
    }

    #[test]
    fn unknown_cli_preset_is_rejected_after_the_file() {
        assert_eq!(
            resolve(Some("fast"), None).unwrap_err(),
            "unknown comparison preset 'fast'"
        );
        // File errors come first.
        assert_eq!(
            resolve_text(Some("fast"), "version = 2\n").unwrap_err(),
            "unsupported comparison config version 2; expected 1"
        );
        // A bad TOML preset is an error even when the CLI preset overrides it.
        assert_eq!(
            resolve_text(Some("strict"), "version = 1\n[preset]\nname = \"fast\"\n").unwrap_err(),
            "unknown comparison preset 'fast'"
        );
    }

    // -- dump ------------------------------------------------------------------

    const DUMP_DEFAULT: &str = "version = 1\n\n[preset]\nname = \"default\"\n\n[clear_gap]\nrelative = 0.005\n\n[same]\ncenter_relative = 0.005\noverlap_fraction = 0.5\nrelative_dispersion_ceiling = 0.02\n\n[bulk]\nsample_coverage = 0.97\nsupport_coverage = 0.8\n\n[bulk.rare_support]\nsample_fraction = 0.001\nmax_removed_sample_fraction = 0.01\n";
    const DUMP_STRICT: &str = "version = 1\n\n[preset]\nname = \"strict\"\n\n[clear_gap]\nrelative = 0.01\n\n[same]\ncenter_relative = 0.0025\noverlap_fraction = 0.75\nrelative_dispersion_ceiling = 0.01\n\n[bulk]\nsample_coverage = 0.995\nsupport_coverage = 0.9\n\n[bulk.rare_support]\nsample_fraction = 0.001\nmax_removed_sample_fraction = 0.005\n";
    const DUMP_FROM_TOML: &str = "version = 1\n\n[preset]\nname = \"permissive\"\n\n[clear_gap]\nrelative = 0.0025\n\n[same]\ncenter_relative = 0.01\noverlap_fraction = 0.25\nrelative_dispersion_ceiling = 0.05\n\n[bulk]\nsample_coverage = 0.99\nsupport_coverage = 0.6\n\n[bulk.rare_support]\nsample_fraction = 0.002\nmax_removed_sample_fraction = 0.02\n";

    fn dump_of(resolved: (String, Thresholds)) -> String {
        dump(&resolved.0, &resolved.1)
    }

    #[test]
    fn dump_matches_reference_layout() {
        // Cases 132, 133 and 134.
        assert_eq!(dump_of(resolve(None, None).unwrap()), DUMP_DEFAULT);
        assert_eq!(dump_of(resolve(Some("strict"), None).unwrap()), DUMP_STRICT);
        let content = "version = 1\n[preset]\nname = \"permissive\"\n[bulk]\nsample_coverage = 0.99\n\
                       [bulk.rare_support]\nsample_fraction = 0.002\n";
        assert_eq!(
            dump_of(resolve_text(None, content).unwrap()),
            DUMP_FROM_TOML
        );
    }

    #[test]
    fn dump_round_trips_through_resolve() {
        let odd_values = "version = 1\n[clear_gap]\nrelative = 1e+20\n[same]\ncenter_relative = 1e-05\n\
                          overlap_fraction = 0.30000000000000004\nrelative_dispersion_ceiling = 123456789.125\n\
                          [bulk]\nsample_coverage = -0.0\nsupport_coverage = 1\n[bulk.rare_support]\n\
                          sample_fraction = 5e-324\nmax_removed_sample_fraction = 0.9999999999999999\n";
        let mut originals: Vec<(String, Thresholds)> = PRESET_NAMES
            .iter()
            .map(|name| resolve(Some(name), None).unwrap())
            .collect();
        originals.push(resolve_text(Some("strict"), odd_values).unwrap());
        for original in originals {
            let text = dump_of(original.clone());
            let reread = resolve_text(None, &text).unwrap();
            assert_eq!(reread.0, original.0);
            // Compare bit patterns so -0.0 must survive too.
            assert_eq!(format!("{:?}", reread.1), format!("{:?}", original.1));
            assert_eq!(dump_of(reread), text);
        }
    }

    #[test]
    fn dump_prints_python_float_repr() {
        let thresholds = thresholds_for(
            "version = 1\n[clear_gap]\nrelative = 1e16\n[same]\ncenter_relative = 1e-5\n[bulk]\nsample_coverage = 0\n",
        );
        let text = dump("default", &thresholds);
        assert!(text.contains("\nrelative = 1e+16\n"), "{text}");
        assert!(text.contains("\ncenter_relative = 1e-05\n"), "{text}");
        assert!(text.contains("\nsample_coverage = 0.0\n"), "{text}");
    }

    #[test]
    fn keys_are_grouped_by_table_with_sub_tables_after_their_parent() {
        let sections: Vec<&str> = sections().collect();
        assert_eq!(sections, ["clear_gap", "same", "bulk", "bulk.rare_support"]);
        // `sections` lists a table once only if its rows stand together.
        for section in &sections {
            let rows: Vec<usize> = (0..KEYS.len())
                .filter(|&i| KEYS[i].section == *section)
                .collect();
            assert_eq!(rows[rows.len() - 1] - rows[0] + 1, rows.len(), "{section}");
        }
        assert_eq!(
            known_keys(""),
            ["version", "preset", "clear_gap", "same", "bulk"]
        );
        assert_eq!(
            known_keys("bulk"),
            ["sample_coverage", "support_coverage", "rare_support"]
        );
    }

    // -- hints -------------------------------------------------------------------

    #[test]
    fn hints_cover_every_table_in_reference_order() {
        let config = TempConfig::new(
            "versio = 1\npresett = 2\nclear_gapp = 1\n\
             same = { center_relatve = 0.1, overlap_fractio = 3 }\n\
             [clear_gap]\nrelativ = 1\n[bulk]\nsample_coverag = 1\nrare_suport = 2\n\
             [bulk.rare_support]\nsample_fractio = 1\nmax_removed_sample_fractin = 2\n\
             [preset]\nnam = \"x\"\nname = \"strct\"\n",
        );
        assert_eq!(
            unknown_key_hints(config.path()),
            [
                "unknown key 'clear_gapp' at the top level: did you mean 'clear_gap'?",
                "unknown key 'presett' at the top level: did you mean 'preset'?",
                "unknown key 'versio' at the top level: did you mean 'version'?",
                "unknown key 'nam' in [preset]: did you mean 'name'?",
                "unknown key 'relativ' in [clear_gap]: did you mean 'relative'?",
                "unknown key 'center_relatve' in [same]: did you mean 'center_relative'?",
                "unknown key 'overlap_fractio' in [same]: did you mean 'overlap_fraction'?",
                "unknown key 'rare_suport' in [bulk]: did you mean 'rare_support'?",
                "unknown key 'sample_coverag' in [bulk]: did you mean 'sample_coverage'?",
                "unknown key 'max_removed_sample_fractin' in [bulk.rare_support]: \
                 did you mean 'max_removed_sample_fraction'?",
                "unknown key 'sample_fractio' in [bulk.rare_support]: \
                 did you mean 'sample_fraction' or 'max_removed_sample_fraction'?",
                "unknown preset 'strct': did you mean 'strict'?",
            ]
        );
        assert!(unknown_key_hints("nope.toml").is_empty());
    }

    // -- value checks ------------------------------------------------------------

    #[test]
    fn integers_are_accepted_as_numbers() {
        // Case 128.
        let thresholds = thresholds_for(
            "version = 1\n[clear_gap]\nrelative = 0\n[bulk]\nsample_coverage = 1\nsupport_coverage = 0\n",
        );
        assert_eq!(thresholds.clear_gap_relative, 0.0);
        assert_eq!(thresholds.bulk_sample_coverage, 1.0);
        assert_eq!(thresholds.bulk_support_coverage, 0.0);
        let big = thresholds_for("version = 1\n[clear_gap]\nrelative = 9223372036854775807\n");
        assert_eq!(big.clear_gap_relative, 9.223372036854776e18);
        let hex = thresholds_for("version = 1\n[same]\nrelative_dispersion_ceiling = 0x10\n");
        assert_eq!(hex.same_relative_dispersion_ceiling, 16.0);
    }

    #[test]
    fn integers_beyond_i64_behave_like_python_ints() {
        let thresholds =
            thresholds_for("version = 1\n[clear_gap]\nrelative = 99999999999999999999\n");
        assert_eq!(thresholds.clear_gap_relative, 1e20);
        assert_eq!(
            error_for("version = 1\n[same]\noverlap_fraction = 1_0000000000000000000\n"),
            "config value 'same.overlap_fraction' must be <= 1"
        );
        assert_eq!(
            error_for("version = -99999999999999999999\n"),
            "unsupported comparison config version -99999999999999999999; expected 1"
        );
        assert_eq!(
            error_for("version = 1\n[preset]\nname = 99999999999999999999\n"),
            "config value 'preset.name' must be a string"
        );
    }

    #[test]
    fn booleans_are_rejected() {
        for (section, key) in ALL_KEYS {
            for value in ["true", "false"] {
                assert_eq!(
                    error_for(&single_value_config(section, key, value)),
                    format!("config value '{section}.{key}' must be a finite number")
                );
            }
        }
        assert_eq!(
            error_for("version = true\n"),
            "comparison config must specify integer version = 1"
        );
    }

    #[test]
    fn non_numbers_are_rejected() {
        for value in [
            "\"0.1\"",
            "'x'",
            "[]",
            "[0.1]",
            "{}",
            "{ a = 1 }",
            "1979-05-27",
            "07:32:00",
            "1979-05-27T07:32:00Z",
        ] {
            for (section, key) in ALL_KEYS {
                assert_eq!(
                    error_for(&single_value_config(section, key, value)),
                    format!("config value '{section}.{key}' must be a finite number"),
                    "{value}"
                );
            }
        }
    }

    #[test]
    fn non_finite_values_are_rejected() {
        for value in [
            "nan",
            "+nan",
            "-nan",
            "inf",
            "+inf",
            "-inf",
            "1e400",
            "-1e400",
            "+1_0e4_00",
        ] {
            for (section, key) in ALL_KEYS {
                assert_eq!(
                    error_for(&single_value_config(section, key, value)),
                    format!("config value '{section}.{key}' must be finite"),
                    "{value}"
                );
            }
        }
    }

    #[test]
    fn range_boundaries() {
        for (section, key) in ALL_KEYS {
            let full_key = format!("{section}.{key}");
            for at_or_inside in ["0", "0.0", "-0.0", "5e-324", "1e-400", "0.5", "1", "1.0"] {
                let config = single_value_config(section, key, at_or_inside);
                assert!(
                    resolve_text(None, &config).is_ok(),
                    "{full_key} = {at_or_inside}"
                );
            }
            for below in ["-5e-324", "-0.01", "-1"] {
                assert_eq!(
                    error_for(&single_value_config(section, key, below)),
                    format!("config value '{full_key}' must be >= 0")
                );
            }
            for above in ["1.0000000000000002", "2", "1e300"] {
                let config = single_value_config(section, key, above);
                if has_upper_limit(key) {
                    assert_eq!(
                        error_for(&config),
                        format!("config value '{full_key}' must be <= 1")
                    );
                } else {
                    assert!(resolve_text(None, &config).is_ok(), "{full_key} = {above}");
                }
            }
        }
    }

    // -- order of checks ---------------------------------------------------------

    #[test]
    fn checks_run_in_reference_order() {
        let cases = [
            // unknown top-level keys come before the version, sorted
            (
                "zz = 1\naa = 2\n",
                "unknown top-level config key(s): aa, zz",
            ),
            (
                "version = 2\n[thresholds]\n",
                "unknown top-level config key(s): thresholds",
            ),
            // version before [preset]
            (
                "version = 2\n[preset]\nname = \"fast\"\n",
                "unsupported comparison config version 2; expected 1",
            ),
            (
                "version = -1\n",
                "unsupported comparison config version -1; expected 1",
            ),
            ("version = 0x1\n", ""),
            // [preset] before the threshold tables
            (
                "version = 1\n[clear_gap]\nrelative = -1\n[preset]\nname = 1\n",
                "config value 'preset.name' must be a string",
            ),
            (
                "version = 1\n[preset]\nname = 1\nbase = 2\n",
                "unknown config key(s) in [preset]: base",
            ),
            (
                "version = 1\npreset = [1]\n",
                "config table [preset] must be a TOML table",
            ),
            // [clear_gap] before [same] before [bulk]
            (
                "version = 1\n[bulk]\nx = 1\n[same]\ny = 1\n[clear_gap]\nrelative = -1\n",
                "config value 'clear_gap.relative' must be >= 0",
            ),
            (
                "version = 1\n[bulk]\nx = 1\n[same]\ny = 1\n",
                "unknown config key(s) in [same]: y",
            ),
            // unknown keys of a table before its values, sorted
            (
                "version = 1\n[same]\ncenter_relative = -1\nzeta = 1\nalpha = 2\n",
                "unknown config key(s) in [same]: alpha, zeta",
            ),
            // within a table, the reference's key order, not the file's
            (
                "version = 1\n[same]\nrelative_dispersion_ceiling = nan\noverlap_fraction = 2\ncenter_relative = true\n",
                "config value 'same.center_relative' must be a finite number",
            ),
            (
                "version = 1\n[same]\nrelative_dispersion_ceiling = nan\noverlap_fraction = 2\n",
                "config value 'same.overlap_fraction' must be <= 1",
            ),
            // [bulk]: unknown keys, then its own values, then [bulk.rare_support]
            (
                "version = 1\n[bulk]\nrare_support = 1\nzz = 1\n",
                "unknown config key(s) in [bulk]: zz",
            ),
            (
                "version = 1\n[bulk]\nrare_support = 1\nsupport_coverage = 2\nsample_coverage = -1\n",
                "config value 'bulk.sample_coverage' must be >= 0",
            ),
            (
                "version = 1\n[bulk]\nrare_support = 1\nsupport_coverage = 2\n",
                "config value 'bulk.support_coverage' must be <= 1",
            ),
            (
                "version = 1\n[bulk]\nrare_support = 1\n",
                "config table [bulk.rare_support] must be a TOML table",
            ),
            (
                "version = 1\n[bulk.rare_support]\nmax_removed_sample_fraction = 2\nsample_fraction = 2\n",
                "config value 'bulk.rare_support.sample_fraction' must be <= 1",
            ),
            (
                "version = 1\n[[bulk.rare_support]]\nsample_fraction = 0.1\n",
                "config table [bulk.rare_support] must be a TOML table",
            ),
            (
                "version = 1\n[[same]]\ncenter_relative = 0.1\n",
                "config table [same] must be a TOML table",
            ),
            (
                "version = 1\nbulk = 1979-05-27\n",
                "config table [bulk] must be a TOML table",
            ),
            (
                "version.x = 1\n",
                "comparison config must specify integer version = 1",
            ),
            ("", "comparison config must specify integer version = 1"),
        ];
        for (content, expected) in cases {
            match resolve_text(None, content) {
                Ok(_) => assert_eq!(expected, "", "{content:?}"),
                Err(message) => assert_eq!(message, expected, "{content:?}"),
            }
        }
    }

    #[test]
    fn unknown_preset_names_are_shown_as_python_repr() {
        let cases = [
            ("\"\"", "''"),
            ("\"it's\"", "\"it's\""),
            ("'a\"b'", "'a\"b'"),
            ("\"a'\\\"b\"", "'a\\'\"b'"),
            ("\"tab\\tnl\\n\"", "'tab\\tnl\\n'"),
            // unassigned (U+0378), private-use and format characters are escaped
            ("\"\\u0378\\ue000\\u200b\"", "'\\u0378\\ue000\\u200b'"),
            ("\"é\\U0001F600\"", "'é\u{1f600}'"),
        ];
        for (literal, shown) in cases {
            assert_eq!(
                error_for(&format!("version = 1\n[preset]\nname = {literal}\n")),
                format!("unknown comparison preset {shown}")
            );
        }
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        let deep = format!("version = 1\nx = {}{}\n", "[".repeat(500), "]".repeat(500));
        let inputs = [
            deep.as_str(),
            "version = 1\nx = [1e400, 2e999, { a = 3e500 }]\n",
            "version = 1\n[clear_gap]\nrelative = 1e400 2\n",
            "version = 1\n[clear_gap]\nrelative = 0xFFFFFFFFFFFFFFFFFFFF\n",
            "version = 1\n[clear_gap]\nrelative = 1",
            "\0",
            "version = 1\n[a.b]\n[a]\n[a]\n",
            "é = 1\n",
            "version = 1\n\"é\" = 1\n",
        ];
        for content in inputs {
            let _ = resolve_text(None, content);
        }
    }
}
