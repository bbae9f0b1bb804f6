//! Deciding: takes matched states and the thresholds, gives a status with a
//! named reason per state and what the run found as a whole.
//!
//! The decision tree ([`decision`]) is pure functions over timing values and
//! bulk evidence, whose statistics are in [`coverage`], giving a [`status`]
//! with a named reason; the thresholds come from presets and TOML
//! ([`config`]). [`report`] collects tallies, records, NEW/DROPPED states
//! and geomeans; [`gate`] turns them into the `--fail-on` verdict. No
//! formatting, no colour, and no I/O of its own: a state's samples are read
//! through loading's sidecars ([`sidecar_evidence`]), only when a decision
//! needs them.

pub mod config;
pub mod coverage;
pub mod decision;
pub mod gate;
pub mod legacy;
mod radix;
pub mod repetitions;
pub mod report;
pub mod samples;
pub mod sidecar_evidence;
pub mod status;
mod value_stats;
