//! What a run found, independent of how it is shown: tallies of every
//! matched state and, when a machine-readable or gate output needs them,
//! per-state records, states present on one side only, and geomeans.

use std::collections::HashMap;
use std::sync::Arc;

use compact_str::CompactString;

use crate::deciding::decision::Comparison;
use crate::deciding::status::{Reason, ReasonCode, Status};
use crate::loading::model::AxisValue;
use crate::loading::scalar::Scalar;
use crate::text::printable::printable;

/// Occurrences of one reason, keeping its most severe instance.
#[derive(Debug, Clone)]
struct ReasonTally {
    key: &'static str,
    count: usize,
    most_severe: Reason,
}

impl ReasonTally {
    fn record(&mut self, reason: &Reason) {
        if reason.severity() > self.most_severe.severity() {
            self.most_severe = reason.clone();
        }
        self.count += 1;
    }
}

/// Insertion-ordered tallies keyed by code (the summary orders ties by first appearance).
#[derive(Debug, Clone, Default)]
struct ReasonTallies(Vec<ReasonTally>);

impl ReasonTallies {
    fn record(&mut self, key: &'static str, reason: &Reason) {
        match self.0.iter_mut().find(|t| t.key == key) {
            Some(tally) => tally.record(reason),
            None => self.0.push(ReasonTally {
                key,
                count: 1,
                most_severe: reason.clone(),
            }),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub total: usize,
    pub same: usize,
    pub fast: usize,
    pub slow: usize,
    pub undecided: usize,
    pub unknown: usize,
    undecided_reasons: ReasonTallies,
    legend: ReasonTallies,
}

impl Tally {
    pub fn record(&mut self, status: Status, reason: &Reason) {
        self.total += 1;
        self.legend.record(reason.code.display(), reason);
        match status {
            Status::Unknown => self.unknown += 1,
            Status::Undecided => {
                self.undecided += 1;
                self.undecided_reasons
                    .record(reason.code.canonical(), reason);
            }
            Status::Same => self.same += 1,
            Status::Fast => self.fast += 1,
            Status::Slow => self.slow += 1,
        }
    }

    /// `(code, count, message)` of undecided reasons, most frequent first
    /// (ties in order of first appearance).
    pub fn undecided_reasons(&self) -> Vec<(ReasonCode, usize, &str)> {
        let mut reasons: Vec<_> = self
            .undecided_reasons
            .0
            .iter()
            .map(|t| (t.most_severe.code, t.count, t.most_severe.message()))
            .collect();
        reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
        reasons
    }

    /// Explain-mode legend entries `short = canonical`, sorted by short code.
    pub fn legend_entries(&self) -> Vec<String> {
        let mut tallies: Vec<&ReasonTally> = self.legend.0.iter().collect();
        tallies.sort_by_key(|t| t.key);
        tallies
            .into_iter()
            .filter(|t| t.key != t.most_severe.code.canonical().replace('_', "-"))
            .map(|t| format!("{} = {}", t.key, t.most_severe.code.canonical()))
            .collect()
    }
}

/// One axis value of a state: its name, type and value as written in the
/// JSON, and its displayed form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisEntry<'a> {
    pub name: &'a str,
    pub value_type: Option<&'a Scalar>,
    pub value: Option<&'a Scalar>,
    pub display: &'a str,
}

/// A record's axis values: the parsed values, shared with the parsed state
/// rather than copied (the record outlives it), and their table cells.
#[derive(Debug, Clone)]
pub struct RecordAxes {
    values: Arc<[AxisValue]>,
    displays: AxisDisplays,
}

impl RecordAxes {
    /// `displays` holds a cell for each value.
    pub fn new(values: Arc<[AxisValue]>, displays: AxisDisplays) -> RecordAxes {
        debug_assert_eq!(values.len(), displays.cells().count());
        RecordAxes { values, displays }
    }

    /// The table cells, one for each value.
    pub fn displays(&self) -> AxisCells<'_> {
        self.displays.cells()
    }

