//! State pairing (spec "Matching Inputs"): states by match key and
//! occurrence order within a device section.

use std::collections::HashMap as StdHashMap;
use std::hash::{BuildHasher, Hasher};

use smallvec::SmallVec;

use crate::text::digits::{DIGITS_ROOM, decimal_digits};

use crate::failure::Failure;
use crate::loading::model::{Benchmark, State, StateDevice};
use crate::matching::axis_keys;
use crate::matching::filters::{AxisFilter, matches_any_group};
use crate::pycompat::pyfmt::str_repr;

/// The state's name without its `Device=N` prefix: the key states are matched by.
pub fn state_match_key(state: &State) -> &str {
    let name = state.name();
    // `name.strip_prefix(f"Device={state.device}")`, without building the prefix.
    let after_device = name
        .strip_prefix("Device=")
        .and_then(|rest| match state.device() {
            StateDevice::Missing => Some(rest),
            StateDevice::Id(id) => strip_decimal(rest, *id),
            StateDevice::Other(other) => rest.strip_prefix(&*other.text),
        });
    match after_device {
        Some("") => "",
        Some(rest) => rest.strip_prefix(' ').unwrap_or(name),
        None => name,
    }
}

/// `text` after the decimal digits of `id`, if it starts with them.
fn strip_decimal(text: &str, id: i64) -> Option<&str> {
    let mut room = [0u8; DIGITS_ROOM];
    let digits = decimal_digits(id.unsigned_abs(), id < 0, &mut room);
    text.as_bytes()
        .starts_with(digits)
        .then(|| &text[digits.len()..])
}

/// Maps keyed by state keys: many short strings hashed per state, where
/// SipHash cost more than the rest of matching. A multiply-rotate hash with
/// a per-process random seed (from the standard library's) and a final mix.
type HashMap<K, V> = StdHashMap<K, V, KeyHash>;

#[derive(Clone, Copy)]
struct KeyHash(u64);

impl Default for KeyHash {
    fn default() -> Self {
        static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        KeyHash(*SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u64)))
    }
}

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(self.0)
    }
}

struct KeyHasher(u64);

const KEY_HASH_MULTIPLIER: u64 = 0xf135_7aea_2e62_a9c5;

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(KEY_HASH_MULTIPLIER)
            .rotate_left(26);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut word = [0u8; 8];
            word[..tail.len()].copy_from_slice(tail);
            self.add(u64::from_le_bytes(word) ^ ((tail.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value) | 0x100);
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        // splitmix64's finalizer: every bit of the state reaches the top
        // bits, which the table's control bytes use.
        let mut h = self.0;
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }
}

/// What the states of a run share: its position and files, held once a
/// run so that each state's instance is two pointers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunInfo {
    /// The run's position among its side's paths.
    pub run: usize,
    /// The run's JSON file.
    pub path: String,
    /// The directory of the run's JSON file (sidecar paths are relative to it).
    pub dir: String,
}

/// One run's instance of a benchmark.
#[derive(Debug, Clone, Copy)]
pub struct RunBench<'a> {
    pub info: &'a RunInfo,
    pub bench: &'a Benchmark,
}

/// One run's instance of a state.
#[derive(Debug, Clone, Copy)]
pub struct RunState<'a> {
    pub info: &'a RunInfo,
    pub state: &'a State,
}

impl<'a> RunBench<'a> {
    /// The run's JSON file.
    pub fn path(&self) -> &'a str {
        &self.info.path
    }
}

impl<'a> RunState<'a> {
    /// The run's position among its side's paths.
    pub fn run(&self) -> usize {
        self.info.run
    }

    /// The run's JSON file.
    pub fn path(&self) -> &'a str {
        &self.info.path
    }

    /// The directory of the run's JSON file (sidecar paths are relative to it).
    pub fn dir(&self) -> &'a str {
        &self.info.dir
    }
}

/// A state both sides have: its instances in the runs of each side that
/// have it (one a side for a pair).
#[derive(Clone)]
pub struct MatchedState<'a> {
    pub key: &'a str,
    /// Zero-based position among the states with the same key.
    pub occurrence: u32,
    /// How many states of the compare side have this key (the most of any run).
    pub occurrence_count: u32,
    pub reference: Instances<'a>,
    pub compare: Instances<'a>,
}

