//! One run's side of the coverage count: its unique values, counts and
//! retained mask, and the covered samples and values a set of flags hits.

use super::support_filter::saturating_sum;

/// One run's unique values, their counts and the support filter's mask.
pub(super) struct Side<'a> {
    pub(super) values: &'a [f64],
    pub(super) counts: &'a [u64],
    pub(super) retained: &'a [bool],
}

/// What the coverages need of the covered flags: the covered samples
/// (saturating sum of their counts, as before) and the covered retained
/// values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Hits {
    samples: u64,
    support: u64,
}

impl Side<'_> {
    pub(super) fn hits(&self, covered: &[bool]) -> Hits {
        let fits = self
            .counts
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .is_some();
        if fits {
            // No partial sum can saturate: plain sums, which vectorize.
            let samples = covered
                .iter()
                .zip(self.counts)
                .map(|(&c, &n)| n * u64::from(c))
                .sum();
            let support = covered
                .iter()
                .zip(self.retained)
                .map(|(&c, &keep)| u64::from(c & keep))
                .sum();
            return Hits { samples, support };
        }
        let mut hits = Hits::default();
        for ((&c, &n), &keep) in covered.iter().zip(self.counts).zip(self.retained) {
            hits.samples = hits.samples.saturating_add(n * u64::from(c));
            hits.support += u64::from(c & keep);
        }
        hits
    }

    /// Covered samples over all samples: integer sums, then one division
    /// (NumPy `int64 / int64`).
    pub(super) fn sample_coverage(&self, hits: &Hits) -> f64 {
        hits.samples as f64 / saturating_sum(self.counts.iter().copied()) as f64
    }

    /// Mean of the covered flags over the retained values; NaN when none are
    /// retained, like `np.mean` of an empty selection.
    pub(super) fn support_coverage(&self, hits: &Hits) -> f64 {
        let kept = self.retained.iter().filter(|&&keep| keep).count();
        hits.support as f64 / kept as f64
    }
}
