//! State pairing (spec "Matching Inputs"): states by match key and
//! occurrence order within a device section.

use std::collections::HashMap;

use crate::failure::Failure;
use crate::loading::model::State;
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

/// A compare state with its reference counterpart.
pub struct MatchedState<'a> {
    pub reference: &'a State,
    pub compare: &'a State,
    pub key: &'a str,
    /// Zero-based position among the states with the same key.
    pub occurrence: usize,
    pub occurrence_count: usize,
}

/// States grouped by match key, keys in order of first appearance.
struct KeyCounts<'a> {
    order: Vec<&'a str>,
    states: HashMap<&'a str, Vec<&'a State>>,
}

impl<'a> KeyCounts<'a> {
    fn of(states: impl Iterator<Item = &'a State>) -> Self {
        let mut grouped = KeyCounts {
            order: Vec::new(),
            states: HashMap::new(),
        };
        for state in states {
            let key = state_match_key(state);
            grouped
                .states
                .entry(key)
                .or_insert_with(|| {
                    grouped.order.push(key);
                    Vec::new()
                })
                .push(state);
        }
        grouped
    }

    fn same_counts(&self, other: &KeyCounts) -> bool {
        self.states.len() == other.states.len()
            && self.states.iter().all(|(key, states)| {
                other
                    .states
                    .get(key)
                    .is_some_and(|o| o.len() == states.len())
            })
    }

    /// Python repr of the counts dict: `{'key': 2, ...}`.
    fn repr(&self) -> String {
        let items: Vec<String> = self
            .order
            .iter()
            .map(|key| format!("{}: {}", str_repr(key), self.states[key].len()))
            .collect();
        format!("{{{}}}", items.join(", "))
    }
}

/// The states of one device pair: matched pairs in compare order, and the
/// `(key, occurrence)` of states only one side has (lenient matching only).
pub struct StateMatch<'a> {
    pub matched: Vec<MatchedState<'a>>,
    pub only_reference: Vec<(String, usize)>,
    pub only_compare: Vec<(String, usize)>,
}

/// The way out of the reference's failure on a changed set of states.
pub const CHANGED_STATES_HINT: &str = "the set of states changed; --report-missing (or --fail-on) compares the states that match and lists the others as NEW / DROPPED";

/// Matches the filtered states of one device pair by key and occurrence.
/// Strict matching (the reference's) fails when the occurrence counts
/// differ; lenient matching pairs what it can and lists the rest.
pub fn match_device_states<'a>(
    bench_name: &str,
    reference: &'a [State],
    compare: &'a [State],
    devices: (i64, i64),
    groups: &[Vec<AxisFilter>],
    lenient: bool,
) -> Result<StateMatch<'a>, Failure> {
    let select = |states: &'a [State], device: i64| {
        states
            .iter()
            .filter(move |s| s.device == device && matches_any_group(s, groups))
    };
    let ref_groups = KeyCounts::of(select(reference, devices.0));
    let cmp_groups = KeyCounts::of(select(compare, devices.1));
    if !lenient && !ref_groups.same_counts(&cmp_groups) {
        let message = format!(
            "benchmark {} device pair ref={} cmp={} has mismatched state occurrences: ref={}, cmp={}",
            str_repr(bench_name),
            devices.0,
            devices.1,
            ref_groups.repr(),
            cmp_groups.repr()
        );
        return Err(Failure::reported_with_notes(
            message,
            vec![format!("hint: {CHANGED_STATES_HINT}")],
        ));
    }
    let mut result = StateMatch {
        matched: Vec::new(),
        only_reference: Vec::new(),
        only_compare: Vec::new(),
    };
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for state in select(compare, devices.1) {
        let key = state_match_key(state);
        let occurrence = seen.entry(key).or_insert(0);
        match ref_groups
            .states
            .get(key)
            .and_then(|states| states.get(*occurrence))
        {
            Some(reference) => result.matched.push(MatchedState {
                reference,
                compare: state,
                key,
                occurrence: *occurrence,
                occurrence_count: cmp_groups.states[key].len(),
            }),
            None => result.only_compare.push((key.to_string(), *occurrence)),
        }
        *occurrence += 1;
    }
    for key in &ref_groups.order {
        let compare_count = cmp_groups.states.get(key).map_or(0, Vec::len);
        for occurrence in compare_count..ref_groups.states[key].len() {
            result.only_reference.push((key.to_string(), occurrence));
        }
    }
    Ok(result)
}