    /// The values the state has, with their cells: the absent places of a
    /// row lined up with its benchmark's axes are cells only.
    pub fn iter(&self) -> impl Iterator<Item = AxisEntry<'_>> + Clone {
        self.values
            .iter()
            .zip(self.displays())
            .filter(|(value, _)| !value.is_absent())
            .map(|(value, display)| AxisEntry {
                name: &value.name,
                value_type: value.value_type.as_ref(),
                value: value.value.as_ref(),
                display,
            })
    }
}

/// The table cells of a record's axis values, in order.
#[derive(Debug, Clone)]
pub struct AxisDisplays(Box<[CompactString]>);

impl AxisDisplays {
    pub fn new(cells: Vec<CompactString>) -> AxisDisplays {
        AxisDisplays(cells.into_boxed_slice())
    }

    /// The cells, in order.
    pub fn cells(&self) -> AxisCells<'_> {
        AxisCells(&self.0)
    }
}

/// A record's table cells, in order (two words: a table row holds one).
#[derive(Debug, Clone, Copy)]
pub struct AxisCells<'a>(&'a [CompactString]);

impl<'a> Iterator for AxisCells<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first.as_str())
    }
}

/// A resolved sidecar path and its advertised value count.
/// A sidecar's resolved path and its advertised count (exact decimal digits).
pub type SidecarFile = Option<(String, String)>;

/// The four sidecars of a record, boxed only when one is there: 8 bytes
/// instead of 192 on every record of a summary-only comparison.
#[derive(Debug, Clone, Default)]
pub struct Sidecars(Option<Box<[SidecarFile; 4]>>);

impl Sidecars {
    pub fn new(files: [SidecarFile; 4]) -> Sidecars {
        Sidecars(files.iter().any(Option::is_some).then(|| Box::new(files)))
    }

    /// Reference samples, reference frequencies, compare samples, compare frequencies.
    pub fn files(&self) -> &[SidecarFile; 4] {
        const NONE: &[SidecarFile; 4] = &[None, None, None, None];
        self.0.as_deref().unwrap_or(NONE)
    }
}

/// What the records of a device pair share: the benchmark, the files and
/// the devices, in one allocation the records point to (8 bytes and one
/// reference count a record, instead of 96 bytes and five).
#[derive(Debug, PartialEq)]
pub struct PairNames {
    pub benchmark: String,
    pub reference_json: String,
    pub compare_json: String,
    pub devices: (i64, i64),
    /// Names of the reference and compare devices, when their sections name them.
    pub device_names: (Option<String>, Option<String>),
}

/// Everything known about one matched state after its decision.
#[derive(Debug, Clone)]
pub struct StateRecord {
    pub pair: Arc<PairNames>,
    pub state_key: CompactString,
    pub occurrence: u32,
    pub occurrence_count: u32,
    pub axis_values: RecordAxes,
    pub comparison: Comparison,
    /// Shown in the tables (after `--threshold-diff`).
    pub displayed: bool,
    pub sidecars: Sidecars,
    /// Repetition mode (`--vs`): the runs merged and Δ ± σ.
    pub repetitions: Option<Box<crate::deciding::repetitions::RepetitionStats>>,
}

impl Report {
    /// The states were merged from several runs a side (`--vs`), so the
    /// advice to collect repetitions is already followed.
    pub fn used_repetitions(&self) -> bool {
        self.records.iter().any(|r| {
            r.repetitions
                .as_ref()
                .is_some_and(|s| s.reference.reps() > 1 && s.compare.reps() > 1)
        })
    }
}

impl StateRecord {
    /// `compare center / reference center`, when both are usable.
    pub fn center_ratio(&self) -> Option<f64> {
        let c = &self.comparison;
        if c.status == Status::Unknown {
            return None;
        }
        let (r, m) = (c.ref_time()?, c.cmp_time()?);
        let ratio = m / r;
        (ratio.is_finite() && ratio > 0.0).then_some(ratio)
    }
}

