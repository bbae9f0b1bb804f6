//! `np.unique(values, return_counts=True)` of arrays with few distinct
//! values, counted in a small hash table instead of sorted. Quantized
//! sample times (short kernels, a timer of coarse resolution) and their
//! cycles hold a few dozen values in 10^4 samples: a hash and a compare a
//! sample, against the radix sort's key, histogram and scatter passes and
//! the run walk. An array with more distinct values gives up after about
//! `MAX_DISTINCT` of its samples and is sorted as before.

use std::cell::RefCell;

use super::sorted::SortedUnique;

/// Counted here up to this many distinct values (NVBench's samples have
/// either a few dozen or nearly all distinct).
const MAX_DISTINCT: usize = 256;
/// Slots of the table: at most a quarter used, so probes stay short, and
/// small enough to stay in the L1 cache with its counts (16 KB).
const SLOTS: usize = 1024;
/// The pattern of a free slot (+0.0: not a positive finite value).
const EMPTY: u64 = 0;

/// A hash table of patterns and their counts, one per thread: every slot
/// is free between uses (the used ones are freed after each array, rather
/// than 8 KB of patterns cleared per array, as most arrays give up after
/// a few hundred samples). Counts are stale in free slots: a slot's count
/// is set when it takes a pattern.
struct Table {
    keys: [u64; SLOTS],
    counts: [u64; SLOTS],
}

thread_local! {
    static TABLE: RefCell<Box<Table>> = RefCell::new(Box::new(Table {
        keys: [EMPTY; SLOTS],
        counts: [0; SLOTS],
    }));
}

/// The table while one array is counted, with the slots it took; frees
/// them when dropped (whether the array was counted or gave up).
struct Counting<'t> {
    table: &'t mut Table,
    used: [u16; MAX_DISTINCT],
    distinct: usize,
}

impl Drop for Counting<'_> {
    fn drop(&mut self) {
        for &slot in &self.used[..self.distinct] {
            self.table.keys[usize::from(slot)] = EMPTY;
        }
    }
}

impl Counting<'_> {
    /// Counts every pattern of `bits`; `None` when more than
    /// `MAX_DISTINCT` are distinct or the probes grow long.
    #[inline(always)]
    fn count(&mut self, bits: impl Iterator<Item = u64>, len: usize) -> Option<()> {
        let Table { keys, counts } = &mut *self.table;
        // Linear probing's extra steps, bounded so that patterns which all
        // hash alike cannot make this quadratic.
        let mut probes_left = 4 * len + SLOTS;
        for key in bits {
            let mut slot = slot_of(key);
            loop {
                let held = keys[slot];
                // A pattern of zero "finds" a free slot here and counts
                // there, unseen: the caller's total of the counts tells.
                if held == key {
                    counts[slot] += 1;
                    break;
                }
                if held == EMPTY {
                    if self.distinct == MAX_DISTINCT {
                        return None;
                    }
                    keys[slot] = key;
                    counts[slot] = 1;
                    self.used[self.distinct] = slot as u16;
                    self.distinct += 1;
                    break;
                }
                slot = (slot + 1) % SLOTS;
                probes_left = probes_left.checked_sub(1)?;
            }
        }
        Some(())
    }
}

/// The distinct bit patterns of `bits` (float32 patterns when `float32`)
/// ascending with their counts, as [`super::sorted::sort_bits`] and its
/// unique runs give them for positive finite values; `None` when there are
/// more than `MAX_DISTINCT` (or a pattern of zero, or probes grow long),
/// and on the simple paths, where every array is sorted.
pub(super) fn unique_if_few(
    bits: impl ExactSizeIterator<Item = u64>,
    float32: bool,
) -> Option<SortedUnique> {
    if crate::fast_paths::simple_paths() {
        return None;
    }
    let len = bits.len();
    let mut found = TABLE
        .try_with(|table| {
            let mut table = table.borrow_mut();
            let mut counting = Counting {
                table: &mut table,
                used: [0; MAX_DISTINCT],
                distinct: 0,
            };
            counting.count(bits, len)?;
            let Counting {
                table,
                used,
                distinct,
            } = &counting;
            Some(
                used[..*distinct]
                    .iter()
                    .map(|&slot| {
                        let slot = usize::from(slot);
                        (table.keys[slot], table.counts[slot])
                    })
                    .collect::<Vec<(u64, u64)>>(),
            )
        })
        .ok()??;
    if found.iter().map(|&(_, count)| count).sum::<u64>() != len as u64 {
        return None; // a pattern of zero was counted in a free slot
    }
    // Positive finite values order like their bit patterns.
    found.sort_unstable_by_key(|&(key, _)| key);
    let value = |key: u64| {
        if float32 {
            f64::from(f32::from_bits(key as u32))
        } else {
            f64::from_bits(key)
        }
    };
    Some(SortedUnique {
        values: found.iter().map(|&(key, _)| value(key)).collect(),
        counts: found.iter().map(|&(_, count)| count).collect(),
    })
}

