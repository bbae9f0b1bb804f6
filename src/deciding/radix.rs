//! The radix sort behind [`super::coverage::sorted_unique_of_bits`]: bulk samples
//! (10^4 and more per run, four arrays per state) are sorted as reduced
//! integer keys, and this sort is most of the bulk path's cost.
//!
//! What keeps it cheap:
//! - at most two LSD passes of at most 11 bits over the top 22 varying
//!   bits (11 rather than 12: histograms of 8 KB and fewer write streams
//!   measured a little faster on 10^4 keys), finished by an insertion
//!   sort (the keys are then nearly sorted);
//! - one read of the keys builds the histograms of both passes, and fixed
//!   size histograms let the compiler drop the bounds checks on buckets;
//! - a pass whose digit is the same in every key is skipped;
//! - buffers are kept per thread and handed out again without being
//!   cleared: every state's samples are sorted in buffers of the same size,
//!   and neither fresh pages nor zero-filling them is needed where every
//!   slot is written before it is read.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A per-thread pool of reusable buffers.
pub(crate) type Pool<T> = LocalKey<RefCell<Vec<Vec<T>>>>;

/// Unsigned keys a radix sort can take apart.
pub(crate) trait RadixKey: Copy + Default + Ord + 'static {
    fn to_u64(self) -> u64;
    /// Buffers of this thread kept for reuse: the samples of every state
    /// are sorted into buffers of the same size, and fresh ones would have
    /// their pages faulted in again each time.
    fn pool() -> &'static Pool<Self>;
}

thread_local! {
    static POOL32: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    static POOL64: RefCell<Vec<Vec<u64>>> = const { RefCell::new(Vec::new()) };
}

impl RadixKey for u32 {
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn pool() -> &'static Pool<Self> {
        &POOL32
    }
}

impl RadixKey for u64 {
    fn to_u64(self) -> u64 {
        self
    }
    fn pool() -> &'static Pool<Self> {
        &POOL64
    }
}

/// An empty buffer from `pool` (or a new one), for `extend` or `push`.
pub(crate) fn take_buffer<T: 'static>(pool: &'static Pool<T>) -> Vec<T> {
    let mut buffer = pool.with(|p| p.borrow_mut().pop()).unwrap_or_default();
    buffer.clear();
    buffer
}

/// An empty buffer from `pool` with room for `len` elements, for callers
/// that write every slot of `0..len` through its spare capacity and then
/// set its length: neither fresh pages nor zero-filling are needed.
pub(crate) fn take_room<T: 'static>(pool: &'static Pool<T>, len: usize) -> Vec<T> {
    let mut buffer = take_buffer(pool);
    buffer.reserve(len);
    buffer
}

/// Arrays longer than this (8 MiB of `u64`) are huge runs: their buffers go
/// back to the allocator, and they are sorted in place (see
/// [`sort_keys`]).
pub(crate) const LARGE_LEN: usize = 1 << 20;

/// Returns a buffer to `pool` for reuse (a few are kept), contents and all.
pub(crate) fn give_back<T: 'static>(pool: &'static Pool<T>, buffer: Vec<T>) {
    pool.with(|p| {
        let mut p = p.borrow_mut();
        // A buffer of a huge run is freed: kept, it would stay resident
        // beside every later state's data.
        if p.len() < 4 && buffer.capacity() <= LARGE_LEN {
            p.push(buffer);
        }
    });
}

const MAX_DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << MAX_DIGIT_BITS;
/// Keys of more bits are radix sorted on their top `PREFIX_BITS` only and
/// finished by insertion sort: sample values are spread out enough that
/// few share a prefix (cycles have ~45 varying bits, 2 passes instead of 4).
const PREFIX_BITS: u32 = 22;
const MAX_PASSES: usize = PREFIX_BITS.div_ceil(MAX_DIGIT_BITS) as usize;
const _: () = assert!(MAX_PASSES == 2, "radix_passes builds two histograms");

/// Sorts keys below `2^bits`. The radix sort is the fast path; a plain
/// comparison sort gives the same order (the keys are integers) and takes
/// its place on the simple paths, and for huge runs: it needs no scratch
/// buffer, whose copy of the keys would add their size again to peak
/// memory (a sidecar's worth per side), and at that size it costs little
/// against reading the run.
pub(crate) fn sort_keys<K: RadixKey>(keys: &mut Vec<K>, bits: u32) {
    if crate::fast_paths::simple_paths() || keys.len() > LARGE_LEN {
        keys.sort_unstable();
    } else {
        lsd_sort(keys, bits);
    }
}

/// Sorts keys below `2^bits`: LSD radix passes of at most
/// `MAX_DIGIT_BITS` over the top `PREFIX_BITS` bits, then insertion sort
/// for the rest.
pub(crate) fn lsd_sort<K: RadixKey>(keys: &mut Vec<K>, bits: u32) {
    if bits == 0 {
        return;
    }
    let ignored = bits.saturating_sub(PREFIX_BITS);
    radix_passes(keys, ignored, bits - ignored);
    if ignored > 0 {
        finish_insertion_sort(keys);
    }
}

