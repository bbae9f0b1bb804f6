//! `str::parse::<f64>` (Python's `float()` on such text) for the number
//! strings NVBench writes, `"0.011065045668197718"` or
//! `"6.400290323572697e-06"`: a fifth of the instructions of the standard
//! parser, whose digit loop and general cases cost ~550 instructions a
//! string.
//!
//! The value is `w * 10^e` for an integer `w` of at most 19 digits. A
//! candidate double comes from two or three float operations (within a
//! few units in the last place of the exact value), and is then proven to
//! be the correctly rounded one by comparing the exact value with the
//! midpoints to its neighbours in 128-bit integers, stepping to a
//! neighbour when it is not. Whatever this cannot settle (other shapes,
//! more digits, exponents out of range, results near the ends of the
//! normal range) is `None`: the caller then asks the standard parser.

use std::cmp::Ordering;

/// Powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The largest `n` of `w / 10^n` handled: `(2m + 1) * 5^n` stays below
/// 2^128 for a 54-bit `2m + 1`.
const MAX_FRACTION: u32 = 30;

const MANTISSA_BITS: u32 = 52;
const HIDDEN: u64 = 1 << MANTISSA_BITS;

/// `5^n` for `n <= MAX_FRACTION`.
const POW5: [u128; MAX_FRACTION as usize + 1] = {
    let mut table = [1u128; MAX_FRACTION as usize + 1];
    let mut n = 1;
    while n < table.len() {
        table[n] = table[n - 1] * 5;
        n += 1;
    }
    table
};

/// Eight ASCII digits (little-endian) as their number, or `None` when
/// one of the bytes is no digit.
#[inline(always)]
fn eight_digits(chunk: u64) -> Option<u64> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    // Each byte is 0x30..=0x39: its high nibble is 3, and stays 3 when 6 is added.
    if chunk & HIGH != ZEROS || chunk.wrapping_add(0x0606_0606_0606_0606) & HIGH != ZEROS {
        return None;
    }
    // Pairs, then fours, then all eight (fast_float's reduction).
    let x = chunk - ZEROS;
    let x = x.wrapping_mul(10).wrapping_add(x >> 8);
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    let x = (x & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((x >> 16) & MASK).wrapping_mul(MUL2))
        >> 32;
    Some(x & 0xFFFF_FFFF)
}

/// The digits from `i` on, accumulated into `w` (wrapping: the caller
/// refuses more than 19 significant digits); the position after them.
#[inline(always)]
fn digits(text: &[u8], mut i: usize, w: &mut u64) -> usize {
    while let Some(chunk) = text.get(i..i + 8) {
        let Some(value) = eight_digits(u64::from_le_bytes(chunk.try_into().unwrap_or_default()))
        else {
            break;
        };
        *w = w.wrapping_mul(100_000_000).wrapping_add(value);
        i += 8;
    }
    while let Some(&byte) = text.get(i) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        *w = w.wrapping_mul(10).wrapping_add(u64::from(digit));
        i += 1;
    }
    i
}

/// `text.parse::<f64>()` for `-?D+(.D+)?([eE][+-]?D+)?` with at most 19
/// significant digits, when it can be proven here; `None` otherwise.
pub(super) fn parse(text: &[u8]) -> Option<f64> {
    let negative = text.first() == Some(&b'-');
    let start = usize::from(negative);
    let mut w = 0u64;
    let int_end = digits(text, start, &mut w);
    if int_end == start {
        return None;
    }
    let mut i = int_end;
    let mut fraction = 0usize;
    if text.get(i) == Some(&b'.') {
        let end = digits(text, i + 1, &mut w);
        fraction = end - (i + 1);
        if fraction == 0 {
            return None;
        }
        i = end;
    }
    // Leading zeros leave `w` at 0: only the digits from the first
    // non-zero one on can make it wrap.
    let digit_count = (int_end - start) + fraction;
    if digit_count > 19 {
        let leading_zeros = text[start..i]
            .iter()
            .take_while(|&&b| b == b'0' || b == b'.')
            .filter(|&&b| b == b'0')
            .count();
        if digit_count - leading_zeros > 19 {
            return None;
        }
    }
    let mut exponent = 0i64;
    if let Some(b'e' | b'E') = text.get(i) {
        i += 1;
        let exponent_negative = match text.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        while let Some(&byte) = text.get(i) {
            if !byte.is_ascii_digit() || i - start == 4 {
                break;
            }
            exponent = exponent * 10 + i64::from(byte - b'0');
            i += 1;
        }
        if i == start {
            return None;
        }
        if exponent_negative {
            exponent = -exponent;
        }
    }
    if i != text.len() {
        return None;
    }
    let magnitude = magnitude(w, exponent - fraction as i64)?;
    Some(if negative { -magnitude } else { magnitude })
}

