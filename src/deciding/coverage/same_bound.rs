//! A sufficient condition for step 3's SAME that needs neither a sort nor
//! the unique values: lower bounds of the four coverages, from one pass over
//! each run's bit patterns. When the bounds reach the thresholds, the exact
//! coverages do too, and the verdict (a SAME, whose message shows no
//! coverage) is the one the exact count gives; otherwise the caller counts
//! exactly, as before. Most states whose runs agree are proved here (about
//! nineteen in twenty of the sorted arrays of the generated bulk pairs), and
//! their four sorts and walks are skipped.
//!
//! Why the bounds hold:
//! - The patterns of positive normal values order like the values, and one
//!   pattern step moves the natural log by at most `2^-m` (`m` the mantissa
//!   bits): within a binade `ln(1 + f)` grows by `2^-m / (1 + f)` a step, and
//!   across one by `ln(2 / (2 - 2^-m))`. So two values fewer than
//!   `2^(shift + 1)` patterns apart have logs less than `2^(shift + 1 - m)`
//!   apart, which [`cell_shift`] keeps 2^-10 under the tolerance: far more
//!   than the rounding of any computed log (about 10^-13 at worst), so the
//!   exact walk, whatever its rounding, finds them covered.
//! - A cell is `2^shift` patterns wide: a sample whose cell or a neighbour
//!   holds a sample of the other run is covered. Every other sample (and
//!   any outside the window of cells, or not normal) is counted unproved.
//! - Sample coverage is at least `(n - unproved) / n`.
//! - Support coverage is `covered retained / retained`, and a value not
//!   covered has at least one unproved sample: it is at least
//!   `(retained - unproved) / retained`, which grows with `retained`. The
//!   rare-value filter keeps every unique value, or (when it drops some) at
//!   most `max_removed_sample_fraction` of the mass: either way at least
//!   `kept mass / largest count` values, and the largest count is at most
//!   the fullest bucket of a hash of the patterns (equal values share one).
//!   When no value can reach the rare threshold the filter keeps them all,
//!   and the distinct buckets bound their number too.
//! - Divisions are of integers converted exactly, and rounding is monotone:
//!   a rounded bound at least the threshold leaves the exact value there.

use super::CoverageThresholds;
use super::support_filter::{filter_disabled, rare_below};

/// Cells a run is counted in, from half of them below the anchor (the
/// middle cell of the first few reference samples): at a tolerance of
/// `ln(1.005)` a cell is 0.1-0.2% wide, and the window reaches about a
/// factor of two either side of the anchor.
const WINDOW: usize = 1024;
/// The cell of samples outside the window or not normal: never proved.
const OUTSIDE: usize = WINDOW;
const BUCKET_BITS: u32 = 12;
const BUCKETS: usize = 1 << BUCKET_BITS;
/// Below this tolerance the margin against log rounding would be too thin.
const MIN_TOLERANCE: f64 = 1e-6;

/// The bit layout of the values' patterns.
#[derive(Clone, Copy, Debug)]
pub(super) struct Format {
    mantissa_bits: u32,
    min_normal: u64,
    infinity: u64,
}

pub(super) const FLOAT32: Format = Format {
    mantissa_bits: f32::MANTISSA_DIGITS - 1,
    min_normal: 0x0080_0000,
    infinity: 0x7f80_0000,
};

pub(super) const FLOAT64: Format = Format {
    mantissa_bits: f64::MANTISSA_DIGITS - 1,
    min_normal: 0x0010_0000_0000_0000,
    infinity: 0x7ff0_0000_0000_0000,
};

/// Whether the bounds alone show that both directions reach both coverage
/// thresholds of step 3 for these two runs (bit patterns of `format`);
/// `false` means "count exactly", never "not same", and is the answer on
/// the simple paths, where the exact count decides every state.
pub(super) fn bounds_prove_same(
    reference: impl ExactSizeIterator<Item = u64> + Clone,
    compare: impl ExactSizeIterator<Item = u64>,
    format: Format,
    t: &CoverageThresholds,
) -> bool {
    if crate::fast_paths::simple_paths() {
        return false;
    }
    let thresholds_usable = [
        t.sample_coverage,
        t.support_coverage,
        t.rare_sample_fraction,
        t.rare_max_removed_sample_fraction,
    ]
    .iter()
    .all(|v| v.is_finite());
    if !thresholds_usable || !counters_hold(reference.len()) || !counters_hold(compare.len()) {
        return false;
    }
    let Some(shift) = cell_shift(t.center_relative, format) else {
        return false;
    };
    let cells = Cells {
        shift,
        anchor: anchor_cell(reference.clone(), shift),
        format,
    };
    tally_and_prove(reference, compare, &cells, t)
}

