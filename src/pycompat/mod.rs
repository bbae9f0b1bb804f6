//! Python compatibility: the pieces of CPython and of the reference's Python
//! libraries whose exact behaviour the reference shows — `repr` of floats
//! and strings and `%g`/`%f` formatting ([`pyfmt`], on the character classes
//! of [`unicode`]), `str(OSError)` ([`oserror`]), `os.path` and pathlib
//! rules ([`paths`]), `pprint` ([`pprint`]), `tabulate`'s "github" tables
//! ([`tabulate`]), jsondiff's symmetric diff ([`jsondiff`]) and what
//! Python's `json` reads that serde_json refuses ([`pyjson`]) and how it
//! words what it refuses ([`json_errors`]), a parsed value
//! as a Python script handles it ([`pyvalue`]), NumPy's
//! quantiles ([`numpy_quantile`]) and the SciPy statistics Google
//! Benchmark's compare.py prints ([`scipy_stats`]).
//! Values in, Python's text or values out; nothing here knows about
//! benchmarks, states or decisions.

pub mod json_errors;
pub mod jsondiff;
pub mod numpy_quantile;
pub mod oserror;
pub mod paths;
pub mod pprint;
pub mod pyfmt;
pub mod pyjson;
pub mod pyvalue;
pub mod scipy_stats;
pub mod tabulate;
pub mod unicode;
