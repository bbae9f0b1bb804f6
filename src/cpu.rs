//! The CPU's vector extensions, detected once, and the one way the crate
//! runs code compiled for them.
//!
//! The hot loops of the decisions are written once, as portable code the
//! compiler vectorizes, and compiled for every [`Level`] by
//! [`multiversioned!`]: x86-64's baseline has two `f64` lanes and no
//! shift by a count in any register, AVX2 and BMI2 have four lanes and
//! `shlx`/`shrx`. [`level`] picks the build at run time. With the simple
//! paths ([`crate::fast_paths`]) it is always the baseline, so that a
//! decision can be checked on the scalar build.

use std::sync::OnceLock;

/// What the CPU can run, from the least to the most. Each level has every
/// feature of the ones below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// x86-64 without extensions, or any other target.
    Baseline,
    /// AVX2 with BMI1, BMI2, POPCNT and PCLMULQDQ (every AVX2 CPU has
    /// them; the JSON reader's classifier and the sorts use them all).
    Avx2,
    /// AVX-512F besides.
    Avx512,
}

/// The level the vectorized loops run at: the CPU's, or the baseline when
/// the simple paths were asked for.
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
    match (avx2 && has!("pclmulqdq"), has!("avx512f")) {
        (true, true) => Level::Avx512,
        (true, false) => Level::Avx2,
        (false, _) => Level::Baseline,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Baseline
}

/// Defines a function whose body is compiled for every [`Level`] up to
/// `widest` and run at [`level`] (at most `widest`). The body is portable
/// code (loops the compiler vectorizes, `#[inline(always)]` helpers): it
/// is written once and given the target features of each level, so that
/// the helpers inlined into it are compiled with them.
///
/// Generic parameters take bounds of plain trait names (`K: Copy + Ord`);
/// arguments are plain names.
///
/// ```ignore
/// multiversioned! {
///     widest: Avx2;
///     /// Documentation of `sum`.
///     pub(crate) fn sum(values: &[u64]) -> u64 {
///         values.iter().sum()
///     }
/// }
/// ```
macro_rules! multiversioned {
    (
        widest: $widest:ident;
        $(#[$attr:meta])*
        $vis:vis fn $name:ident $(<$($generic:ident: $bound:ident $(+ $more:ident)*),+>)?
            ($($arg:ident: $ty:ty),* $(,)?) $(-> $out:ty)?
        $body:block
    ) => {
        $(#[$attr])*
        $vis fn $name $(<$($generic: $bound $(+ $more)*),+>)? ($($arg: $ty),*) $(-> $out)? {
            #[cfg(target_arch = "x86_64")]
            {
                use $crate::cpu::Level;
                #[target_feature(enable = "avx512f,avx2,bmi1,bmi2,popcnt,pclmulqdq")]
                fn avx512 $(<$($generic: $bound $(+ $more)*),+>)? ($($arg: $ty),*) $(-> $out)?
                    $body
                #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
                fn avx2 $(<$($generic: $bound $(+ $more)*),+>)? ($($arg: $ty),*) $(-> $out)?
                    $body
                let level = $crate::cpu::level().min(Level::$widest);
                if level != Level::Baseline {
                    // SAFETY: `level` gives a level only on CPUs that have
                    // every feature of it, and the one called is that
                    // level's build.
                    return unsafe {
                        if level == Level::Avx512 {
                            avx512($($arg),*)
                        } else {
                            avx2($($arg),*)
                        }
                    };
                }
            }
            $body
        }
    };
}

pub(crate) use multiversioned;

#[cfg(test)]
mod tests {
    use super::*;

    multiversioned! {
        widest: Avx512;
        fn count_below<K: Copy + PartialOrd>(values: &[K], limit: K) -> usize {
            values.iter().filter(|&&v| v < limit).count()
        }
    }

    #[test]
    fn every_build_gives_the_portable_result() {
        let values: Vec<u32> = (0..1000).collect();
        assert_eq!(count_below(&values, 600), 600);
        let simple = crate::fast_paths::with_simple_paths(|| (level(), count_below(&values, 7)));
        assert_eq!(simple, (Level::Baseline, 7));
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
        if level == Level::Avx512 {
            assert!(std::arch::is_x86_feature_detected!("avx512f"));
        }
    }
}