/// Sorts nearly sorted keys by insertion, or (when that takes too many
/// moves) by `sort_unstable`, so the worst case stays `O(n log n)`.
#[inline(always)]
fn finish_insertion_sort<K: RadixKey>(keys: &mut [K]) {
    let mut budget = 4 * keys.len() + 64;
    for i in 1..keys.len() {
        let key = keys[i];
        if keys[i - 1] <= key {
            continue; // the common case: already in place
        }
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
        budget = budget.saturating_sub(i - j);
        if budget == 0 {
            keys.sort_unstable();
            return;
        }
    }
}

/// One digit of every key: bits `[shift, shift + digit_bits)`.
#[derive(Clone, Copy)]
struct Digit {
    shift: u32,
    mask: u64,
}

impl Digit {
    #[inline(always)]
    fn of<K: RadixKey>(self, key: K) -> usize {
        // The mask is below `BUCKETS`; the second one says so to the compiler.
        ((key.to_u64() >> self.shift) & self.mask) as usize & (BUCKETS - 1)
    }
}

/// LSD radix sort on bits `[low, low + bits)` of the keys, `bits <=
/// PREFIX_BITS` (stable, so keys equal there keep their order), in equal
/// digits of at most `MAX_DIGIT_BITS`.
#[inline(always)]
fn radix_passes<K: RadixKey>(keys: &mut Vec<K>, low: u32, bits: u32) {
    debug_assert!(bits <= PREFIX_BITS);
    let passes = bits.div_ceil(MAX_DIGIT_BITS) as usize;
    let digit_bits = bits.div_ceil(passes as u32);
    let mask = (1u64 << digit_bits) - 1;
    let digits = [0, 1].map(|pass| Digit {
        shift: low + pass * digit_bits,
        mask,
    });
    let mut histograms = [[0u32; BUCKETS]; MAX_PASSES];
    let [first, second] = &mut histograms;
    if passes == 2 {
        for &key in keys.iter() {
            first[digits[0].of(key)] += 1;
            second[digits[1].of(key)] += 1;
        }
    } else {
        for &key in keys.iter() {
            first[digits[0].of(key)] += 1;
        }
    }
    let mut scratch = take_room(K::pool(), keys.len());
    for (histogram, digit) in histograms.iter_mut().zip(digits).take(passes) {
        // Every key has the same digit exactly when the first key's
        // bucket holds them all.
        if keys
            .first()
            .is_some_and(|&key| histogram[digit.of(key)] as usize == keys.len())
        {
            continue; // every key has the same digit: the pass keeps the order
        }
        // Only the digit's buckets are summed (the others stay zero); the
        // scatter indexes the whole array, without bounds checks.
        let mut total = 0;
        for slot in histogram[..1usize << digit_bits].iter_mut() {
            let n = *slot;
            *slot = total;
            total += n;
        }
        let scratch_slots = scratch.as_mut_ptr();
        for &key in keys.iter() {
            let slot = &mut histogram[digit.of(key)];
            // SAFETY: the offsets of the buckets are the prefix sums of
            // their counts over these very keys, so every key gets its own
            // slot below `keys.len() <= scratch.capacity()`.
            unsafe { scratch_slots.add(*slot as usize).write(key) };
            *slot += 1;
        }
        // SAFETY: the scatter wrote every slot below `keys.len()` (one per
        // key, each its own), within the capacity reserved.
        unsafe { scratch.set_len(keys.len()) };
        std::mem::swap(keys, &mut scratch);
    }
    give_back(K::pool(), scratch);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        crate::testing::xorshift_step(state)
    }

    #[test]
    fn lsd_sort_sorts_every_width_including_skipped_passes() {
        let mut state = 0x1234_5678_9abc_def1u64;
        for bits in 1..=64u32 {
            for n in [1usize, 2, 5, 100, 5000] {
                let mask = if bits == 64 {
                    u64::MAX
                } else {
                    (1 << bits) - 1
                };
                // Some arrays share their low digit, so that pass is skipped.
                let shared_low = n % 2 == 0;
                let mut keys: Vec<u64> = (0..n)
                    .map(|_| {
                        let k = xorshift(&mut state) & mask;
                        if shared_low { k & !0xfff } else { k }
                    })
                    .collect();
                let mut expected = keys.clone();
                expected.sort_unstable();
                lsd_sort(&mut keys, bits);
                assert_eq!(keys, expected, "bits {bits} n {n}");
            }
        }
    }

    #[test]
    fn buffers_with_room_come_back_empty_and_reused() {
        let mut buffer = take_room(u64::pool(), 10_000);
        assert!(buffer.is_empty() && buffer.capacity() >= 10_000);
        buffer.extend([7; 3]);
        let reused = buffer.as_ptr();
        give_back(u64::pool(), buffer);
        let again = take_room(u64::pool(), 5_000);
        assert!(again.is_empty());
        assert_eq!(again.as_ptr(), reused);
        give_back(u64::pool(), again);
        assert!(take_buffer(u64::pool()).is_empty());
    }
}