/// Whether a run of `len` samples is not empty and its counts fit the
/// counters.
fn counters_hold(len: usize) -> bool {
    len > 0 && (len as u64) < u64::from(u32::MAX)
}

/// The window's first cell: half a window below the middle cell of the
/// first few reference samples (an outlier among them does not move it).
fn anchor_cell(reference: impl Iterator<Item = u64>, shift: u32) -> u64 {
    let mut first = [0u64; 5];
    let mut taken = 0;
    for (slot, pattern) in first.iter_mut().zip(reference) {
        *slot = pattern >> shift;
        taken += 1;
    }
    let first = &mut first[..taken];
    first.sort_unstable();
    first[taken / 2].saturating_sub(WINDOW as u64 / 2)
}

/// Both runs' tallies, and whether they prove SAME both ways.
fn tally_and_prove(
    reference: impl Iterator<Item = u64>,
    compare: impl Iterator<Item = u64>,
    cells: &Cells,
    t: &CoverageThresholds,
) -> bool {
    let mut tallies = [Tally::new(), Tally::new()];
    let [ref_tally, cmp_tally] = &mut tallies;
    ref_tally.count(reference, cells);
    cmp_tally.count(compare, cells);
    ref_tally.proves(cmp_tally, t) && cmp_tally.proves(ref_tally, t)
}

/// The shift of a pattern to its cell: the largest for which samples at
/// most one cell apart (fewer than `2^(shift + 1)` patterns) are surely
/// within `ln(1 + center_relative)`; `None` below [`MIN_TOLERANCE`].
fn cell_shift(center_relative: f64, format: Format) -> Option<u32> {
    let tolerance = center_relative.ln_1p();
    if !(MIN_TOLERANCE..=f64::MAX).contains(&tolerance) {
        return None;
    }
    // In pattern steps; scaling by a power of two is exact.
    let room = tolerance * (1.0 - 1.0 / 1024.0) * f64::powi(2.0, format.mantissa_bits as i32);
    if room < 2.0 {
        return None;
    }
    // floor(log2(room)) from the exponent field: exact, unlike `log2`.
    let floor_log2 = ((room.to_bits() >> 52) as i64 - 1023).min(63) as u32;
    Some(floor_log2 - 1)
}

struct Cells {
    shift: u32,
    anchor: u64,
    format: Format,
}

impl Cells {
    #[inline(always)]
    fn of(&self, bits: u64) -> usize {
        let Format {
            min_normal,
            infinity,
            ..
        } = self.format;
        let normal = bits.wrapping_sub(min_normal) < infinity - min_normal;
        let cell = (bits >> self.shift).wrapping_sub(self.anchor);
        if normal && cell < WINDOW as u64 {
            cell as usize
        } else {
            OUTSIDE
        }
    }
}

/// One run's samples a cell and a hash bucket.
struct Tally {
    cells: [u32; WINDOW + 1],
    buckets: [u32; BUCKETS],
    len: u64,
}

impl Tally {
    #[inline(always)]
    fn new() -> Tally {
        Tally {
            cells: [0; WINDOW + 1],
            buckets: [0; BUCKETS],
            len: 0,
        }
    }

    /// Counts a run of fewer than `u32::MAX` samples ([`counters_hold`]).
    #[inline(always)]
    fn count(&mut self, bits: impl Iterator<Item = u64>, cells: &Cells) {
        let mut len = 0u64;
        for pattern in bits {
            self.cells[cells.of(pattern)] += 1;
            self.buckets[bucket_of(pattern)] += 1;
            len += 1;
        }
        self.len = len;
    }

    fn counts(&self) -> &[u32; WINDOW + 1] {
        &self.cells
    }