/// `w * 10^e` correctly rounded, when proven.
fn magnitude(w: u64, e: i64) -> Option<f64> {
    if w == 0 {
        return Some(0.0);
    }
    if e >= 0 {
        // An integer below 10^38 < 2^128, which `as` rounds to nearest even.
        let scale = 10u128.checked_pow(u32::try_from(e).ok()?)?;
        return Some(u128::from(w).checked_mul(scale)? as f64);
    }
    let n = u32::try_from(-e).ok()?;
    if n > MAX_FRACTION {
        return None;
    }
    if n <= 22 && w <= 1 << 53 {
        // Both operands exact: one correctly rounded division (Clinger).
        return Some(w as f64 / POW10[n as usize]);
    }
    let approximate = if n <= 22 {
        w as f64 / POW10[n as usize]
    } else {
        w as f64 / 1e22 / POW10[n as usize - 22]
    };
    nearest(w, n, approximate)
}

/// The double nearest `w / 10^n` (ties to even), searched from
/// `candidate`, a few steps away at most.
fn nearest(w: u64, n: u32, mut candidate: f64) -> Option<f64> {
    for _ in 0..4 {
        let bits = candidate.to_bits();
        let biased = (bits >> MANTISSA_BITS) as i32;
        // Normal, with normal neighbours (a subnormal or infinite one has
        // another spacing): left to the standard parser.
        if !(2..=2045).contains(&biased) {
            return None;
        }
        let m = (bits & (HIDDEN - 1)) | HIDDEN;
        let q = biased - 1075;
        let odd = m & 1 == 1;
        let above = compare(w, n, 2 * m + 1, q - 1)?;
        if above == Ordering::Greater || (above == Ordering::Equal && odd) {
            candidate = f64::from_bits(bits + 1);
            continue;
        }
        // Below a power of two the spacing halves.
        let (low, low_exponent) = if m == HIDDEN {
            (4 * m - 1, q - 2)
        } else {
            (2 * m - 1, q - 1)
        };
        let below = compare(w, n, low, low_exponent)?;
        if below == Ordering::Less || (below == Ordering::Equal && odd) {
            candidate = f64::from_bits(bits - 1);
            continue;
        }
        return Some(candidate);
    }
    None
}