/// A state's instances in the runs of a side: one in a pair, kept in place
/// (no allocation a side on every state).
pub type Instances<'a> = SmallVec<[RunState<'a>; 1]>;

/// A count of states as held per state: more than `u32::MAX` states of one
/// key cannot be in a file (each takes more than one byte), so saturating
/// never changes a count.
fn state_count(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

impl<'a> MatchedState<'a> {
    /// The first compare run's instance: its name and axis values stand
    /// for the state.
    pub fn compare_state(&self) -> &'a State {
        self.compare[0].state
    }
}

impl<'a> RunBench<'a> {
    /// A state of this run's benchmark, with the run it is from.
    fn instance(&self, state: &'a State) -> RunState<'a> {
        RunState {
            info: self.info,
            state,
        }
    }
}

/// A side's runs of one benchmark, each run's states grouped by device
/// once: a device pair takes its own states, where a pass over every state
/// for each pair would be quadratic in the devices of a benchmark.
pub struct RunsByDevice<'a>(Vec<RunDevices<'a>>);

impl<'a> RunsByDevice<'a> {
    /// `runs` in order; a run's instances of the benchmark (repetition
    /// mode, where they merge) follow each other and become one run.
    pub fn of(runs: &[RunBench<'a>]) -> RunsByDevice<'a> {
        let mut merged: Vec<RunDevices<'a>> = Vec::with_capacity(runs.len());
        for run in runs {
            match merged.last_mut() {
                Some(last) if std::ptr::eq(last.run.info, run.info) => last.add(*run),
                _ => merged.push(RunDevices::of(*run)),
            }
        }
        RunsByDevice(merged)
    }
}

/// One run's instance of a benchmark and its states by device id, each
/// device's in file order.
struct RunDevices<'a> {
    run: RunBench<'a>,
    states: HashMap<i64, Vec<&'a State>>,
}

impl<'a> RunDevices<'a> {
    fn of(run: RunBench<'a>) -> RunDevices<'a> {
        let mut devices = RunDevices {
            run,
            states: HashMap::default(),
        };
        devices.add(run);
        devices
    }

    /// The states of another instance of the benchmark in the same run,
    /// after those already held.
    fn add(&mut self, instance: RunBench<'a>) {
        for state in instance.bench.states() {
            // A state whose device is no integer is on no device pair.
            if let Some(id) = state.device().id() {
                self.states.entry(id).or_default().push(state);
            }
        }
    }

    fn on_device(&self, device: i64) -> &[&'a State] {
        self.states.get(&device).map_or(&[], Vec::as_slice)
    }

    /// The states on `device` that some filter group selects.
    fn filtered<'s>(
        &'s self,
        device: i64,
        groups: &'s [Vec<AxisFilter>],
    ) -> impl Iterator<Item = &'a State> + 's {
        let states = self.on_device(device).iter().copied();
        states.filter(move |s| matches_any_group(s, groups))
    }
}

/// The usual case, matched without a map of each side's states: every run
/// of both sides has the same filtered states, key for key, in the same
/// order (the same benchmark run again). Each state then matches the
/// states at its position, and the sides' counts agree. `None` when any
/// run differs: the general matching decides.
fn match_in_order<'a>(
    (reference, compare): (&RunsByDevice<'a>, &RunsByDevice<'a>),
    devices: (i64, i64),
    groups: &[Vec<AxisFilter>],
) -> Option<InOrder<'a>> {
    let (first, other_compare) = compare.0.split_first()?;
    let first_states: Vec<&'a State> = first.filtered(devices.1, groups).collect();
    let keys: Vec<&'a str> = first_states.iter().map(|s| state_match_key(s)).collect();
    // Each run's states are filtered once: kept when their keys are the
    // first compare run's, key for key.
    let same_states = |run: &RunDevices<'a>, device: i64| -> Option<RunStates<'a>> {
        let mut states = Vec::with_capacity(keys.len());
        for state in run.filtered(device, groups) {
            if keys.get(states.len()) != Some(&state_match_key(state)) {
                return None;
            }
            states.push(state);
        }
        (states.len() == keys.len()).then_some(RunStates {
            info: run.run.info,
            states,
        })
    };
    let reference_runs: Vec<RunStates<'a>> = reference
        .0
        .iter()
        .map(|r| same_states(r, devices.0))
        .collect::<Option<_>>()?;
    let mut compare_runs = vec![RunStates {
        info: first.run.info,
        states: first_states,
    }];
    for run in other_compare {
        compare_runs.push(same_states(run, devices.1)?);
    }
    Some(InOrder {
        reference: reference_runs,
        compare: compare_runs,
        occurrences: key_occurrences(&keys),
    })
}

