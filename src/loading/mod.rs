//! Loading: takes the paths on the command line, gives parsed NVBench files
//! (and Google Benchmark files mapped into the same model, [`gbench`]).
//!
//! Two files or two directories are paired ([`inputs`]), each file is
//! opened without blocking and judged by its type ([`opening`]) and read
//! from a memory map ([`mapped`]) by the reader written for the schema
//! ([`schema`], with serde_json behind it) into the serde mirror of the
//! format ([`model`], [`summaries`]); a state's timing values are
//! extracted on demand ([`timing`]) and its `--jsonbin` samples only when a
//! decision needs them ([`sidecar`]). Nothing here decides or prints,
//! except the reader's version warnings and, for the robust command, the
//! script's reading of a file the model refuses ([`script_root`]).

pub mod anchor;
pub mod exact;
pub mod gbench;
pub mod identity;
pub mod inputs;
pub mod mapped;
pub mod model;
pub mod opening;
pub mod runs;
pub mod scalar;
pub mod schema;
pub mod script_root;
pub mod sidecar;
pub mod sigbus;
pub mod summaries;
pub mod timing;
