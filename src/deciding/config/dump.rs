//! `--dump-config`: the effective thresholds as the reference prints them, a
//! config file that reads back to the same thresholds.

use super::Thresholds;
use super::keys::{CONFIG_VERSION, PRESET_NAME_KEY, PRESET_TABLE, VERSION_KEY, keys_of, sections};
use crate::pycompat::pyfmt::float_repr;

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
