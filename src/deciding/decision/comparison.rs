//! A comparison's outcome as held in every record: the numbers both sides
//! show, the differences between them, and the decision.

use super::{Decision, Evidence, Interval};
use crate::deciding::status::{Reason, Status};

/// The outcome for one matched state. Its optional numbers are held as
/// plain values with a bit each saying whether they are there (an `Option`
/// would double each), and the differences are computed when read from the
/// centers and intervals they are made of: 136 bytes instead of 272 on
/// every record.
#[derive(Debug, Clone)]
pub struct Comparison {
    ref_interval: Interval,
    cmp_interval: Interval,
    ref_time: f64,
    cmp_time: f64,
    ref_noise: f64,
    cmp_noise: f64,
    change_bounds: (f64, f64),
    utest_p: f64,
    present: Present,
    pub status: Status,
    pub reason: Reason,
}

/// Which of a comparison's numbers are there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Present(u16);

impl Present {
    const REF_INTERVAL: u16 = 1;
    const CMP_INTERVAL: u16 = 1 << 1;
    const REF_TIME: u16 = 1 << 2;
    const CMP_TIME: u16 = 1 << 3;
    const REF_NOISE: u16 = 1 << 4;
    const CMP_NOISE: u16 = 1 << 5;
    /// The centers were usable: the differences are shown.
    const DIFFERENCES: u16 = 1 << 6;
    /// A test's confidence bounds replace the intervals' relative change.
    const CHANGE_BOUNDS: u16 = 1 << 7;
    const UTEST_P: u16 = 1 << 8;
    /// The relative change is a fraction of the smaller value (the robust
    /// command's), not of the reference's.
    const SYMMETRIC_CHANGE: u16 = 1 << 9;
    /// The reference's (compare's) center is a numpy scalar, taken from
    /// its sorted samples (the robust command's, printed as such by
    /// `--bulk-debug-python`).
    const REF_TIME_NUMPY: u16 = 1 << 10;
    const CMP_TIME_NUMPY: u16 = 1 << 11;

    fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }

    /// Marks `value`'s bit and gives the value to store (0 for `None`).
    fn hold<T: Default>(&mut self, bit: u16, value: Option<T>) -> T {
        match value {
            Some(value) => {
                self.0 |= bit;
                value
            }
            None => {
                self.0 &= !bit;
                T::default()
            }
        }
    }

    fn get<T: Copy>(self, bit: u16, value: T) -> Option<T> {
        self.has(bit).then_some(value)
    }
}

/// What a comparison shows of one side: its interval, center and noise.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SideNumbers {
    pub interval: Option<Interval>,
    pub time: Option<f64>,
    pub noise: Option<f64>,
}

impl SideNumbers {
    pub(super) fn of(evidence: &Evidence) -> SideNumbers {
        SideNumbers {
            interval: evidence.interval,
            time: evidence.estimate.center,
            noise: evidence.estimate.relative_dispersion,
        }
    }
}

impl Default for Interval {
    fn default() -> Self {
        Interval {
            lower: 0.0,
            upper: 0.0,
            center: 0.0,
        }
    }
}

impl Comparison {
    /// The sides' numbers and the decision, without differences.
    pub fn new(reference: SideNumbers, compare: SideNumbers, decision: Decision) -> Comparison {
        let mut present = Present::default();
        Comparison {
            ref_interval: present.hold(Present::REF_INTERVAL, reference.interval),
            cmp_interval: present.hold(Present::CMP_INTERVAL, compare.interval),
            ref_time: present.hold(Present::REF_TIME, reference.time),
            cmp_time: present.hold(Present::CMP_TIME, compare.time),
            ref_noise: present.hold(Present::REF_NOISE, reference.noise),
            cmp_noise: present.hold(Present::CMP_NOISE, compare.noise),
            change_bounds: (0.0, 0.0),
            utest_p: 0.0,
            present,
            status: decision.status,
            reason: decision.reason,
        }
    }

    /// Shows the differences of the centers and intervals; both centers
    /// must be there.
    pub(super) fn with_differences(mut self) -> Comparison {
        debug_assert!(self.present.has(Present::REF_TIME | Present::CMP_TIME));
        self.present.0 |= Present::DIFFERENCES;
        self
    }

    /// The relative change bounds as the robust command computes them:
    /// each difference over the smaller of its two values, so that swapping
    /// the sides flips the sign and keeps the magnitude.
    pub(super) fn with_symmetric_change(mut self) -> Comparison {
        self.present.0 |= Present::SYMMETRIC_CHANGE;
        self
    }

