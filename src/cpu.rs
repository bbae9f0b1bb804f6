//! The CPU's vector extensions, detected once: the JSON reader's AVX2
//! classifier runs only where [`level`] allows it, never on the simple
//! paths ([`crate::fast_paths`]).

use std::sync::OnceLock;

/// What the CPU can run, from the least to the most. Each level has every
/// feature of the ones below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// x86-64 without extensions, or any other target.
    Baseline,
    /// AVX2 with BMI1, BMI2, POPCNT and PCLMULQDQ (every AVX2 CPU has
    /// them; the JSON reader's classifier uses them).
    Avx2,
}

/// The CPU's level, or the baseline when the simple paths were asked for.
pub(crate) fn level() -> Level {
    if crate::fast_paths::simple_paths() {
        return Level::Baseline;
    }
    static DETECTED: OnceLock<Level> = OnceLock::new();
    *DETECTED.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    use std::arch::is_x86_feature_detected as has;
    let avx2 = has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt");
    if avx2 && has!("pclmulqdq") {
        Level::Avx2
    } else {
        Level::Baseline
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Baseline
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simple_paths_take_the_baseline() {
        let simple = crate::fast_paths::with_simple_paths(level);
        assert_eq!(simple, Level::Baseline);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn a_level_implies_its_features() {
        let level = level();
        if level >= Level::Avx2 {
            for feature in [
                std::arch::is_x86_feature_detected!("avx2"),
                std::arch::is_x86_feature_detected!("bmi2"),
                std::arch::is_x86_feature_detected!("pclmulqdq"),
            ] {
                assert!(feature);
            }
        }
    }
}