/// The matched states of a device pair, in compare order.
pub enum Matched<'a> {
    /// Listed one by one: the general matching.
    Listed(Vec<MatchedState<'a>>),
    /// Every run lists the same states in the same order.
    InOrder(InOrder<'a>),
}

/// States matched by position: state `i` is every run's `i`-th, made when
/// asked for. A pointer a state and run instead of a listed state (72
/// bytes, and its runs' instances on the heap with `--vs`).
pub struct InOrder<'a> {
    reference: Vec<RunStates<'a>>,
    /// The first compare run first: its states name the matched ones.
    compare: Vec<RunStates<'a>>,
    /// Each state's `(occurrence, count)`; empty when every key is unique.
    occurrences: Vec<(u32, u32)>,
}

/// One run's filtered states, in order.
struct RunStates<'a> {
    info: &'a RunInfo,
    states: Vec<&'a State>,
}

impl<'a> InOrder<'a> {
    /// Every run's state at each position has the first compare run's
    /// axis values there (their keys already agree).
    fn axis_values_agree(&self) -> bool {
        let Some((first, others)) = self.compare.split_first() else {
            return true;
        };
        first.states.iter().enumerate().all(|(index, state)| {
            others
                .iter()
                .chain(&self.reference)
                .all(|run| axis_keys::same_key(run.states[index], state))
        })
    }

    fn state(&self, index: usize) -> MatchedState<'a> {
        let instances = |runs: &[RunStates<'a>]| -> Instances<'a> {
            runs.iter()
                .map(|run| RunState {
                    info: run.info,
                    state: run.states[index],
                })
                .collect()
        };
        let (occurrence, count) = self.occurrences.get(index).copied().unwrap_or((0, 1));
        MatchedState {
            key: state_match_key(self.compare[0].states[index]),
            occurrence,
            occurrence_count: count,
            reference: instances(&self.reference),
            compare: instances(&self.compare),
        }
    }
}

impl<'a> Matched<'a> {
    pub fn len(&self) -> usize {
        match self {
            Matched::Listed(states) => states.len(),
            Matched::InOrder(in_order) => in_order.compare[0].states.len(),
        }
    }

    /// Calls `f` with the matched state at `index` (below [`Matched::len`]).
    pub fn with_state<R>(&self, index: usize, f: impl FnOnce(&MatchedState<'a>) -> R) -> R {
        match self {
            Matched::Listed(states) => f(&states[index]),
            Matched::InOrder(in_order) => f(&in_order.state(index)),
        }
    }

    /// The first compare run's instance of the state at `index`.
    pub fn compare_state(&self, index: usize) -> &'a State {
        match self {
            Matched::Listed(states) => states[index].compare_state(),
            Matched::InOrder(in_order) => in_order.compare[0].states[index],
        }
    }

    /// Every matched state, listed.
    #[cfg(test)]
    pub fn listed(&self) -> Vec<MatchedState<'a>> {
        (0..self.len())
            .map(|index| self.with_state(index, MatchedState::clone))
            .collect()
    }
}

