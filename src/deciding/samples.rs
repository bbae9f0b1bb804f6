//! One run's bulk samples as NVBench's sidecars hold them: float32 sample
//! times and float32 SM clock frequencies.
//!
//! They stay float32, the sidecars' own 8 bytes per sample. Cycles (spec step
//! 2: `time * frequency` in float64, exact for two float32 factors) are made
//! where a statistic needs them instead of being stored, and the sorts read
//! the float32 bit patterns directly: widened float64 times and stored cycles
//! would cost 16 bytes per sample and side more, for no other result.

use super::coverage::{RunBits, SampleInterval, SortedUnique, sample_interval_of_bits};
use super::value_stats::{BitStats, float32_bit_stats, product_bit_stats};

/// Positive, finite sample times and frequencies of equal length.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BulkSamples {
    times: Vec<f32>,
    frequencies: Vec<f32>,
}

impl BulkSamples {
    /// `None` when either array is empty, holds a value that is not positive
    /// and finite, or the lengths differ (spec "Timing Data Used": such bulk
    /// data are unusable).
    pub fn new(times: Vec<f32>, frequencies: Vec<f32>) -> Option<Self> {
        let usable = times.len() == frequencies.len()
            && all_positive_finite(&times)
            && all_positive_finite(&frequencies);
        usable.then_some(BulkSamples { times, frequencies })
    }

    /// [`BulkSamples::new`] as `Ok`; else, when only the frequencies are
    /// missing or unusable, the times alone as `Err`, whose cycles are
    /// empty (the robust command tests times alone); `None` when the times
    /// are unusable.
    pub fn with_or_without_frequencies(
        times: Vec<f32>,
        frequencies: Option<Vec<f32>>,
    ) -> Option<Result<Self, Self>> {
        if !all_positive_finite(&times) {
            return None;
        }
        Some(match frequencies {
            Some(frequencies)
                if frequencies.len() == times.len() && all_positive_finite(&frequencies) =>
            {
                Ok(BulkSamples { times, frequencies })
            }
            _ => Err(BulkSamples {
                times,
                frequencies: Vec::new(),
            }),
        })
    }

    /// The samples of all runs, in run order.
    pub fn pooled(runs: &[&BulkSamples]) -> BulkSamples {
        let length = runs.iter().map(|r| r.len()).sum();
        let mut pooled = BulkSamples {
            times: Vec::with_capacity(length),
            frequencies: Vec::with_capacity(length),
        };
        for run in runs {
            pooled.times.extend_from_slice(&run.times);
            pooled.frequencies.extend_from_slice(&run.frequencies);
        }
        pooled
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Never true: empty arrays are unusable.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    pub fn times(&self) -> &[f32] {
        &self.times
    }

    pub fn frequencies(&self) -> &[f32] {
        &self.frequencies
    }

    /// Sample times, widened (exactly) to float64.
    pub fn times_f64(&self) -> impl ExactSizeIterator<Item = f64> + Clone + '_ {
        self.times.iter().map(|&t| f64::from(t))
    }

    /// Cycles, `time * frequency` in float64, in sample order.
    pub fn cycles(&self) -> impl ExactSizeIterator<Item = f64> + Clone + '_ {
        self.times
            .iter()
            .zip(&self.frequencies)
            .map(|(&t, &f)| f64::from(t) * f64::from(f))
    }

    /// The sample times as the coverage reads them.
    pub(in crate::deciding) fn time_bits(
        &self,
    ) -> RunBits<impl ExactSizeIterator<Item = u64> + Clone + '_, impl FnOnce() -> BitStats + '_>
    {
        RunBits {
            bits: self.times.iter().map(|t| u64::from(t.to_bits())),
            stats: || float32_bit_stats(&self.times),
            float32: true,
        }
    }

    /// The cycles as the coverage reads them.
    pub(in crate::deciding) fn cycle_bits(
        &self,
    ) -> RunBits<impl ExactSizeIterator<Item = u64> + Clone + '_, impl FnOnce() -> BitStats + '_>
    {
        RunBits {
            bits: self.cycles().map(f64::to_bits),
            stats: || product_bit_stats(&self.times, &self.frequencies),
            float32: false,
        }
    }

    /// `np.unique(times, return_counts=True)`.
    pub fn unique_times(&self) -> SortedUnique {
        self.time_bits().sorted_unique()
    }

    /// `np.unique(cycles, return_counts=True)`.
    pub fn unique_cycles(&self) -> SortedUnique {
        self.cycle_bits().sorted_unique()
    }

    /// The robust interval of the cycles (spec step 2).
    pub fn cycle_interval(&self) -> Option<SampleInterval> {
        // Positive finite float32 factors give positive finite products,
        // whose bit patterns order like the numbers.
        sample_interval_of_bits(self.cycles().map(f64::to_bits))
    }
}

