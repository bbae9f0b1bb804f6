//! Sorted runs: `np.unique(values, return_counts=True)` of a run's bulk
//! samples, radix sorted on their bit patterns (see [`super::super::radix`]
//! for why that sort, and not a comparison sort, is the one used).

use std::mem::MaybeUninit;

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

crate::cpu::multiversioned! {
    widest: Avx2;
    /// The keys `reduce` makes of `bits`, in a buffer of this thread's pool.
    ///
    /// Compiled for AVX2 too: cycles are made here (two widenings and a
    /// product a key), in four lanes instead of two.
    fn reduced_keys<K: RadixKey>(
        bits: impl Iterator<Item = u64>,
        reduce: impl Fn(u64) -> K,
    ) -> Vec<K> {
        reduced_keys_lanes(bits, reduce)
    }
}

#[inline(always)]
fn reduced_keys_lanes<K: RadixKey>(
    bits: impl Iterator<Item = u64>,
    reduce: impl Fn(u64) -> K,
) -> Vec<K> {
    let mut keys = take_buffer(K::pool());
    keys.extend(bits.map(reduce));
    keys
}

/// Runs of equal keys in ascending `keys`, without a data-dependent branch.
fn unique_keys<K: Copy + PartialEq>(keys: &[K], value: impl Fn(K) -> f64) -> SortedUnique {
    if keys.len() > LARGE_LEN {
        return unique_keys_counted(keys, value);
    }
    unique_keys_in_slots(keys, value)
}

crate::cpu::multiversioned! {
    widest: Avx2;
    /// [`unique_keys_one_pass`], compiled for BMI2 and AVX2 too: every
    /// key's value shifts the key by a count known only at run time
    /// (`shlx` needs no copy into `cl`), and the runs are copied out in
    /// wider lanes.
    fn unique_keys_in_slots<K: Copy + PartialEq>(
        keys: &[K],
        value: impl Fn(K) -> f64,
    ) -> SortedUnique {
        unique_keys_one_pass(keys, value)
    }
}

/// Keys taken together by [`unique_runs`] when each differs from the next.
pub(super) const CHUNK: usize = 8;

/// [`unique_keys`] in one pass: every key writes its value and its run's
/// end to the slot of its run, which the run's last key leaves right. The
/// slots are a slot per key (written before read, never zeroed; arrays of
/// at most `LARGE_LEN` keys), cut to the runs but not shrunk: outputs
/// shrunk in place by the allocator left the heap fragmented (peak RSS 40
/// -> 100 MB on the 2,000-state bulk pair).
#[inline(always)]
fn unique_keys_one_pass<K: Copy + PartialEq>(keys: &[K], value: impl Fn(K) -> f64) -> SortedUnique {
    unique_runs(
        keys,
        &value,
        |chunk: &[K; CHUNK], out: &mut [MaybeUninit<f64>; CHUNK]| {
            for (slot, &key) in out.iter_mut().zip(chunk) {
                slot.write(value(key));
            }
        },
    )
}

/// [`unique_keys_one_pass`] with the values of a chunk of `CHUNK` keys
/// that each differ from the next written by `chunk_values` (see
/// [`super::unique_lanes`]), which must write what `value` gives.
#[inline(always)]
pub(super) fn unique_runs<K: Copy + PartialEq>(
    keys: &[K],
    value: impl Fn(K) -> f64,
    chunk_values: impl Fn(&[K; CHUNK], &mut [MaybeUninit<f64>; CHUNK]),
) -> SortedUnique {
    let Some(&last) = keys.last() else {
        return SortedUnique {
            values: Vec::new(),
            counts: Vec::new(),
        };
    };
    let n = keys.len();
    let mut values = Vec::with_capacity(n);
    let mut ends = Vec::with_capacity(n);
    let (value_slots, end_slots) = (values.spare_capacity_mut(), ends.spare_capacity_mut());
    // The key at `i` writes its value and its end to the slot of its run,
    // and the next key goes to the next slot when it differs.
    let step = |value_slots: &mut [MaybeUninit<f64>],
                end_slots: &mut [MaybeUninit<u64>],
                run: usize,
                i: usize| {
        // SAFETY: `run <= i < n`, within the room of both buffers.
        unsafe {
            value_slots.get_unchecked_mut(run).write(value(keys[i]));
            end_slots.get_unchecked_mut(run).write(i as u64 + 1);
        }
    };
    let mut run = 0;
    // Sorted samples are mostly distinct: a chunk of keys that each differ
    // from the next fills as many slots at once.
    let mut i = 0;
    while let Some(window) = keys.get(i..i + CHUNK + 1) {
        let window: &[K; CHUNK + 1] = window.try_into().expect("CHUNK + 1 keys");
        // Counted without branches (`&&` would test the pairs one by one).
        let equal_pairs = (0..CHUNK).fold(0u32, |equal, k| {
            equal | u32::from(window[k] == window[k + 1])
        });
        // `run <= i`: the chunk's slots are within the room.
        if equal_pairs == 0 {
            let chunk: &[K; CHUNK] = window[..CHUNK].try_into().expect("CHUNK keys");
            let value_out: &mut [MaybeUninit<f64>; CHUNK] = (&mut value_slots[run..run + CHUNK])
                .try_into()
                .expect("CHUNK slots");
            chunk_values(chunk, value_out);
            let end_out: &mut [MaybeUninit<u64>; CHUNK] = (&mut end_slots[run..run + CHUNK])
                .try_into()
                .expect("CHUNK slots");
            for (k, slot) in end_out.iter_mut().enumerate() {
                slot.write((i + k) as u64 + 1);
            }
            run += CHUNK;
        } else {
            for k in 0..CHUNK {
                step(value_slots, end_slots, run, i + k);
                run += usize::from(window[k] != window[k + 1]);
            }
        }
        i += CHUNK;
    }
    for i in i..n - 1 {
        step(value_slots, end_slots, run, i);
        run += usize::from(keys[i] != keys[i + 1]);
    }
    value_slots[run].write(value(last));
    end_slots[run].write(n as u64);
    // SAFETY: every slot up to `run` was written: `run` only grows by one
    // a key, and each key writes the slot it is at (a chunk's values by
    // `chunk_values`, which writes all of its slots).
    unsafe {
        values.set_len(run + 1);
        ends.set_len(run + 1);
    }
    SortedUnique {
        values,
        counts: counts_of_ends(ends),
    }
}