impl ReasonCode {
    /// The decision rests on `--jsonbin` sample data.
    pub fn uses_bulk_evidence(self) -> bool {
        use ReasonCode::*;
        matches!(
            self,
            BulkCycleGapNotConfirmed
                | BulkCycleSame
                | BulkCycleSupportMismatch
                | BulkSame
                | BulkTimeSame
                | BulkTimeSameConfirmedBySummaryCycles
                | BulkTimeSameWithoutCycles
                | BulkTimeSupportMismatch
                | ClearGapConfirmedByBulkCycles
                | BulkCycleDataUnusable
                | BulkTimeDataUnusable
        )
    }
}

/// Which side has something the other lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Only in the compare input.
    New,
    /// Only in the reference input.
    Dropped,
}

impl Presence {
    pub fn label(self) -> &'static str {
        match self {
            Presence::New => "NEW",
            Presence::Dropped => "DROPPED",
        }
    }
}

/// What exists on one side only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissingKind {
    File,
    Benchmark,
    /// A state of a benchmark on a device pair, with its occurrence among
    /// the states of the same key.
    State {
        devices: (i64, i64),
        state_key: String,
        occurrence: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingItem {
    pub presence: Presence,
    /// The compare file for NEW items, the reference file for DROPPED ones.
    pub file: String,
    pub benchmark: Option<String>,
    pub kind: MissingKind,
}

impl MissingItem {
    /// One line of text: `NEW state bench [0 vs 0] Elements{io}=2^20 (cmp.json)`.
    pub fn describe(&self) -> String {
        printable(&self.describe_raw()).into_owned()
    }

    fn describe_raw(&self) -> String {
        let bench = self.benchmark.as_deref().unwrap_or("");
        match &self.kind {
            MissingKind::File => format!("{} file {}", self.presence.label(), self.file),
            MissingKind::Benchmark => format!(
                "{} benchmark {bench} ({})",
                self.presence.label(),
                self.file
            ),
            MissingKind::State {
                devices,
                state_key,
                occurrence,
            } => {
                let key = if state_key.is_empty() {
                    "(no axes)"
                } else {
                    state_key
                };
                let nth = if *occurrence > 0 {
                    format!(" #{}", occurrence + 1)
                } else {
                    String::new()
                };
                format!(
                    "{} state {bench} [{} vs {}] {key}{nth} ({})",
                    self.presence.label(),
                    devices.0,
                    devices.1,
                    self.file
                )
            }
        }
    }
}

/// The geometric mean of one benchmark's center ratios; directory mode
/// compares files whose benchmarks may share a name, so a benchmark is
/// keyed by its reference file too.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkGeomean {
    pub reference_json: String,
    pub benchmark: String,
    pub ratio: f64,
}

/// The geometric mean of the center ratios of the states that are not
/// `????`, overall and per benchmark and reference file, in order of first
/// appearance.
pub fn geomeans(records: &[StateRecord]) -> (Option<f64>, Vec<BenchmarkGeomean>) {
    let mut overall = LogSum::default();
    let mut per_benchmark: Vec<(&PairNames, LogSum)> = Vec::new();
    // Where each benchmark's sum is: a search of the list per record
    // would be quadratic in the number of benchmarks.
    let mut position: HashMap<(&str, &str), usize> = HashMap::new();
    for record in records {
        let Some(ratio) = record.center_ratio() else {
            continue;
        };
        let log = ratio.ln();
        overall.add(log);
        let pair = record.pair.as_ref();
        let key = (pair.reference_json.as_str(), pair.benchmark.as_str());
        let index = *position.entry(key).or_insert_with(|| {
            per_benchmark.push((pair, LogSum::default()));
            per_benchmark.len() - 1
        });
        per_benchmark[index].1.add(log);
    }
    (
        overall.mean(),
        per_benchmark
            .into_iter()
            .filter_map(|(pair, sum)| {
                Some(BenchmarkGeomean {
                    reference_json: pair.reference_json.clone(),
                    benchmark: pair.benchmark.clone(),
                    ratio: sum.mean()?,
                })
            })
            .collect(),
    )
}

