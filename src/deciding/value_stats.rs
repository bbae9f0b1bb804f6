//! The one pass over a bulk array that precedes its radix sort: whether
//! every value is positive and finite, whether every value is a widened
//! float32, the extreme values, and the AND and OR of the float32 and
//! float64 bit patterns.
//!
//! Written over independent lanes, so that it vectorizes (a single float
//! minimum accumulator does not: the compiler keeps the order of a float
//! reduction), and compiled twice: for AVX2 when the CPU has it (checked at
//! run time) and for the baseline x86-64 / any other target.

/// What [`value_stats`] finds in a non-empty array. `low` and `high` are
/// meaningful only when `usable`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ValueStats {
    pub usable: bool,
    pub float32: bool,
    pub low: f64,
    pub high: f64,
    pub all32: u32,
    pub any32: u32,
    pub all64: u64,
    pub any64: u64,
}

const LANES: usize = 8;

impl ValueStats {
    const EMPTY: ValueStats = ValueStats {
        usable: true,
        float32: true,
        low: f64::INFINITY,
        high: 0.0,
        all32: u32::MAX,
        any32: 0,
        all64: u64::MAX,
        any64: 0,
    };

    #[inline(always)]
    fn add(&mut self, v: f64) {
        self.usable &= v.is_finite() & (v > 0.0);
        let bits32 = (v as f32).to_bits();
        self.float32 &= f64::from(f32::from_bits(bits32)) == v;
        self.low = if v < self.low { v } else { self.low };
        self.high = if v > self.high { v } else { self.high };
        self.all32 &= bits32;
        self.any32 |= bits32;
        self.all64 &= v.to_bits();
        self.any64 |= v.to_bits();
    }

    /// Combines two lanes. Minimum and maximum are exact, so the lane
    /// order does not matter (NaN only occurs when `usable` is false).
    fn merge(self, other: ValueStats) -> ValueStats {
        ValueStats {
            usable: self.usable & other.usable,
            float32: self.float32 & other.float32,
            low: if other.low < self.low {
                other.low
            } else {
                self.low
            },
            high: if other.high > self.high {
                other.high
            } else {
                self.high
            },
            all32: self.all32 & other.all32,
            any32: self.any32 | other.any32,
            all64: self.all64 & other.all64,
            any64: self.any64 | other.any64,
        }
    }
}

/// The statistics of `values`; `usable` is false when it is empty.
pub(crate) fn value_stats(values: &[f64]) -> ValueStats {
    let stats = dispatch(values);
    ValueStats {
        usable: stats.usable & !values.is_empty(),
        ..stats
    }
}

