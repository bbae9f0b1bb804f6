//! Sorted runs: `np.unique(values, return_counts=True)` of a run's bulk
//! samples, radix sorted on their bit patterns (see [`super::super::radix`]
//! for why that sort, and not a comparison sort, is the one used).

use super::super::radix::{LARGE_LEN, RadixKey, give_back, sort_keys, take_buffer};
use super::super::value_stats::BitStats;
use super::few_distinct::unique_if_few;

/// Distinct values in ascending order with their occurrence counts, like
/// `np.unique(values, return_counts=True)`. Compute it once per array.
#[derive(Clone, Debug, PartialEq)]
pub struct SortedUnique {
    pub values: Vec<f64>,
    pub counts: Vec<u64>,
}

/// Minimum, maximum, AND and OR of a set of keys.
pub(super) type KeyStats = BitStats;

/// Ascending positive finite values as reduced keys: the value of reduced
/// key `r` has the bit pattern `(r << shift) + min` (as float32 bits when
/// `float32`). Only the bits that vary are kept: the low `shift` bits are
/// the same in every key (cycles, products of two float32 values, end in
/// zero bits), and subtracting the minimum keeps the order.
pub(super) struct SortedBits {
    pub(super) keys: Reduced,
    pub(super) shift: u32,
    pub(super) min: u64,
    pub(super) float32: bool,
}

pub(super) enum Reduced {
    /// At most 32 varying bits (sample times, float32 patterns).
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl SortedBits {
    pub(super) fn value(&self, reduced: u64) -> f64 {
        let bits = (reduced << self.shift) + self.min;
        if self.float32 {
            f64::from(f32::from_bits(bits as u32))
        } else {
            f64::from_bits(bits)
        }
    }

    pub(super) fn unique(mut self) -> SortedUnique {
        if let Reduced::Wide(keys) = &mut self.keys
            && keys.len() > LARGE_LEN
        {
            let keys = std::mem::take(keys);
            return unique_in_place(keys, |r| self.value(r));
        }
        let (shift, min) = (self.shift, self.min);
        match (&self.keys, self.float32) {
            (Reduced::Narrow(keys), true) => unique_keys(keys, move |r: u32| {
                f64::from(f32::from_bits(((u64::from(r) << shift) + min) as u32))
            }),
            (Reduced::Narrow(keys), false) => {
                unique_keys(keys, |r| f64::from_bits((u64::from(r) << shift) + min))
            }
            // Cycles: no float32 test a key.
            (Reduced::Wide(keys), false) => {
                unique_keys(keys, move |r: u64| f64::from_bits((r << shift) + min))
            }
            (Reduced::Wide(keys), true) => unique_keys(keys, |r| self.value(r)),
        }
    }
}

impl Drop for SortedBits {
    fn drop(&mut self) {
        match &mut self.keys {
            Reduced::Narrow(keys) => give_back(u32::pool(), std::mem::take(keys)),
            Reduced::Wide(keys) => give_back(u64::pool(), std::mem::take(keys)),
        }
    }
}

/// One run's values of one kind as the coverage reads them: their bit
/// patterns (float32 patterns when `float32`), and the patterns'
/// statistics, asked for only when the values are sorted (arrays of few
/// distinct values are counted without).
pub(in crate::deciding) struct RunBits<I, S> {
    pub bits: I,
    pub stats: S,
    pub float32: bool,
}

impl<I, S> RunBits<I, S>
where
    I: ExactSizeIterator<Item = u64> + Clone,
    S: FnOnce() -> BitStats,
{
    /// `np.unique(values, return_counts=True)` of these positive finite
    /// values.
    pub(in crate::deciding) fn sorted_unique(self) -> SortedUnique {
        self.counted_if_few().unwrap_or_else(|| self.sorted())
    }

    /// The unique values when there are none or few (counted, not sorted).
    pub(super) fn counted_if_few(&self) -> Option<SortedUnique> {
        if self.bits.len() == 0 {
            return Some(SortedUnique {
                values: Vec::new(),
                counts: Vec::new(),
            });
        }
        unique_if_few(self.bits.clone(), self.float32)
    }

    /// The unique values by a sort.
    pub(super) fn sorted(self) -> SortedUnique {
        sort_bits(self.bits, (self.stats)(), self.float32).unique()
    }
}

/// Radix sorts the reduced keys of the bit patterns `bits`.
pub(super) fn sort_bits(
    bits: impl Iterator<Item = u64>,
    stats: KeyStats,
    float32: bool,
) -> SortedBits {
    let shift = ((stats.any ^ stats.all) | 1 << 63).trailing_zeros();
    let (min, span) = (stats.min, (stats.max - stats.min) >> shift);
    let width = u64::BITS - span.leading_zeros();
    let reduce = move |key: u64| (key - min) >> shift;
    let keys = if width <= 32 {
        let mut keys = reduced_keys(bits, move |key| reduce(key) as u32);
        sort_keys(&mut keys, width);
        Reduced::Narrow(keys)
    } else {
        let mut keys = reduced_keys(bits, reduce);
        sort_keys(&mut keys, width);
        Reduced::Wide(keys)
    };
    SortedBits {
        keys,
        shift,
        min,
        float32,
    }
}

/// The keys `reduce` makes of `bits`, in a buffer of this thread's pool.
fn reduced_keys<K: RadixKey>(bits: impl Iterator<Item = u64>, reduce: impl Fn(u64) -> K) -> Vec<K> {
    let mut keys = take_buffer(K::pool());
    keys.extend(bits.map(reduce));
    keys
}

/// Runs of equal keys in ascending `keys`. The runs are counted first, so
/// that the outputs are allocated at their exact size: no buffer of a slot
/// per sample (800 MB with 10^8 distinct samples), and none shrunk in place,
/// which left the heap fragmented (peak RSS 40 -> 100 MB on the 2,000-state
/// bulk pair).
fn unique_keys<K: Copy + PartialEq>(keys: &[K], value: impl Fn(K) -> f64) -> SortedUnique {
    let runs = keys.chunk_by(|a, b| a == b);
    let mut values = Vec::with_capacity(runs.clone().count());
    let mut counts = Vec::with_capacity(values.capacity());
    for run in runs {
        values.push(value(run[0]));
        counts.push(run.len() as u64);
    }
    SortedUnique { values, counts }
}

/// [`unique_keys`] of a huge run, reusing the keys' buffer for the values:
/// with every value distinct, a second buffer would add a sidecar's worth.
fn unique_in_place(mut keys: Vec<u64>, value: impl Fn(u64) -> f64) -> SortedUnique {
    let runs = 1 + keys.windows(2).filter(|pair| pair[0] != pair[1]).count();
    let mut counts = Vec::with_capacity(runs);
    let mut run_start = 0;
    for i in 1..=keys.len() {
        if i == keys.len() || keys[i] != keys[i - 1] {
            // The run's key moves down to its slot: `counts.len() <= i - 1`.
            keys[counts.len()] = keys[i - 1];
            counts.push((i - run_start) as u64);
            run_start = i;
        }
    }
    keys.truncate(runs);
    keys.shrink_to_fit();
    // Same size and alignment: collected in place.
    let values = keys.into_iter().map(value).collect();
    SortedUnique { values, counts }
}