/// A sum of logs and their count: the geometric mean of the values.
#[derive(Debug, Clone, Copy, Default)]
struct LogSum {
    sum: f64,
    count: usize,
}

impl LogSum {
    fn add(&mut self, log: f64) {
        self.sum += log;
        self.count += 1;
    }

    fn mean(self) -> Option<f64> {
        (self.count > 0).then(|| (self.sum / self.count as f64).exp())
    }
}

/// The findings of a whole run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub tally: Tally,
    /// Every matched state, when an output needs per-state records.
    pub records: Vec<StateRecord>,
    pub missing: Vec<MissingItem>,
}

impl Report {
    /// Files of one directory without a namesake in the other.
    pub fn add_missing_files(&mut self, only_reference: Vec<String>, only_compare: Vec<String>) {
        let files = only_reference
            .into_iter()
            .map(|f| (Presence::Dropped, f))
            .chain(only_compare.into_iter().map(|f| (Presence::New, f)));
        for (presence, file) in files {
            self.missing.push(MissingItem {
                presence,
                file,
                benchmark: None,
                kind: MissingKind::File,
            });
        }
    }

    /// A benchmark of one input that the other lacks.
    pub fn add_missing_benchmark(&mut self, presence: Presence, file: &str, name: &str) {
        self.missing.push(MissingItem {
            presence,
            file: file.to_string(),
            benchmark: Some(name.to_string()),
            kind: MissingKind::Benchmark,
        });
    }

