//! The built-in presets, read from the thresholds table.

use super::keys::PresetValues;
use super::{Thresholds, messages};

/// Preset names in the order argparse lists `--preset` choices (sorted).
pub const PRESET_NAMES: [&str; 3] = ["default", "permissive", "strict"];

/// The preset when neither the command line nor the file names one.
pub(super) const DEFAULT_PRESET: &str = "default";

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

pub(super) fn known_preset(name: &str) -> Result<Thresholds, String> {
    preset(name).ok_or_else(|| messages::unknown_preset(name))
}
