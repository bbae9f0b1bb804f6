//! Merging the runs of one side of a state (pure functions): the median of
//! the run centers, the hull of the run intervals, the between-process
//! noise rule and the pooled bulk samples.

use std::cell::OnceCell;

use crate::deciding::decision::{BulkEvidence, BulkSamples, CycleInterval, Interval};

/// The median of the values (the mean of the middle two for an even
/// count, as NumPy's); `None` when there are none or one is not finite.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        // Halves first: the sum of two large values could overflow.
        sorted[middle - 1] / 2.0 + sorted[middle] / 2.0
    })
}

/// The lowest lower and the highest upper bound, around the median of the
/// run centers. A run without an interval leaves the side without one.
/// One run gives its interval unchanged.
pub fn hull(intervals: &[Option<Interval>]) -> Option<Interval> {
    let intervals: Vec<Interval> = intervals.iter().copied().collect::<Option<_>>()?;
    if let [only] = intervals.as_slice() {
        return Some(*only);
    }
    let centers: Vec<f64> = intervals.iter().map(|i| i.center).collect();
    Some(Interval {
        lower: intervals
            .iter()
            .map(|i| i.lower)
            .fold(f64::INFINITY, f64::min),
        upper: intervals
            .iter()
            .map(|i| i.upper)
            .fold(f64::NEG_INFINITY, f64::max),
        center: median(&centers)?,
    })
}

/// The hull of the runs' cycle intervals: missing when a run has no clock
/// summary, invalid when a run's is unusable (as for one run).
pub fn cycle_hull(cycles: &[CycleInterval]) -> CycleInterval {
    if !cycles.is_empty() && cycles.iter().all(|c| *c == CycleInterval::TimeOnly) {
        return CycleInterval::TimeOnly;
    }
    if cycles
        .iter()
        .any(|c| matches!(c, CycleInterval::Missing | CycleInterval::TimeOnly))
    {
        return CycleInterval::Missing;
    }
    let scaled: Option<Vec<Option<Interval>>> = cycles
        .iter()
        .map(|c| match c {
            CycleInterval::Scaled(interval) => Some(Some(*interval)),
            _ => None,
        })
        .collect();
    match scaled.as_deref().and_then(hull) {
        Some(interval) => CycleInterval::Scaled(interval),
        None => CycleInterval::Invalid,
    }
}

/// The sample standard deviation (n - 1); 0 for fewer than two values.
pub fn sample_std(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    (squares / (n - 1.0)).sqrt()
}

/// The side's relative noise from its runs' centers and relative noises:
/// `max(std of the centers, largest absolute within-run dispersion) / center`.
/// The between-run term measures how much the result moves from one
/// process to the next; the within-run term is a floor, because two or
/// three processes estimate the first poorly. One run keeps its noise.
pub fn merged_noise(centers: &[f64], noises: &[Option<f64>], center: f64) -> Option<f64> {
    if let ([_], [only]) = (centers, noises) {
        return *only;
    }
    let noises: Vec<f64> = noises.iter().copied().collect::<Option<_>>()?;
    if centers.is_empty() || centers.len() != noises.len() {
        return None;
    }
    let within = centers
        .iter()
        .zip(&noises)
        .map(|(c, n)| c * n)
        .fold(0.0, f64::max);
    let noise = sample_std(centers).max(within) / center;
    noise.is_finite().then_some(noise)
}

/// The bulk evidence of a side: every run's sidecars, pooled when a
/// decision first asks for them. A side has bulk evidence only when all
/// its runs do; pooling some runs' samples would hide the others.
pub struct PooledBulk<B> {
    runs: Vec<B>,
    loaded: OnceCell<Option<BulkSamples>>,
}

impl<B: BulkEvidence> PooledBulk<B> {
    pub fn new(runs: Vec<B>) -> Self {
        PooledBulk {
            runs,
            loaded: OnceCell::new(),
        }
    }

    pub fn runs(&self) -> &[B] {
        &self.runs
    }

    fn load(&self) -> Option<BulkSamples> {
        // Every run is read (and warned about) before any is judged.
        let loaded: Vec<Option<&BulkSamples>> = self
            .runs
            .iter()
            .map(BulkEvidence::time_and_cycles)
            .collect();
        let runs: Vec<&BulkSamples> = loaded.into_iter().collect::<Option<_>>()?;
        Some(BulkSamples::pooled(&runs))
    }
}

impl<B: BulkEvidence> BulkEvidence for PooledBulk<B> {
    fn has_material_cycle_sources(&self) -> bool {
        !self.runs.is_empty() && self.runs.iter().all(B::has_material_cycle_sources)
    }

