//! Python compatibility: the pieces of CPython and of the reference's Python
//! libraries whose exact behaviour the reference shows — `repr`/`%g`/`%f`
//! number formatting ([`pyfmt`]), `pprint` ([`pprint`]), `tabulate`'s
//! "github" tables ([`tabulate`]), jsondiff's symmetric diff ([`jsondiff`])
//! and what Python's `json` reads that serde_json refuses ([`pyjson`]).
//! Values in, Python's text or values out; nothing here knows about
//! benchmarks, states or decisions.

pub mod jsondiff;
pub mod oserror;
pub mod pprint;
pub mod pyfmt;
pub mod pyjson;
pub mod tabulate;
pub mod unicode;
