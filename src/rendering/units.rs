//! Durations, percentages and intervals as the reference prints them in
//! table cells.

use crate::deciding::decision::{Interval, is_positive_finite};
use crate::deciding::status::Status;
use crate::pycompat::pyfmt::{
    AsciiOut, fixed_len, fixed_len_signed, format_f, push_f, push_f_signed,
};
use crate::pycompat::tabulate::push_spaces;

/// `(multiplier, unit)` chosen by the largest magnitude; below 1 ms it is
/// always microseconds, even for nanosecond values.
pub fn duration_units(values: &[Option<f64>]) -> (f64, &'static str) {
    let max_abs = values
        .iter()
        .flatten()
        .filter(|v| v.is_finite())
        .map(|v| v.abs())
        .fold(None, |acc: Option<f64>, v| {
            Some(acc.map_or(v, |a| a.max(v)))
        });
    UNITS[unit_index(max_abs)]
}

/// The units [`duration_units`] picks from, by index.
const UNITS: [(f64, &str); 3] = [(1.0, "s"), (1e3, "ms"), (1e6, "us")];

/// The index in [`UNITS`] of the unit for the largest finite magnitude.
fn unit_index(max_abs: Option<f64>) -> usize {
    match max_abs {
        Some(m) if m >= 1.0 => 0,
        Some(m) if m >= 1e-3 => 1,
        _ => 2,
    }
}

/// [`duration_units`] of one value.
fn unit_index_of(value: f64) -> usize {
    unit_index(value.is_finite().then(|| value.abs()))
}

/// [`duration_units`] of two values.
fn unit_index_of_both(a: f64, b: f64) -> usize {
    let finite = |v: f64| v.is_finite().then(|| v.abs());
    let max_abs = match (finite(a), finite(b)) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    unit_index(max_abs)
}

/// `format_duration`: "n/a" for missing, non-finite, and (unless allowed)
/// negative or zero values.
pub fn duration(seconds: Option<f64>, allow_negative: bool, allow_zero: bool) -> String {
    let mut text = String::with_capacity(16);
    push_duration(&mut text, seconds, allow_negative, allow_zero);
    text
}

/// [`duration`] written at the end of `text` (table cells are written in place).
pub fn push_duration(
    text: &mut String,
    seconds: Option<f64>,
    allow_negative: bool,
    allow_zero: bool,
) {
    let Some(s) = seconds.filter(|s| s.is_finite()) else {
        return text.push_str("n/a");
    };
    if (s < 0.0 && !allow_negative) || (s == 0.0 && !allow_zero) {
        return text.push_str("n/a");
    }
    let (multiplier, units) = if s >= 1.0 {
        (1.0, "s")
    } else if s >= 1e-3 {
        (1e3, "ms")
    } else {
        (1e6, "us")
    };
    push_f(text, s * multiplier, 3);
    text.push(' ');
    text.push_str(units);
}

pub fn positive_duration(seconds: Option<f64>) -> String {
    duration(seconds, false, false)
}

pub fn push_positive_duration(text: &mut String, seconds: Option<f64>) {
    push_duration(text, seconds, false, false);
}

pub fn percentage(fraction: Option<f64>) -> String {
    let mut text = String::with_capacity(12);
    push_percentage(&mut text, fraction);
    text
}

pub fn push_percentage(text: &mut String, fraction: Option<f64>) {
    match fraction {
        None => text.push_str("n/a"),
        Some(f) if f.is_nan() => text.push_str("n/a"),
        Some(f) if f.is_infinite() => text.push_str("inf"),
        Some(f) => {
            push_f(text, f * 100.0, 2);
            text.push('%');
        }
    }
}

/// The Change column: a bound on the relative change, only for FAST/SLOW.
pub fn change(status: Status, bounds: Option<(f64, f64)>) -> String {
    let mut text = String::new();
    push_change(&mut text, status, bounds);
    text
}

pub fn push_change(text: &mut String, status: Status, bounds: Option<(f64, f64)>) {
    if !matches!(status, Status::Fast | Status::Slow) {
        return;
    }
    let Some((lower, upper)) = bounds else {
        return text.push_str("n/a");
    };
    let (relation, bound) = match status {
        Status::Fast => ("<= ", upper),
        _ => (">= ", lower),
    };
    text.push_str(relation);
    push_f_signed(text, bound * 100.0, 1);
    text.push('%');
}

pub fn push_interval_span(text: &mut String, interval: Option<&Interval>) {
    let Some(interval) = interval.filter(|i| is_positive_finite(Some(i.center))) else {
        return text.push_str("n/a");
    };
    let (lower, upper) = (interval.lower, interval.upper);
    if !lower.is_finite() || !upper.is_finite() || upper < lower {
        return text.push_str("n/a");
    }
    push_f(text, (upper - lower) / interval.center * 100.0, 1);
    text.push('%');
}

