//! One run's side of the coverage count: its unique values, counts and
//! retained mask, and the covered samples and values a set of flags hits.

#[cfg(test)]
use super::support_filter::exact_sum;
use super::support_filter::saturate;

/// One run's unique values, their counts and the support filter's mask.
pub(super) struct Side<'a> {
    pub(super) values: &'a [f64],
    pub(super) counts: &'a [u64],
    pub(super) retained: &'a [bool],
}

/// A side's exact number of samples and its number of retained values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Totals {
    pub(super) samples: u128,
    pub(super) retained: u64,
}

impl Totals {
    /// By a pass over the counts and one over the mask (the support filter
    /// knows them without).
    #[cfg(test)]
    pub(super) fn of(side: &Side) -> Totals {
        Totals {
            samples: exact_sum(side.counts),
            retained: side.retained.iter().filter(|&&keep| keep).count() as u64,
        }
    }
}

/// What the coverages need of the covered flags: the covered samples
/// (saturating sum of their counts, as before) and the covered retained
/// values, with the totals they are divided by (all samples, saturating;
/// the retained values), all from one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Hits {
    samples: u64,
    support: u64,
    total: u64,
    retained: u64,
}

impl Side<'_> {
    pub(super) fn hits(&self, covered: &[bool]) -> Hits {
        // One streaming pass; the sums are exact in u128, so saturating
        // them at the end equals a saturating sum whenever no partial sum
        // of the covered counts saturates before the total does, which
        // holds when the total fits (the covered counts are a subset).
        let (mut samples, mut support, mut total, mut retained) = (0u128, 0u64, 0u128, 0u64);
        for ((&c, &n), &keep) in covered.iter().zip(self.counts).zip(self.retained) {
            samples += u128::from(n) * u128::from(c);
            support += u64::from(c & keep);
            total += u128::from(n);
            retained += u64::from(keep);
        }
        // Counts beyond the flags (none in practice) still count as samples
        // and retained values, as the separate sums counted them.
        let flagged = covered
            .len()
            .min(self.counts.len())
            .min(self.retained.len());
        total += self.counts[flagged..]
            .iter()
            .map(|&n| u128::from(n))
            .sum::<u128>();
        retained += self.retained[flagged..].iter().filter(|&&k| k).count() as u64;
        if u64::try_from(total).is_err() {
            // A partial sum may saturate: the sums in order, as before.
            let mut saturating = 0u64;
            for (&c, &n) in covered.iter().zip(self.counts) {
                saturating = saturating.saturating_add(n * u64::from(c));
            }
            samples = u128::from(saturating);
        }
        Hits {
            samples: saturate(samples),
            support,
            total: saturate(total),
            retained,
        }
    }

    /// [`Self::hits`] of flags that are all true but at the ascending
    /// indices `uncovered` (few: the ratio walk tests only the values in
    /// wide gaps), given the side's `totals` (the support filter has them):
    /// the covered sums are the totals less the uncovered values' (exact:
    /// the covered counts are the total less the uncovered counts,
    /// saturated at the end as the flags' pass does).
    pub(super) fn hits_except(&self, uncovered: &[usize], totals: Totals) -> Hits {
        let missed: u128 = uncovered.iter().map(|&i| u128::from(self.counts[i])).sum();
        let missed_support = uncovered.iter().filter(|&&i| self.retained[i]).count() as u64;
        Hits {
            samples: saturate(totals.samples - missed),
            support: totals.retained - missed_support,
            total: saturate(totals.samples),
            retained: totals.retained,
        }
    }

    /// Covered samples over all samples: integer sums, then one division
    /// (NumPy `int64 / int64`).
    pub(super) fn sample_coverage(&self, hits: &Hits) -> f64 {
        hits.samples as f64 / hits.total as f64
    }

    /// Mean of the covered flags over the retained values; NaN when none are
    /// retained, like `np.mean` of an empty selection.
    pub(super) fn support_coverage(&self, hits: &Hits) -> f64 {
        hits.support as f64 / hits.retained as f64
    }
}