/// Positive finite float32 values are those whose bit patterns, read as
/// `i32`, lie in `1..0x7f80_0000` (infinity; NaN above it, the negative
/// values and -0.0 below zero): two integer compares a value in a fold
/// without early exit, which vectorizes to fewer instructions than the
/// float tests. The baseline's four lanes took 1.25 instructions a
/// value, and every sample of both sidecars of both sides is tested.
fn all_positive_finite(values: &[f32]) -> bool {
    const INFINITY_BITS: i32 = 0x7f80_0000;
    !values.is_empty()
        && values.iter().fold(true, |ok, v| {
            let bits = v.to_bits() as i32;
            ok & (bits > 0) & (bits < INFINITY_BITS)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::coverage::tests::oracle;
    use crate::deciding::coverage::tests::support::{sample_interval, sorted_unique};

    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            crate::testing::xorshift_step(&mut state);
            state
        }
    }

    /// Times and frequencies as NVBench writes them: few distinct times
    /// (timer resolution) or nearly all distinct, and clocks that vary.
    fn samples(len: usize, distinct: bool, seed: u64) -> BulkSamples {
        let mut next = xorshift(seed);
        let times = (0..len)
            .map(|_| {
                let step = if distinct {
                    next() % 1_000_000
                } else {
                    next() % 40
                };
                1.0e-4 * (1.0 + step as f32 / 4096.0)
            })
            .collect();
        let frequencies = (0..len)
            .map(|_| 1.4e9 + (next() % 64) as f32 * 1.0e6)
            .collect();
        BulkSamples::new(times, frequencies).expect("usable")
    }

    #[test]
    fn only_positive_finite_equal_length_arrays_are_usable() {
        assert!(BulkSamples::new(vec![], vec![]).is_none());
        assert!(BulkSamples::new(vec![1.0, 2.0], vec![3.0]).is_none());
        assert!(BulkSamples::new(vec![1.0], vec![0.0]).is_none());
        assert!(BulkSamples::new(vec![1.0, -0.0], vec![1.0, 1.0]).is_none());
        assert!(BulkSamples::new(vec![f32::NAN], vec![1.0]).is_none());
        assert!(BulkSamples::new(vec![1.0], vec![f32::INFINITY]).is_none());
        let usable = BulkSamples::new(vec![1.1e-5, 2.0e-5], vec![1.41e9, 1.5e9]).unwrap();
        let (times, cycles) = oracle::time_and_cycles(&[1.1e-5, 2.0e-5], &[1.41e9, 1.5e9]).unwrap();
        assert_eq!(usable.times_f64().collect::<Vec<_>>(), times);
        assert_eq!(usable.cycles().collect::<Vec<_>>(), cycles);
    }

    #[test]
    fn positive_finite_by_bits_matches_the_float_tests() {
        let float_test = |v: f32| v.is_finite() && v > 0.0;
        let mut next = xorshift(9);
        let special = [
            0u32,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0x7f80_0001,
            0x7fc0_0000,
            0x7fff_ffff,
            0x8000_0000,
            0x8000_0001,
            0xbf80_0000,
            0xff80_0000,
            0xffc0_0000,
            0xffff_ffff,
        ];
        let random = (0..100_000).map(|_| next() as u32);
        for bits in special.into_iter().chain(random) {
            let v = f32::from_bits(bits);
            assert_eq!(all_positive_finite(&[v]), float_test(v), "{bits:#x}");
            // Inside a vectorized stretch too, at every position of a lane.
            let mut values = vec![1.0f32; 37];
            values[bits as usize % 37] = v;
            assert_eq!(all_positive_finite(&values), float_test(v), "{bits:#x}");
        }
        assert!(!all_positive_finite(&[]));
    }

    #[test]
    fn unique_times_and_cycles_match_the_float64_oracle() {
        for (len, distinct, seed) in [
            (1, false, 1),
            (2, true, 2),
            (1000, false, 3),
            (5000, true, 4),
        ] {
            let bulk = samples(len, distinct, seed);
            let times: Vec<f64> = bulk.times_f64().collect();
            let cycles: Vec<f64> = bulk.cycles().collect();
            assert_eq!(bulk.unique_times(), oracle::sorted_unique(&times), "{len}");
            assert_eq!(
                bulk.unique_cycles(),
                oracle::sorted_unique(&cycles),
                "{len}"
            );
            assert_eq!(bulk.unique_times(), sorted_unique(&times));
            assert_eq!(
                bulk.cycle_interval(),
                oracle::sample_interval(&cycles),
                "{len}"
            );
            assert_eq!(bulk.cycle_interval(), sample_interval(&cycles));
        }
    }

    #[test]
    fn pooled_samples_keep_run_order() {
        let (a, b) = (samples(3, true, 5), samples(2, false, 6));
        let pooled = BulkSamples::pooled(&[&a, &b]);
        assert_eq!(pooled.len(), 5);
        let expected: Vec<f64> = a.cycles().chain(b.cycles()).collect();
        assert_eq!(pooled.cycles().collect::<Vec<_>>(), expected);
        assert_eq!(&pooled.times()[..3], a.times());
    }
}
