//! The bulk evidence of one state from its `--jsonbin` sidecars: loading
//! finds and reads the files ([`StateSidecars`]); the samples are read at
//! most once, and only when a decision needs them.

use std::cell::{OnceCell, RefCell};

use crate::deciding::decision::BulkEvidence;
use crate::deciding::samples::BulkSamples;
use crate::loading::sidecar::StateSidecars;
use crate::loading::timing::Timing;

pub struct SidecarEvidence<'w> {
    sidecars: StateSidecars<'w>,
    loaded: OnceCell<Option<BulkSamples>>,
}

impl<'w> SidecarEvidence<'w> {
    /// Resolves the sidecar paths; reads nothing.
    pub fn new(timing: &Timing, json_dir: &str, warnings: &'w RefCell<Vec<String>>) -> Self {
        SidecarEvidence {
            sidecars: StateSidecars::new(timing, json_dir, warnings),
            loaded: OnceCell::new(),
        }
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
        self.loaded
            .get_or_init(|| {
                let (times, frequencies) = self.sidecars.read();
                BulkSamples::new(times?, frequencies?)
            })
            .as_ref()
    }
}
