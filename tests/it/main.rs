//! The integration tests, one binary (`cargo test --test it`; a module's
//! tests with `cargo test --test it charts::`). Every module runs the built
//! binary or the library's public API; `util` holds what they share.

mod util;

mod action;
mod bulk_debug_python;
mod charts;
mod ci_gate;
mod ci_gate_holes;
mod command_line;
mod conformance;
mod document_text;
mod example;
mod foreign_data;
mod gbench;
mod hostile_inputs;
mod json_errors_python;
mod messages;
mod nway;
mod output_safety;
mod packaging;
mod personalities;
mod properties;
mod ragged_axes;
mod regressions;
mod repetitions;
mod rerun_plan;
mod schema_reader;
mod tabulate_python;