pub fn push_center_diff(text: &mut String, ref_time: Option<f64>, cmp_time: Option<f64>) {
    match (ref_time, cmp_time) {
        (Some(r), Some(c)) if is_positive_finite(Some(r)) && is_positive_finite(Some(c)) => {
            push_f_signed(text, (c - r) / r.min(c) * 100.0, 1);
            text.push('%');
        }
        _ => text.push_str("n/a"),
    }
}

/// Decimals of the interval deltas: enough to show the center's last digit.
fn delta_precision(center: f64, delta_multiplier: f64) -> usize {
    if !center.is_finite() {
        return 3;
    }
    let (center_multiplier, _) = duration_units(&[Some(center)]);
    let quantum = 10f64.powi(-3) * (delta_multiplier / center_multiplier);
    if quantum >= 1.0 {
        0
    } else {
        (-quantum.log10()).ceil() as usize
    }
}

/// [`delta_precision`] by the indices of the center's and the deltas'
/// units (of a finite center), which are all it depends on: each entry is
/// checked against it by the tests.
const DELTA_PRECISION: [[usize; 3]; 3] = [[3, 0, 0], [6, 3, 0], [9, 6, 3]];

/// The pieces of an intervals-mode cell: center digits, center unit, and
/// the `[-lo, +hi]` text with its unit. Both texts share one string
/// (the tests' [`TimingText`]).
#[cfg(test)]
pub struct CenterWithDeltas {
    text: String,
    center_len: usize,
    pub center_units: &'static str,
    pub delta_units: &'static str,
}

#[cfg(test)]
impl CenterWithDeltas {
    pub fn new(center: f64, interval: &Interval) -> Self {
        let mut text = String::with_capacity(40);
        let (center_len, center_units, delta_units) =
            push_center_with_deltas(&mut text, center, interval);
        CenterWithDeltas {
            text,
            center_len,
            center_units,
            delta_units,
        }
    }

    /// The center's digits.
    pub fn center_text(&self) -> &str {
        &self.text[..self.center_len]
    }

    /// `[-lo, +hi]`.
    pub fn deltas_text(&self) -> &str {
        &self.text[self.center_len..]
    }

    pub fn same_units(&self) -> bool {
        self.center_units == self.delta_units
    }
}

/// What an intervals-mode cell with deltas shows: the center and the
/// deltas, each in its own units, and the deltas' decimals.
struct DeltaPlan {
    /// The center in its units.
    center: f64,
    center_units: &'static str,
    /// The deltas in theirs.
    lower: f64,
    upper: f64,
    delta_units: &'static str,
    precision: usize,
}

impl DeltaPlan {
    #[inline]
    fn new(center: f64, interval: &Interval) -> DeltaPlan {
        let lower_delta = interval.lower - interval.center;
        let upper_delta = interval.upper - interval.center;
        let center_unit = unit_index_of(center);
        let delta_unit = unit_index_of_both(lower_delta, upper_delta);
        let (center_multiplier, center_units) = UNITS[center_unit];
        let (delta_multiplier, delta_units) = UNITS[delta_unit];
        let precision = match center.is_finite() {
            true => DELTA_PRECISION[center_unit][delta_unit],
            false => delta_precision(center, delta_multiplier),
        };
        DeltaPlan {
            center: center * center_multiplier,
            center_units,
            lower: lower_delta * delta_multiplier,
            upper: upper_delta * delta_multiplier,
            delta_units,
            precision,
        }
    }

    /// `[-lo, +hi]` at the end of `out`.
    #[inline]
    fn push_deltas<W: AsciiOut>(&self, out: &mut W) {
        out.push_ascii(b"[");
        push_f_signed(out, self.lower, self.precision);
        out.push_ascii(b", ");
        push_f_signed(out, self.upper, self.precision);
        out.push_ascii(b"]");
    }
}

/// The center's digits then `[-lo, +hi]` written at the end of `text`:
/// the digits' length, the center's units and the deltas' units.
#[cfg(test)]
fn push_center_with_deltas(
    text: &mut String,
    center: f64,
    interval: &Interval,
) -> (usize, &'static str, &'static str) {
    let plan = DeltaPlan::new(center, interval);
    let start = text.len();
    push_f(text, plan.center, 3);
    let center_len = text.len() - start;
    plan.push_deltas(text);
    (center_len, plan.center_units, plan.delta_units)
}

