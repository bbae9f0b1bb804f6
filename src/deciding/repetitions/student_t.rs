//! Student's t distribution: the two-sided tail probability and critical
//! value that the tests on run centers ([`super::center_test`]) need. No
//! dependency carries it, and a few dozen lines do (the regularized
//! incomplete beta function by its continued fraction, as in Numerical
//! Recipes, §6.4).

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms: relative error below
/// 1e-13 over the half-integers the t distribution asks for).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection keeps the series in its accurate range.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (i, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function `I_x(a, b)`.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    // The fraction converges fast on the side of the mean; the other side
    // comes from the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// `P(|T| >= t)` for Student's t with `df` degrees of freedom.
pub fn two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() {
        return f64::NAN;
    }
    incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
}

/// The `t` with `P(|T| >= t) = alpha`: the threshold a two-sided test at
/// level `alpha` puts on `|t|`.
///
/// Every state of a comparison asks for the same few `(alpha, df)` (one a
/// test kind and run count): each is bisected once a thread and
/// remembered, as the bisection costs about sixty incomplete beta
/// functions (a third of a 3-run `--vs` run's time when repeated).
pub fn two_sided_critical(alpha: f64, df: f64) -> f64 {
    thread_local! {
        static KNOWN: std::cell::RefCell<Vec<((u64, u64), f64)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (alpha.to_bits(), df.to_bits());
    let known = KNOWN.with_borrow(|known| {
        known
            .iter()
            .find_map(|&(k, critical)| (k == key).then_some(critical))
    });
    known.unwrap_or_else(|| {
        let critical = critical_by_bisection(alpha, df);
        // A handful of keys in practice; bounded so odd callers cannot grow it.
        KNOWN.with_borrow_mut(|known| {
            if known.len() < 64 {
                known.push((key, critical));
            }
        });
        critical
    })
}

/// [`two_sided_critical`] by bisection to float precision (the tail
/// probability falls monotonically in `t`).
fn critical_by_bisection(alpha: f64, df: f64) -> f64 {
    let mut upper = 1.0;
    while two_sided_p(upper, df) > alpha && upper < 1e12 {
        upper *= 2.0;
    }
    let mut lower = 0.0;
    for _ in 0..200 {
        let middle = lower / 2.0 + upper / 2.0;
        if middle <= lower || middle >= upper {
            break;
        }
        if two_sided_p(middle, df) > alpha {
            lower = middle;
        } else {
            upper = middle;
        }
    }
    upper
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance * b.abs()
    }

    #[test]
    fn ln_gamma_at_known_points() {
        assert!(ln_gamma(1.0).abs() < 1e-14);
        assert!(ln_gamma(2.0).abs() < 1e-14);
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-13
        ));
        assert!(close(ln_gamma(10.0), 362_880f64.ln(), 1e-13));
        assert!(close(ln_gamma(0.1), 2.252_712_651_734_206, 1e-12));
    }

    #[test]
    fn remembered_critical_values_are_the_bisected_ones() {
        for (alpha, df) in [
            (0.05, 2.0),
            (0.01, 4.0),
            (0.05, 2.0),
            (0.0025, 10.0),
            (0.05, 3.0),
        ] {
            let first = two_sided_critical(alpha, df);
            assert_eq!(first.to_bits(), critical_by_bisection(alpha, df).to_bits());
            assert_eq!(two_sided_critical(alpha, df).to_bits(), first.to_bits());
        }
        // Distinct keys get their own values.
        assert_ne!(two_sided_critical(0.05, 2.0), two_sided_critical(0.05, 3.0));
    }

    #[test]
    fn critical_values_match_the_tables() {
        // Two-sided 5 % and 1 % points of Student's t (any statistics table).
        let table = [
            (0.05, 1.0, 12.706_204_736),
            (0.05, 2.0, 4.302_652_730),
            (0.05, 4.0, 2.776_445_105),
            (0.05, 8.0, 2.306_004_135),
            (0.05, 30.0, 2.042_272_456),
            (0.01, 1.0, 63.656_741_163),
            (0.01, 2.0, 9.924_843_201),
            (0.01, 3.0, 5.840_909_310),
            (0.01, 4.0, 4.604_094_871),
            (0.01, 8.0, 3.355_387_331),
        ];
        for (alpha, df, expected) in table {
            let found = two_sided_critical(alpha, df);
            assert!(close(found, expected, 1e-8), "{alpha} {df}: {found}");
        }
        // Many degrees of freedom approach the normal's 1.959964.
        assert!(close(two_sided_critical(0.05, 1e6), 1.959_966, 1e-5));
    }

    #[test]
    fn tail_probability_is_the_inverse() {
        for df in [1.0, 2.0, 3.0, 5.0, 8.0, 13.0] {
            for alpha in [0.005, 0.015, 0.1, 0.5] {
                let t = two_sided_critical(alpha, df);
                assert!(close(two_sided_p(t, df), alpha, 1e-9), "{alpha} {df}");
            }
        }
        assert_eq!(two_sided_p(0.0, 4.0), 1.0);
        assert_eq!(two_sided_p(f64::INFINITY, 4.0), 0.0);
        assert!(two_sided_p(f64::NAN, 4.0).is_nan());
    }
}
