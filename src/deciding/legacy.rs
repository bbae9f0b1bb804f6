//! The mean/noise rule of NVBench's classic comparison script
//! (`nvbench-compare-legacy`): a state is SAME when its fractional change
//! of the mean GPU time is within the smaller relative noise of the two
//! runs, else FAST or SLOW by the sign of the change, and `????` when
//! neither run has a noise (or the smaller is zero). Every FAST and SLOW
//! counts as a failure: the script exits with their number.

/// A state's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Same,
    Fast,
    Slow,
    Unknown,
}

impl Verdict {
    /// The label the table shows.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Same => "SAME",
            Verdict::Fast => "FAST",
            Verdict::Slow => "SLOW",
            Verdict::Unknown => "????",
        }
    }
}

/// The noise the change is held against: the smaller of the two when both
/// runs have one (`min`, so a NaN reference noise wins), else the one
/// there is. A noise is "there" when the file's value was truthy.
pub fn min_noise(reference: Option<f64>, compare: Option<f64>) -> Option<f64> {
    match (reference, compare) {
        // Python's min(a, b) keeps a unless b < a.
        (Some(r), Some(c)) => Some(if c < r { c } else { r }),
        (Some(r), None) => Some(r),
        (None, c) => c,
    }
}

/// The verdict of a change `diff` (compare - reference, in seconds) and
/// `fraction` (diff / reference) against `noise`.
pub fn decide(diff: f64, fraction: f64, noise: Option<f64>) -> Verdict {
    match noise {
        // `not min_noise`: no noise, or a zero one.
        None => Verdict::Unknown,
        // -0.0 matches too.
        Some(0.0) => Verdict::Unknown,
        Some(n) if fraction.abs() <= n => Verdict::Same,
        Some(_) if diff < 0.0 => Verdict::Fast,
        Some(_) => Verdict::Slow,
    }
}

/// The summary's counts, over every compared pair of files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub matches: u64,
    pub pass: u64,
    pub unknown: u64,
    pub failure: u64,
}

impl Tally {
    pub fn add(&mut self, verdict: Verdict) {
        self.matches += 1;
        match verdict {
            Verdict::Same => self.pass += 1,
            Verdict::Unknown => self.unknown += 1,
            Verdict::Fast | Verdict::Slow => self.failure += 1,
        }
    }

    /// The exit status: the number of failures. The script's
    /// `sys.exit(count)` keeps only the low 8 bits, so 256 failures would
    /// pass; the count is capped at 255 instead.
    pub fn exit_status(&self) -> u8 {
        u8::try_from(self.failure).unwrap_or(u8::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_noise_rule() {
        assert_eq!(decide(0.001, 0.01, Some(0.02)), Verdict::Same);
        assert_eq!(decide(0.001, 0.02, Some(0.02)), Verdict::Same);
        assert_eq!(decide(-0.003, -0.03, Some(0.02)), Verdict::Fast);
        assert_eq!(decide(0.003, 0.03, Some(0.02)), Verdict::Slow);
        assert_eq!(decide(0.003, 0.03, None), Verdict::Unknown);
        assert_eq!(decide(0.003, 0.03, Some(0.0)), Verdict::Unknown);
        // A NaN noise is truthy and compares false: the sign decides.
        assert_eq!(decide(0.0, 0.0, Some(f64::NAN)), Verdict::Slow);
        assert_eq!(decide(-1.0, f64::NAN, Some(0.1)), Verdict::Fast);
    }

    #[test]
    fn the_smaller_noise_as_python_min() {
        assert_eq!(min_noise(Some(0.1), Some(0.2)), Some(0.1));
        assert_eq!(min_noise(Some(0.3), Some(0.2)), Some(0.2));
        assert_eq!(min_noise(None, Some(0.2)), Some(0.2));
        assert_eq!(min_noise(None, None), None);
        assert!(min_noise(Some(f64::NAN), Some(0.2)).unwrap().is_nan());
        assert_eq!(min_noise(Some(0.2), Some(f64::NAN)), Some(0.2));
    }

    #[test]
    fn the_exit_status_is_capped_at_255() {
        let mut tally = Tally::default();
        for _ in 0..255 {
            tally.add(Verdict::Slow);
        }
        tally.add(Verdict::Same);
        assert_eq!(tally.exit_status(), 255);
        tally.add(Verdict::Fast);
        assert_eq!((tally.failure, tally.exit_status()), (256, 255));
        let mut few = Tally::default();
        few.add(Verdict::Fast);
        few.add(Verdict::Unknown);
        assert_eq!((few.matches, few.exit_status()), (2, 1));
    }
}
