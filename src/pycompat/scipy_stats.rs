//! The SciPy statistics Google Benchmark's `compare.py` prints, to the
//! last bit where it can matter: `scipy.stats.mannwhitneyu(x, y,
//! alternative="two-sided")` with `method="auto"` (scipy 1.17), and
//! `scipy.stats.gmean` of a column. The normal tail is cephes' `ndtr`
//! (SciPy's), so p-values round to the same four decimals.

/// `mannwhitneyu(x, y, alternative="two-sided").pvalue` with SciPy's
/// defaults: continuity correction, NaN propagated, `method="auto"` (the
/// exact distribution when either sample has at most 8 values and the
/// pooled sample has no ties, else the normal approximation with tie
/// correction). `None` when a sample is empty.
pub fn mannwhitneyu_two_sided(x: &[f64], y: &[f64]) -> Option<f64> {
    let (n1, n2) = (x.len(), y.len());
    if n1 == 0 || n2 == 0 {
        return None;
    }
    if x.iter().chain(y).any(|v| v.is_nan()) {
        return Some(f64::NAN);
    }
    let (rank_sum, ties) = rank_sum_and_ties(x, y);
    let (m, n) = (n1 as f64, n2 as f64);
    let u1 = rank_sum - m * (m + 1.0) / 2.0;
    let u2 = m * n - u1;
    let u = u1.max(u2);
    let has_ties = ties.iter().any(|t| *t > 1);
    let p = if (n1 > 8 && n2 > 8) || has_ties {
        normal_sf(u, n1, n2, &ties)
    } else {
        exact_sf(u as u64, n1, n2)
    };
    Some((p * 2.0).clamp(0.0, 1.0))
}

/// The sum of the average ranks of `x` in the pooled sample, and the size
/// of every group of equal values (`_rankdata(..., return_ties=True)`).
fn rank_sum_and_ties(x: &[f64], y: &[f64]) -> (f64, Vec<u64>) {
    let mut pooled: Vec<(f64, bool)> = x
        .iter()
        .map(|v| (*v, true))
        .chain(y.iter().map(|v| (*v, false)))
        .collect();
    pooled.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut rank_sum, mut ties) = (0.0, Vec::new());
    let mut start = 0;
    while start < pooled.len() {
        let mut end = start + 1;
        // -0.0 and 0.0 are one value, as NumPy compares them.
        while end < pooled.len() && pooled[end].0 == pooled[start].0 {
            end += 1;
        }
        // Ranks start + 1 ..= end: their average, a multiple of 0.5.
        let average = (start + 1 + end) as f64 / 2.0;
        let from_x = pooled[start..end].iter().filter(|(_, x)| *x).count();
        rank_sum += average * from_x as f64;
        ties.push((end - start) as u64);
        start = end;
    }
    (rank_sum, ties)
}

/// `_get_mwu_z` then `norm.sf(z)`: continuity and tie correction.
fn normal_sf(u: f64, n1: usize, n2: usize, ties: &[u64]) -> f64 {
    let (m, n) = (n1 as f64, n2 as f64);
    let mu = m * n / 2.0;
    let total = m + n;
    let tie_term: u64 = ties.iter().map(|t| t * t * t - t).sum();
    let s = (m * n / 12.0 * ((total + 1.0) - tie_term as f64 / (total * (total - 1.0)))).sqrt();
    let numerator = u - mu - 0.5;
    let z = numerator / s;
    ndtr(-z)
}

/// `_MWU.sf(U)` for `U >= n1 * n2 / 2`: the left tail at the complement,
/// each frequency divided by the number of arrangements and summed in
/// order, as NumPy's `cumsum` adds them.
fn exact_sf(u: u64, n1: usize, n2: usize) -> f64 {
    let (small, large) = (n1.min(n2), n1.max(n2));
    let complement = (small * large) as u64 - u;
    let frequencies = u_frequencies(small, large, complement as usize);
    let total = binom((small + large) as f64, small as f64);
    frequencies
        .iter()
        .map(|count| *count as f64 / total)
        .fold(0.0, |sum, p| sum + p)
}

