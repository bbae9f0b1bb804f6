//! What the integration tests share: scratch directories, NVBench result
//! files, running the built binary, the project's files, and what a test
//! needs from outside the project (`require`).

mod files;
mod nvbench;
mod require;
mod run;
// The unit tests' scratch directory, the same file (it uses only std).
#[path = "../../../src/testing.rs"]
mod testing;

pub use files::{copy_dir, files_under, project, root};
pub use nvbench::{Bench, Doc, State, Times};
pub use require::{Need, announce, require, shared_dir, tool};
pub use run::{BIN, command, limited, permissions_enforced, plain_env, run, stderr, stdout};
pub use testing::{Scratch, entries, xorshift_step};