/// Fibonacci hashing: the top bits of the product mix every bit of the
/// pattern, so patterns that differ in their low mantissa bits only (a
/// timer's quantized steps) spread over the table.
fn slot_of(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (u64::BITS - SLOTS.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::coverage::sorted::sort_bits;
    use crate::deciding::value_stats::BitStats;

    fn xorshift(state: &mut u64) -> u64 {
        crate::testing::xorshift_step(state)
    }

    fn stats(bits: &[u64]) -> BitStats {
        BitStats {
            min: *bits.iter().min().unwrap(),
            max: *bits.iter().max().unwrap(),
            all: bits.iter().fold(u64::MAX, |a, &b| a & b),
            any: bits.iter().fold(0, |a, &b| a | b),
        }
    }

    /// Random positive finite patterns drawn from `distinct` values: float32
    /// times on a quantized grid, or float64 products of two such values.
    fn draw(state: &mut u64, n: usize, distinct: usize, float32: bool) -> Vec<u64> {
        let pool: Vec<u64> = (0..distinct)
            .map(|_| {
                let step = (xorshift(state) % 5000) as f32;
                let time = 3.2e-8 * (100.0 + step);
                if float32 {
                    u64::from(time.to_bits())
                } else {
                    let clock = 1.4e9 + (xorshift(state) % 64) as f32 * 1.0e6;
                    (f64::from(time) * f64::from(clock)).to_bits()
                }
            })
            .collect();
        (0..n)
            .map(|_| pool[(xorshift(state) % distinct as u64) as usize])
            .collect()
    }

    #[test]
    fn few_distinct_values_count_as_the_sort_does() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..600 {
            let float32 = round % 2 == 0;
            let n = [1, 2, 7, 300, 10_000][round / 2 % 5];
            let distinct = [1, 2, 3, 40, 255, 256, 257, 300, 5000][round / 10 % 9];
            let bits = draw(&mut state, n, distinct, float32);
            let sorted = sort_bits(bits.iter().copied(), stats(&bits), float32).unique();
            match unique_if_few(bits.iter().copied(), float32) {
                Some(few) => {
                    assert_eq!(few.counts, sorted.counts, "round {round}");
                    let as_bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(as_bits(&few.values), as_bits(&sorted.values));
                }
                // Only arrays of more distinct values than the table takes.
                None => assert!(sorted.values.len() > MAX_DISTINCT, "round {round}"),
            }
        }
    }

    #[test]
    fn patterns_that_collide_or_are_zero_give_up() {
        // Patterns that all hash to one slot fill a run of slots: the
        // probe bound gives up long before the walks grow quadratic.
        let mut state = 0x9e37_79b9u64;
        let mut same_slot = Vec::new();
        while same_slot.len() < 200 {
            let key = xorshift(&mut state) >> 1;
            if slot_of(key) == 5 {
                same_slot.push(key);
            }
        }
        let colliding: Vec<u64> = same_slot
            .iter()
            .flat_map(|&k| std::iter::repeat_n(k, 50))
            .collect();
        assert!(unique_if_few(colliding.into_iter(), false).is_none());
        // The table is left free for the next array.
        assert!(TABLE.with(|t| t.borrow().keys.iter().all(|&k| k == EMPTY)));
        // A few such patterns are still counted.
        let cycled: Vec<u64> = same_slot[..8].iter().copied().cycle().take(80).collect();
        let few = unique_if_few(cycled.into_iter(), false).unwrap();
        assert_eq!(few.counts, vec![10; 8]);
        assert!(unique_if_few([3u64, 0, 3].into_iter(), false).is_none());
        assert!(unique_if_few([0u64].into_iter(), false).is_none());
        assert!(unique_if_few([5u64, 0, 3, 4, 0].into_iter(), true).is_none());
        let few = unique_if_few([9u64, 7, 9].into_iter(), false).unwrap();
        assert_eq!(few.counts, [1, 2]);
        let spread = |n: u64| (1..=n).rev().map(|k| k << 20).collect::<Vec<u64>>();
        assert!(unique_if_few(spread(257).into_iter(), false).is_none());
        let few = unique_if_few(spread(256).into_iter(), false).unwrap();
        assert_eq!(few.values.len(), 256);
        assert!(few.values.windows(2).all(|w| w[0] < w[1]));
    }
}