/// How many arrangements of `m` and `n` values give U = 0 ..= `max_u`
/// (exact integers; SciPy's uint64 counts are exact where these fit).
fn u_frequencies(m: usize, n: usize, max_u: usize) -> Vec<u128> {
    // The largest value is either from the first sample (then it is above
    // all j values of the second) or from the second:
    // f(i, j)[u] = f(i - 1, j)[u - j] + f(i, j - 1)[u]; `previous[j]` is
    // f(i - 1, j), `current[j]` is f(i, j).
    let mut previous: Vec<Vec<u128>> = (0..=n)
        .map(|_| {
            let mut row = vec![0u128; max_u + 1];
            row[0] = 1;
            row
        })
        .collect();
    for _ in 1..=m {
        let mut current: Vec<Vec<u128>> = Vec::with_capacity(n + 1);
        // j = 0: only U = 0.
        let mut first = vec![0u128; max_u + 1];
        first[0] = 1;
        current.push(first);
        for j in 1..=n {
            let mut row = current[j - 1].clone();
            for (u, count) in row.iter_mut().enumerate() {
                if u >= j {
                    *count += previous[j][u - j];
                }
            }
            current.push(row);
        }
        previous = current;
    }
    previous.swap_remove(n)
}

/// `scipy.special.binom` for integer arguments (cephes: the product
/// formula, rescaled as it grows).
fn binom(n: f64, k: f64) -> f64 {
    let mut k = k;
    if k > n / 2.0 && n > 0.0 {
        k = n - k;
    }
    if (0.0..20.0).contains(&k) {
        let (mut num, mut den) = (1.0f64, 1.0f64);
        let mut i = 1.0;
        while i < 1.0 + k {
            num *= i + n - k;
            den *= i;
            if num.abs() > 1e50 {
                num /= den;
                den = 1.0;
            }
            i += 1.0;
        }
        return num / den;
    }
    // Beyond 20 values a side the exact method is not used (8 at most).
    let mut value = 1.0f64;
    let mut i = 1.0;
    while i <= k {
        value = value * (n - k + i) / i;
        i += 1.0;
    }
    value
}

/// `scipy.stats.gmean` of one column: `exp(mean(log(values)))`, summed in
/// order (NumPy reduces an axis-0 column row by row).
pub fn gmean(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut count) = (0.0f64, 0usize);
    for value in values {
        sum += value.ln();
        count += 1;
    }
    (sum / count as f64).exp()
}

// -- cephes ndtr --------------------------------------------------------------
// The coefficients as cephes writes them (more digits than a double holds).

#[allow(clippy::excessive_precision)]
const ERF_T: [f64; 5] = [
    9.604_973_739_870_516_387_49E0,
    9.002_601_972_038_426_892_17E1,
    2.232_005_345_946_843_192_26E3,
    7.003_325_141_128_050_754_73E3,
    5.559_230_130_103_949_627_68E4,
];
#[allow(clippy::excessive_precision)]
const ERF_U: [f64; 5] = [
    3.356_171_416_475_030_996_47E1,
    5.213_579_497_801_526_797_95E2,
    4.594_323_829_709_801_279_87E3,
    2.262_900_006_138_909_342_46E4,
    4.926_739_426_086_359_210_86E4,
];
#[allow(clippy::excessive_precision)]
const ERFC_P: [f64; 9] = [
    2.461_969_814_735_305_125_24E-10,
    5.641_895_648_310_688_219_77E-1,
    7.463_210_564_422_699_126_87E0,
    4.863_719_709_856_813_666_14E1,
    1.965_208_329_560_770_982_42E2,
    5.264_451_949_954_773_586_31E2,
    9.345_285_271_719_576_075_40E2,
    1.027_551_886_895_157_102_72E3,
    5.575_353_353_693_993_275_26E2,
];
#[allow(clippy::excessive_precision)]
const ERFC_Q: [f64; 8] = [
    1.322_819_511_547_449_925_08E1,
    8.670_721_408_859_897_423_29E1,
    3.549_377_788_878_198_910_62E2,
    9.757_085_017_432_054_897_53E2,
    1.823_909_166_879_097_362_89E3,
    2.246_337_608_187_109_817_92E3,
    1.656_663_091_941_613_501_82E3,
    5.575_353_408_177_276_755_46E2,
];
#[allow(clippy::excessive_precision)]
const ERFC_R: [f64; 6] = [
    5.641_895_835_477_550_739_84E-1,
    1.275_366_707_599_781_044_16E0,
    5.019_050_422_511_804_774_14E0,
    6.160_210_979_930_535_851_95E0,
    7.409_742_699_504_489_391_60E0,
    2.978_866_653_721_002_406_70E0,
];
#[allow(clippy::excessive_precision)]
const ERFC_S: [f64; 6] = [
    2.260_528_632_201_172_765_90E0,
    9.396_035_249_380_014_346_73E0,
    1.204_895_398_080_966_566_05E1,
    1.708_144_507_475_658_972_22E1,
    9.608_968_090_632_858_781_98E0,
    3.369_076_451_000_815_160_50E0,
];
#[allow(clippy::excessive_precision)]
const MAXLOG: f64 = 7.097_827_128_933_839_968_43E2;