/// Each key's `(occurrence, count)`: its position among the equal keys
/// before it, and how many there are; empty when every key is unique.
fn key_occurrences(keys: &[&str]) -> Vec<(u32, u32)> {
    let mut counts: HashMap<&str, (u32, u32)> =
        HashMap::with_capacity_and_hasher(keys.len(), KeyHash::default());
    for key in keys {
        let (count, _) = counts.entry(key).or_default();
        *count = count.saturating_add(1);
    }
    if counts.len() == keys.len() {
        return Vec::new();
    }
    keys.iter()
        .map(|key| {
            let (count, seen) = counts.get_mut(key).expect("counted above");
            *seen = seen.saturating_add(1);
            (*seen - 1, *count)
        })
        .collect()
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
    instances: HashMap<(&'a str, usize), Instances<'a>>,
}

impl<'a> SideStates<'a> {
    fn of(runs: &RunsByDevice<'a>, device: i64, groups: &[Vec<AxisFilter>]) -> Self {
        let runs = &runs.0;
        let mut side = SideStates {
            keys: Vec::new(),
            counts: HashMap::default(),
            order: Vec::new(),
            instances: HashMap::default(),
        };
        let most_states = runs
            .iter()
            .map(|r| r.on_device(device).len())
            .max()
            .unwrap_or(0);
        side.counts.reserve(most_states);
        side.instances.reserve(most_states);
        side.order.reserve(most_states);
        side.keys.reserve(most_states);
        for run in runs {
            let mut seen: HashMap<&str, usize> =
                HashMap::with_capacity_and_hasher(most_states, KeyHash::default());
            for state in run.filtered(device, groups) {
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
                    Instances::with_capacity(runs.len())
                });
                instances.push(run.run.instance(state));
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
    pub matched: Matched<'a>,
    pub only_reference: Vec<(String, usize)>,
    pub only_compare: Vec<(String, usize)>,
}

/// The way out of the reference's failure on a changed set of states.
pub const CHANGED_STATES_HINT: &str = "the set of states changed; --report-missing (or --fail-on) compares the states that match and lists the others as NEW / DROPPED";

/// Matches the filtered states of one device pair by key and occurrence,
/// over the runs of both sides (a state some runs of a side lack is merged
/// from the runs that have it). Strict matching (the reference's) fails
/// when the sides' occurrence counts differ; lenient matching pairs what
/// it can and lists the rest. With `axis_keys` (the robust command's
/// keys) a state's axis values are part of its key (see `axis_keys`).
pub fn match_states<'a>(
    bench_name: &str,
    (reference, compare): (&RunsByDevice<'a>, &RunsByDevice<'a>),
    devices: (i64, i64),
    groups: &[Vec<AxisFilter>],
    lenient: bool,
    axis_keys: bool,
) -> Result<StateMatch<'a>, Failure> {
    let in_order = match_in_order((reference, compare), devices, groups)
        .filter(|in_order| !axis_keys || in_order.axis_values_agree());
    match in_order {
        Some(in_order) => Ok(StateMatch {
            matched: Matched::InOrder(in_order),
            only_reference: Vec::new(),
            only_compare: Vec::new(),
        }),
        None => {
            if axis_keys && !lenient {
                check_axis_key_counts(bench_name, (reference, compare), devices, groups)?;
            }
            match_by_key(bench_name, (reference, compare), devices, groups, lenient)
        }
    }
}

/// The robust command's strict check: both sides have each key (name and
/// axis values) as often. Equal counts of these keys make equal counts of
/// the names, so the matching by name that follows pairs the same states
/// unless one name's states come with other axis values in another order.
fn check_axis_key_counts(
    bench_name: &str,
    (reference, compare): (&RunsByDevice, &RunsByDevice),
    devices: (i64, i64),
    groups: &[Vec<AxisFilter>],
) -> Result<(), Failure> {
    let counts = |runs: &RunsByDevice, device: i64| {
        axis_keys::key_counts(
            runs.0
                .iter()
                .map(|run| run.filtered(device, groups).collect()),
        )
    };
    let (ref_counts, cmp_counts) = (counts(reference, devices.0), counts(compare, devices.1));
    if axis_keys::same_counts(&ref_counts, &cmp_counts) {
        return Ok(());
    }
    Err(mismatched_occurrences(
        bench_name,
        devices,
        (
            &axis_keys::counts_repr(&ref_counts),
            &axis_keys::counts_repr(&cmp_counts),
        ),
    ))
}

