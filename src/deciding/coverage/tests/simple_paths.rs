//! The simple paths (`NVBENCH_COMPARE_SIMPLE=1`) really leave the fast
//! ones: each fast path's entry gives way, and step 3 decides as before.

use super::super::few_distinct::unique_if_few;
use super::super::hits::{Side, Totals};
use super::super::ratio_walk::hits_by_ratio;
use super::super::same_bound::{FLOAT32, bounds_prove_same};
use super::super::*;
use super::support::Rng;
use crate::deciding::radix::{RadixKey, sort_keys};
use crate::deciding::samples::BulkSamples;
use crate::fast_paths::with_simple_paths;

const THRESHOLDS: CoverageThresholds = CoverageThresholds {
    center_relative: 0.005,
    sample_coverage: 0.97,
    support_coverage: 0.8,
    rare_sample_fraction: 0.001,
    rare_max_removed_sample_fraction: 0.01,
};

/// Sample times with 1 % noise around `scale` and clocks that vary: two
/// such runs agree, and the bounds prove it.
fn run(seed: u64, scale: f32) -> BulkSamples {
    let mut rng = Rng(seed);
    let times = (0..10_000)
        .map(|_| (1.0 + 0.01 * rng.unit() as f32) * scale * 7e-5)
        .collect();
    let frequencies = (0..10_000)
        .map(|_| 1.4e9 + rng.below(64) as f32 * 1.0e6)
        .collect();
    BulkSamples::new(times, frequencies).expect("usable")
}

#[test]
fn step3_counts_exactly_and_decides_the_same() {
    let (a, b) = (run(1, 1.0), run(2, 1.0));
    let step3 = || step3_coverages(a.time_bits(), b.time_bits(), &THRESHOLDS);
    assert_eq!(step3(), CoverageOutcome::ProvedSame);
    let CoverageOutcome::Counted(Some(counted)) = with_simple_paths(step3) else {
        panic!("the simple paths count step 3");
    };
    assert!(coverages_support_same(&counted, &THRESHOLDS));
    // Cycles, and runs that are not the same, decide alike both ways.
    let moved = run(3, 1.02);
    for (x, y) in [(&a, &b), (&a, &moved)] {
        let cycles = || step3_coverages(x.cycle_bits(), y.cycle_bits(), &THRESHOLDS);
        let exact = |outcome| match outcome {
            CoverageOutcome::ProvedSame => true,
            CoverageOutcome::Counted(c) => coverages_support_same(&c.unwrap(), &THRESHOLDS),
        };
        assert_eq!(exact(cycles()), exact(with_simple_paths(cycles)));
        assert_eq!(x.unique_cycles(), with_simple_paths(|| x.unique_cycles()));
        assert_eq!(x.unique_times(), with_simple_paths(|| x.unique_times()));
        assert_eq!(x.cycle_interval(), with_simple_paths(|| x.cycle_interval()));
    }
}

#[test]
fn every_fast_entry_gives_way() {
    let (a, b) = (run(4, 1.0), run(5, 1.0));
    let bits = |r: &BulkSamples| r.times().iter().map(|t| u64::from(t.to_bits())).collect();
    let (a_bits, b_bits): (Vec<u64>, Vec<u64>) = (bits(&a), bits(&b));
    let prove = || {
        bounds_prove_same(
            a_bits.iter().copied(),
            b_bits.iter().copied(),
            FLOAT32,
            &THRESHOLDS,
        )
    };
    assert!(prove());
    assert!(!with_simple_paths(prove));

    let few = [3u64 << 52, 5 << 52, 3 << 52];
    let count = || unique_if_few(few.iter().copied(), false);
    assert!(count().is_some());
    assert!(with_simple_paths(count).is_none());

    let (values, counts, retained) = ([1.0, 2.0, 3.0], [1, 2, 1], [true; 3]);
    let side = Side {
        values: &values,
        counts: &counts,
        retained: &retained,
    };
    let walk = || {
        let totals = || Totals::of(&side);
        hits_by_ratio(
            (&side, totals()),
            (&side, totals()),
            0.005,
            0.005f64.ln_1p(),
        )
    };
    assert!(walk().is_some());
    assert!(with_simple_paths(walk).is_none());
}

#[test]
fn the_radix_sort_gives_way_to_a_plain_sort() {
    let mut rng = Rng(6);
    let keys: Vec<u64> = (0..5000).map(|_| rng.below(1 << 40)).collect();
    let mut expected = keys.clone();
    expected.sort_unstable();
    // The radix sort takes a scratch buffer from this thread's pool and
    // gives it back; the plain sort needs none.
    let pooled = || u64::pool().with(|pool| pool.borrow().len());
    let sorted_with_pool = |simple: bool| {
        u64::pool().with(|pool| pool.borrow_mut().clear());
        let mut sorted = keys.clone();
        if simple {
            with_simple_paths(|| sort_keys(&mut sorted, 40));
        } else {
            sort_keys(&mut sorted, 40);
        }
        (sorted, pooled())
    };
    assert_eq!(sorted_with_pool(false), (expected.clone(), 1));
    assert_eq!(sorted_with_pool(true), (expected, 0));
}
