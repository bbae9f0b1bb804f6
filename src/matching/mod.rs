//! Matching: takes the loaded files and the `-b`/`-a`/device filters, gives
//! the pairs to compare — devices paired by position, states paired by match
//! key and occurrence — and the states present on one side only.

pub mod axis_keys;
pub mod devices;
pub mod filters;
pub mod nothing_compared;
pub mod states;

pub use devices::{benchmark_device_ids, select_devices};
pub use states::{
    MatchedState, RunBench, RunInfo, RunState, RunsByDevice, StateMatch, match_states,
};
