//! State pairing (spec "Matching Inputs"): states by match key and
//! occurrence order within a device section.

use std::collections::HashMap;

use crate::failure::Failure;
use crate::loading::model::{Benchmark, State};
use crate::matching::filters::{AxisFilter, matches_any_group};
use crate::pycompat::pyfmt::str_repr;

/// The state's name without its `Device=N` prefix: the key states are matched by.
pub fn state_match_key(state: &State) -> &str {
    let prefix = format!("Device={}", state.device);
    let name = state.name.as_str();
    if name == prefix {
        return "";
    }
    name.strip_prefix(&prefix)
        .and_then(|rest| rest.strip_prefix(' '))
        .unwrap_or(name)
}

/// One run's instance of a benchmark.
#[derive(Debug, Clone, Copy)]
pub struct RunBench<'a> {
    /// The run's position among its side's paths.
    pub run: usize,
    /// The run's JSON file.
    pub path: &'a str,
    /// The directory of the run's JSON file (sidecar paths are relative to it).
    pub dir: &'a str,
    pub bench: &'a Benchmark,
}

/// One run's instance of a state.
#[derive(Debug, Clone, Copy)]
pub struct RunState<'a> {
    /// The run's position among its side's paths.
    pub run: usize,
    pub state: &'a State,
    /// The run's JSON file.
    pub path: &'a str,
    /// The directory of the run's JSON file (sidecar paths are relative to it).
    pub dir: &'a str,
}

/// A state both sides have: its instances in the runs of each side that
/// have it (one a side for a pair).
pub struct MatchedState<'a> {
    pub key: &'a str,
    /// Zero-based position among the states with the same key.
    pub occurrence: usize,
    /// How many states of the compare side have this key (the most of any run).
    pub occurrence_count: usize,
    pub reference: Vec<RunState<'a>>,
    pub compare: Vec<RunState<'a>>,
}

impl<'a> MatchedState<'a> {
    /// The first compare run's instance: its name and axis values stand
    /// for the state.
    pub fn compare_state(&self) -> &'a State {
        self.compare[0].state
    }
}