    /// Marks the centers taken from samples, as numpy scalars: `[reference, compare]`.
    pub(super) fn with_numpy_times(mut self, [reference, compare]: [bool; 2]) -> Comparison {
        for (numpy, bit) in [
            (reference, Present::REF_TIME_NUMPY),
            (compare, Present::CMP_TIME_NUMPY),
        ] {
            if numpy {
                self.present.0 |= bit;
            }
        }
        self
    }

    /// Whether each center, `[reference, compare]`, is a numpy scalar.
    pub fn numpy_times(&self) -> [bool; 2] {
        [Present::REF_TIME_NUMPY, Present::CMP_TIME_NUMPY].map(|bit| self.present.has(bit))
    }

    /// A test's confidence bounds `(lower, upper)` on the relative change
    /// stand for the intervals' (and times the reference center for the
    /// absolute change).
    pub fn set_change_bounds(&mut self, lower: f64, upper: f64) {
        self.change_bounds = self
            .present
            .hold(Present::CHANGE_BOUNDS, Some((lower, upper)));
    }

    /// Repetitions of both sides (Google Benchmark): the two-sided
    /// Mann-Whitney U test's p-value, shown beside the decision, never
    /// part of it (the tree decides on the intervals).
    pub fn set_utest_p(&mut self, p: Option<f64>) {
        self.utest_p = self.present.hold(Present::UTEST_P, p);
    }

    pub fn ref_interval(&self) -> Option<Interval> {
        self.present.get(Present::REF_INTERVAL, self.ref_interval)
    }

    pub fn cmp_interval(&self) -> Option<Interval> {
        self.present.get(Present::CMP_INTERVAL, self.cmp_interval)
    }

    pub fn ref_time(&self) -> Option<f64> {
        self.present.get(Present::REF_TIME, self.ref_time)
    }

    pub fn cmp_time(&self) -> Option<f64> {
        self.present.get(Present::CMP_TIME, self.cmp_time)
    }

    pub fn ref_noise(&self) -> Option<f64> {
        self.present.get(Present::REF_NOISE, self.ref_noise)
    }

    pub fn cmp_noise(&self) -> Option<f64> {
        self.present.get(Present::CMP_NOISE, self.cmp_noise)
    }

    pub fn utest_p(&self) -> Option<f64> {
        self.present.get(Present::UTEST_P, self.utest_p)
    }

    /// `compare center - reference center`.
    pub fn diff(&self) -> Option<f64> {
        self.present
            .get(Present::DIFFERENCES, self.cmp_time - self.ref_time)
    }

    /// `diff / reference center`.
    pub fn frac_diff(&self) -> Option<f64> {
        Some(self.diff()? / self.ref_time)
    }

    /// Both intervals, when the differences are shown.
    fn difference_intervals(&self) -> Option<(Interval, Interval)> {
        self.present.get(Present::DIFFERENCES, ())?;
        self.ref_interval().zip(self.cmp_interval())
    }

    /// The range of `compare - reference` the intervals allow.
    pub fn diff_interval(&self) -> Option<(f64, f64)> {
        if self.present.has(Present::CHANGE_BOUNDS) {
            let (lower, upper) = self.change_bounds;
            return self.ref_time().map(|r| (r * lower, r * upper));
        }
        let (r, c) = self.difference_intervals()?;
        Some((c.lower - r.upper, c.upper - r.lower))
    }

    /// The range of the relative change the intervals (or a test) allow.
    pub fn frac_diff_interval(&self) -> Option<(f64, f64)> {
        if self.present.has(Present::CHANGE_BOUNDS) {
            return Some(self.change_bounds);
        }
        let (r, c) = self.difference_intervals()?;
        if self.present.has(Present::SYMMETRIC_CHANGE) {
            let symmetric = |a: f64, b: f64| (a - b) / a.min(b);
            return Some((symmetric(c.lower, r.upper), symmetric(c.upper, r.lower)));
        }
        Some((c.lower / r.upper - 1.0, c.upper / r.lower - 1.0))
    }
}

