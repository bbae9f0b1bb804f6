//! `--display gbench`: exactly what google/benchmark's `tools/compare.py
//! benchmarks A.json B.json` prints (its `gbench/report.py` at 267a1115),
//! colours and surprises included (`../shared/conformance/REFERENCE-NOTES.md`,
//! compare.py part): entries sorted by family and instance, matched by
//! their exact `name`, contender entries in another time unit dropped, a
//! row per repetition pair, the U test of each name, `OVERALL_GEOMEAN`.
//! Decides nothing; the statistics are SciPy's (`pycompat::scipy_stats`).

use std::collections::HashMap;
use std::fmt::Write;

use crate::loading::gbench::{Entry, GbenchFile, unit_seconds};
use crate::loading::scalar::Scalar;
use crate::pycompat::pyfmt::{format_f, format_f_signed};
use crate::pycompat::scipy_stats::{gmean, mannwhitneyu_two_sided};
use crate::text::printable::printable;

/// compare.py's options that change what it prints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// `-a`/`--display_aggregates_only`.
    pub aggregates_only: bool,
    /// The U test rows (`--no-utest` turns them off).
    pub utest: bool,
    /// `--alpha`: the p-value below which a p is green.
    pub alpha: f64,
    pub color: bool,
}

const UTEST_MIN_REPETITIONS: usize = 2;
const UTEST_OPTIMAL_REPETITIONS: usize = 9;
const UTEST_COL_NAME: &str = "_pvalue";

const HEADER: &str = "\x1b[92m";
const FAIL: &str = "\x1b[91m";
const WHITE: &str = "\x1b[97m";
const CYAN: &str = "\x1b[96m";
const OKGREEN: &str = "\x1b[32m";
const WARNING: &str = "\x1b[93m";
const ENDC: &str = "\x1b[0m";

/// One row pair: the old and new times and their changes.
struct Measurement {
    real: f64,
    cpu: f64,
    real_other: f64,
    cpu_other: f64,
    time: f64,
    cpu_change: f64,
}

struct UTest {
    optimal: bool,
    time_p: f64,
    cpu_p: f64,
    repetitions: usize,
    repetitions_other: usize,
}

struct ReportEntry {
    name: String,
    measurements: Vec<Measurement>,
    aggregate: bool,
    utest: Option<UTest>,
}

/// `calculate_change`: relative to `|old|`; from zero, relative to the mean.
fn calculate_change(old: f64, new: f64) -> f64 {
    if old == 0.0 && new == 0.0 {
        return 0.0;
    }
    if old == 0.0 {
        return (new - old) / ((old + new) / 2.0);
    }
    (new - old) / old.abs()
}

/// A sort key field: the number, or -1 when absent (compare.py's lambdas).
fn key(value: &Option<Scalar>) -> f64 {
    value
        .as_ref()
        .and_then(|v| v.py_float().ok().flatten())
        .unwrap_or(-1.0)
}

