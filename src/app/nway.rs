//! N-way comparison: every candidate's tables of a group of runs, joined
//! by benchmark, device pair and state for the N-way renderer, and sorted
//! as `--sort` says.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Write;
use std::ops::Range;

use crate::deciding::report::{Report, StateRecord};
use crate::failure::Failure;
use crate::rendering::charts::selection::{ChartEvent, Charts};
use crate::rendering::nway::{NWayState, NWayStyle, render_long, render_wide, status_rank};
use crate::settings::{Settings, SortKey, TableLayout};
use crate::text::printable::{not_a_marker, printable};

/// One device pair's table of one candidate: its records in that
/// candidate's report.
pub(super) struct Collected {
    pub(super) candidate: usize,
    pub(super) bench: String,
    /// Position of the device pair in the benchmark.
    pub(super) pair: usize,
    pub(super) axis_names: Vec<String>,
    pub(super) records: Range<usize>,
}

/// Writes a group's N-way tables to `out`: per benchmark its heading, per
/// device pair the baseline device's heading and the joined table, each
/// as it is made (a table is most of the output: not gathered first).
/// The charts' bars and series come from the same joined states.
pub(super) fn write_group_tables(
    s: &Settings,
    reports: &[Report],
    collected: &[Collected],
    charts: &mut Charts,
    out: &mut dyn Write,
) -> Result<Vec<ChartEvent>, Failure> {
    // Each device pair's tables over the candidates, pairs in order of
    // first appearance: grouped in one pass (a pass over every table for
    // each pair would be quadratic in the benchmarks).
    let mut keys: Vec<(&str, usize)> = Vec::new();
    let mut tables_of: HashMap<(&str, usize), Vec<&Collected>> = HashMap::new();
    for table in collected {
        let key = (table.bench.as_str(), table.pair);
        tables_of
            .entry(key)
            .or_insert_with(|| {
                keys.push(key);
                Vec::new()
            })
            .push(table);
    }
    let labels: Vec<String> = s.inputs.sides().map(|side| side.label.clone()).collect();
    let style = NWayStyle {
        labels: &labels,
        speedup_base: s.speedup_base,
        mode: s.display,
        no_color: s.no_color,
    };
    let mut events = Vec::new();
    let mut last_bench = None;
    let mut write = |pieces: &[&str]| -> Result<(), Failure> {
        pieces
            .iter()
            .try_for_each(|piece| out.write_all(piece.as_bytes()))
            .map_err(Failure::write)
    };
    for (bench, pair) in keys {
        if last_bench != Some(bench) {
            write(&[&not_a_marker(format!("# {}", printable(bench))), "\n\n"])?;
            last_bench = Some(bench);
        }
        let tables = &tables_of[&(bench, pair)];
        let mut states = join_states(reports, tables, s.inputs.candidates.len());
        if !states
            .iter()
            .any(|state| state.shown.iter().any(|shown| *shown))
        {
            continue;
        }
        sort_states(&mut states, s);
        let axis_names = &tables[0].axis_names;
        let table = match s.table_layout {
            TableLayout::Long => {
                render_long(axis_names, &states, &style, s.sort == Some(SortKey::Label))
            }
            TableLayout::Wide => render_wide(axis_names, &states, &style),
        };
        let first = states[0]
            .records
            .iter()
            .flatten()
            .next()
            .expect("a joined state has a record");
        write(&[&baseline_heading(first), "\n\n", &table, "\n\n"])?;
        events.extend(chart_rows(s, &labels, &states, pair, charts)?);
    }
    Ok(events)
}

/// The summary chart's bars of a joined table (a bar per shown candidate
/// row, labelled with the candidate) and its along chart.
fn chart_rows(
    s: &Settings,
    labels: &[String],
    states: &[NWayState],
    pair: usize,
    charts: &mut Charts,
) -> Result<Vec<ChartEvent>, Failure> {
    if !s.charts.any() {
        return Ok(Vec::new());
    }
    let Some(first) = states
        .iter()
        .flat_map(|st| st.records.iter().flatten())
        .next()
    else {
        return Ok(Vec::new());
    };
    let groups = s.filters.axis_filter_groups(&first.pair.benchmark);
    let filters = groups.first().map_or(&[][..], Vec::as_slice);
    for state in states {
        for (candidate, record) in state.records.iter().enumerate() {
            if let Some(record) = record.filter(|_| state.shown[candidate]) {
                let label = printable(&labels[candidate + 1]).into_owned();
                let device = record.pair.device_names.1.as_deref().map(str::to_string);
                charts.add_labelled_row(record, filters, device, Some(&label));
            }
        }
    }
    let shown: Vec<Vec<Option<&StateRecord>>> = states
        .iter()
        .filter(|st| st.shown.iter().any(|shown| *shown))
        .map(|st| st.records.clone())
        .collect();
    let name = first
        .pair
        .device_names
        .0
        .as_deref()
        .unwrap_or_default()
        .to_string();
    charts.finish_nway_device_pair(&shown, labels, (first.pair.devices.0, pair), &name)
}

/// `## [id] name` of the baseline device.
fn baseline_heading(record: &StateRecord) -> String {
    let name = record.pair.device_names.0.as_deref().unwrap_or("None");
    format!("## [{}] {}", record.pair.devices.0, printable(name))
}

