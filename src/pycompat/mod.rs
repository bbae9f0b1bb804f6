//! Python compatibility: the pieces of CPython and of the reference's Python
//! libraries whose exact behaviour the reference shows — `repr` of floats
//! and strings and `%g`/`%f` formatting ([`pyfmt`], on the character classes
//! of [`unicode`]), `str(OSError)` ([`oserror`]), `os.path` and pathlib
//! rules ([`paths`]), `pprint` ([`pprint`]), `tabulate`'s "github" tables
//! ([`tabulate`]), jsondiff's symmetric diff ([`jsondiff`]) and what
//! Python's `json` reads that serde_json refuses ([`pyjson`]).
//! Values in, Python's text or values out; nothing here knows about
//! benchmarks, states or decisions.

pub mod jsondiff;
pub mod oserror;
pub mod paths;
pub mod pprint;
pub mod pyfmt;
pub mod pyjson;
pub mod tabulate;
pub mod unicode;
