//! Deciding in repetition mode (`R1 R2 ... --vs C1 C2 ...`): each side is
//! several runs of the same benchmarks, measured in separate processes. The
//! runs of a side are merged per state ([`merge`]) and the merged evidence
//! goes through the usual decision tree ([`evidence`]), but only the tests
//! on the run centers ([`center_test`]) call FAST or SLOW; the figures
//! shown beside the status (noise, Δ ± σ, significance) are defined here.
//! The pipeline (`app`) drives it; `loading::runs` finds the runs.

pub mod center_test;
pub mod evidence;
pub mod merge;
pub mod student_t;

use center_test::CenterTest;

/// One run's center of a state, by the run's position on its side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunCenter {
    /// Zero-based position of the run among the side's paths.
    pub run: usize,
    pub center: Option<f64>,
}

/// What merging found on one side of a state.
#[derive(Debug, Clone, PartialEq)]
pub struct SideStats {
    /// The runs that have the state, in order.
    pub runs: Vec<RunCenter>,
    /// How many runs the side has.
    pub total_runs: usize,
    /// The merged relative noise (see [`merge::merged_noise`]).
    pub noise: Option<f64>,
}

impl SideStats {
    /// Runs merged into the state.
    pub fn reps(&self) -> usize {
        self.runs.len()
    }

    /// Some runs of the side lack the state.
    pub fn incomplete(&self) -> bool {
        self.runs.len() < self.total_runs
    }
}

/// Repetition figures of one state: Δ ± σ and its significance, from the
/// test on the run centers shown beside the status.
#[derive(Debug, Clone, PartialEq)]
pub struct RepetitionStats {
    pub reference: SideStats,
    pub compare: SideStats,
    /// The test's change (`exp(mean ln cmp - mean ln ref) - 1`); without a
    /// test, `cmp center / ref center - 1` of the merged centers.
    pub delta: Option<f64>,
    /// The test's standard error (of the log change, so relative); without
    /// a test, `sqrt(noise_ref² + noise_cmp²)`.
    pub sigma: Option<f64>,
    /// The test's `|t|`; without a test, `|Δ| / σ`.
    pub significance: Option<f64>,
    /// The test shown: the one that called, or the closest to calling.
    /// `None` when none can be made (one run a side, no scatter).
    pub test: Option<CenterTest>,
}

impl RepetitionStats {
    pub fn new(
        reference: SideStats,
        compare: SideStats,
        delta: Option<f64>,
        test: Option<CenterTest>,
    ) -> Self {
        if let Some(test) = test {
            return RepetitionStats {
                reference,
                compare,
                delta: Some(test.change()),
                sigma: Some(test.standard_error),
                significance: Some(test.significance()),
                test: Some(test),
            };
        }
        let sigma = match (reference.noise, compare.noise) {
            (Some(r), Some(c)) if r.is_finite() && c.is_finite() => Some(r.hypot(c)),
            _ => None,
        };
        let significance = match (delta, sigma) {
            (Some(d), Some(s)) if d.is_finite() && s > 0.0 => Some(d.abs() / s),
            _ => None,
        };
        RepetitionStats {
            reference,
            compare,
            delta,
            sigma,
            significance,
            test: None,
        }
    }

    /// A side has a single run: its scatter between processes is unknown
    /// (the test assumes the other side's; without a test σ holds only the
    /// scatter within one process), so the significance is marked.
    pub fn single_run(&self) -> bool {
        self.reference.reps() < 2 || self.compare.reps() < 2
    }
}

/// A side of `runs` of three runs, each centered at 1 (tests).
#[cfg(test)]
pub(crate) fn side_of_three(runs: usize, noise: Option<f64>) -> SideStats {
    SideStats {
        runs: (0..runs)
            .map(|run| RunCenter {
                run,
                center: Some(1.0),
            })
            .collect(),
        total_runs: 3,
        noise,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(runs: usize, noise: Option<f64>) -> SideStats {
        side_of_three(runs, noise)
    }

    #[test]
    fn sigma_and_significance() {
        let stats =
            RepetitionStats::new(side(3, Some(0.03)), side(3, Some(0.04)), Some(-0.1), None);
        assert!((stats.sigma.unwrap() - 0.05).abs() < 1e-15);
        assert!((stats.significance.unwrap() - 2.0).abs() < 1e-12);
        assert!(!stats.single_run());
        assert!(!stats.reference.incomplete());
    }

    #[test]
    fn a_test_gives_delta_sigma_and_significance() {
        let test = CenterTest {
            kind: center_test::TestKind::Cycles,
            log_change: -0.1,
            standard_error: 0.02,
            df: 4,
            threshold: 5.6,
        };
        let stats = RepetitionStats::new(
            side(3, Some(0.03)),
            side(3, Some(0.04)),
            Some(-0.2),
            Some(test),
        );
        assert_eq!(stats.delta, Some((-0.1f64).exp_m1()));
        assert_eq!(stats.sigma, Some(0.02));
        assert!((stats.significance.unwrap() - 5.0).abs() < 1e-12);
        assert_eq!(stats.test, Some(test));
    }

    #[test]
    fn no_significance_without_noise_or_with_zero_sigma() {
        let stats = RepetitionStats::new(side(1, None), side(3, Some(0.04)), Some(0.1), None);
        assert_eq!(stats.sigma, None);
        assert_eq!(stats.significance, None);
        assert!(stats.single_run());
        let zero = RepetitionStats::new(side(2, Some(0.0)), side(2, Some(0.0)), Some(0.1), None);
        assert_eq!(zero.sigma, Some(0.0));
        assert_eq!(zero.significance, None);
        assert!(zero.reference.incomplete());
    }
}
