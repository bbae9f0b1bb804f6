//! "Did you mean" notes for a config file that failed validation: unknown
//! keys in every table and an unknown preset name, printed on stderr beside
//! the reference's message.

use toml::{Table, Value};

use super::keys::{PRESET_NAME_KEY, PRESET_TABLE, child_sections, known_keys};
use super::presets::{PRESET_NAMES, preset};
use super::reading::{decode_utf8, read_config_bytes};
use super::tomllib::parse_toml;
use crate::suggest::{close_names, did_you_mean};

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
    if let Some(Value::String(name)) = preset_name
        && preset(name).is_none()
        && let Some(hint) = did_you_mean(&close_names(name, PRESET_NAMES))
    {
        hints.push(format!("unknown preset '{name}': {hint}"));
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