/// The states of one side on one device: every run's filtered states by
/// `(key, occurrence)`, in order of first appearance over the runs.
struct SideStates<'a> {
    /// Keys in order of first appearance.
    keys: Vec<&'a str>,
    /// The most occurrences of each key in any run.
    counts: HashMap<&'a str, usize>,
    /// `(key, occurrence)` in order of first appearance.
    order: Vec<(&'a str, usize)>,
    instances: HashMap<(&'a str, usize), Vec<RunState<'a>>>,
}

impl<'a> SideStates<'a> {
    fn of(runs: &[RunBench<'a>], device: i64, groups: &[Vec<AxisFilter>]) -> Self {
        let mut side = SideStates {
            keys: Vec::new(),
            counts: HashMap::new(),
            order: Vec::new(),
            instances: HashMap::new(),
        };
        for run in runs {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            let states = run.bench.states().iter();
            for state in states.filter(|s| s.device.is(device) && matches_any_group(s, groups)) {
                let key = state_match_key(state);
                let occurrence = seen.entry(key).or_insert(0);
                let id = (key, *occurrence);
                *occurrence += 1;
                let most = side.counts.entry(key).or_insert_with(|| {
                    side.keys.push(key);
                    0
                });
                *most = (*most).max(id.1 + 1);
                let instances = side.instances.entry(id).or_insert_with(|| {
                    side.order.push(id);
                    Vec::with_capacity(runs.len())
                });
                instances.push(RunState {
                    run: run.run,
                    state,
                    path: run.path,
                    dir: run.dir,
                });
            }
        }
        side
    }

    fn same_counts(&self, other: &SideStates) -> bool {
        self.counts == other.counts
    }

    /// Python repr of the counts dict: `{'key': 2, ...}`.
    fn repr(&self) -> String {
        let items: Vec<String> = self
            .keys
            .iter()
            .map(|key| format!("{}: {}", str_repr(key), self.counts[key]))
            .collect();
        format!("{{{}}}", items.join(", "))
    }
}

/// The states of one device pair: matched states in compare order, and the
/// `(key, occurrence)` of states only one side has (lenient matching only).
pub struct StateMatch<'a> {
    pub matched: Vec<MatchedState<'a>>,
    pub only_reference: Vec<(String, usize)>,
    pub only_compare: Vec<(String, usize)>,
}

/// The way out of the reference's failure on a changed set of states.
pub const CHANGED_STATES_HINT: &str = "the set of states changed; --report-missing (or --fail-on) compares the states that match and lists the others as NEW / DROPPED";

/// Matches the filtered states of one device pair by key and occurrence,
/// over the runs of both sides (a state some runs of a side lack is merged
/// from the runs that have it). Strict matching (the reference's) fails
/// when the sides' occurrence counts differ; lenient matching pairs what
/// it can and lists the rest.
pub fn match_states<'a>(
    bench_name: &str,
    (reference, compare): (&[RunBench<'a>], &[RunBench<'a>]),
    devices: (i64, i64),
    groups: &[Vec<AxisFilter>],
    lenient: bool,
) -> Result<StateMatch<'a>, Failure> {
    let mut ref_side = SideStates::of(reference, devices.0, groups);
    let mut cmp_side = SideStates::of(compare, devices.1, groups);
    if !lenient && !ref_side.same_counts(&cmp_side) {
        let message = format!(
            "benchmark {} device pair ref={} cmp={} has mismatched state occurrences: ref={}, cmp={}",
            str_repr(bench_name),
            devices.0,
            devices.1,
            ref_side.repr(),
            cmp_side.repr()
        );
        return Err(Failure::reported_with_notes(
            message,
            vec![format!("hint: {CHANGED_STATES_HINT}")],
        ));
    }
    let mut result = StateMatch {
        matched: Vec::with_capacity(cmp_side.order.len()),
        only_reference: Vec::new(),
        only_compare: Vec::new(),
    };
    for id in &cmp_side.order {
        let compare = cmp_side.instances.remove(id).unwrap_or_default();
        match ref_side.instances.remove(id) {
            Some(reference) => result.matched.push(MatchedState {
                key: id.0,
                occurrence: id.1,
                occurrence_count: cmp_side.counts[id.0],
                reference,
                compare,
            }),
            None => result.only_compare.push((id.0.to_string(), id.1)),
        }
    }
    // By key, then occurrence, as the reference lists its counts.
    for key in &ref_side.keys {
        for occurrence in 0..ref_side.counts[key] {
            if ref_side.instances.contains_key(&(*key, occurrence)) {
                result.only_reference.push((key.to_string(), occurrence));
            }
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A benchmark whose states on device 0 have these match keys.
    fn bench(keys: &[&str]) -> Benchmark {
        let states: Vec<serde_json::Value> = keys
            .iter()
            .map(|key| serde_json::json!({"name": format!("Device=0 {key}"), "device": 0}))
            .collect();
        let value = serde_json::json!({"name": "b", "devices": [0], "states": states});
        serde_json::from_value(value).unwrap()
    }

    fn runs(benches: &[Benchmark]) -> Vec<RunBench<'_>> {
        benches
            .iter()
            .enumerate()
            .map(|(run, bench)| RunBench {
                run,
                path: "f.json",
                dir: "",
                bench,
            })
            .collect()
    }

    fn ids<'a>(matched: &[MatchedState<'a>]) -> Vec<(&'a str, usize, usize, usize)> {
        matched
            .iter()
            .map(|m| (m.key, m.occurrence, m.reference.len(), m.compare.len()))
            .collect()
    }

    #[test]
    fn a_pair_matches_by_key_and_occurrence_in_compare_order() {
        let (reference, compare) = (bench(&["a", "b", "a"]), bench(&["b", "a", "a"]));
        let (r, c) = (
            runs(std::slice::from_ref(&reference)),
            runs(std::slice::from_ref(&compare)),
        );
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], false).unwrap();
        assert_eq!(
            ids(&found.matched),
            [("b", 0, 1, 1), ("a", 0, 1, 1), ("a", 1, 1, 1)]
        );
        assert_eq!(found.matched[1].occurrence_count, 2);
        assert!(found.only_reference.is_empty() && found.only_compare.is_empty());
    }

    #[test]
    fn a_changed_set_fails_strictly_and_is_listed_leniently() {
        let (reference, compare) = (bench(&["a", "b", "a", "c"]), bench(&["b", "d"]));
        let (r, c) = (
            runs(std::slice::from_ref(&reference)),
            runs(std::slice::from_ref(&compare)),
        );
        let Err(Failure::ReportedWithNotes(message, _)) =
            match_states("b", (&r, &c), (0, 0), &[vec![]], false)
        else {
            panic!("a changed set must fail");
        };
        assert!(message.ends_with("ref={'a': 2, 'b': 1, 'c': 1}, cmp={'b': 1, 'd': 1}"));
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], true).unwrap();
        assert_eq!(ids(&found.matched), [("b", 0, 1, 1)]);
        // By key, then occurrence, as the reference counts them.
        let only: Vec<(&str, usize)> = found
            .only_reference
            .iter()
            .map(|(k, o)| (k.as_str(), *o))
            .collect();
        assert_eq!(only, [("a", 0), ("a", 1), ("c", 0)]);
        assert_eq!(found.only_compare, [("d".to_string(), 0)]);
    }

    #[test]
    fn a_state_some_runs_lack_is_merged_from_the_others() {
        let reference = [bench(&["a", "b"]), bench(&["a"]), bench(&["b", "a"])];
        let compare = [bench(&["a", "b"]), bench(&["b"])];
        let (r, c) = (runs(&reference), runs(&compare));
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], false).unwrap();
        assert_eq!(ids(&found.matched), [("a", 0, 3, 1), ("b", 0, 2, 2)]);
        let runs_of = |m: &MatchedState| m.reference.iter().map(|s| s.run).collect::<Vec<_>>();
        assert_eq!(runs_of(&found.matched[1]), [0, 2]);
        // A key some run has twice counts twice for its side.
        let twice = [bench(&["a", "a"]), bench(&["a"])];
        let once = [bench(&["a"])];
        let (r, c) = (runs(&twice), runs(&once));
        assert!(match_states("b", (&r, &c), (0, 0), &[vec![]], false).is_err());
    }
}
