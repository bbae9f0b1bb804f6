//! Where the ticks go and what they say. plotters places ticks with its own
//! rule; these choose matplotlib's (decades on log axes, `2^N` on pow2
//! axes, percent labels whose decimals follow the visible range), and the
//! charts hand them to plotters as key points and label formatters.
//! Exponents are written with Unicode superscripts (DejaVu Sans has them),
//! since plotters draws a label as one run of text.

use crate::rendering::charts::canvas::MINUS;

/// A tick: its position (in data units) and its label.
pub(super) type Tick = (f64, String);

/// Evenly spaced "nice" ticks (steps of 1, 2, 2.5 or 5 times a power of ten)
/// inside `[lo, hi]`, at most `max_bins` intervals, like matplotlib's
/// MaxNLocator.
pub(super) fn nice_ticks(lo: f64, hi: f64, max_bins: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let raw = (hi - lo) / max_bins.clamp(1, 9) as f64;
    let exponent = raw.log10().floor();
    if !exponent.is_finite() || exponent.abs() > 300.0 {
        return Vec::new();
    }
    let magnitude = 10f64.powi(exponent as i32);
    let mantissa = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .find(|m| m * magnitude >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0);
    let step = mantissa * magnitude;
    let first = (lo / step - 1e-9).ceil();
    let last = (hi / step + 1e-9).floor();
    if !(first.is_finite() && last.is_finite()) || last - first > 50.0 {
        return Vec::new();
    }
    // Dividing by an exact power of ten keeps 3 x 0.05 at 0.15 rather than
    // 0.15000000000000002.
    let value = |k: f64| {
        if exponent < 0.0 {
            k * mantissa / 10f64.powi(-exponent as i32)
        } else {
            k * mantissa * magnitude
        }
    };
    let mut ticks = Vec::new();
    let mut k = first;
    while k <= last {
        ticks.push(if k == 0.0 { 0.0 } else { value(k) });
        k += 1.0;
    }
    ticks
}

/// Ticks of a percent axis over the view `[lo, hi]` (fractions: 0.02 is
/// 2 %): round steps of at most `max_bins` intervals, each labelled with
/// just the decimals the step needs (`0 %`, `2 %`, `2.5 %`), so that
/// neighbouring labels always differ and float noise in the data never
/// shows as `7.00000%`.
pub(super) fn percent_ticks(lo: f64, hi: f64, max_bins: usize) -> Vec<Tick> {
    let values = nice_ticks(lo, hi, max_bins);
    let step = match values.as_slice() {
        [a, b, ..] => b - a,
        [only] => only.abs(),
        [] => return Vec::new(),
    };
    let decimals = step_decimals(step * 100.0);
    values
        .into_iter()
        .map(|v| (v, percent_text(v * 100.0, decimals)))
        .collect()
}

/// The fewest decimals that write multiples of `step` exactly.
fn step_decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() <= 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(6)
}

/// `percent` with `decimals` and a space before the sign (`−2.5 %`), a
/// real minus sign, and no `−0 %`.
fn percent_text(percent: f64, decimals: usize) -> String {
    // Astronomic changes would print hundreds of digits.
    let number = if percent.abs() >= 1e9 {
        format!("{percent:.2e}")
    } else {
        format!("{percent:.decimals$}")
    };
    let number = match number.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => number.replacen('-', &MINUS.to_string(), 1),
    };
    format!("{number} %")
}

/// `exponent` in Unicode superscript digits, with a superscript minus.
fn superscript(exponent: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits = exponent.unsigned_abs().to_string();
    let sign = if exponent < 0 { "⁻" } else { "" };
    sign.chars()
        .chain(digits.bytes().map(|d| DIGITS[(d - b'0') as usize]))
        .collect()
}

/// `10^exponent`, or `mantissa×10^exponent`.
fn decade_label(mantissa: Option<&str>, exponent: i32) -> String {
    match mantissa {
        Some(m) => format!("{m}\u{d7}10{}", superscript(exponent)),
        None => format!("10{}", superscript(exponent)),
    }
}