/// cephes `polevl`: coefficients from the highest power down.
fn polevl(x: f64, coefficients: &[f64]) -> f64 {
    coefficients[1..]
        .iter()
        .fold(coefficients[0], |acc, c| acc * x + c)
}

/// cephes `p1evl`: `polevl` with an implied leading coefficient 1.
fn p1evl(x: f64, coefficients: &[f64]) -> f64 {
    coefficients.iter().fold(1.0, |acc, c| acc * x + c)
}

fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x.abs() > 1.0 {
        return 1.0 - erfc(x);
    }
    let z = x * x;
    x * polevl(z, &ERF_T) / p1evl(z, &ERF_U)
}

fn erfc(a: f64) -> f64 {
    if a.is_nan() {
        return f64::NAN;
    }
    let x = a.abs();
    if x < 1.0 {
        return 1.0 - erf(a);
    }
    let z = -a * a;
    if z < -MAXLOG {
        return if a < 0.0 { 2.0 } else { 0.0 };
    }
    let z = z.exp();
    let (p, q) = if x < 8.0 {
        (polevl(x, &ERFC_P), p1evl(x, &ERFC_Q))
    } else {
        (polevl(x, &ERFC_R), p1evl(x, &ERFC_S))
    };
    let mut y = (z * p) / q;
    if a < 0.0 {
        y = 2.0 - y;
    }
    if y != 0.0 {
        return y;
    }
    if a < 0.0 { 2.0 } else { 0.0 }
}

/// `scipy.special.ndtr`: the standard normal CDF.
pub fn ndtr(a: f64) -> f64 {
    if a.is_nan() {
        return f64::NAN;
    }
    let x = a * std::f64::consts::FRAC_1_SQRT_2;
    let z = x.abs();
    if z < std::f64::consts::FRAC_1_SQRT_2 {
        0.5 + 0.5 * erf(x)
    } else {
        let y = 0.5 * erfc(z);
        if x > 0.0 { 1.0 - y } else { y }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_p_values_of_complete_separations() {
        // 3 vs 3 fully separated: 2 / C(6, 3) = 0.1 (case 004).
        let p = mannwhitneyu_two_sided(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
        assert!((p - 0.1).abs() < 1e-15, "{p}");
        // 2 vs 2: 2 / 6.
        let p = mannwhitneyu_two_sided(&[1.0, 2.0], &[3.0, 4.0]).unwrap();
        assert!((p - 1.0 / 3.0).abs() < 1e-15, "{p}");
        // 5 vs 5 (case 038): 2 / 252.
        let p = mannwhitneyu_two_sided(&[1.0, 2.0, 3.0, 4.0, 5.0], &[6.0, 7.0, 8.0, 9.0, 10.0])
            .unwrap();
        assert!((p - 2.0 / 252.0).abs() < 1e-15, "{p}");
    }

    #[test]
    fn identical_samples_give_one_and_nan_propagates() {
        assert_eq!(mannwhitneyu_two_sided(&[2.0; 10], &[2.0; 10]), Some(1.0));
        assert!(
            mannwhitneyu_two_sided(&[1.0, f64::NAN], &[2.0, 3.0])
                .unwrap()
                .is_nan()
        );
        assert_eq!(mannwhitneyu_two_sided(&[], &[1.0]), None);
    }

    #[test]
    fn frequencies_sum_to_the_arrangements() {
        for (m, n) in [(1, 1), (2, 3), (3, 5), (8, 8), (4, 30)] {
            let all = u_frequencies(m, n, m * n);
            let sum: u128 = all.iter().sum();
            assert_eq!(sum as f64, binom((m + n) as f64, m as f64), "{m} {n}");
            // Symmetric around m n / 2.
            for u in 0..=m * n {
                assert_eq!(all[u], all[m * n - u]);
            }
        }
    }

    #[test]
    fn ndtr_values() {
        assert_eq!(ndtr(0.0), 0.5);
        assert!((ndtr(1.0) - 0.841_344_746_068_542_9).abs() < 1e-15);
        assert!((ndtr(-3.0) - 0.001_349_898_031_630_094_6).abs() < 1e-17);
        assert_eq!(ndtr(f64::NEG_INFINITY), 0.0);
        assert_eq!(ndtr(f64::INFINITY), 1.0);
    }

    #[test]
    fn gmean_of_a_column() {
        assert!((gmean([1.0, 4.0].into_iter()) - 2.0).abs() < 1e-15);
        assert_eq!(gmean([0.0, 4.0].into_iter()), 0.0);
        assert!(gmean([f64::NAN, 4.0].into_iter()).is_nan());
    }
}
