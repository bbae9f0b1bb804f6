//! The bulk evidence of one state from its `--jsonbin` sidecars: loading
//! finds and reads the files ([`StateSidecars`]); the samples are read at
//! most once, and only when a decision needs them.

use std::cell::{OnceCell, RefCell};

use crate::deciding::decision::BulkEvidence;
use crate::deciding::samples::BulkSamples;
use crate::loading::sidecar::{Lookup, StateSidecars};
use crate::loading::timing::Timing;

pub struct SidecarEvidence<'w> {
    sidecars: StateSidecars<'w>,
    loaded: OnceCell<Loaded>,
}

/// What the sidecars gave, read once.
enum Loaded {
    /// Usable times and frequencies of the same length.
    Both(BulkSamples),
    /// Usable times without usable frequencies (the frequencies' values
    /// are empty).
    TimesOnly(BulkSamples),
    Unusable,
}

impl<'w> SidecarEvidence<'w> {
    /// Resolves the sidecar paths; reads nothing.
    pub fn new(
        timing: &Timing,
        (json_dir, lookup): (&str, Lookup),
        warnings: &'w RefCell<Vec<String>>,
    ) -> Self {
        SidecarEvidence {
            sidecars: StateSidecars::new(timing, json_dir, lookup, warnings),
            loaded: OnceCell::new(),
        }
    }

    fn load(&self) -> &Loaded {
        self.loaded.get_or_init(|| {
            let (times, frequencies) = self.sidecars.read();
            match times.and_then(|t| BulkSamples::with_or_without_frequencies(t, frequencies)) {
                Some(Ok(both)) => Loaded::Both(both),
                Some(Err(times)) => Loaded::TimesOnly(times),
                None => Loaded::Unusable,
            }
        })
    }

    /// Resolved `(path, exact count)` of the samples and frequencies sidecars.
    pub fn paths(&self) -> [Option<(&str, &str)>; 2] {
        self.sidecars.paths()
    }
}

impl BulkEvidence for SidecarEvidence<'_> {
    fn has_material_cycle_sources(&self) -> bool {
        self.sidecars.are_material()
    }

    fn time_and_cycles(&self) -> Option<&BulkSamples> {
        match self.load() {
            Loaded::Both(samples) => Some(samples),
            _ => None,
        }
    }

    fn sources(&self) -> [bool; 2] {
        self.sidecars.paths().map(|path| path.is_some())
    }

    fn times(&self) -> Option<&BulkSamples> {
        match self.load() {
            Loaded::Both(samples) | Loaded::TimesOnly(samples) => Some(samples),
            Loaded::Unusable => None,
        }
    }
}
