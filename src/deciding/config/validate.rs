//! Validating a parsed config document in the reference's order, into the
//! preset it names and the thresholds it sets.

use toml::{Table, Value};

use super::keys::{
    CONFIG_VERSION, Key, PRESET_NAME_KEY, PRESET_TABLE, VERSION_KEY, child_sections, keys_of,
    known_keys,
};
use super::presets::known_preset;
use super::tomllib::{OversizedInteger, ParsedToml};
use super::{ConfigFile, messages};

/// Checks the document in the reference's order: unknown top-level keys,
/// version, `[preset]`, `[clear_gap]`, `[same]`, `[bulk]`, `[bulk.rare_support]`.
pub(super) fn interpret_config(parsed: &ParsedToml) -> Result<ConfigFile, String> {
    let document = &parsed.table;
    if let Some(unknown) = unknown_keys(document, &known_keys("")) {
        return Err(messages::unknown_top_level_keys(&unknown));
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
    match version {
        Some(Value::Integer(CONFIG_VERSION)) => Ok(()),
        Some(Value::Integer(other)) => Err(messages::unsupported_version(&other.to_string())),
        // A float here may be an oversized integer literal in disguise. (A float
        // version equal to an oversized integer written elsewhere would be
        // mistaken for it; both are errors either way.)
        Some(Value::Float(value)) => match oversized_integers.iter().find(|i| i.as_float == *value)
        {
            Some(integer) => Err(messages::unsupported_version(&integer.python_repr)),
            None => Err(messages::missing_version()),
        },
        _ => Err(messages::missing_version()),
    }
}

fn read_preset_table(value: &Value) -> Result<Option<String>, String> {
    let table = expect_table(value, PRESET_TABLE)?;
    if let Some(unknown) = unknown_keys(table, &[PRESET_NAME_KEY]) {
        return Err(messages::unknown_keys_in(PRESET_TABLE, &unknown));
    }
    let Some(name) = table.get(PRESET_NAME_KEY) else {
        return Ok(None);
    };
    let Value::String(name) = name else {
        return Err(messages::not_a_string(&format!(
            "{PRESET_TABLE}.{PRESET_NAME_KEY}"
        )));
    };
    known_preset(name)?;
    Ok(Some(name.clone()))
}

/// Reads the threshold tables directly inside `parent` (`""`: the top
/// level) that `table` holds, in [`KEYS`](super::KEYS) order.
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
        return Err(messages::unknown_keys_in(section, &unknown));
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
        _ => Err(messages::not_a_table(table_name)),
    }
}

/// Keys of `table` outside `known`, sorted and comma-separated, if any.
pub(super) fn unknown_keys(table: &Table, known: &[&str]) -> Option<String> {
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
    let key = threshold.full_name();
    if let super::keys::Bound::Choice(words) = threshold.bound {
        let word = match value {
            Value::String(word) => words.iter().position(|w| w == word),
            _ => None,
        };
        return word.map(|index| index as f64).ok_or_else(|| {
            let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("config value '{key}' must be one of {}", quoted.join(", "))
        });
    }
    let number = match value {
        Value::Integer(integer) => *integer as f64,
        Value::Float(float) => *float,
        _ => return Err(messages::not_a_number(&key)),
    };
    if !number.is_finite() {
        return Err(messages::not_finite(&key));
    }
    let (minimum, maximum) = threshold.bound.range();
    if number < minimum {
        return Err(messages::below_minimum(&key, minimum));
    }
    if let Some(maximum) = maximum.filter(|maximum| number > *maximum) {
        return Err(messages::above_maximum(&key, maximum));
    }
    Ok(number)
}
