//! Deciding in repetition mode (`R1 R2 ... --vs C1 C2 ...`): each side is
//! several runs of the same benchmarks, measured in separate processes. The
//! runs of a side are merged per state ([`merge`]), the merged evidence goes
//! through the usual decision tree ([`evidence`]), with one more way to a
//! clear gap when the processes separate ([`process_gap`]); the figures
//! shown beside the status (noise, Δ ± σ, significance) are defined here.
//! The pipeline (`app`) drives it; `loading::runs` finds the runs.

pub mod evidence;
pub mod merge;
pub mod process_gap;

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

/// Repetition figures of one state: Δ ± σ and its significance.
#[derive(Debug, Clone, PartialEq)]
pub struct RepetitionStats {
    pub reference: SideStats,
    pub compare: SideStats,
    /// `cmp center / ref center - 1`, of the merged centers.
    pub delta: Option<f64>,
    /// `sqrt(noise_ref² + noise_cmp²)`: the scatter of Δ.
    pub sigma: Option<f64>,
    /// `|Δ| / σ`.
    pub significance: Option<f64>,
}

impl RepetitionStats {
    pub fn new(reference: SideStats, compare: SideStats, delta: Option<f64>) -> Self {
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
        }
    }

    /// A side has a single run: σ then holds only the scatter within one
    /// process, so the significance is marked.
    pub fn single_run(&self) -> bool {
        self.reference.reps() < 2 || self.compare.reps() < 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(runs: usize, noise: Option<f64>) -> SideStats {
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

    #[test]
    fn sigma_and_significance() {
        let stats = RepetitionStats::new(side(3, Some(0.03)), side(3, Some(0.04)), Some(-0.1));
        assert!((stats.sigma.unwrap() - 0.05).abs() < 1e-15);
        assert!((stats.significance.unwrap() - 2.0).abs() < 1e-12);
        assert!(!stats.single_run());
        assert!(!stats.reference.incomplete());
    }

    #[test]
    fn no_significance_without_noise_or_with_zero_sigma() {
        let stats = RepetitionStats::new(side(1, None), side(3, Some(0.04)), Some(0.1));
        assert_eq!(stats.sigma, None);
        assert_eq!(stats.significance, None);
        assert!(stats.single_run());
        let zero = RepetitionStats::new(side(2, Some(0.0)), side(2, Some(0.0)), Some(0.1));
        assert_eq!(zero.sigma, Some(0.0));
        assert_eq!(zero.significance, None);
        assert!(zero.reference.incomplete());
    }
}
