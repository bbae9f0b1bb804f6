//! The switch between the fast paths and their simple twins.
//!
//! Some steps have a fast path that measured worth its code (the schema
//! reader of NVBench files, the bounds that prove step 3's SAME without
//! sorting, the radix sort, the tables written in two passes and huge ones
//! in pieces) beside a simple path a reader can check by eye (serde_json,
//! exact coverage over sorted samples, a plain sort, tabulate's direct port
//! on the whole table). Both
//! give the same bytes: the tests run the conformance corpora both ways.
//! `NVBENCH_COMPARE_SIMPLE=1` in the environment makes every step take its
//! simple path, so that a decision can be checked without the fast paths.

use std::sync::OnceLock;

/// The environment variable that selects the simple paths.
pub const SIMPLE_PATHS_VARIABLE: &str = "NVBENCH_COMPARE_SIMPLE";

/// Whether the simple paths were asked for: the variable is set, not
/// empty and not `0`. Read once a process.
pub(crate) fn simple_paths() -> bool {
    #[cfg(test)]
    if let Some(forced) = tests::FORCED.get() {
        return forced;
    }
    static SIMPLE: OnceLock<bool> = OnceLock::new();
    *SIMPLE.get_or_init(|| {
        std::env::var_os(SIMPLE_PATHS_VARIABLE)
            .is_some_and(|value| !value.is_empty() && value != "0")
    })
}

/// The switch as a unit test forces it on its own thread.
#[cfg(test)]
pub(crate) fn with_simple_paths<R>(run: impl FnOnce() -> R) -> R {
    tests::FORCED.set(Some(true));
    let result = run();
    tests::FORCED.set(None);
    result
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    thread_local! {
        pub(super) static FORCED: Cell<Option<bool>> = const { Cell::new(None) };
    }
}