/// The reference's failure on sides whose states occur differently often.
fn mismatched_occurrences(
    bench_name: &str,
    devices: (i64, i64),
    (ref_counts, cmp_counts): (&str, &str),
) -> Failure {
    let message = format!(
        "benchmark {} device pair ref={} cmp={} has mismatched state occurrences: ref={ref_counts}, cmp={cmp_counts}",
        str_repr(bench_name),
        devices.0,
        devices.1,
    );
    Failure::reported_with_notes(message, vec![format!("hint: {CHANGED_STATES_HINT}")])
}

/// [`match_states`] through maps of each side's states by key and occurrence.
fn match_by_key<'a>(
    bench_name: &str,
    (reference, compare): (&RunsByDevice<'a>, &RunsByDevice<'a>),
    devices: (i64, i64),
    groups: &[Vec<AxisFilter>],
    lenient: bool,
) -> Result<StateMatch<'a>, Failure> {
    let mut ref_side = SideStates::of(reference, devices.0, groups);
    let mut cmp_side = SideStates::of(compare, devices.1, groups);
    if !lenient && !ref_side.same_counts(&cmp_side) {
        return Err(mismatched_occurrences(
            bench_name,
            devices,
            (&ref_side.repr(), &cmp_side.repr()),
        ));
    }
    let mut matched = Vec::with_capacity(cmp_side.order.len());
    let (mut only_reference, mut only_compare) = (Vec::new(), Vec::new());
    for id in &cmp_side.order {
        let compare = cmp_side.instances.remove(id).unwrap_or_default();
        match ref_side.instances.remove(id) {
            Some(reference) => matched.push(MatchedState {
                key: id.0,
                occurrence: state_count(id.1),
                occurrence_count: state_count(cmp_side.counts[id.0]),
                reference,
                compare,
            }),
            None => only_compare.push((id.0.to_string(), id.1)),
        }
    }
    // By key, then occurrence, as the reference lists its counts.
    for key in &ref_side.keys {
        for occurrence in 0..ref_side.counts[key] {
            if ref_side.instances.contains_key(&(*key, occurrence)) {
                only_reference.push((key.to_string(), occurrence));
            }
        }
    }
    Ok(StateMatch {
        matched: Matched::Listed(matched),
        only_reference,
        only_compare,
    })
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

    /// The key without building the prefix is the key the reference's
    /// `f"Device={device}"` prefix gives.
    #[test]
    fn match_keys_strip_the_device_prefix_as_the_reference() {
        let devices = [
            serde_json::json!(0),
            serde_json::json!(7),
            serde_json::json!(-12),
            serde_json::json!(i64::MIN),
            serde_json::json!(i64::MAX),
            serde_json::json!("gpu"),
            serde_json::json!(1.5),
            serde_json::json!(null),
        ];
        let names = [
            "",
            "Device=",
            "Device=0",
            "Device=0 x",
            "Device=07 x",
            "Device=7",
            "Device=7 a b",
            "Device=7x",
            "Device=-12 k",
            "Device=-1 k",
            "Device=gpu z",
            "Device=1.5 q",
            "Device=None",
            "Device= y",
            "Device=9223372036854775807 m",
            "Device=-9223372036854775808 m",
            "device=7 x",
            "Device=70 x",
        ];
        for device in &devices {
            for name in names {
                let value = serde_json::json!({"name": name, "device": device});
                let state: State = serde_json::from_value(value).unwrap();
                let prefix = format!("Device={}", state.device());
                let expected = if name == prefix {
                    ""
                } else {
                    name.strip_prefix(&prefix)
                        .and_then(|rest| rest.strip_prefix(' '))
                        .unwrap_or(name)
                };
                assert_eq!(state_match_key(&state), expected, "{name:?} on {device}");
            }
        }
    }

    /// The run information of up to three runs, for [`runs`].
    fn infos() -> Vec<RunInfo> {
        (0..3)
            .map(|run| RunInfo {
                run,
                path: format!("f{run}.json"),
                dir: String::new(),
            })
            .collect()
    }

    fn runs<'a>(benches: &'a [Benchmark], infos: &'a [RunInfo]) -> RunsByDevice<'a> {
        let runs: Vec<RunBench> = benches
            .iter()
            .zip(infos)
            .map(|(bench, info)| RunBench { info, bench })
            .collect();
        RunsByDevice::of(&runs)
    }

    fn ids<'a>(matched: &[MatchedState<'a>]) -> Vec<(&'a str, u32, usize, usize)> {
        matched
            .iter()
            .map(|m| (m.key, m.occurrence, m.reference.len(), m.compare.len()))
            .collect()
    }

    #[test]
    fn a_pair_matches_by_key_and_occurrence_in_compare_order() {
        let infos = infos();
        let (reference, compare) = (bench(&["a", "b", "a"]), bench(&["b", "a", "a"]));
        let (r, c) = (
            runs(std::slice::from_ref(&reference), &infos),
            runs(std::slice::from_ref(&compare), &infos),
        );
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], false, false).unwrap();
        assert_eq!(
            ids(&found.matched.listed()),
            [("b", 0, 1, 1), ("a", 0, 1, 1), ("a", 1, 1, 1)]
        );
        assert_eq!(found.matched.listed()[1].occurrence_count, 2);
        assert!(found.only_reference.is_empty() && found.only_compare.is_empty());
    }

    #[test]
    fn a_changed_set_fails_strictly_and_is_listed_leniently() {
        let infos = infos();
        let (reference, compare) = (bench(&["a", "b", "a", "c"]), bench(&["b", "d"]));
        let (r, c) = (
            runs(std::slice::from_ref(&reference), &infos),
            runs(std::slice::from_ref(&compare), &infos),
        );
        let Err(Failure::ReportedWithNotes(message, _)) =
            match_states("b", (&r, &c), (0, 0), &[vec![]], false, false)
        else {
            panic!("a changed set must fail");
        };
        assert!(message.ends_with("ref={'a': 2, 'b': 1, 'c': 1}, cmp={'b': 1, 'd': 1}"));
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], true, false).unwrap();
        assert_eq!(ids(&found.matched.listed()), [("b", 0, 1, 1)]);
        // By key, then occurrence, as the reference counts them.
        let only: Vec<(&str, usize)> = found
            .only_reference
            .iter()
            .map(|(k, o)| (k.as_str(), *o))
            .collect();
        assert_eq!(only, [("a", 0), ("a", 1), ("c", 0)]);
        assert_eq!(found.only_compare, [("d".to_string(), 0)]);
    }

    /// Matched by position or through the maps, the same states match.
    #[test]
    fn states_in_the_same_order_match_as_through_the_maps() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut below = |n: u64| {
            crate::testing::xorshift_step(&mut seed);
            (seed % n) as usize
        };
        let names = ["a", "b", "c", "d", "e"];
        let infos = infos();
        for case in 0..300 {
            let keys: Vec<&str> = (0..below(12)).map(|_| names[below(5)]).collect();
            let mut other = keys.clone();
            // A third of the cases change one run's list: no positional match.
            let changed = below(3) == 0 && !other.is_empty();
            if changed {
                let at = below(other.len() as u64);
                other[at] = "z";
            }
            let reference: Vec<Benchmark> = (0..1 + below(3)).map(|_| bench(&keys)).collect();
            let compare = [bench(&keys), bench(&other)];
            let compare = &compare[..1 + below(2)];
            let (r, c) = (runs(&reference, &infos), runs(compare, &infos));
            let groups = [vec![]];
            let in_order = match_in_order((&r, &c), (0, 0), &groups);
            let changed = changed && compare.len() == 2;
            assert_eq!(
                in_order.is_none(),
                changed,
                "case {case}: {keys:?} {other:?}"
            );
            let by_key = match_by_key("b", (&r, &c), (0, 0), &groups, true).unwrap();
            let by_key = by_key.matched.listed();
            if let Some(in_order) = in_order {
                let matched = Matched::InOrder(in_order).listed();
                assert_eq!(ids(&matched), ids(&by_key), "case {case}: {keys:?}");
                let counts = |m: &[MatchedState]| -> Vec<u32> {
                    m.iter().map(|m| m.occurrence_count).collect()
                };
                assert_eq!(counts(&matched), counts(&by_key), "case {case}");
                let states = |m: &[MatchedState]| -> Vec<(*const State, usize)> {
                    m.iter()
                        .flat_map(|m| m.reference.iter().chain(&m.compare))
                        .map(|s| (s.state as *const State, s.run()))
                        .collect()
                };
                assert_eq!(states(&matched), states(&by_key), "case {case}");
            }
        }
    }

    #[test]
    fn a_state_some_runs_lack_is_merged_from_the_others() {
        let reference = [bench(&["a", "b"]), bench(&["a"]), bench(&["b", "a"])];
        let compare = [bench(&["a", "b"]), bench(&["b"])];
        let infos = infos();
        let (r, c) = (runs(&reference, &infos), runs(&compare, &infos));
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], false, false).unwrap();
        assert_eq!(
            ids(&found.matched.listed()),
            [("a", 0, 3, 1), ("b", 0, 2, 2)]
        );
        let runs_of = |m: &MatchedState| m.reference.iter().map(|s| s.run()).collect::<Vec<_>>();
        assert_eq!(runs_of(&found.matched.listed()[1]), [0, 2]);
        // A key some run has twice counts twice for its side.
        let twice = [bench(&["a", "a"]), bench(&["a"])];
        let once = [bench(&["a"])];
        let (r, c) = (runs(&twice, &infos), runs(&once, &infos));
        assert!(match_states("b", (&r, &c), (0, 0), &[vec![]], false, false).is_err());
    }

    /// A benchmark with a state on each device `device_of` gives.
    fn on_devices(states: usize, device_of: fn(usize) -> usize) -> Benchmark {
        let states: Vec<serde_json::Value> = (0..states)
            .map(|i| {
                let device = device_of(i);
                serde_json::json!({"name": format!("Device={device} k={i}"), "device": device})
            })
            .collect();
        let value = serde_json::json!({"name": "b", "devices": [], "states": states});
        serde_json::from_value(value).unwrap()
    }

    /// Matching the states of every device pair of a benchmark on many
    /// devices takes about as long as matching as many states on one
    /// device: a pass over every state for each pair (quadratic) took
    /// hundreds of times as long at this size.
    #[test]
    fn states_on_many_devices_are_matched_in_linear_time() {
        const STATES: usize = 10_000;
        let (spread, together) = (on_devices(STATES, |i| i), on_devices(STATES, |_| 0));
        let infos = infos();
        let fastest = |bench: &Benchmark, devices: usize| {
            crate::testing::fastest_of_three(|| {
                let runs = runs(std::slice::from_ref(bench), &infos);
                let matched: usize = (0..devices as i64)
                    .map(|device| {
                        let pair = (device, device);
                        let found =
                            match_states("b", (&runs, &runs), pair, &[vec![]], false, false);
                        found.unwrap().matched.len()
                    })
                    .sum();
                assert_eq!(matched, STATES);
            })
        };
        let (spread, together) = (fastest(&spread, STATES), fastest(&together, 1));
        assert!(
            spread < together * 20,
            "{STATES} devices: {spread:?}; one device: {together:?}"
        );
    }

    /// What each matched state holds: two pointers a run instance, one
    /// instance a side in place.
    #[test]
    fn matched_states_are_small() {
        assert_eq!(std::mem::size_of::<RunState>(), 16);
        assert_eq!(std::mem::size_of::<MatchedState>(), 72);
    }

    #[test]
    fn a_state_names_its_run_files() {
        let infos = infos();
        let (reference, compare) = ([bench(&["a"]), bench(&["a"])], [bench(&["a"])]);
        let (r, c) = (runs(&reference, &infos), runs(&compare, &infos));
        let found = match_states("b", (&r, &c), (0, 0), &[vec![]], false, false).unwrap();
        let listed = found.matched.listed();
        let second = listed[0].reference[1];
        assert_eq!(
            (second.run(), second.path(), second.dir()),
            (1, "f1.json", "")
        );
        assert_eq!(listed[0].compare[0].path(), "f0.json");
    }
}