/// The lengths [`push_center_with_deltas`] writes, without writing them:
/// the digits' and the deltas', and whether the units are the same.
fn center_with_deltas_lengths(center: f64, interval: &Interval) -> (usize, usize, bool) {
    let lower_delta = interval.lower - interval.center;
    let upper_delta = interval.upper - interval.center;
    let center_unit = unit_index_of(center);
    let delta_unit = unit_index_of_both(lower_delta, upper_delta);
    let precision = match center.is_finite() {
        true => DELTA_PRECISION[center_unit][delta_unit],
        false => delta_precision(center, UNITS[delta_unit].0),
    };
    let delta_multiplier = UNITS[delta_unit].0;
    let center_len = fixed_len(center * UNITS[center_unit].0, 3);
    let deltas = 4
        + fixed_len_signed(lower_delta * delta_multiplier, precision)
        + fixed_len_signed(upper_delta * delta_multiplier, precision);
    (center_len, deltas, center_unit == delta_unit)
}

/// Column widths that align the intervals-mode cells of one table.
#[derive(Debug, Clone, Copy, Default)]
pub struct IntervalWidths {
    pub center: usize,
    pub deltas: usize,
}

impl IntervalWidths {
    /// The widths of formatted timings (the tests' oracle for [`Self::fit_timing`]).
    #[cfg(test)]
    pub fn of<'a>(texts: impl Iterator<Item = &'a TimingText>) -> Self {
        let mut widths = IntervalWidths::default();
        for text in texts {
            match text {
                TimingText::Unusable => {}
                TimingText::CenterOnly { digits, .. } => {
                    widths.center = widths.center.max(digits.len());
                }
                TimingText::WithDeltas { parts, .. } => {
                    widths.center = widths.center.max(parts.center_text().len());
                    if parts.same_units() {
                        widths.deltas = widths.deltas.max(parts.deltas_text().len());
                    }
                }
            }
        }
        widths
    }
}

/// The formatted pieces of one intervals-mode timing: formatted once, then
/// measured for the column widths and laid out with them. The tests' oracle
/// for [`push_timing_cell`] and [`IntervalWidths::fit_timing`], which write
/// and measure the same cells without formatting them first.
#[cfg(test)]
pub enum TimingText {
    /// No positive, finite center: `n/a`.
    Unusable,
    CenterOnly {
        digits: String,
        units: &'static str,
    },
    WithDeltas {
        center: f64,
        parts: CenterWithDeltas,
    },
}

#[cfg(test)]
impl TimingText {
    pub fn new(center: Option<f64>, interval: Option<&Interval>) -> Self {
        let Some(center) = center.filter(|c| is_positive_finite(Some(*c))) else {
            return TimingText::Unusable;
        };
        match interval {
            None => {
                let (multiplier, units) = duration_units(&[Some(center)]);
                TimingText::CenterOnly {
                    digits: format_f(center * multiplier, 3),
                    units,
                }
            }
            Some(interval) => TimingText::WithDeltas {
                center,
                parts: CenterWithDeltas::new(center, interval),
            },
        }
    }

    /// The cell: `center [-lo, +hi] unit`, aligned with `widths`.
    pub fn cell(&self, widths: IntervalWidths) -> String {
        let mut text = String::with_capacity(widths.center + widths.deltas + 8);
        self.push_cell(&mut text, widths);
        text
    }

    /// [`cell`](Self::cell) written at the end of `text`.
    pub fn push_cell(&self, text: &mut String, widths: IntervalWidths) {
        // The texts are ASCII: their lengths are their widths.
        let right_aligned = |text: &mut String, piece: &str, width: usize| {
            push_spaces(text, width.saturating_sub(piece.len()));
            text.push_str(piece);
        };
        match self {
            TimingText::Unusable => text.push_str("n/a"),
            TimingText::CenterOnly { digits, units } => {
                right_aligned(text, digits, widths.center);
                text.push(' ');
                if widths.deltas != 0 {
                    push_spaces(text, widths.deltas);
                    text.push(' ');
                }
                text.push_str(units);
            }
            TimingText::WithDeltas { parts, .. } if parts.same_units() => {
                right_aligned(text, parts.center_text(), widths.center);
                text.push(' ');
                right_aligned(text, parts.deltas_text(), widths.deltas);
                text.push(' ');
                text.push_str(parts.center_units);
            }
            TimingText::WithDeltas { center, parts } => {
                push_positive_duration(text, Some(*center));
                text.push(' ');
                text.push_str(parts.deltas_text());
                text.push(' ');
                text.push_str(parts.delta_units);
            }
        }
    }
}