/// `sort_benchmark_results`: stable, by family, instance, aggregates last,
/// repetition.
fn sorted(file: &GbenchFile) -> Vec<&Entry> {
    let mut keyed: Vec<([f64; 4], &Entry)> = file
        .entries
        .iter()
        .map(|e| {
            let k = [
                key(&e.family_index),
                key(&e.per_family_instance_index),
                f64::from(u8::from(e.is_aggregate())),
                key(&e.repetition_index),
            ];
            (k, e)
        })
        .collect();
    // Stable, as Python's sorts are.
    keyed.sort_by(|(a, _), (b, _)| {
        a.iter()
            .zip(b)
            .map(|(x, y)| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    keyed.into_iter().map(|(_, e)| e).collect()
}

/// Entries by name, each list in file order, and the names in order of
/// first appearance.
fn by_name<'a>(entries: &[&'a Entry]) -> (Vec<&'a str>, HashMap<&'a str, Vec<&'a Entry>>) {
    let mut order = Vec::new();
    let mut groups: HashMap<&str, Vec<&Entry>> = HashMap::new();
    for entry in entries {
        let group = groups.entry(entry.name()).or_insert_with(|| {
            order.push(entry.name());
            Vec::new()
        });
        group.push(entry);
    }
    (order, groups)
}

/// `is_potentially_comparable_benchmark`: the three keys are there.
fn comparable(entry: &Entry) -> bool {
    entry.time_unit.is_some() && entry.real_time.is_some() && entry.cpu_time.is_some()
}

fn number(value: &Option<Scalar>) -> f64 {
    value
        .as_ref()
        .and_then(|v| v.py_float().ok().flatten())
        .unwrap_or(f64::NAN)
}

/// `calculate_geomean`: the geometric means, in seconds, of every
/// non-aggregate entry's real and CPU time; `None` without entries. Fails
/// where compare.py dies: an entry without times (a BigO entry of a file
/// without `run_type`), or a unit it does not know.
fn geomean(file: &GbenchFile, path: &str) -> Result<Option<[f64; 2]>, String> {
    let mut times = Vec::new();
    for entry in file.entries.iter().filter(|e| !e.is_aggregate()) {
        let unit = entry.unit().unwrap_or("s");
        let (Some(seconds), true) = (
            unit_seconds(unit),
            entry.real_time.is_some() && entry.cpu_time.is_some(),
        ) else {
            return Err(format!(
                "{path}: the entry {} has no times in a known unit (a BigO/RMS entry of a library before v1.5?), which compare.py cannot report",
                crate::pycompat::pyfmt::str_repr(entry.name())
            ));
        };
        times.push([
            number(&entry.real_time) * seconds,
            number(&entry.cpu_time) * seconds,
        ]);
    }
    if times.is_empty() {
        return Ok(None);
    }
    Ok(Some([
        gmean(times.iter().map(|t| t[0])),
        gmean(times.iter().map(|t| t[1])),
    ]))
}

/// `get_difference_report`.
fn difference_report(
    (lhs_file, rhs_file): (&GbenchFile, &GbenchFile),
    (lhs_path, rhs_path): (&str, &str),
    utest: bool,
) -> Result<Vec<ReportEntry>, String> {
    let (lhs, rhs) = (sorted(lhs_file), sorted(rhs_file));
    let (lhs_names, lhs_groups) = by_name(&lhs);
    let (_, rhs_groups) = by_name(&rhs);
    let mut report = Vec::new();
    for name in lhs_names.iter().filter(|n| rhs_groups.contains_key(*n)) {
        let lhs_all = &lhs_groups[name];
        let Some(unit) = lhs_all.iter().find(|e| comparable(e)).map(|e| &e.time_unit) else {
            continue;
        };
        let in_unit = |e: &&&Entry| e.time_unit == *unit;
        let lhs_part: Vec<&Entry> = lhs_all.iter().filter(in_unit).copied().collect();
        let rhs_part: Vec<&Entry> = rhs_groups[name].iter().filter(in_unit).copied().collect();
        let measurements: Vec<Measurement> = lhs_part
            .iter()
            .zip(&rhs_part)
            .map(|(old, new)| {
                let (real, cpu) = (number(&old.real_time), number(&old.cpu_time));
                let (real_other, cpu_other) = (number(&new.real_time), number(&new.cpu_time));
                Measurement {
                    real,
                    cpu,
                    real_other,
                    cpu_other,
                    time: calculate_change(real, real_other),
                    cpu_change: calculate_change(cpu, cpu_other),
                }
            })
            .collect();
        let min = lhs_part.len().min(rhs_part.len());
        let utest = (utest && min >= UTEST_MIN_REPETITIONS).then(|| {
            let times = |part: &[&Entry], cpu: bool| -> Vec<f64> {
                part.iter()
                    .map(|e| number(if cpu { &e.cpu_time } else { &e.real_time }))
                    .collect()
            };
            let p = |cpu| {
                mannwhitneyu_two_sided(&times(&lhs_part, cpu), &times(&rhs_part, cpu))
                    .unwrap_or(f64::NAN)
            };
            UTest {
                optimal: min >= UTEST_OPTIMAL_REPETITIONS,
                time_p: p(false),
                cpu_p: p(true),
                repetitions: lhs_part.len(),
                repetitions_other: rhs_part.len(),
            }
        });
        if !measurements.is_empty() {
            report.push(ReportEntry {
                // compare.py prints names raw; a name's control characters
                // could drive the terminal or forge lines, as elsewhere.
                name: printable(name).into_owned(),
                measurements,
                aggregate: lhs_part[0].is_aggregate(),
                utest,
            });
        }
    }
    let lhs_mean = geomean(lhs_file, lhs_path)?;
    let rhs_mean = geomean(rhs_file, rhs_path)?;
    // `array.any()`: a mean that is not 0 (NaN included).
    let any = |m: &Option<[f64; 2]>| m.is_some_and(|m| m.iter().any(|v| *v != 0.0));
    if let (true, true, Some(l), Some(r)) = (any(&lhs_mean), any(&rhs_mean), lhs_mean, rhs_mean) {
        report.push(ReportEntry {
            name: "OVERALL_GEOMEAN".into(),
            measurements: vec![Measurement {
                real: l[0],
                cpu: l[1],
                real_other: r[0],
                cpu_other: r[1],
                time: calculate_change(l[0], r[0]),
                cpu_change: calculate_change(l[1], r[1]),
            }],
            aggregate: true,
            utest: None,
        });
    }
    Ok(report)
}

fn change_color(change: f64) -> &'static str {
    if change > 0.05 {
        FAIL
    } else if change > -0.07 {
        WHITE
    } else {
        CYAN
    }
}