    /// States `(key, occurrence)` of one device pair present on one side
    /// only: `dropped` from the reference file, `new` in the compare file.
    pub fn add_missing_states<'k>(
        &mut self,
        (bench, devices): (&str, (i64, i64)),
        (ref_path, dropped): (&str, impl IntoIterator<Item = (&'k str, usize)>),
        (cmp_path, new): (&str, impl IntoIterator<Item = (&'k str, usize)>),
    ) {
        let sides = dropped
            .into_iter()
            .map(|item| (Presence::Dropped, ref_path, item))
            .chain(new.into_iter().map(|item| (Presence::New, cmp_path, item)));
        for (presence, file, (state_key, occurrence)) in sides {
            self.missing.push(MissingItem {
                presence,
                file: file.to_string(),
                benchmark: Some(bench.to_string()),
                kind: MissingKind::State {
                    devices,
                    state_key: state_key.to_string(),
                    occurrence,
                },
            });
        }
    }

    pub fn count_missing(&self, presence: Presence) -> usize {
        self.missing
            .iter()
            .filter(|m| m.presence == presence)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record is held for every matched state until the outputs are written.
    #[test]
    fn records_are_small() {
        assert_eq!(std::mem::size_of::<StateRecord>(), 232);
    }

    #[test]
    fn rows_hold_two_words_of_cells() {
        assert_eq!(std::mem::size_of::<AxisCells>(), 16);
    }

    /// A record of `benchmark` whose compare center is `ratio` times the
    /// reference's.
    fn record(benchmark: &Arc<PairNames>, ratio: f64) -> StateRecord {
        use crate::deciding::decision::{Decision, SideNumbers};
        let side = |time: f64| SideNumbers {
            interval: None,
            time: Some(time),
            noise: None,
        };
        let decision = Decision {
            status: Status::Same,
            reason: Reason::new(ReasonCode::NoClearGap, ""),
        };
        StateRecord {
            pair: Arc::clone(benchmark),
            state_key: CompactString::default(),
            occurrence: 0,
            occurrence_count: 1,
            axis_values: RecordAxes::new(Arc::from([]), AxisDisplays::new(Vec::new())),
            comparison: Comparison::new(side(1.0), side(ratio), decision),
            displayed: true,
            sidecars: Sidecars::default(),
            repetitions: None,
        }
    }

    fn benchmark(name: String) -> Arc<PairNames> {
        Arc::new(PairNames {
            benchmark: name,
            reference_json: String::new(),
            compare_json: String::new(),
            devices: (0, 0),
            device_names: (None, None),
        })
    }

    #[test]
    fn geomeans_per_benchmark_in_order_of_first_appearance() {
        let (a, b) = (benchmark("a".into()), benchmark("b".into()));
        let records = [
            record(&b, 2.0),
            record(&a, 1.0),
            record(&b, 8.0),
            record(&a, 4.0),
        ];
        let (overall, per_benchmark) = geomeans(&records);
        assert!((overall.unwrap() - 64f64.powf(0.25)).abs() < 1e-12);
        let names: Vec<&str> = per_benchmark.iter().map(|g| g.benchmark.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        assert!((per_benchmark[0].ratio - 4.0).abs() < 1e-12);
        assert!((per_benchmark[1].ratio - 2.0).abs() < 1e-12);
    }

    /// Directory mode: one benchmark name in two files is two benchmarks.
    #[test]
    fn geomeans_keep_the_files_of_one_benchmark_name_apart() {
        let in_file = |file: &str| {
            Arc::new(PairNames {
                benchmark: "base".to_string(),
                reference_json: file.to_string(),
                compare_json: String::new(),
                devices: (0, 0),
                device_names: (None, None),
            })
        };
        let (x, y) = (in_file("a/x.json"), in_file("a/y.json"));
        let records = [record(&x, 2.0), record(&y, 0.5), record(&x, 8.0)];
        let (overall, per_benchmark) = geomeans(&records);
        assert!((overall.unwrap() - 2.0).abs() < 1e-12);
        let files: Vec<(&str, f64)> = per_benchmark
            .iter()
            .map(|g| (g.reference_json.as_str(), g.ratio))
            .collect();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].0, "a/x.json");
        assert!((files[0].1 - 4.0).abs() < 1e-12);
        assert!((files[1].1 - 0.5).abs() < 1e-12);
    }

    /// Records of many benchmarks take about as long as as many records of
    /// one: a search of the benchmarks seen per record (quadratic) took
    /// hundreds of times as long at this size.
    #[test]
    fn geomeans_of_many_benchmarks_take_linear_time() {
        const RECORDS: usize = 20_000;
        let one = benchmark("one".into());
        let together: Vec<StateRecord> = (0..RECORDS).map(|_| record(&one, 1.5)).collect();
        let spread: Vec<StateRecord> = (0..RECORDS)
            .map(|i| record(&benchmark(format!("benchmark_{i}")), 1.5))
            .collect();
        let fastest = |records: &[StateRecord], benchmarks: usize| {
            crate::testing::fastest_of_three(|| {
                assert_eq!(geomeans(records).1.len(), benchmarks);
            })
        };
        let (spread, together) = (fastest(&spread, RECORDS), fastest(&together, 1));
        assert!(
            spread < together * 20,
            "{RECORDS} benchmarks: {spread:?}; one benchmark: {together:?}"
        );
    }

    #[test]
    fn the_most_severe_message_of_a_reason_is_kept() {
        let code = ReasonCode::BulkTimeSupportMismatch;
        let mut tally = Tally::default();
        for (message, severity) in [
            ("first", 0.2),
            ("worst", 0.7),
            ("later", 0.5),
            ("nan", f64::NAN),
        ] {
            tally.record(
                Status::Undecided,
                &Reason::with_severity(code, message, severity),
            );
        }
        tally.record(
            Status::Undecided,
            &Reason::new(ReasonCode::NoClearGap, "no gap"),
        );
        assert_eq!(
            tally.undecided_reasons(),
            [(code, 4, "worst"), (ReasonCode::NoClearGap, 1, "no gap")]
        );
    }
}