/// The run ends become the counts in place.
fn counts_of_ends(mut ends: Vec<u64>) -> Vec<u64> {
    // Each end less the one before as it was read (a recurrence on loaded
    // values only, which vectorizes).
    let mut before = 0;
    for end in &mut ends {
        let this = *end;
        *end = this - before;
        before = this;
    }
    ends
}

/// [`unique_keys`] of a huge run: counting the runs first sizes the
/// outputs exactly, so no buffer of one slot per sample is needed (with
/// 10^8 distinct samples that buffer alone was 800 MB). Only the last key
/// of each run is turned into its value.
fn unique_keys_counted<K: Copy + PartialEq>(keys: &[K], value: impl Fn(K) -> f64) -> SortedUnique {
    let n = keys.len();
    if n == 0 {
        return SortedUnique {
            values: Vec::new(),
            counts: Vec::new(),
        };
    }
    let runs = 1 + keys.windows(2).filter(|pair| pair[0] != pair[1]).count();
    // `ends[u]` is one past the last index of run `u`; every slot is written
    // before it is read.
    let mut ends = vec![0u64; runs];
    let mut run = 0;
    for (i, pair) in keys.windows(2).enumerate() {
        ends[run] = i as u64 + 1;
        run += usize::from(pair[0] != pair[1]);
    }
    ends[run] = n as u64;
    let values = ends
        .iter()
        .map(|&end| value(keys[end as usize - 1]))
        .collect();
    SortedUnique {
        values,
        counts: counts_of_ends(ends),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        crate::testing::xorshift_step(state)
    }

    /// Ascending keys with runs of random lengths (1 to `longest`).
    fn runs_of_keys(state: &mut u64, n: usize, longest: u64) -> Vec<u64> {
        let mut keys = Vec::with_capacity(n);
        let mut key = xorshift(state) % 1000;
        while keys.len() < n {
            let run = 1 + xorshift(state) % longest;
            keys.extend((0..run).map(|_| key).take(n - keys.len()));
            key += 1 + xorshift(state) % 3;
        }
        keys
    }

    fn same(a: &SortedUnique, b: &SortedUnique) -> bool {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        bits(&a.values) == bits(&b.values) && a.counts == b.counts
    }

    #[test]
    fn one_pass_unique_runs_match_the_counted_runs() {
        let mut state = 0x5851_f42d_4c95_7f2du64;
        for round in 0..4000 {
            let n = [0, 1, 2, 3, 17, 1000, 10_000][round % 7];
            let longest = [1, 2, 5, 40, 10_000][round / 7 % 5];
            let keys = runs_of_keys(&mut state, n, longest);
            let value = |k: u64| k as f64 * 0.25 + 1.0;
            let one_pass = unique_keys_one_pass(&keys, value);
            assert!(
                same(&one_pass, &unique_keys_counted(&keys, value)),
                "{keys:?}"
            );
            assert_eq!(one_pass.counts.iter().sum::<u64>(), n as u64);
            let narrow: Vec<u32> = keys.iter().map(|&k| k as u32).collect();
            let value = |k: u32| f64::from(k) + 0.5;
            assert!(same(
                &unique_keys_one_pass(&narrow, value),
                &unique_keys_counted(&narrow, value)
            ));
        }
    }
}