    /// Samples not shown to be covered by `other`'s.
    #[inline(always)]
    fn unproved(&self, other: &Tally) -> u64 {
        let (own, other) = (self.counts(), other.counts());
        let present = |cell: usize| u32::from(other[cell] > 0);
        let mut unproved = u64::from(own[OUTSIDE]);
        // The window's edges have one neighbour inside it.
        unproved += u64::from(own[0]) * u64::from(present(0) | present(1) == 0);
        let last = WINDOW - 1;
        unproved += u64::from(own[last]) * u64::from(present(last - 1) | present(last) == 0);
        let inner: u64 = (1..last)
            .map(|cell| {
                let near = present(cell - 1) | present(cell) | present(cell + 1);
                u64::from(own[cell] * (1 - near))
            })
            .sum();
        unproved + inner
    }

    /// A lower bound of the values the support filter retains.
    #[inline(always)]
    fn retained_at_least(&self, t: &CoverageThresholds) -> u64 {
        let (most, distinct_buckets) =
            self.buckets.iter().fold((1u32, 0u32), |(most, used), &n| {
                (most.max(n), used + u32::from(n > 0))
            });
        let (most, distinct_buckets) = (u64::from(most), u64::from(distinct_buckets));
        let all_values = self.len.div_ceil(most).max(distinct_buckets);
        let may_drop = !filter_disabled(t) && most as f64 >= rare_below(t, self.len);
        if !may_drop {
            return all_values;
        }
        // Dropping happens only when at most this fraction of the mass goes
        // (compared after a rounded division: a little more is allowed).
        let removable =
            (t.rare_max_removed_sample_fraction * self.len as f64 * (1.0 + 1e-9)).ceil() + 1.0;
        let kept_mass = if removable >= self.len as f64 {
            0
        } else {
            self.len - removable as u64
        };
        kept_mass.div_ceil(most).max(1)
    }

    #[inline(always)]
    fn proves(&self, other: &Tally, t: &CoverageThresholds) -> bool {
        let unproved = self.unproved(other);
        let n = self.len;
        let sample = (n - unproved.min(n)) as f64 / n as f64;
        // Both finite (the thresholds are checked, `n` is not zero).
        if sample < t.sample_coverage {
            return false;
        }
        // With every sample proved, support coverage is 1 whatever the
        // retained values.
        let retained = if unproved == 0 {
            1
        } else {
            self.retained_at_least(t)
        };
        let support = retained.saturating_sub(unproved) as f64 / retained as f64;
        support >= t.support_coverage
    }
}

/// Fibonacci hashing: the top bits of the product mix every bit.
#[inline(always)]
fn bucket_of(bits: u64) -> usize {
    (bits.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (u64::BITS - BUCKET_BITS)) as usize
}

#[cfg(test)]
mod tests {
    use super::super::log_walk::covered_flags_by_logs;
    use super::super::support_filter::support_filter;
    use super::super::tests::oracle::sorted_unique;
    use super::super::tests::support::Rng;
    use super::super::{coverages_support_same, nearest_neighbor_coverages};
    use super::*;

    /// A run's values: continuous noise with outliers, quantized steps,
    /// a heavy value among noise, or clusters a little more than the
    /// tolerance from the other run's (`edge`), as float32 or float64.
    fn draw(rng: &mut Rng, shape: usize, len: usize, scale: f64, edge: f64) -> Vec<f64> {
        let base = rng.pick(&[1e-6, 3.7e-5, 1.0, 2.9e3]) * scale;
        let spread = rng.pick(&[1e-5, 1e-3, 5e-3, 2e-2, 0.1]);
        let outliers = rng.pick(&[0.0, 1e-3, 1e-2, 5e-2]);
        let step = rng.pick(&[1e-3, 4e-3, 6e-3, 2e-2]);
        (0..len)
            .map(|_| {
                let x = match shape {
                    0 => base * (1.0 + spread * rng.unit()),
                    1 => base * (1.0 + step * rng.below(12) as f64),
                    2 if rng.unit() < 0.6 => base,
                    2 => base * (1.0 + spread * rng.unit()),
                    _ => {
                        base * (1.0 + 10.0 * edge).powi(rng.below(20) as i32)
                            * (1.0 + 1e-7 * rng.unit())
                    }
                };
                if rng.unit() < outliers {
                    x * (1.0 + 9.0 * rng.unit())
                } else {
                    x
                }
            })
            .collect()
    }