impl PartialEq for Comparison {
    fn eq(&self, other: &Comparison) -> bool {
        let numbers = |c: &Comparison| {
            (
                [c.ref_interval(), c.cmp_interval()],
                [c.ref_time(), c.cmp_time(), c.ref_noise(), c.cmp_noise()],
                [c.diff(), c.frac_diff(), c.utest_p()],
                [c.diff_interval(), c.frac_diff_interval()],
            )
        };
        self.status == other.status
            && self.reason == other.reason
            && numbers(self) == numbers(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deciding::status::ReasonCode;

    const VALUES: [f64; 6] = [
        0.0,
        -0.0,
        1e-300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];

    fn bits(value: Option<f64>) -> Option<u64> {
        value.map(f64::to_bits)
    }

    fn interval_bits(value: Option<Interval>) -> Option<[u64; 3]> {
        value.map(|i| [i.lower, i.upper, i.center].map(f64::to_bits))
    }

    fn decision() -> Decision {
        Decision {
            status: Status::Same,
            reason: Reason::new(ReasonCode::SameSummary, "same"),
        }
    }

    /// Every value, `None` first, each in a different slot than the one
    /// before so a slot read from its neighbour would show.
    fn options() -> impl Iterator<Item = Option<f64>> {
        std::iter::once(None).chain(VALUES.into_iter().map(Some))
    }

    fn side(time: Option<f64>, noise: Option<f64>, interval: Option<f64>) -> SideNumbers {
        SideNumbers {
            interval: interval.map(|v| Interval {
                lower: v,
                upper: -v,
                center: v * 0.5,
            }),
            time,
            noise,
        }
    }

    #[test]
    fn comparisons_and_records_are_small() {
        assert_eq!(std::mem::size_of::<Comparison>(), 136);
    }

    #[test]
    fn every_number_reads_back_as_given() {
        let all: Vec<Option<f64>> = options().collect();
        for (i, &a) in all.iter().enumerate() {
            let b = all[(i + 1) % all.len()];
            let c = all[(i + 2) % all.len()];
            let (reference, compare) = (side(a, b, c), side(c, a, b));
            let mut comparison = Comparison::new(reference, compare, decision());
            comparison.set_utest_p(b);
            assert_eq!(bits(comparison.ref_time()), bits(a));
            assert_eq!(bits(comparison.ref_noise()), bits(b));
            assert_eq!(
                interval_bits(comparison.ref_interval()),
                interval_bits(reference.interval)
            );
            assert_eq!(bits(comparison.cmp_time()), bits(c));
            assert_eq!(bits(comparison.cmp_noise()), bits(a));
            assert_eq!(
                interval_bits(comparison.cmp_interval()),
                interval_bits(compare.interval)
            );
            assert_eq!(bits(comparison.utest_p()), bits(b));
            assert_eq!(
                (comparison.diff(), comparison.frac_diff()),
                (None, None),
                "no differences until they are shown"
            );
            assert_eq!(comparison.diff_interval(), None);
            assert_eq!(comparison.frac_diff_interval(), None);
            assert_eq!(comparison.status, Status::Same);
            assert_eq!(comparison.reason, decision().reason);
        }
    }

    #[test]
    fn differences_are_those_of_the_centers_and_intervals() {
        for r in VALUES {
            for c in VALUES {
                let numbers = |v: f64| SideNumbers {
                    interval: Some(Interval {
                        lower: v,
                        upper: v * 2.0,
                        center: v * 1.5,
                    }),
                    time: Some(v),
                    noise: None,
                };
                let comparison =
                    Comparison::new(numbers(r), numbers(c), decision()).with_differences();
                let diff = c - r;
                assert_eq!(bits(comparison.diff()), Some(diff.to_bits()));
                assert_eq!(bits(comparison.frac_diff()), Some((diff / r).to_bits()));
                let pair_bits = |p: Option<(f64, f64)>| p.map(|(a, b)| (a.to_bits(), b.to_bits()));
                assert_eq!(
                    pair_bits(comparison.diff_interval()),
                    pair_bits(Some((c - r * 2.0, c * 2.0 - r)))
                );
                assert_eq!(
                    pair_bits(comparison.frac_diff_interval()),
                    pair_bits(Some((c / (r * 2.0) - 1.0, c * 2.0 / r - 1.0)))
                );
            }
        }
    }

    #[test]
    fn change_bounds_stand_for_the_intervals() {
        for bound in VALUES {
            for time in options() {
                let mut comparison = Comparison::new(
                    SideNumbers {
                        time,
                        ..SideNumbers::default()
                    },
                    SideNumbers::default(),
                    decision(),
                );
                comparison.set_change_bounds(bound, 2.0);
                let (lower, upper) = comparison.frac_diff_interval().unwrap();
                assert_eq!((lower.to_bits(), upper), (bound.to_bits(), 2.0));
                let expected = time.map(|t| ((t * bound).to_bits(), (t * 2.0).to_bits()));
                let absolute = comparison.diff_interval();
                assert_eq!(absolute.map(|(a, b)| (a.to_bits(), b.to_bits())), expected);
                assert_eq!(comparison.diff(), None);
            }
        }
    }

    #[test]
    fn equal_comparisons_have_equal_numbers() {
        let numbers = side(Some(1.0), Some(0.5), Some(2.0));
        let same = Comparison::new(numbers, numbers, decision());
        assert_eq!(same, same.clone());
        assert_ne!(same, same.clone().with_differences());
        let mut other = same.clone();
        other.set_utest_p(Some(0.25));
        assert_ne!(same, other);
    }
}