/// `w / 10^n` against `m * 2^k`, exactly: `w` against `m * 5^n * 2^(n + k)`.
#[inline(always)]
fn compare(w: u64, n: u32, m: u64, k: i32) -> Option<Ordering> {
    let right = u128::from(m).checked_mul(*POW5.get(n as usize)?)?;
    let shift = n as i32 + k;
    let left = u128::from(w);
    Some(if shift >= 0 {
        // `right << shift` at 2^128 or beyond is above any `w`.
        if right.leading_zeros() < shift as u32 {
            Ordering::Less
        } else {
            left.cmp(&(right << shift))
        }
    } else {
        let shift = (-shift) as u32;
        if left.leading_zeros() < shift {
            Ordering::Greater
        } else {
            (left << shift).cmp(&right)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            crate::testing::xorshift_step(&mut self.0);
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Whatever the fast path returns is what the standard parser returns.
    fn check(text: &str) -> bool {
        let fast = parse(text.as_bytes());
        if let Some(value) = fast {
            let expected: f64 = text.parse().unwrap_or_else(|_| panic!("{text:?}"));
            assert_eq!(value.to_bits(), expected.to_bits(), "{text:?}");
        }
        fast.is_some()
    }

    /// Python's `repr` of a double: the shortest digits, in exponent form
    /// below 1e-4 and from 1e16, with a two-digit exponent at least.
    fn python_repr(x: f64) -> String {
        let abs = x.abs();
        if abs != 0.0 && !(1e-4..1e16).contains(&abs) {
            let text = format!("{x:e}");
            let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
            let exponent: i32 = exponent.parse().unwrap_or(0);
            let sign = if exponent < 0 { '-' } else { '+' };
            format!("{mantissa}e{sign}{:02}", exponent.abs())
        } else {
            format!("{x:?}")
        }
    }

    #[test]
    fn the_shapes_nvbench_writes() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut fast = 0;
        let total = 300_000;
        for _ in 0..total {
            // Times, ratios and counts of every magnitude NVBench writes,
            // and now and then any double.
            let any = f64::from_bits(rng.next());
            if any.is_finite() {
                check(&python_repr(any));
            }
            let mantissa = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let x = mantissa * 10f64.powi(rng.below(22) as i32 - 12);
            fast += usize::from(check(&python_repr(x)));
            check(&format!("{x:e}"));
            check(&format!("{:.3}", x));
        }
        // The fast path settles almost all of them.
        assert!(fast * 100 > total * 99, "{fast}/{total}");
    }

    #[test]
    fn random_digit_strings() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..300_000 {
            let digits = 1 + rng.below(21) as usize;
            let mut text = String::new();
            if rng.below(4) == 0 {
                text.push('-');
            }
            let point = rng.below(digits as u64 + 1) as usize;
            for at in 0..digits {
                if at == point && at > 0 {
                    text.push('.');
                }
                let digit = if rng.below(5) == 0 { 0 } else { rng.below(10) };
                text.push(char::from(b'0' + digit as u8));
            }
            if rng.below(2) == 0 {
                let sign = ["", "-", "+"][rng.below(3) as usize];
                text.push_str(&format!(
                    "{}{sign}{}",
                    ['e', 'E'][rng.below(2) as usize],
                    rng.below(40)
                ));
            }
            check(&text);
        }
    }

    /// Exact midpoints between neighbouring doubles (ties to even) and the
    /// numbers next to them.
    #[test]
    fn ties_and_near_ties() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..100_000 {
            // (2m + 1) * 2^(j - 1) for j in -4..=10: few enough digits.
            let m = HIDDEN | (rng.next() & (HIDDEN - 1));
            let j = rng.below(15) as i32 - 4;
            let odd = u128::from(2 * m + 1);
            let text = if j >= 1 {
                format!("{}", odd << (j - 1))
            } else {
                // odd / 2^(1 - j) = odd * 5^(1 - j) / 10^(1 - j)
                let places = (1 - j) as u32;
                let scaled = odd * 5u128.pow(places);
                let digits = scaled.to_string();
                let (int, frac) = digits.split_at(digits.len() - places as usize);
                format!("{int}.{frac}")
            };
            check(&text);
            if let Ok(exact) = text.parse::<u128>() {
                check(&(exact + 1).to_string());
                check(&(exact - 1).to_string());
            }
        }
        assert!(check("9007199254740993"));
        assert!(check("4503599627370496.5"));
        assert!(check("4503599627370497.5"));
    }

    #[test]
    fn eight_digits_at_a_time() {
        let mut rng = Rng(0x6A09_E667_F3BC_C908);
        for _ in 0..200_000 {
            let mut bytes = [0u8; 8];
            for byte in &mut bytes {
                *byte = match rng.below(20) {
                    0 => rng.next() as u8,
                    1 => b"/:.e-+ \0"[rng.below(8) as usize],
                    _ => b'0' + rng.below(10) as u8,
                };
            }
            let expected = bytes.iter().try_fold(0u64, |w, &b| {
                b.is_ascii_digit().then(|| w * 10 + u64::from(b - b'0'))
            });
            assert_eq!(
                eight_digits(u64::from_le_bytes(bytes)),
                expected,
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn edge_cases() {
        for text in [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "0e5",
            "1",
            "1.5e-05",
            "1e22",
            "1e23",
            "9.999999999999999e22",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "5e-324",
            "1e-30",
            "1e-31",
            "123456789012345678",
            "1234567890123456789",
            "12345678901234567890",
            "0.000000000000000000001",
            "0.011065045668197718",
            "6.400290323572697e-06",
            "1.3609097466248757e-05",
            "18446744073709551615",
            "18446744073709551616",
            "1.0000000000000002",
            "0.30000000000000004",
            "1e0",
            "1E+0",
            "1e-0",
            "1e00010",
        ] {
            check(text);
        }
        for refused in [
            "", "-", ".5", "5.", "+1", "--1", "1e", "1e+", "1.e5", "1e5.0", "0x10", "inf", "nan",
            " 1", "1 ", "1_0", "1e12345",
        ] {
            assert_eq!(parse(refused.as_bytes()), None, "{refused:?}");
        }
    }
}
