//! nvbench-compare: compare two NVBench JSON result files state by state.
pub mod pyfmt;
