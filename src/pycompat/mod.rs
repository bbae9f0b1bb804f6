//! Python compatibility: the pieces of CPython and of the reference's Python
//! libraries whose exact output bytes the reference prints — `repr`/`%g`/`%f`
//! number formatting ([`pyfmt`]), `pprint` ([`pprint`]), `tabulate`'s
//! "github" tables ([`tabulate`]) and jsondiff's symmetric diff
//! ([`jsondiff`]). Values in, Python's text out; nothing here knows about
//! benchmarks, states or decisions.

pub mod jsondiff;
pub mod pprint;
pub mod pyfmt;
pub mod tabulate;
