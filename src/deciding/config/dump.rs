//! `--dump-config`: the effective thresholds as the reference prints them, a
//! config file that reads back to the same thresholds.

use super::Thresholds;
use super::keys::{CONFIG_VERSION, PRESET_NAME_KEY, PRESET_TABLE, VERSION_KEY, keys_of, sections};

/// Exactly the reference's `--dump-config` text (ends with a newline). A
/// key of this tool's own is printed when its value is not the preset's,
/// or when `all` (`--format gbench`) asks for it.
pub fn dump(preset_name: &str, thresholds: &Thresholds, all: bool) -> String {
    let preset = super::preset(preset_name).unwrap_or_default();
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
            let differs = key.value(thresholds) != key.value(&preset);
            if key.is_extension() && !differs && !all {
                continue;
            }
            lines.push(format!("{} = {}", key.name, key.toml_text(thresholds)));
        }
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
