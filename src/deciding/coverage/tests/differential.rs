//! The optimized functions against the [`oracle`](super::oracle) copies of
//! the previous implementation, bit for bit, on many generated inputs.

use super::super::hits::{Side, Totals};
use super::super::log_walk::covered_flags_by_logs;
use super::super::ratio_walk::{
    MAX_CENTER_RELATIVE, MIN_CENTER_RELATIVE, RATIO_MARGIN, RatioTest, hits_by_ratio, logs_ascend,
};
use super::super::*;
use super::oracle;
use super::support::{
    Rng, covered_flags, radix_sort, sample_interval, sorted_copy, sorted_unique, time_and_cycles,
};

/// Sample-like arrays: float32 times, cycles (float32 x float32), small
/// pools with many duplicates and exact ratio ties, tiny and huge
/// magnitudes, and occasional non-positive or NaN values.
fn draw(rng: &mut Rng, kind: u64) -> Vec<f64> {
    let n = match rng.below(6) {
        0 => 1 + rng.below(3),
        1 => 1 + rng.below(40),
        _ => 1 + rng.below(1200),
    } as usize;
    let base = match rng.below(6) {
        0 => 1e-6,
        1 => 1e4,
        2 => 1e-290,
        3 => 1e290,
        4 => 1.0,
        _ => f64::from(f32::MIN_POSITIVE),
    };
    let spread = [1e-7, 1e-4, 1e-2, 0.3, 3.0][rng.below(5) as usize];
    let freqs: Vec<f32> = (0..1 + rng.below(10))
        .map(|i| 1.97e9 + 1.98e6 * i as f32)
        .collect();
    let pool: Vec<f64> = (0..1 + rng.below(50))
        .map(|i| base * [1.0, 1.005, 1.01, 201.0 / 200.0, 0.995][i as usize % 5] * (1.0 + i as f64))
        .collect();
    (0..n)
        .map(|_| {
            let x = base * (1.0 + spread * rng.unit());
            match kind {
                0 => f64::from(x as f32),
                1 => {
                    let t = f64::from(x as f32);
                    t * f64::from(freqs[rng.below(freqs.len() as u64) as usize])
                }
                2 => pool[rng.below(pool.len() as u64) as usize],
                3 => x,
                _ => match rng.below(60) {
                    0 => f64::NAN,
                    1 => 0.0,
                    2 => -x,
                    3 => f64::INFINITY,
                    4 => -0.0,
                    _ => x,
                },
            }
        })
        .collect()
}

/// Bit patterns, so NaN equals NaN and -0.0 differs from 0.0.
fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

fn same_unique(a: &SortedUnique, b: &SortedUnique) -> bool {
    bits(&a.values) == bits(&b.values) && a.counts == b.counts
}

fn same_coverages(a: &Option<Coverages>, b: &Option<Coverages>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            bits(&[a.ref_sample, a.cmp_sample, a.ref_support, a.cmp_support])
                == bits(&[b.ref_sample, b.cmp_sample, b.ref_support, b.cmp_support])
                && format!("{:?}{:?}", a.ref_filter, a.cmp_filter)
                    == format!("{:?}{:?}", b.ref_filter, b.cmp_filter)
        }
        _ => false,
    }
}

fn thresholds(center_relative: f64) -> CoverageThresholds {
    CoverageThresholds {
        center_relative,
        sample_coverage: 0.97,
        support_coverage: 0.80,
        rare_sample_fraction: 0.001,
        rare_max_removed_sample_fraction: 0.01,
    }
}

const CENTER_RELATIVES: [f64; 9] = [0.005, 0.0, 1e-10, 1e-9, 0.01, 0.3, 2.0, -0.5, f64::NAN];

#[test]
fn sorted_unique_and_sorted_copy_match_the_oracle() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..3000 {
        let values = draw(&mut rng, round % 5);
        assert_eq!(
            bits(&sorted_copy(&values)),
            bits(&oracle::sorted_copy(&values)),
            "{values:?}"
        );
        assert!(
            same_unique(&sorted_unique(&values), &oracle::sorted_unique(&values)),
            "{values:?}"
        );
    }
}

#[test]
fn sample_interval_matches_the_oracle() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for round in 0..3000 {
        let values = draw(&mut rng, round % 5);
        let (new, old) = (sample_interval(&values), oracle::sample_interval(&values));
        assert_eq!(
            new.map(|i| bits(&[i.lower, i.center, i.upper])),
            old.map(|i| bits(&[i.lower, i.center, i.upper])),
            "{values:?}"
        );
    }
    for n in 1..12 {
        let values: Vec<f64> = (0..n).map(|i| f64::from(n - i)).collect();
        assert_eq!(sample_interval(&values), oracle::sample_interval(&values));
    }
}