/// What [`push_timing_pieces`] wrote of a timing cell, and the lengths of
/// the pieces that are aligned over the column.
#[derive(Debug, Clone, Copy)]
enum TimingPieces {
    /// `n/a`.
    Unusable,
    /// The center's digits, then its units.
    CenterOnly { center: usize },
    /// The center's digits, `[-lo, +hi]`, then the units of both.
    SameUnits { center: usize, deltas: usize },
    /// The whole cell (the deltas in other units are not aligned); the
    /// center's digits still widen the column.
    MixedUnits { center: usize },
}

/// A timing cell's text without its alignment, at the end of `text`: what
/// [`timing_lengths`] measures (the tests check it against this).
#[cfg(test)]
fn push_timing_pieces(
    text: &mut String,
    center: Option<f64>,
    interval: Option<&Interval>,
) -> TimingPieces {
    let Some(center) = center.filter(|c| is_positive_finite(Some(*c))) else {
        text.push_str("n/a");
        return TimingPieces::Unusable;
    };
    let start = text.len();
    let Some(interval) = interval else {
        let (multiplier, units) = duration_units(&[Some(center)]);
        push_f(text, center * multiplier, 3);
        let center = text.len() - start;
        text.push_str(units);
        return TimingPieces::CenterOnly { center };
    };
    let (center_len, center_units, delta_units) = push_center_with_deltas(text, center, interval);
    if center_units == delta_units {
        let deltas = text.len() - start - center_len;
        text.push_str(center_units);
        return TimingPieces::SameUnits {
            center: center_len,
            deltas,
        };
    }
    // `center units [-lo, +hi] units`, as `positive_duration` writes the center.
    let at = start + center_len;
    text.insert(at, ' ');
    text.insert_str(at + 1, center_units);
    text.insert(at + 1 + center_units.len(), ' ');
    text.push(' ');
    text.push_str(delta_units);
    TimingPieces::MixedUnits { center: center_len }
}

/// The [`TimingPieces`] that [`push_timing_pieces`] would return, without
/// writing the cell.
fn timing_lengths(center: Option<f64>, interval: Option<&Interval>) -> TimingPieces {
    let Some(center) = center.filter(|c| is_positive_finite(Some(*c))) else {
        return TimingPieces::Unusable;
    };
    let Some(interval) = interval else {
        let (multiplier, _) = UNITS[unit_index_of(center)];
        return TimingPieces::CenterOnly {
            center: fixed_len(center * multiplier, 3),
        };
    };
    match center_with_deltas_lengths(center, interval) {
        (center, deltas, true) => TimingPieces::SameUnits { center, deltas },
        (center, _, false) => TimingPieces::MixedUnits { center },
    }
}

impl IntervalWidths {
    /// Widens the columns to fit one timing cell, measured without writing it:
    /// the first of two passes that hold no cell (see [`push_timing_cell`]).
    pub fn fit_timing(&mut self, center: Option<f64>, interval: Option<&Interval>) {
        match timing_lengths(center, interval) {
            TimingPieces::Unusable => {}
            TimingPieces::CenterOnly { center } | TimingPieces::MixedUnits { center } => {
                self.center = self.center.max(center);
            }
            TimingPieces::SameUnits { center, deltas } => {
                self.center = self.center.max(center);
                self.deltas = self.deltas.max(deltas);
            }
        }
    }

    /// Wide enough for the cells of both.
    pub fn max(self, other: IntervalWidths) -> IntervalWidths {
        IntervalWidths {
            center: self.center.max(other.center),
            deltas: self.deltas.max(other.deltas),
        }
    }
}

/// [`TimingText::push_cell`] without a `TimingText`, and without the
/// spaces that align the center on the left: the table strips them from
/// the cells of its right-aligned Ref and Cmp columns and pads them back
/// to the column's width (tabulate's `_align_column`), so they would only
/// be written to be dropped. Written in order.
pub fn push_timing_cell(
    text: &mut String,
    center: Option<f64>,
    interval: Option<&Interval>,
    widths: IntervalWidths,
) {
    let Some(center) = center.filter(|c| is_positive_finite(Some(*c))) else {
        text.push_str("n/a");
        return;
    };
    let Some(interval) = interval else {
        let (multiplier, units) = UNITS[unit_index_of(center)];
        push_f(text, center * multiplier, 3);
        // A column with deltas has room for them, and a space, here.
        let gap = match widths.deltas {
            0 => 1,
            deltas => deltas + 2,
        };
        push_spaces(text, gap);
        text.push_str(units);
        return;
    };
    let plan = DeltaPlan::new(center, interval);
    push_f(text, plan.center, 3);
    text.push(' ');
    if plan.center_units == plan.delta_units {
        // The deltas, right-aligned: spaces go before them only when they
        // are narrower than the column's (rarely: most have its width).
        let at = text.len();
        plan.push_deltas(text);
        let pad = widths.deltas.saturating_sub(text.len() - at);
        if pad > 0 {
            insert_spaces(text, at, pad);
        }
        text.push(' ');
        text.push_str(plan.center_units);
    } else {
        // `center units [-lo, +hi] units`, as `positive_duration` writes the center.
        text.push_str(plan.center_units);
        text.push(' ');
        plan.push_deltas(text);
        text.push(' ');
        text.push_str(plan.delta_units);
    }
}