#[cfg(target_arch = "x86_64")]
fn dispatch(values: &[f64]) -> ValueStats {
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU supports AVX-512F, checked just above.
        unsafe { value_stats_avx512(values) }
    } else if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        unsafe { value_stats_avx2(values) }
    } else {
        value_stats_lanes(values)
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn dispatch(values: &[f64]) -> ValueStats {
    value_stats_lanes(values)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn value_stats_avx2(values: &[f64]) -> ValueStats {
    value_stats_lanes(values)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn value_stats_avx512(values: &[f64]) -> ValueStats {
    value_stats_lanes(values)
}

/// Lanes as one array per statistic (not an array of `ValueStats`), so each
/// statistic is a vector of `LANES` values.
#[inline(always)]
fn value_stats_lanes(values: &[f64]) -> ValueStats {
    let mut usable = [true; LANES];
    let mut float32 = [true; LANES];
    let mut low = [f64::INFINITY; LANES];
    let mut high = [0.0f64; LANES];
    let (mut all32, mut any32) = ([u32::MAX; LANES], [0u32; LANES]);
    let (mut all64, mut any64) = ([u64::MAX; LANES], [0u64; LANES]);
    let chunks = values.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for lane in 0..LANES {
            let v = chunk[lane];
            // Not `is_finite`: its unsigned 64-bit compare does not vectorize.
            usable[lane] &= (v > 0.0) & (v < f64::INFINITY);
            let narrow = v as f32;
            float32[lane] &= f64::from(narrow) == v;
            low[lane] = if v < low[lane] { v } else { low[lane] };
            high[lane] = if v > high[lane] { v } else { high[lane] };
            all32[lane] &= narrow.to_bits();
            any32[lane] |= narrow.to_bits();
            all64[lane] &= v.to_bits();
            any64[lane] |= v.to_bits();
        }
    }
    let mut total = (0..LANES)
        .map(|lane| ValueStats {
            usable: usable[lane],
            float32: float32[lane],
            low: low[lane],
            high: high[lane],
            all32: all32[lane],
            any32: any32[lane],
            all64: all64[lane],
            any64: any64[lane],
        })
        .fold(ValueStats::EMPTY, ValueStats::merge);
    for &v in rest {
        total.add(v);
    }
    total
}

/// Extremes, AND and OR of the bit patterns of positive finite values
/// (whose patterns order like the numbers), as `u64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BitStats {
    pub min: u64,
    pub max: u64,
    pub all: u64,
    pub any: u64,
}

/// Compiles `$lanes` for AVX-512F and AVX2 too, and picks one at run time.
macro_rules! dispatched {
    ($name:ident, $lanes:ident, ($($arg:ident: $ty:ty),*) -> $out:ty) => {
        fn $name($($arg: $ty),*) -> $out {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f")]
                unsafe fn avx512($($arg: $ty),*) -> $out {
                    $lanes($($arg),*)
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($($arg: $ty),*) -> $out {
                    $lanes($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx512f") {
                    // SAFETY: the CPU supports AVX-512F, checked just above.
                    return unsafe { avx512($($arg),*) };
                }
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU supports AVX2, checked just above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            $lanes($($arg),*)
        }
    };
}

dispatched!(float32_dispatch, float32_lanes, (values: &[f32]) -> BitStats);
dispatched!(product_dispatch, product_lanes, (a: &[f32], b: &[f32]) -> BitStats);

/// [`BitStats`] of positive finite float32 values (sample times).
pub(crate) fn float32_bit_stats(values: &[f32]) -> BitStats {
    float32_dispatch(values)
}

/// [`BitStats`] of the float64 products `a[i] * b[i]` of positive finite
/// float32 values (cycles), without storing them.
pub(crate) fn product_bit_stats(a: &[f32], b: &[f32]) -> BitStats {
    product_dispatch(a, b)
}

#[inline(always)]
fn float32_lanes(values: &[f32]) -> BitStats {
    const N: usize = 16;
    let (mut low, mut high) = ([f32::INFINITY; N], [0.0f32; N]);
    let (mut all, mut any) = ([u32::MAX; N], [0u32; N]);
    let mut add = |lane: usize, v: f32| {
        low[lane] = if v < low[lane] { v } else { low[lane] };
        high[lane] = if v > high[lane] { v } else { high[lane] };
        all[lane] &= v.to_bits();
        any[lane] |= v.to_bits();
    };
    let chunks = values.chunks_exact(N);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (lane, &v) in chunk.iter().enumerate() {
            add(lane, v);
        }
    }
    for &v in rest {
        add(0, v);
    }
    BitStats {
        min: u64::from(low.iter().fold(f32::INFINITY, |m, &v| m.min(v)).to_bits()),
        max: u64::from(high.iter().fold(0.0f32, |m, &v| m.max(v)).to_bits()),
        all: u64::from(all.iter().fold(u32::MAX, |m, &v| m & v)),
        any: u64::from(any.iter().fold(0, |m, &v| m | v)),
    }
}

#[inline(always)]
fn product_lanes(a: &[f32], b: &[f32]) -> BitStats {
    const N: usize = 8;
    let (mut low, mut high) = ([f64::INFINITY; N], [0.0f64; N]);
    let (mut all, mut any) = ([u64::MAX; N], [0u64; N]);
    let mut add = |lane: usize, x: f32, y: f32| {
        let v = f64::from(x) * f64::from(y);
        low[lane] = if v < low[lane] { v } else { low[lane] };
        high[lane] = if v > high[lane] { v } else { high[lane] };
        all[lane] &= v.to_bits();
        any[lane] |= v.to_bits();
    };
    let length = a.len().min(b.len());
    let (a, b) = (&a[..length], &b[..length]);
    let full = length - length % N;
    for (x, y) in a[..full].chunks_exact(N).zip(b[..full].chunks_exact(N)) {
        for lane in 0..N {
            add(lane, x[lane], y[lane]);
        }
    }
    for (&x, &y) in a[full..].iter().zip(&b[full..]) {
        add(0, x, y);
    }
    BitStats {
        min: low.iter().fold(f64::INFINITY, |m, &v| m.min(v)).to_bits(),
        max: high.iter().fold(0.0f64, |m, &v| m.max(v)).to_bits(),
        all: all.iter().fold(u64::MAX, |m, &v| m & v),
        any: any.iter().fold(0, |m, &v| m | v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain one-accumulator loop the lanes must agree with.
    fn sequential(values: &[f64]) -> ValueStats {
        let mut stats = ValueStats::EMPTY;
        values.iter().for_each(|&v| stats.add(v));
        stats.usable &= !values.is_empty();
        stats
    }

    #[test]
    fn lanes_and_dispatch_agree_with_one_accumulator() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [0usize, 1, 7, 8, 9, 31, 1000] {
            for kind in 0..3 {
                let values: Vec<f64> = (0..n)
                    .map(|_| {
                        let x = 1e-6 * (1.0 + (next() >> 11) as f64 / (1u64 << 53) as f64);
                        match kind {
                            0 => f64::from(x as f32),
                            1 => x,
                            _ if next() % 50 == 0 => -x,
                            _ => x,
                        }
                    })
                    .collect();
                let expected = sequential(&values);
                let got = value_stats(&values);
                assert_eq!(got.usable, expected.usable, "n {n} kind {kind}");
                assert_eq!(got.float32, expected.float32);
                assert_eq!((got.all32, got.any32), (expected.all32, expected.any32));
                assert_eq!((got.all64, got.any64), (expected.all64, expected.any64));
                if expected.usable {
                    assert_eq!(got.low.to_bits(), expected.low.to_bits());
                    assert_eq!(got.high.to_bits(), expected.high.to_bits());
                }
                assert_eq!(value_stats_lanes(&values).usable & (n > 0), expected.usable);
            }
        }
        // Kind 0 is float32 data and kind 1 (almost surely) is not.
        let floats: Vec<f64> = (1..100).map(|i| f64::from(i as f32 * 0.37)).collect();
        assert!(value_stats(&floats).float32);
        assert!(!value_stats(&[0.1f64]).float32);
        assert!(!value_stats(&[]).usable);
    }

    #[test]
    fn bit_stats_of_float32_and_products_match_one_accumulator() {
        let mut state = 0x1234_5678_9abc_def1u64;
        for len in [1usize, 7, 16, 17, 100, 1001] {
            let draw = |state: &mut u64| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                1.0e-4 * (1.0 + (*state % 5000) as f32 / 1000.0)
            };
            let a: Vec<f32> = (0..len).map(|_| draw(&mut state)).collect();
            let b: Vec<f32> = (0..len).map(|_| 1.0e9 * draw(&mut state)).collect();
            let one = |bits: Vec<u64>| BitStats {
                min: *bits.iter().min().unwrap(),
                max: *bits.iter().max().unwrap(),
                all: bits.iter().fold(u64::MAX, |m, &v| m & v),
                any: bits.iter().fold(0, |m, &v| m | v),
            };
            let float32 = a.iter().map(|v| u64::from(v.to_bits())).collect();
            assert_eq!(float32_bit_stats(&a), one(float32), "{len}");
            let products = a
                .iter()
                .zip(&b)
                .map(|(&x, &y)| (f64::from(x) * f64::from(y)).to_bits())
                .collect();
            assert_eq!(product_bit_stats(&a, &b), one(products), "{len}");
        }
    }
}