/// Ticks of a log axis over `[lo10, hi10]` (base-10 logarithms of the
/// view limits): decades when at least two are visible, else labelled
/// multiples of a decade, else evenly spaced values.
pub(super) fn log_ticks(lo10: f64, hi10: f64) -> Vec<Tick> {
    if !(lo10.is_finite() && hi10.is_finite() && hi10 > lo10) {
        return Vec::new();
    }
    let (lo10, hi10) = (lo10.max(-300.0), hi10.min(300.0));
    let first = lo10.ceil() as i32;
    let last = hi10.floor() as i32;
    if last - first >= 1 {
        let stride = ((last - first + 1) as f64 / 8.0).ceil().max(1.0) as i32;
        return (first..=last)
            .filter(|k| k.rem_euclid(stride) == 0)
            .map(|k| (10f64.powi(k), decade_label(None, k)))
            .collect();
    }
    // matplotlib labels every multiple on short ranges and 1, 2, 3, 4, 6
    // up to a decade; 1-2-5 covers the remaining single-decade case.
    let span = hi10 - lo10;
    let mantissas: &[u32] = if span <= 0.4 {
        &[1, 2, 3, 4, 5, 6, 7, 8, 9]
    } else if span <= 1.0 {
        &[1, 2, 3, 4, 6]
    } else {
        &[1, 2, 5]
    };
    let mut ticks = Vec::new();
    for k in (lo10.floor() as i32)..=(hi10.ceil() as i32) {
        for &m in mantissas {
            let pos = k as f64 + (m as f64).log10();
            if pos >= lo10 - 1e-12 && pos <= hi10 + 1e-12 {
                let mantissa = (m != 1).then(|| m.to_string());
                ticks.push((10f64.powf(pos), decade_label(mantissa.as_deref(), k)));
            }
        }
    }
    if ticks.len() >= 2 {
        ticks
    } else {
        linear_log_ticks(lo10, hi10)
    }
}

/// Evenly spaced ticks for a log axis shorter than the gap between two
/// 1-2-5 multiples, labelled in scientific notation.
fn linear_log_ticks(lo10: f64, hi10: f64) -> Vec<Tick> {
    let (lo, hi) = (10f64.powf(lo10), 10f64.powf(hi10));
    let ticks = nice_ticks(lo, hi, 5);
    let Some(step) = ticks.windows(2).map(|w| w[1] - w[0]).next() else {
        return Vec::new();
    };
    let exponent = hi.log10().floor() as i32;
    let scale = 10f64.powi(exponent);
    // Enough decimals to tell neighbouring ticks apart.
    let decimals = ((scale / step).log10().ceil().max(0.0) as usize).min(6);
    ticks
        .into_iter()
        .filter(|v| *v > 0.0)
        .map(|v| {
            let mantissa = format!("{:.*}", decimals, v / scale);
            (v, decade_label(Some(&mantissa), exponent))
        })
        .collect()
}

/// Ticks of a pow2 axis over `[lo10, hi10]`: powers of two labelled `2^N`
/// (as NVBench names pow2 values), at most about eight of them; a range
/// holding fewer than two powers of two gets decade ticks instead.
pub(super) fn pow2_ticks(lo10: f64, hi10: f64) -> Vec<Tick> {
    let to2 = std::f64::consts::LOG2_10;
    let (lo2, hi2) = (lo10 * to2, hi10 * to2);
    if !(lo2.is_finite() && hi2.is_finite() && hi2 - lo2 < 4000.0) {
        return log_ticks(lo10, hi10);
    }
    let (first, last) = (lo2.ceil() as i32, hi2.floor() as i32);
    if last - first < 1 {
        return log_ticks(lo10, hi10);
    }
    let stride = ((last - first + 1) as f64 / 8.0).ceil().max(1.0) as i32;
    (first..=last)
        .filter(|k| k.rem_euclid(stride) == 0)
        .map(|k| (2f64.powi(k), format!("2{}", superscript(k))))
        .collect()
}

