//! Comparison thresholds: the one table of keys ([`keys`]) that the built-in
//! [`presets`], the strict version-1 TOML config file ([`reading`],
//! [`tomllib`], [`validate`]), the unknown-key [`hints`] and the
//! `--dump-config` text ([`dump`]) all follow, and preset precedence
//! ([`resolve`]).
//!
//! Every rejection returns the exact line the reference prints on stdout before
//! exiting with status 1 ([`messages`]), so callers only print the `Err` text
//! and exit.

mod dump;
mod hints;
mod keys;
mod messages;
mod presets;
mod reading;
#[cfg(test)]
mod tests;
mod tomllib;
mod validate;

pub use dump::dump;
pub use hints::unknown_key_hints;
pub use keys::{Bound, KEYS, Key, PresetValues, WITHOUT_CLOCK_WORDS, WithoutClock};
pub use presets::{PRESET_NAMES, preset};

use crate::personality::{Dialect, Rules};
use presets::{DEFAULT_PRESET, known_preset};
use reading::{decode_utf8, read_config_bytes};
use tomllib::parse_toml;
use validate::interpret_config;

/// The thresholds that steer every comparison decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub clear_gap_relative: f64,
    /// `clear_gap.without_clock` as the index of its word (see [`Thresholds::without_clock`]).
    pub clear_gap_without_clock: f64,
    pub same_center_relative: f64,
    pub same_overlap_fraction: f64,
    pub same_relative_dispersion_ceiling: f64,
    pub bulk_sample_coverage: f64,
    pub bulk_support_coverage: f64,
    pub rare_sample_fraction: f64,
    pub rare_max_removed_sample_fraction: f64,
    /// The variant of the decision tree these thresholds steer (not a key:
    /// the command chooses it).
    pub rules: Rules,
}

/// What a config file contributes: an optional base preset and explicit values.
#[derive(Default)]
struct ConfigFile {
    preset_name: Option<String>,
    overrides: Vec<(&'static Key, f64)>,
}

/// Effective preset name and thresholds: default < TOML `[preset] name` <
/// CLI preset < explicit TOML values, for the command of `dialect` (its
/// rules, and its own default preset values).
///
/// `Err` carries exactly the text the reference prints on stdout (then exits 1).
pub fn resolve(
    cli_preset: Option<&str>,
    config_path: Option<&str>,
    dialect: &Dialect,
) -> Result<(String, Thresholds), String> {
    // (Choice keys hold the index of their word: see `keys::Bound::Choice`.)
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
    thresholds.rules = dialect.rules;
    if let ("permissive", Some(coverage)) = (preset_name, dialect.permissive_sample_coverage) {
        thresholds.bulk_sample_coverage = coverage;
    }
    for (key, value) in &config.overrides {
        *(key.field)(&mut thresholds) = *value;
    }
    Ok((preset_name.to_string(), thresholds))
}

fn read_config_file(path: &str) -> Result<ConfigFile, String> {
    let bytes = read_config_bytes(path)?;
    let text = decode_utf8(bytes)?;
    let parsed = parse_toml(&text).map_err(|detail| messages::parse_failed(path, &detail))?;
    interpret_config(&parsed)
}