    struct Case {
        reference: Vec<f64>,
        compare: Vec<f64>,
        float32: bool,
        t: CoverageThresholds,
    }

    fn case(rng: &mut Rng) -> Case {
        let t = CoverageThresholds {
            center_relative: rng.pick(&[0.005, 0.005, 0.001, 0.01, 0.05, 1e-6, 3e-6, 0.3]),
            sample_coverage: rng.pick(&[0.97, 0.97, 0.0, 0.5, 0.9, 0.99, 1.0]),
            support_coverage: rng.pick(&[0.8, 0.8, 0.0, 0.5, 0.95, 1.0]),
            rare_sample_fraction: rng.pick(&[0.001, 0.001, 0.0, 1e-4, 0.01, 0.2, 1.0]),
            rare_max_removed_sample_fraction: rng.pick(&[0.01, 0.01, 0.0, 1e-3, 0.1, 1.0]),
        };
        let float32 = rng.below(2) == 0;
        let shape = rng.below(4) as usize;
        let len = rng.pick(&[1, 7, 300, 2000, 6000]);
        let seed = rng.next();
        let edge = t.center_relative;
        let reference = draw(&mut Rng(seed), shape, len, 1.0, edge);
        // The other run: the same law (a fresh draw, or the same values),
        // or moved by about the tolerance or more.
        let moved = rng.pick(&[
            1.0, 1.0, 1.0, 0.5, 0.9, 0.99, 1.01, 1.1, 1.5, 1.9, 2.5, 10.0,
        ]);
        let scale = 1.0 + moved * edge * f64::from(moved != 1.0);
        let other_seed = if rng.below(4) == 0 { seed } else { rng.next() };
        let other_len = if rng.below(3) == 0 {
            len
        } else {
            rng.pick(&[5, 300, 2000, 6000])
        };
        let compare = draw(&mut Rng(other_seed), shape, other_len, scale, edge);
        let round = |values: Vec<f64>| {
            let f = |v: f64| if float32 { f64::from(v as f32) } else { v };
            values.into_iter().map(f).collect()
        };
        Case {
            reference: round(reference),
            compare: round(compare),
            float32,
            t,
        }
    }

    fn patterns(values: &[f64], float32: bool) -> Vec<u64> {
        let pattern = |&v: &f64| {
            if float32 {
                u64::from((v as f32).to_bits())
            } else {
                v.to_bits()
            }
        };
        values.iter().map(pattern).collect()
    }

    impl Case {
        fn format(&self) -> Format {
            if self.float32 { FLOAT32 } else { FLOAT64 }
        }
        fn proved(&self) -> bool {
            let (r, c) = (
                patterns(&self.reference, self.float32),
                patterns(&self.compare, self.float32),
            );
            bounds_prove_same(r.into_iter(), c.into_iter(), self.format(), &self.t)
        }
        fn exact_same(&self) -> bool {
            let (r, c) = (sorted_unique(&self.reference), sorted_unique(&self.compare));
            let coverages = nearest_neighbor_coverages(&r, &c, &self.t).expect("values");
            coverages_support_same(&coverages, &self.t)
        }
        fn tallies(&self) -> Option<(Tally, Tally)> {
            let shift = cell_shift(self.t.center_relative, self.format())?;
            let (r, c) = (
                patterns(&self.reference, self.float32),
                patterns(&self.compare, self.float32),
            );
            let cells = Cells {
                shift,
                anchor: anchor_cell(r.iter().copied(), shift),
                format: self.format(),
            };
            let (mut rt, mut ct) = (Tally::new(), Tally::new());
            rt.count(r.into_iter(), &cells);
            ct.count(c.into_iter(), &cells);
            Some((rt, ct))
        }
    }