/// The states of one device pair over the candidates, by key and
/// occurrence, in order of first appearance (candidates in order).
fn join_states<'a>(
    reports: &'a [Report],
    tables: &[&Collected],
    candidates: usize,
) -> Vec<NWayState<'a>> {
    let mut states: Vec<NWayState<'a>> = Vec::new();
    let mut index = JoinIndex::default();
    for (nth, table) in tables.iter().enumerate() {
        let records = &reports[table.candidate].records[table.records.clone()];
        let mut cursor = 0;
        for record in records {
            let key = (record.state_key.as_str(), record.occurrence as usize);
            // A table's keys are unique (an occurrence is a position among
            // the equal keys): the first table's are all new.
            let (position, new) = if nth == 0 {
                (index.push_new(key), true)
            } else {
                index.position(key, cursor)
            };
            if new {
                states.push(NWayState {
                    records: vec![None; candidates],
                    shown: vec![false; candidates],
                });
            }
            cursor = position + 1;
            states[position].records[table.candidate] = Some(record);
            states[position].shown[table.candidate] = record.displayed;
        }
    }
    states
}

/// The position of each joined state by key, in order of first
/// appearance. Candidates nearly always list the states in the same
/// order: a key is looked for where the previous one was found before any
/// hashing, and the map is only built when that fails.
#[derive(Default)]
struct JoinIndex<'a> {
    keys: Vec<(&'a str, usize)>,
    map: Option<HashMap<(&'a str, usize), usize, BuildHasherDefault<KeyHasher>>>,
}

impl<'a> JoinIndex<'a> {
    /// Adds a key known to be new before any lookup; its position.
    fn push_new(&mut self, key: (&'a str, usize)) -> usize {
        debug_assert!(self.map.is_none());
        self.keys.push(key);
        self.keys.len() - 1
    }

    /// The key's position, and whether it is new (given the next one).
    fn position(&mut self, key: (&'a str, usize), cursor: usize) -> (usize, bool) {
        if self.keys.get(cursor) == Some(&key) {
            return (cursor, false);
        }
        let keys = &self.keys;
        let map = self
            .map
            .get_or_insert_with(|| keys.iter().enumerate().map(|(i, key)| (*key, i)).collect());
        let next = self.keys.len();
        match map.entry(key) {
            std::collections::hash_map::Entry::Occupied(found) => (*found.get(), false),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(next);
                self.keys.push(key);
                (next, true)
            }
        }
    }
}

/// `--sort`: the states by their candidates' worst status, largest change,
/// lowest speedup, highest significance or name; stable, so ties keep
/// their order (`label` orders rows, not states: see `render_long`).
fn sort_states(states: &mut [NWayState], s: &Settings) {
    fn candidates<'a>(state: &NWayState<'a>) -> Vec<&'a StateRecord> {
        state.records.iter().flatten().copied().collect()
    }
    let most = |values: Vec<f64>| {
        values
            .into_iter()
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
    };
    let descending = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (a, b) => b.is_some().cmp(&a.is_some()),
    };
    match s.sort {
        Some(SortKey::Status) => states.sort_by_key(status_rank),
        Some(SortKey::Change) => states.sort_by(|a, b| {
            let change = |s: &NWayState| {
                most(
                    candidates(s)
                        .iter()
                        .filter_map(|r| r.comparison.frac_diff())
                        .collect(),
                )
            };
            descending(change(a), change(b))
        }),
        Some(SortKey::Speedup) => states.sort_by(|a, b| {
            // The lowest speedup is the largest time ratio.
            let ratio = |s: &NWayState| {
                most(
                    candidates(s)
                        .iter()
                        .filter_map(|r| r.center_ratio())
                        .collect(),
                )
            };
            descending(ratio(a), ratio(b))
        }),
        Some(SortKey::Signif) => states.sort_by(|a, b| {
            let signif = |s: &NWayState| {
                most(
                    candidates(s)
                        .iter()
                        .filter_map(|r| r.repetitions.as_ref()?.significance)
                        .collect(),
                )
            };
            descending(signif(a), signif(b))
        }),
        Some(SortKey::Name) => states.sort_by(|a, b| {
            let name = |s: &NWayState| {
                let first = candidates(s)[0];
                (first.state_key.clone(), first.occurrence)
            };
            name(a).cmp(&name(b))
        }),
        Some(SortKey::Label) | None => {}
    }
}

/// A multiply-rotate hash (FxHash's) for the join's keys: state names
/// from the inputs, hashed once each; SipHash's resistance to chosen
/// collisions buys nothing here and costs about 700 instructions a key.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cursor shortcut gives the positions a plain map of first
    /// appearances gives, on candidates in the same, shuffled, partial and
    /// extended orders.
    #[test]
    fn join_index_matches_a_map_of_first_appearances() {
        let names: Vec<String> = (0..12).map(|i| format!("s{i}")).collect();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |bound: usize| {
            crate::testing::xorshift_step(&mut seed);
            (seed % bound as u64) as usize
        };
        for _ in 0..2000 {
            let tables: Vec<Vec<(&str, usize)>> = (0..1 + next(4))
                .map(|_| {
                    let mut keys: Vec<(&str, usize)> = (0..next(12))
                        .map(|i| (names[i].as_str(), next(2)))
                        .collect();
                    keys.dedup();
                    if next(3) == 0 {
                        let (a, b) = (next(keys.len().max(1)), next(keys.len().max(1)));
                        if a < keys.len() && b < keys.len() {
                            keys.swap(a, b);
                        }
                    }
                    let mut seen = std::collections::HashSet::new();
                    keys.retain(|k| seen.insert(*k));
                    keys
                })
                .collect();
            let mut index = JoinIndex::default();
            let mut expected: HashMap<(&str, usize), usize> = HashMap::new();
            for keys in &tables {
                let mut cursor = 0;
                for key in keys {
                    let size = expected.len();
                    let want = *expected.entry(*key).or_insert(size);
                    let (got, new) = index.position(*key, cursor);
                    assert_eq!((got, new), (want, want == size), "{tables:?}");
                    cursor = got + 1;
                }
            }
        }
    }
}