#[test]
fn coverages_match_the_oracle() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for round in 0..3000u64 {
        let kind = round % 5;
        let reference = draw(&mut rng, kind);
        let compare = match rng.below(4) {
            0 => reference.clone(),
            // The same values scaled by the threshold ratio and nearby.
            1 => reference
                .iter()
                .map(|v| v * [1.005, 201.0 / 200.0, 0.995, 1.0 + 1e-12][rng.below(4) as usize])
                .collect(),
            _ => draw(&mut rng, kind),
        };
        let c = CENTER_RELATIVES[rng.below(CENTER_RELATIVES.len() as u64) as usize];
        let t = thresholds(c);
        let (ru, cu) = (sorted_unique(&reference), sorted_unique(&compare));
        let new = nearest_neighbor_coverages(&ru, &cu, &t);
        let old = nearest_neighbor_coverages_oracle(&reference, &compare, &t);
        assert!(
            same_coverages(&new, &old),
            "c {c} ref {reference:?} cmp {compare:?}: {new:?} vs {old:?}"
        );
    }
}

fn nearest_neighbor_coverages_oracle(
    reference: &[f64],
    compare: &[f64],
    t: &CoverageThresholds,
) -> Option<Coverages> {
    oracle::nearest_neighbor_coverages(
        &oracle::sorted_unique(reference),
        &oracle::sorted_unique(compare),
        t,
    )
}

/// Both runs' flags from the ratio merge equal the log merge's flags,
/// including values exactly at the threshold ratio.
#[test]
fn ratio_flags_match_log_flags_at_the_threshold() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut decided = 0;
    for round in 0..4000u64 {
        let scale = [1.0, 1e-6, 3.7e4, 1e-299, 1e299][round as usize % 5];
        let n = 1 + rng.below(30) as usize;
        let mut a: Vec<f64> = (0..n)
            .map(|_| scale * (1 + rng.below(400)) as f64)
            .collect();
        let mut b: Vec<f64> = a
            .iter()
            .map(|v| v * [201.0 / 200.0, 200.0 / 201.0, 1.0, 1.0051, 1.0049][rng.below(5) as usize])
            .collect();
        if rng.below(3) == 0 {
            b.truncate(1 + rng.below(n as u64) as usize);
        }
        for v in [&mut a, &mut b] {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        for c in CENTER_RELATIVES {
            let tolerance = c.ln_1p();
            let logs = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
            let (la, lb) = (logs(&a), logs(&b));
            let counts = |v: &[f64], rng: &mut Rng| -> Vec<u64> {
                v.iter().map(|_| 1 + rng.below(3)).collect()
            };
            let (ca, cb) = (counts(&a, &mut rng), counts(&b, &mut rng));
            let keep = |v: &[f64], rng: &mut Rng| -> Vec<bool> {
                v.iter().map(|_| rng.below(4) != 0).collect()
            };
            let (ka, kb) = (keep(&a, &mut rng), keep(&b, &mut rng));
            let side_a = Side {
                values: &a,
                counts: &ca,
                retained: &ka,
            };
            let side_b = Side {
                values: &b,
                counts: &cb,
                retained: &kb,
            };
            let expected = (
                side_a.hits(&covered_flags(&la, &lb, tolerance)),
                side_b.hits(&covered_flags(&lb, &la, tolerance)),
            );
            if let Some(got) = hits_by_ratio(
                (&side_a, Totals::of(&side_a)),
                (&side_b, Totals::of(&side_b)),
                c,
                tolerance,
            ) {
                decided += 1;
                assert_eq!(got, expected, "c {c} a {a:?} b {b:?}");
            }
        }
    }
    assert!(decided > 10_000, "the fast path ran only {decided} times");
}