    fn time_and_cycles(&self) -> Option<&BulkSamples> {
        // One run is used as it is, without a copy.
        if let [only] = self.runs.as_slice() {
            return only.time_and_cycles();
        }
        self.loaded.get_or_init(|| self.load()).as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn interval(lower: f64, center: f64, upper: f64) -> Interval {
        Interval {
            lower,
            upper,
            center,
        }
    }

    #[test]
    fn median_of_odd_even_and_unusable_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[1.0, f64::NAN]), None);
        assert_eq!(median(&[f64::MAX, f64::MAX]), Some(f64::MAX));
    }

    #[test]
    fn hull_takes_the_extremes_around_the_median_center() {
        let merged = hull(&[
            Some(interval(1.0, 1.1, 1.2)),
            Some(interval(0.9, 1.0, 1.05)),
            Some(interval(1.1, 1.3, 1.4)),
        ])
        .unwrap();
        assert_eq!(merged, interval(0.9, 1.1, 1.4));
        // Touching intervals and equal ones.
        let touching = hull(&[Some(interval(1.0, 1.0, 2.0)), Some(interval(2.0, 2.0, 3.0))]);
        assert_eq!(touching, Some(interval(1.0, 1.5, 3.0)));
        let one = interval(0.5, 0.6, 0.7);
        assert_eq!(hull(&[Some(one)]), Some(one));
        assert_eq!(hull(&[Some(one), None]), None);
        assert_eq!(hull(&[]), None);
    }

    #[test]
    fn cycle_hull_missing_wins_over_invalid() {
        let scaled = CycleInterval::Scaled(interval(1.0, 2.0, 3.0));
        let other = CycleInterval::Scaled(interval(2.0, 2.5, 4.0));
        assert_eq!(
            cycle_hull(&[scaled, other]),
            CycleInterval::Scaled(interval(1.0, 2.25, 4.0))
        );
        assert_eq!(
            cycle_hull(&[scaled, CycleInterval::Invalid, CycleInterval::Missing]),
            CycleInterval::Missing
        );
        assert_eq!(
            cycle_hull(&[scaled, CycleInterval::Invalid]),
            CycleInterval::Invalid
        );
        assert_eq!(cycle_hull(&[scaled]), scaled);
    }

    #[test]
    fn sample_std_uses_n_minus_one() {
        assert_eq!(sample_std(&[]), 0.0);
        assert_eq!(sample_std(&[5.0]), 0.0);
        assert_eq!(sample_std(&[1.0, 3.0]), 2f64.sqrt());
        assert_eq!(sample_std(&[2.0, 2.0, 2.0]), 0.0);
    }

    #[test]
    fn noise_between_processes_beats_small_noise_within() {
        // The repetitions spec's example: per-process times 36.4, 41.3,
        // 36.5 ms with 0.08 ms within each give 2.80 / 36.4 = 7.7 %.
        let centers = [36.4, 41.3, 36.5];
        let within = Some(0.08 / 36.4);
        let noise = merged_noise(&centers, &[within; 3], 36.4).unwrap();
        assert!((noise - 2.8018 / 36.4).abs() < 1e-4, "{noise}");
    }

    #[test]
    fn noise_within_is_the_floor_when_processes_agree() {
        // Identical centers: the largest absolute within-run dispersion.
        let noise = merged_noise(&[2.0, 2.0, 2.0], &[Some(0.01), Some(0.03), Some(0.02)], 2.0);
        assert!((noise.unwrap() - 0.03).abs() < 1e-15);
        // Absolute, not relative: the larger center's dispersion counts more.
        let noise = merged_noise(&[1.0, 2.0], &[Some(0.10), Some(0.06)], 1.5).unwrap();
        assert!((noise - (0.12f64).max(sample_std(&[1.0, 2.0])) / 1.5).abs() < 1e-15);
    }

    #[test]
    fn one_run_keeps_its_noise_exactly() {
        let noise = 0.123_456_789_123;
        assert_eq!(merged_noise(&[3.3], &[Some(noise)], 3.3), Some(noise));
        assert_eq!(merged_noise(&[3.3], &[None], 3.3), None);
    }

    #[test]
    fn noise_needs_every_run() {
        assert_eq!(merged_noise(&[1.0, 1.1], &[Some(0.01), None], 1.05), None);
        assert_eq!(merged_noise(&[], &[], 1.0), None);
        assert_eq!(
            merged_noise(&[1.0, 1.0], &[Some(0.0), Some(0.0)], 1.0),
            Some(0.0)
        );
    }

    struct FakeRun {
        material: bool,
        samples: Option<BulkSamples>,
        reads: Cell<usize>,
    }

    impl FakeRun {
        fn new(times: &[f32]) -> Self {
            FakeRun {
                material: true,
                samples: BulkSamples::new(times.to_vec(), vec![2.0; times.len()]),
                reads: Cell::new(0),
            }
        }
    }

    impl BulkEvidence for FakeRun {
        fn has_material_cycle_sources(&self) -> bool {
            self.material
        }
        fn time_and_cycles(&self) -> Option<&BulkSamples> {
            self.reads.set(self.reads.get() + 1);
            self.samples.as_ref()
        }
    }

    #[test]
    fn pooled_samples_concatenate_all_runs_once() {
        let bulk = PooledBulk::new(vec![FakeRun::new(&[1.0, 2.0]), FakeRun::new(&[3.0])]);
        assert!(bulk.has_material_cycle_sources());
        let samples = bulk.time_and_cycles().unwrap();
        assert_eq!(samples.times(), [1.0, 2.0, 3.0]);
        assert_eq!(samples.cycles().collect::<Vec<_>>(), [2.0, 4.0, 6.0]);
        bulk.time_and_cycles();
        assert!(bulk.runs().iter().all(|r| r.reads.get() == 1));
    }

    #[test]
    fn one_unusable_or_immaterial_run_withholds_the_pool() {
        let mut broken = FakeRun::new(&[1.0]);
        broken.samples = None;
        let bulk = PooledBulk::new(vec![FakeRun::new(&[1.0]), broken, FakeRun::new(&[2.0])]);
        assert!(bulk.time_and_cycles().is_none());
        // Every run was still read, so every run's warnings are raised.
        assert!(bulk.runs().iter().all(|r| r.reads.get() == 1));
        let mut immaterial = FakeRun::new(&[1.0]);
        immaterial.material = false;
        let bulk = PooledBulk::new(vec![FakeRun::new(&[1.0]), immaterial]);
        assert!(!bulk.has_material_cycle_sources());
        assert!(!PooledBulk::<FakeRun>::new(vec![]).has_material_cycle_sources());
    }
}