/// Python `format(x, "<width>.0f")`, right-aligned.
fn whole(x: f64) -> String {
    format!("{:>14}", format_f(x, 0))
}

/// `print_difference_report`'s lines.
fn print_report(report: &[ReportEntry], o: CompareOptions) -> Vec<String> {
    let code = |c: &'static str| if o.color { c } else { "" };
    let endc = code(ENDC);
    let longest = report
        .iter()
        .map(|r| r.name.chars().count())
        .fold(1, usize::max);
    let width = longest.max("Benchmark".len()) + UTEST_COL_NAME.len();
    let first_line = format!(
        "{:<w$}Time             CPU      Time Old      Time New       CPU Old       CPU New",
        "Benchmark",
        w = 12 + width
    );
    let mut lines = vec![first_line.clone(), "-".repeat(first_line.chars().count())];
    for entry in report {
        if !o.aggregates_only || entry.aggregate {
            for m in &entry.measurements {
                let mut line = String::new();
                let _ = write!(
                    line,
                    "{}{:<width$}{endc}{}{:>16}{endc}{}{:>16}{endc}{}{}{endc}{}{}",
                    code(HEADER),
                    entry.name,
                    code(change_color(m.time)),
                    format_f_signed(m.time, 4),
                    code(change_color(m.cpu_change)),
                    format_f_signed(m.cpu_change, 4),
                    whole(m.real),
                    whole(m.real_other),
                    whole(m.cpu),
                    whole(m.cpu_other),
                );
                lines.push(line);
            }
        }
        if let Some(u) = entry.utest.as_ref().filter(|_| o.utest) {
            let p_color = |p: f64| code(if p >= o.alpha { FAIL } else { OKGREEN });
            let mut description = format!(
                "U Test, Repetitions: {} vs {}",
                u.repetitions, u.repetitions_other
            );
            let mut description_color = OKGREEN;
            if !u.optimal {
                description_color = WARNING;
                let _ = write!(
                    description,
                    ". WARNING: Results unreliable! {UTEST_OPTIMAL_REPETITIONS}+ repetitions recommended."
                );
            }
            lines.push(format!(
                "{}{:<width$}{endc}{}{:>16}{endc}{}{:>16}{endc}{}      {}",
                code(HEADER),
                format!("{}{UTEST_COL_NAME}", entry.name),
                p_color(u.time_p),
                format_f(u.time_p, 4),
                p_color(u.cpu_p),
                format_f(u.cpu_p, 4),
                code(description_color),
                description
            ));
        }
    }
    lines
}

/// compare.py's whole output for two files named as given; `Err` where
/// compare.py dies with a traceback (the message says why).
pub fn render_compare_py(
    (lhs_path, rhs_path): (&str, &str),
    (lhs, rhs): (&GbenchFile, &GbenchFile),
    o: CompareOptions,
) -> Result<String, String> {
    let report = difference_report((lhs, rhs), (lhs_path, rhs_path), o.utest)?;
    let mut text = format!(
        "Comparing {} to {}\n",
        printable(lhs_path),
        printable(rhs_path)
    );
    for line in print_report(&report, o) {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_from_zero_and_to_zero() {
        assert_eq!(calculate_change(0.0, 0.0), 0.0);
        assert_eq!(calculate_change(0.0, 5.0), 2.0);
        assert_eq!(calculate_change(5.0, 0.0), -1.0);
        assert_eq!(calculate_change(-2.0, -1.0), 0.5);
        assert!(calculate_change(f64::NAN, 1.0).is_nan());
    }

    #[test]
    fn colours_of_changes() {
        assert_eq!(change_color(0.0501), FAIL);
        assert_eq!(change_color(0.05), WHITE);
        assert_eq!(change_color(-0.0699), WHITE);
        assert_eq!(change_color(-0.07), CYAN);
        assert_eq!(change_color(f64::NAN), CYAN);
    }
}