/// The label of the tick at `value`, for plotters' label formatters (which
/// are called with the key points handed to it).
pub(super) fn label_at(ticks: &[Tick], value: f64) -> String {
    ticks
        .iter()
        .find(|(position, _)| *position == value || ((position - value) / position).abs() < 1e-9)
        .map(|(_, label)| label.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(ticks: &[Tick]) -> Vec<&str> {
        ticks.iter().map(|(_, l)| l.as_str()).collect()
    }

    #[test]
    fn percent_ticks_are_round_distinct_and_few() {
        assert_eq!(
            nice_ticks(-0.0893, 0.1683, 9),
            vec![-0.05, 0.0, 0.05, 0.1, 0.15]
        );
        // Every state 7 % slower: the view holds 0 and the ticks are whole percents.
        let ticks = percent_ticks(-0.0035, 0.0735, 6);
        assert_eq!(labels(&ticks), vec!["0 %", "2 %", "4 %", "6 %"]);
        assert_eq!(
            labels(&percent_ticks(-0.1, 0.2, 6)),
            vec![
                "\u{2212}10 %",
                "\u{2212}5 %",
                "0 %",
                "5 %",
                "10 %",
                "15 %",
                "20 %"
            ]
        );
        assert_eq!(
            labels(&percent_ticks(-0.0004, 0.0011, 6)),
            vec![
                "\u{2212}0.025 %",
                "0.000 %",
                "0.025 %",
                "0.050 %",
                "0.075 %",
                "0.100 %"
            ]
        );
        assert_eq!(labels(&percent_ticks(0.0, 0.06, 2)), vec!["0 %", "5 %"]);
        assert_eq!(
            labels(&percent_ticks(-3.0, 40.0, 6)).last().unwrap(),
            &"4000 %"
        );
        assert_eq!(labels(&percent_ticks(0.0, 4e9, 2))[1], "2.00e11 %");
        for (lo, hi) in [(-0.7, 0.2), (0.0, 0.0734), (-2e-5, 3e-5), (-3.0, 40.0)] {
            let ticks = percent_ticks(lo, hi, 6);
            let texts = labels(&ticks);
            let distinct: std::collections::BTreeSet<&&str> = texts.iter().collect();
            assert_eq!(distinct.len(), texts.len(), "{texts:?}");
            assert!((2..=7).contains(&ticks.len()), "{texts:?}");
        }
    }

    #[test]
    fn decade_ticks() {
        assert_eq!(labels(&log_ticks(-5.2, -2.9)), vec!["10⁻⁵", "10⁻⁴", "10⁻³"]);
        assert_eq!(
            labels(&log_ticks(-5.1, -4.2)),
            vec!["10⁻⁵", "2×10⁻⁵", "3×10⁻⁵", "4×10⁻⁵", "6×10⁻⁵"]
        );
        assert!(
            log_ticks(-5.29, -5.288).len() >= 2,
            "very short ranges still get ticks"
        );
        let wide = log_ticks(-30.0, 30.0);
        assert!(wide.len() <= 9, "{}", wide.len());
        assert_eq!(label_at(&wide, 1.0), "10⁰");
    }

    #[test]
    fn pow2_axes_get_powers_of_two() {
        // 2^16 .. 2^28
        let ticks = pow2_ticks(65536f64.log10() - 0.1, 268435456f64.log10() + 0.1);
        assert_eq!(
            labels(&ticks),
            vec!["2¹⁶", "2¹⁸", "2²⁰", "2²²", "2²⁴", "2²⁶", "2²⁸"]
        );
        assert_eq!(ticks[0].0, 65536.0);
        assert_eq!(label_at(&ticks, 1048576.0), "2²⁰");
        assert_eq!(labels(&pow2_ticks(0.0, 0.2)), labels(&log_ticks(0.0, 0.2)));
    }
}
