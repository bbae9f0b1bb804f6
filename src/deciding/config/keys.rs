//! The table of thresholds: each one's TOML table and key, the field of
//! [`Thresholds`] it sets, the values it accepts and its preset values, and
//! the layout of the config document that follows from it. Parsing, hints,
//! presets, `--dump-config` and the JSON and markdown reports all read it.

use super::Thresholds;
use crate::personality::Rules;

/// The only config version there is.
pub(super) const CONFIG_VERSION: i64 = 1;

/// The top-level keys besides the threshold tables, and the one key of `[preset]`.
pub(super) const VERSION_KEY: &str = "version";
pub(super) const PRESET_TABLE: &str = "preset";
pub(super) const PRESET_NAME_KEY: &str = "name";

/// The values a threshold accepts besides being a finite number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// `>= 0`.
    NonNegative,
    /// `>= 0` and `<= 1`.
    Fraction,
    /// One of these words (a string in TOML); the field holds its index,
    /// so that one accessor type serves every key.
    Choice(&'static [&'static str]),
}

impl Bound {
    /// Inclusive lower bound and optional inclusive upper bound.
    pub(super) fn range(self) -> (f64, Option<f64>) {
        match self {
            Bound::NonNegative => (0.0, None),
            Bound::Fraction => (0.0, Some(1.0)),
            Bound::Choice(words) => (0.0, Some(words.len() as f64 - 1.0)),
        }
    }
}

/// `clear_gap.without_clock`: what a clear timing gap of an input without
/// any clock domain (Google Benchmark) needs, there being no SM clock to
/// confirm it in cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithoutClock {
    /// Confirmed by the time intervals alone (`clear_gap_time_only`).
    Confirm,
    /// Never confirmed: AMBG `missing_clock_rate`, as for NVBench.
    Ambg,
}

/// The words of `clear_gap.without_clock`, by index.
pub const WITHOUT_CLOCK_WORDS: [&str; 2] = ["confirm", "ambg"];

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

    /// The word of a choice key's value (`None` for a number).
    pub fn word(&self, thresholds: &Thresholds) -> Option<&'static str> {
        match self.bound {
            Bound::Choice(words) => words.get(self.value(thresholds) as usize).copied(),
            _ => None,
        }
    }

    /// The value as TOML writes it: Python's `repr` of a number, a quoted word.
    pub fn toml_text(&self, thresholds: &Thresholds) -> String {
        match self.word(thresholds) {
            Some(word) => format!("\"{word}\""),
            None => crate::pycompat::pyfmt::float_repr(self.value(thresholds)),
        }
    }

    /// Not one of the reference's keys (it would refuse it as unknown):
    /// `--dump-config` prints it only where it matters, so that every
    /// config the reference reads dumps as the reference dumps it.
    pub fn is_extension(&self) -> bool {
        self.section == "clear_gap" && self.name == "without_clock"
    }
}

/// Every threshold, grouped by table, in the reference's order: the order
/// it validates them (which decides which error wins when several values
/// are invalid), dumps them and reports them. A table's sub-tables follow
/// it, as `bulk.rare_support` follows `bulk`.
pub const KEYS: [Key; 9] = [
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
        section: "clear_gap",
        name: "without_clock",
        field: |t| &mut t.clear_gap_without_clock,
        bound: Bound::Choice(&WITHOUT_CLOCK_WORDS),
        // confirm, confirm, ambg.
        presets: PresetValues {
            default: 0.0,
            permissive: 0.0,
            strict: 1.0,
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
pub(super) fn sections() -> impl Iterator<Item = &'static str> {
    KEYS.iter()
        .enumerate()
        .filter(|(i, key)| *i == 0 || KEYS[i - 1].section != key.section)
        .map(|(_, key)| key.section)
}

/// The threshold tables directly inside `parent` (`""`: the top level),
/// with the key that names each in its parent.
pub(super) fn child_sections(
    parent: &str,
) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    sections().filter_map(move |section| {
        let (above, leaf) = section.rsplit_once('.').unwrap_or(("", section));
        (above == parent).then_some((section, leaf))
    })
}

pub(super) fn keys_of(section: &str) -> impl Iterator<Item = &'static Key> + '_ {
    KEYS.iter().filter(move |key| key.section == section)
}

/// The keys a table may hold: for a threshold table its thresholds and
/// sub-tables; at the top level the version, `[preset]` and the tables.
pub(super) fn known_keys(section: &str) -> Vec<&'static str> {
    let fixed = if section.is_empty() {
        vec![VERSION_KEY, PRESET_TABLE]
    } else {
        Vec::new()
    };
    let thresholds = keys_of(section).map(|key| key.name);
    let tables = child_sections(section).map(|(_, leaf)| leaf);
    fixed.into_iter().chain(thresholds).chain(tables).collect()
}

impl Thresholds {
    /// Every field set from its row of [`KEYS`].
    pub(super) fn from_keys(value: impl Fn(&Key) -> f64) -> Self {
        // Each field has exactly one row (tested), so none stays NaN.
        let mut thresholds = Thresholds {
            clear_gap_relative: f64::NAN,
            clear_gap_without_clock: f64::NAN,
            same_center_relative: f64::NAN,
            same_overlap_fraction: f64::NAN,
            same_relative_dispersion_ceiling: f64::NAN,
            bulk_sample_coverage: f64::NAN,
            bulk_support_coverage: f64::NAN,
            rare_sample_fraction: f64::NAN,
            rare_max_removed_sample_fraction: f64::NAN,
            rules: Rules::default(),
        };
        for key in &KEYS {
            *(key.field)(&mut thresholds) = value(key);
        }
        thresholds
    }

    /// `clear_gap.without_clock`.
    pub fn without_clock(&self) -> WithoutClock {
        if self.clear_gap_without_clock == 1.0 {
            WithoutClock::Ambg
        } else {
            WithoutClock::Confirm
        }
    }
}