/// Runs with values closer than `SEPARATION`, at the threshold ratio and
/// on both sides of each other: the galloping ratio flags (where the
/// source's logs ascend) and the log walk equal the log merge's flags.
#[test]
fn ratio_flags_match_log_flags_with_close_values() {
    let mut rng = Rng(0x0bad_5eed_1234_5678);
    let mut galloped = 0;
    for round in 0..4000u64 {
        let scale = [1.0, 1e-6, 3.7e4, 1e-299, 1e299][round as usize % 5];
        let n = 1 + rng.below(30) as usize;
        let base: Vec<f64> = (0..n).map(|_| scale * (1 + rng.below(60)) as f64).collect();
        // Neighbours 1-20 ulps away, and the threshold ratio.
        let near = |v: f64, rng: &mut Rng| {
            let ulps = rng.below(41) as i64 - 20;
            f64::from_bits((v.to_bits() as i64 + ulps) as u64)
        };
        let factors = [201.0 / 200.0, 200.0 / 201.0, 1.0, 1.0 + 1e-12, 1.0 - 1e-12];
        let mut a: Vec<f64> = base.iter().map(|&v| near(v, &mut rng)).collect();
        a.extend(base.iter().map(|&v| near(v, &mut rng)));
        let mut b: Vec<f64> = base
            .iter()
            .map(|&v| near(v * factors[rng.below(5) as usize], &mut rng))
            .collect();
        for v in [&mut a, &mut b] {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        for c in CENTER_RELATIVES {
            let ratio = RatioTest {
                inside: (1.0 + c) * (1.0 - RATIO_MARGIN),
                outside: (1.0 + c) * (1.0 + RATIO_MARGIN),
                tolerance: c.ln_1p(),
            };
            let logs = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<_>>();
            for (x, y) in [(&a, &b), (&b, &a)] {
                let expected = covered_flags(&logs(x), &logs(y), ratio.tolerance);
                // Where the galloping path does not apply, the logs decide.
                assert_eq!(
                    covered_flags_by_logs(x, y, ratio.tolerance),
                    expected,
                    "c {c} targets {x:?} source {y:?}"
                );
                // The galloping path, whenever the source's logs ascend
                // and the threshold is one the fast path takes.
                let fast = (MIN_CENTER_RELATIVE..=MAX_CENTER_RELATIVE).contains(&c);
                if fast && logs_ascend(y) {
                    galloped += 1;
                    assert_eq!(
                        ratio.covered_flags(x, y),
                        expected,
                        "gallop: c {c} targets {x:?} source {y:?}"
                    );
                }
            }
        }
    }
    // Most sources have close pairs whose logs still ascend.
    assert!(galloped > 20_000, "the galloping path ran {galloped} times");
}

#[test]
fn threshold_ratio_is_decided_by_the_logs() {
    // 201/200 is exactly 1 + 0.005 as float64 ratio of the two values.
    let t = thresholds(0.005);
    for scale in [1.0, 1e-6, 1e6, 7.0] {
        let a = sorted_unique(&[200.0 * scale]);
        let b = sorted_unique(&[201.0 * scale]);
        let old = oracle::nearest_neighbor_coverages(&a, &b, &t);
        assert!(same_coverages(
            &nearest_neighbor_coverages(&a, &b, &t),
            &old
        ));
    }
}

#[test]
fn time_and_cycles_match_the_oracle() {
    let mut rng = Rng(0x5151_7272_9393_b4b4);
    let specials = [
        0.0f32,
        -0.0,
        -1.0,
        f32::NAN,
        f32::INFINITY,
        f32::MIN_POSITIVE,
        1e-45,
    ];
    for _ in 0..2000 {
        let draw = |rng: &mut Rng| -> Vec<f32> {
            (0..rng.below(6))
                .map(|_| match rng.below(10) {
                    0 => specials[rng.below(specials.len() as u64) as usize],
                    _ => (rng.unit() * 1e-5 + 1e-7) as f32 * [1.0, 2e14][rng.below(2) as usize],
                })
                .collect()
        };
        let (times, frequencies) = (draw(&mut rng), draw(&mut rng));
        let new = time_and_cycles(times.clone(), frequencies.clone());
        let old = oracle::time_and_cycles(&times, &frequencies);
        assert_eq!(
            new.map(|(t, c)| (bits(&t), bits(&c))),
            old.map(|(t, c)| (bits(&t), bits(&c))),
            "{times:?} {frequencies:?}"
        );
    }
}

#[test]
fn radix_sort_handles_every_key_width() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    // A far outlier: every other key shares the sorted prefix, so the
    // insertion sort runs out of moves and hands over to sort_unstable.
    for n in [10usize, 100, 3000] {
        let mut keys: Vec<u64> = (0..n).map(|_| rng.below(1 << 20)).collect();
        keys.push(1 << 50);
        let mut expected = keys.clone();
        expected.sort_unstable();
        radix_sort(&mut keys);
        assert_eq!(keys, expected);
    }
    for bits in 1..=64u32 {
        for n in [2usize, 3, 17, 500] {
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            let low = rng.below(8) as u32;
            let mut keys: Vec<u64> = (0..n)
                .map(|_| (rng.next() & mask) << low.min(64 - bits))
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            radix_sort(&mut keys);
            assert_eq!(keys, expected, "bits {bits} n {n}");
            let mut narrow: Vec<u32> = expected
                .iter()
                .map(|k| (*k >> 32) as u32 ^ *k as u32)
                .collect();
            let mut expected: Vec<u32> = narrow.clone();
            expected.sort_unstable();
            radix_sort(&mut narrow);
            assert_eq!(narrow, expected);
        }
    }
}