fn insert_spaces(text: &mut String, at: usize, count: usize) {
    const SPACES: &str = "                                ";
    let mut left = count;
    while left > 0 {
        let run = left.min(SPACES.len());
        text.insert_str(at, &SPACES[..run]);
        left -= run;
    }
}

/// Explain-mode values `[lo, center, hi]` in one unit, or `None` when an endpoint is unusable.
fn explicit_values(interval: &Interval) -> Option<([String; 3], &'static str)> {
    let points = [interval.lower, interval.center, interval.upper];
    if !points.iter().all(|p| is_positive_finite(Some(*p))) {
        return None;
    }
    let (multiplier, units) = duration_units(&points.map(Some));
    Some((points.map(|p| format_f(p * multiplier, 3)), units))
}

fn longest_common_prefix(values: &[String; 3]) -> &str {
    common_prefix([&values[0], &values[1], &values[2]])
}

/// A common prefix is factored out only when it keeps at least two digits
/// and one fractional digit (`2.4[64 | 96 | 96] us`).
fn prefix_is_useful(prefix: &str) -> bool {
    let Some((_, fraction)) = prefix.split_once('.') else {
        return false;
    };
    let digits = prefix.chars().filter(char::is_ascii_digit).count();
    let fraction_digits = fraction.chars().filter(char::is_ascii_digit).count();
    digits >= 2 && fraction_digits >= 1
}

/// Explain-mode widths of the three values over the rows without a useful prefix.
pub fn explicit_widths(cells: impl Iterator<Item = (Option<f64>, Option<Interval>)>) -> [usize; 3] {
    let mut widths = [0usize; 3];
    let mut scratch = StackText::default();
    for (center, interval) in cells {
        if !is_positive_finite(center) {
            continue;
        }
        let Some(interval) = interval else {
            continue;
        };
        let lengths = match explicit_values_in(&interval, &mut scratch) {
            Some(Some((values, _))) => {
                if prefix_is_useful(common_prefix(values)) {
                    continue;
                }
                values.map(str::len)
            }
            Some(None) => continue,
            // Too long for the stack: the values as strings.
            None => match explicit_values(&interval) {
                Some((values, _)) if !prefix_is_useful(longest_common_prefix(&values)) => {
                    values.each_ref().map(|v| v.len())
                }
                _ => continue,
            },
        };
        for (width, length) in widths.iter_mut().zip(lengths) {
            *width = (*width).max(length);
        }
    }
    widths
}

/// ASCII text on the stack: the numbers of a cell, written without an
/// allocation, or `None` from [`StackText::as_str`] when they did not fit.
struct StackText {
    bytes: [u8; 160],
    len: usize,
    overflow: bool,
}

impl Default for StackText {
    fn default() -> Self {
        StackText {
            bytes: [0; 160],
            len: 0,
            overflow: false,
        }
    }
}

impl StackText {
    fn clear(&mut self) {
        self.len = 0;
        self.overflow = false;
    }

    fn as_str(&self) -> Option<&str> {
        match self.overflow {
            true => None,
            false => std::str::from_utf8(&self.bytes[..self.len]).ok(),
        }
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.push_ascii(text.as_bytes());
        match self.overflow {
            true => Err(std::fmt::Error),
            false => Ok(()),
        }
    }
}

impl AsciiOut for StackText {
    fn push_ascii(&mut self, ascii: &[u8]) {
        match self.bytes.get_mut(self.len..self.len + ascii.len()) {
            Some(room) if !self.overflow => {
                room.copy_from_slice(ascii);
                self.len += ascii.len();
            }
            _ => self.overflow = true,
        }
    }
}