    #[test]
    fn a_proved_same_is_what_the_exact_count_decides() {
        let mut rng = Rng(0x5eed_b0b5);
        let (mut proved, mut exact) = (0, 0);
        for i in 0..1500 {
            let case = case(&mut rng);
            let same = case.exact_same();
            exact += usize::from(same);
            if case.proved() {
                assert!(
                    same,
                    "case {i} proved but the exact coverages say otherwise"
                );
                proved += 1;
            }
        }
        // Not vacuous: a good share of the runs the exact count finds the
        // same are proved (the rest are mostly short runs, few distinct or
        // heavy values, and thresholds of 1).
        assert!(
            proved >= 50 && proved * 3 > exact,
            "proved {proved} of {exact}"
        );
    }

    /// 600 generated cases (of seed `seed`) with their tallies, those
    /// whose tolerance has cells.
    fn tallied_cases(seed: u64) -> impl Iterator<Item = (usize, Case, Tally, Tally)> {
        let mut rng = Rng(seed);
        (0..600).filter_map(move |i| {
            let case = case(&mut rng);
            let (rt, ct) = case.tallies()?;
            Some((i, case, rt, ct))
        })
    }

    #[test]
    fn unproved_samples_include_every_uncovered_one() {
        for (i, case, rt, ct) in tallied_cases(77) {
            let tolerance = case.t.center_relative.ln_1p();
            let (r, c) = (sorted_unique(&case.reference), sorted_unique(&case.compare));
            for (own, other, tally, other_tally) in [(&r, &c, &rt, &ct), (&c, &r, &ct, &rt)] {
                let flags = covered_flags_by_logs(&own.values, &other.values, tolerance);
                let uncovered: u64 = flags
                    .iter()
                    .zip(&own.counts)
                    .filter(|(covered, _)| !**covered)
                    .map(|(_, &n)| n)
                    .sum();
                assert!(tally.unproved(other_tally) >= uncovered, "case {i}");
            }
        }
    }

    #[test]
    fn retained_bound_is_at_most_what_the_filter_keeps() {
        for (i, case, rt, _) in tallied_cases(1234) {
            let unique = sorted_unique(&case.reference);
            let (_, filter, totals) = support_filter(&unique.counts, &case.t);
            let bound = rt.retained_at_least(&case.t);
            assert!(bound >= 1);
            assert!(
                bound <= totals.retained,
                "case {i}: bound {bound}, retained {} ({filter:?})",
                totals.retained
            );
        }
    }

    #[test]
    fn cells_are_the_widest_within_the_tolerance() {
        for c in [0.005f64, 0.001, 0.01, 0.3, 2.0, 1e3] {
            let budget = c.ln_1p() * (1.0 - 1.0 / 1024.0);
            for format in [FLOAT32, FLOAT64] {
                let shift = cell_shift(c, format).expect("wide enough");
                let width = |s: u32| f64::powi(2.0, s as i32 + 1 - format.mantissa_bits as i32);
                assert!(width(shift) <= budget, "{c} {format:?}");
                assert!(width(shift + 1) > budget, "{c} {format:?}");
            }
        }
        assert_eq!(cell_shift(0.005, FLOAT32), Some(14));
        for c in [0.0, 1e-7, -0.5, f64::NAN, f64::INFINITY] {
            assert_eq!(cell_shift(c, FLOAT64), None, "{c}");
        }
    }

    #[test]
    fn runs_that_agree_are_proved_and_moved_runs_are_not() {
        let t = CoverageThresholds {
            center_relative: 0.005,
            sample_coverage: 0.97,
            support_coverage: 0.8,
            rare_sample_fraction: 0.001,
            rare_max_removed_sample_fraction: 0.01,
        };
        let run = |seed: u64, scale: f64| {
            let mut rng = Rng(seed);
            (0..10_000)
                .map(|_| u64::from((((1.0 + 0.01 * rng.unit()) * scale * 7e-5) as f32).to_bits()))
                .collect::<Vec<u64>>()
        };
        let prove =
            |a: Vec<u64>, b: Vec<u64>| bounds_prove_same(a.into_iter(), b.into_iter(), FLOAT32, &t);
        assert!(prove(run(1, 1.0), run(2, 1.0)));
        assert!(!prove(run(1, 1.0), run(2, 1.02)));
        // Below the smallest normal value nothing is proved.
        let tiny: Vec<u64> = (1..5000).collect();
        assert!(!prove(tiny.clone(), tiny));
    }
}