/// [`explicit_values`] written in `scratch`: `Some(None)` when an endpoint
/// is unusable, `None` when the values do not fit on the stack.
fn explicit_values_in<'s>(
    interval: &Interval,
    scratch: &'s mut StackText,
) -> Option<Option<([&'s str; 3], &'static str)>> {
    let points = [interval.lower, interval.center, interval.upper];
    if !points.iter().all(|p| is_positive_finite(Some(*p))) {
        return Some(None);
    }
    let (multiplier, units) = duration_units(&points.map(Some));
    scratch.clear();
    let mut ends = [0usize; 3];
    for (end, point) in ends.iter_mut().zip(points) {
        push_f(scratch, point * multiplier, 3);
        *end = scratch.len;
    }
    let text = scratch.as_str()?;
    Some(Some((
        [
            &text[..ends[0]],
            &text[ends[0]..ends[1]],
            &text[ends[1]..ends[2]],
        ],
        units,
    )))
}

/// [`longest_common_prefix`] of three texts.
fn common_prefix(values: [&str; 3]) -> &str {
    let first = values[0];
    let mut end = first.len();
    for other in &values[1..] {
        end = first
            .char_indices()
            .zip(other.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(end);
    }
    &first[..end]
}

/// [`timing_with_explicit_interval`] written at the end of `text`, without
/// an allocation when the values fit on the stack.
pub fn push_timing_with_explicit_interval(
    text: &mut String,
    center: Option<f64>,
    interval: Option<&Interval>,
    widths: [usize; 3],
    separator: &str,
) {
    if !is_positive_finite(center) {
        return text.push_str("n/a");
    }
    let Some(interval) = interval else {
        return push_positive_duration(text, center);
    };
    let mut scratch = StackText::default();
    let (values, units) = match explicit_values_in(interval, &mut scratch) {
        Some(Some(found)) => found,
        Some(None) => return text.push_str("n/a"),
        None => {
            return text.push_str(&timing_with_explicit_interval(
                center,
                Some(interval),
                widths,
                separator,
            ));
        }
    };
    let prefix = common_prefix(values);
    if prefix_is_useful(prefix) {
        text.push_str(prefix);
        for (index, value) in values.iter().enumerate() {
            text.push_str(if index == 0 { "[" } else { separator });
            text.push_str(&value[prefix.len()..]);
        }
    } else {
        for (index, (value, width)) in values.iter().zip(widths).enumerate() {
            text.push_str(if index == 0 { "[" } else { separator });
            // ASCII: the length is the width.
            push_spaces(text, width.saturating_sub(value.len()));
            text.push_str(value);
        }
    }
    text.push_str("] ");
    text.push_str(units);
}

/// An explain-mode cell: `[lo | center | hi] unit`, or the compressed
/// form, its values parted by `separator`.
pub fn timing_with_explicit_interval(
    center: Option<f64>,
    interval: Option<&Interval>,
    widths: [usize; 3],
    separator: &str,
) -> String {
    if !is_positive_finite(center) {
        return "n/a".to_string();
    }
    let Some(interval) = interval else {
        return positive_duration(center);
    };
    let Some((values, units)) = explicit_values(interval) else {
        return "n/a".to_string();
    };
    let prefix = longest_common_prefix(&values);
    if prefix_is_useful(prefix) {
        let suffix = |i: usize| &values[i][prefix.len()..];
        return format!(
            "{prefix}[{}{separator}{}{separator}{}] {units}",
            suffix(0),
            suffix(1),
            suffix(2)
        );
    }
    format!(
        "[{:>w0$}{separator}{:>w1$}{separator}{:>w2$}] {units}",
        values[0],
        values[1],
        values[2],
        w0 = widths[0],
        w1 = widths[1],
        w2 = widths[2]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_pick_units_like_the_reference() {
        assert_eq!(positive_duration(Some(1.5)), "1.500 s");
        assert_eq!(positive_duration(Some(0.0015)), "1.500 ms");
        assert_eq!(positive_duration(Some(2.5e-9)), "0.003 us");
        assert_eq!(positive_duration(Some(0.0)), "n/a");
        assert_eq!(duration(Some(0.0), true, true), "0.000 us");
        assert_eq!(duration(Some(-2e-6), true, true), "-2.000 us");
        assert_eq!(positive_duration(Some(f64::INFINITY)), "n/a");
    }

    #[test]
    fn percentages() {
        assert_eq!(percentage(Some(0.0056)), "0.56%");
        assert_eq!(percentage(Some(f64::INFINITY)), "inf");
        assert_eq!(percentage(Some(f64::NAN)), "n/a");
        assert_eq!(percentage(None), "n/a");
    }

    #[test]
    fn change_bounds() {
        assert_eq!(change(Status::Fast, Some((-0.1, -0.074))), "<= -7.4%");
        assert_eq!(change(Status::Slow, Some((0.062, 0.1))), ">= +6.2%");
        assert_eq!(change(Status::Same, Some((0.0, 0.1))), "");
    }

    /// xorshift64 over a few magnitudes, so that units and widths vary.
    fn random_timings(count: usize) -> Vec<(Option<f64>, Option<Interval>)> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            crate::testing::xorshift_step(&mut state);
            state
        };
        let mut value = move |scales: &[f64]| {
            let bits = next();
            let scale = scales[(bits % scales.len() as u64) as usize];
            scale * ((bits >> 11) as f64 / (1u64 << 53) as f64)
        };
        (0..count)
            .map(|i| {
                let center = value(&[2e-6, 2e-3, 3.0, 1500.0, -1e-3]);
                let center = match (i % 17, i % 29) {
                    (0, _) => None,
                    (_, 0) => Some(f64::NAN),
                    _ => Some(center),
                };
                let interval = (i % 5 != 0).then(|| {
                    let c = center.unwrap_or(1e-3);
                    Interval {
                        lower: c - value(&[1e-9, 1e-6, 1e-3, 0.5]),
                        center: c,
                        upper: c + value(&[1e-9, 1e-6, 1e-3, 0.5]),
                    }
                });
                (center, interval)
            })
            .collect()
    }

    #[test]
    fn timing_cells_in_two_passes_are_the_timing_texts() {
        let timings = random_timings(5000);
        let texts: Vec<TimingText> = timings
            .iter()
            .map(|(center, interval)| TimingText::new(*center, interval.as_ref()))
            .collect();
        let mut widths = IntervalWidths::default();
        for (center, interval) in &timings {
            widths.fit_timing(*center, interval.as_ref());
        }
        let expected = IntervalWidths::of(texts.iter());
        assert_eq!(
            (widths.center, widths.deltas),
            (expected.center, expected.deltas)
        );
        let narrow = IntervalWidths {
            center: 2,
            deltas: 0,
        };
        for ((center, interval), text) in timings.iter().zip(&texts) {
            let mut own = IntervalWidths::default();
            own.fit_timing(*center, interval.as_ref());
            let expected = IntervalWidths::of(std::iter::once(text));
            assert_eq!((own.center, own.deltas), (expected.center, expected.deltas));
            for widths in [widths, narrow] {
                let mut cell = String::from("prefix");
                push_timing_cell(&mut cell, *center, interval.as_ref(), widths);
                // Without the leading spaces the table strips.
                let full = text.cell(widths);
                assert_eq!(
                    cell,
                    format!("prefix{}", full.trim_start_matches(' ')),
                    "{center:?} {interval:?}"
                );
            }
        }
    }

    /// Timing and change cells are bare (printable ASCII, nothing for the
    /// table to strip): the intervals table measures them by their lengths
    /// (`github_table_with_bare_columns`).
    #[test]
    fn bare_cells_are_bare() {
        let is_bare = |cell: &str| {
            cell.bytes().all(|b| (0x20..0x7f).contains(&b))
                && !cell.starts_with(' ')
                && !cell.ends_with(' ')
        };
        let timings = random_timings(5000);
        let mut widths = IntervalWidths::default();
        for (center, interval) in &timings {
            widths.fit_timing(*center, interval.as_ref());
        }
        let narrow = IntervalWidths {
            center: 2,
            deltas: 0,
        };
        for (center, interval) in &timings {
            for widths in [widths, narrow] {
                let mut cell = String::new();
                push_timing_cell(&mut cell, *center, interval.as_ref(), widths);
                assert!(is_bare(&cell), "{cell:?}");
            }
        }
        let bounds = [
            -1e300,
            -0.5,
            -1e-9,
            0.0,
            0.074,
            2.5,
            f64::INFINITY,
            f64::NAN,
        ];
        for status in [Status::Fast, Status::Slow, Status::Same, Status::Undecided] {
            for lower in bounds {
                for upper in bounds {
                    for b in [Some((lower, upper)), None] {
                        let mut cell = String::new();
                        push_change(&mut cell, status, b);
                        assert!(is_bare(&cell), "{cell:?}");
                    }
                }
            }
        }
    }

    /// The table of precisions is the formula's, for every pair of units.
    #[test]
    fn delta_precisions_are_the_formulas() {
        for (center_unit, row) in DELTA_PRECISION.iter().enumerate() {
            // A center in each unit: 2 s, 2 ms, 2 us.
            let center = 2.0 / UNITS[center_unit].0;
            assert_eq!(unit_index_of(center), center_unit);
            for (delta_unit, precision) in row.iter().enumerate() {
                assert_eq!(
                    *precision,
                    delta_precision(center, UNITS[delta_unit].0),
                    "{center_unit} {delta_unit}"
                );
            }
        }
    }

    /// The units of one and two values are [`duration_units`]'.
    #[test]
    fn unit_indices_are_duration_units() {
        let values = [
            0.0,
            -0.0,
            1e-9,
            1e-3,
            0.999e-3,
            1.0,
            0.9999,
            -2.0,
            -1e-3,
            5e3,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for a in values {
            assert_eq!(UNITS[unit_index_of(a)], duration_units(&[Some(a)]), "{a}");
            for b in values {
                assert_eq!(
                    UNITS[unit_index_of_both(a, b)],
                    duration_units(&[Some(a), Some(b)]),
                    "{a} {b}"
                );
            }
        }
    }

    /// The lengths without the text against the pieces written.
    #[test]
    fn timing_lengths_are_the_written_pieces() {
        let mut timings = random_timings(20_000);
        timings.extend([
            (
                Some(1e-3),
                Some(Interval {
                    lower: f64::NAN,
                    center: 1e-3,
                    upper: 2e-3,
                }),
            ),
            (
                Some(1e-3),
                Some(Interval {
                    lower: f64::NEG_INFINITY,
                    center: 1e-3,
                    upper: 2e-3,
                }),
            ),
            (
                Some(9.9995e-4),
                Some(Interval {
                    lower: 9.9e-4,
                    center: 9.9995e-4,
                    upper: 1.5e-3,
                }),
            ),
        ]);
        let mut text = String::new();
        for (center, interval) in &timings {
            text.clear();
            let written = push_timing_pieces(&mut text, *center, interval.as_ref());
            let measured = timing_lengths(*center, interval.as_ref());
            assert_eq!(
                format!("{measured:?}"),
                format!("{written:?}"),
                "{center:?} {interval:?}"
            );
        }
    }

    /// The explain cells and widths without allocations against the ones
    /// built from strings, on random timings and huge values.
    #[test]
    fn explain_cells_on_the_stack_are_the_string_ones() {
        let mut timings = random_timings(20_000);
        let huge = Interval {
            lower: 1e300,
            center: 2e300,
            upper: 3e300,
        };
        timings.push((Some(2e300), Some(huge)));
        timings.push((
            Some(2e100),
            Some(Interval {
                lower: 1e100,
                center: 2e100,
                upper: 3e100,
            }),
        ));
        let string_widths = |cells: &[(Option<f64>, Option<Interval>)]| {
            let mut widths = [0usize; 3];
            for (center, interval) in cells {
                if !is_positive_finite(*center) {
                    continue;
                }
                let Some((values, _)) = interval.as_ref().and_then(explicit_values) else {
                    continue;
                };
                if prefix_is_useful(longest_common_prefix(&values)) {
                    continue;
                }
                for (width, value) in widths.iter_mut().zip(&values) {
                    *width = (*width).max(value.len());
                }
            }
            widths
        };
        let widths = explicit_widths(timings.iter().copied());
        assert_eq!(widths, string_widths(&timings));
        for (center, interval) in &timings {
            for widths in [widths, [0; 3], [12, 3, 40]] {
                let mut text = String::from("x");
                push_timing_with_explicit_interval(
                    &mut text,
                    *center,
                    interval.as_ref(),
                    widths,
                    " | ",
                );
                let expected =
                    timing_with_explicit_interval(*center, interval.as_ref(), widths, " | ");
                assert_eq!(text, format!("x{expected}"), "{center:?} {interval:?}");
            }
        }
    }

    #[test]
    fn explain_prefix_compression() {
        let interval = Interval {
            lower: 2.464e-6,
            center: 2.496e-6,
            upper: 2.496e-6,
        };
        assert_eq!(
            timing_with_explicit_interval(Some(2.496e-6), Some(&interval), [0; 3], " | "),
            "2.4[64 | 96 | 96] us"
        );
    }

    #[test]
    fn interval_cell_with_mixed_units() {
        let interval = Interval {
            lower: 1.489e-3,
            center: 1.5e-3,
            upper: 1.502e-3,
        };
        let text = TimingText::new(Some(1.5e-3), Some(&interval));
        let widths = IntervalWidths::of([&text].into_iter());
        assert_eq!(text.cell(widths), "1.500 ms [-11, +2] us");
        assert_eq!(
            TimingText::new(Some(1.5e-3), Some(&interval)).cell(widths),
            "1.500 ms [-11, +2] us"
        );
        // Aligned cells: the widths come from every row's texts.
        let texts = [
            TimingText::new(
                Some(12.5e-6),
                Some(&Interval {
                    lower: 12.0e-6,
                    center: 12.5e-6,
                    upper: 13.25e-6,
                }),
            ),
            TimingText::new(Some(1.5e-6), None),
            TimingText::new(None, None),
        ];
        let widths = IntervalWidths::of(texts.iter());
        let cells: Vec<String> = texts.iter().map(|t| t.cell(widths)).collect();
        assert_eq!(
            cells,
            [
                "12.500 [-0.500, +0.750] us",
                " 1.500                  us",
                "n/a"
            ]
        );
    }
}
