//! Why a run compared no state at all: what the inputs offered (gathered
//! only for input pairs that compared nothing, or when `-b`/`-a` filters
//! were given, so normal runs pay nothing) and a pure explanation naming the
//! filter, file set or state set at fault. A run that did compare states
//! still hears about each `-b` name, `-a` axis or value that matched nothing.

use std::collections::{HashMap, HashSet};

use crate::loading::model::{Benchmark, Root};
use crate::loading::scalar::Scalar;
use crate::matching::filters::{AxisFilter, FilterPlan, matches_any_group};
use crate::suggest::{close_names, did_you_mean};
use crate::text::printable::printable;

/// Names listed when no close name exists: enough to see what is there.
const LISTED_NAMES: usize = 8;

/// The axes of the states of one benchmark: names and the values each has,
/// as the filters compare them (the JSON value's string), first seen first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AxisOffer {
    pub axes: Vec<(String, Vec<String>)>,
    /// `(axis, value)` pairs already listed: large files have many states.
    seen: HashSet<(String, String)>,
    /// Position of each axis in `axes`: a state may have many axes.
    positions: HashMap<String, usize>,
}

impl AxisOffer {
    #[cfg(test)]
    pub fn of(axes: &[(&str, &[&str])]) -> Self {
        let mut offer = AxisOffer::default();
        for (name, values) in axes {
            for value in *values {
                offer.add(name, value.to_string());
            }
        }
        offer
    }

    fn add(&mut self, name: &str, value: String) {
        if !self.seen.insert((name.to_string(), value.clone())) {
            return;
        }
        let index = match self.positions.get(name) {
            Some(index) => *index,
            None => {
                self.positions.insert(name.to_string(), self.axes.len());
                self.axes.push((name.to_string(), Vec::new()));
                self.axes.len() - 1
            }
        };
        self.axes[index].1.push(value);
    }

    fn values_of(&self, name: &str) -> Option<&[String]> {
        let index = *self.positions.get(name)?;
        Some(self.axes[index].1.as_slice())
    }
}

/// What one input pair that compared nothing offered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairOffer {
    pub reference_benchmarks: Vec<String>,
    pub compare_benchmarks: Vec<String>,
    /// Benchmarks on both sides that `-b` selects.
    pub selected: Vec<String>,
    /// States of the selected benchmarks (both sides), before and after the
    /// axis filters.
    pub states: usize,
    pub filtered_states: usize,
    /// Axis names and values of the selected benchmarks' states.
    pub axes: AxisOffer,
}

/// Everything known about a run that compared nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offer {
    /// Directory mode without a pair of same-named files: the non-empty
    /// `.json` files of each directory.
    pub unpaired_directories: Option<(Vec<String>, Vec<String>)>,
    pub pairs: Vec<PairOffer>,
    /// States on one side only, when they were listed (`--report-missing`).
    pub one_sided_states: usize,
}

fn benchmark_names(root: &Root) -> Vec<String> {
    root.benchmarks
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|b| b.name.clone())
        .collect()
}

fn add_states(offer: &mut PairOffer, bench: &Benchmark, filters: &FilterPlan) {
    let groups = filters.axis_filter_groups(&bench.name);
    for state in bench.states() {
        offer.states += 1;
        offer.filtered_states += usize::from(matches_any_group(state, &groups));
        for axis_value in state.axis_values() {
            if let Some(value) = axis_value.value.as_ref().filter(|v| **v != Scalar::Null) {
                offer.axes.add(&axis_value.name, value.py_str());
            }
        }
    }
}

/// What an input pair offered, for the explanation.
pub fn pair_offer(reference: &Root, compare: &Root, filters: &FilterPlan) -> PairOffer {
    let mut offer = PairOffer {
        reference_benchmarks: benchmark_names(reference),
        compare_benchmarks: benchmark_names(compare),
        ..PairOffer::default()
    };
    let in_reference: HashSet<&str> = offer
        .reference_benchmarks
        .iter()
        .map(String::as_str)
        .collect();
    let both = compare
        .benchmarks
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .filter(|b| in_reference.contains(b.name.as_str()) && filters.selects_benchmark(&b.name));
    let both: Vec<&Benchmark> = both.collect();
    offer.selected = both.iter().map(|b| b.name.clone()).collect();
    let reference_selected = reference
        .benchmarks
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .filter(|b| offer.selected.contains(&b.name));
    let selected: Vec<&Benchmark> = both.into_iter().chain(reference_selected).collect();
    for bench in selected {
        add_states(&mut offer, bench, filters);
    }
    offer
}

fn quoted_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names
        .into_iter()
        .map(|n| format!("'{}'", printable(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first few names quoted, `none` when there are none.
fn listed<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    if names.len() == 0 {
        return "none".to_string();
    }
    let more = if names.len() > LISTED_NAMES {
        ", ..."
    } else {
        ""
    };
    format!("{}{more}", quoted_list(names.take(LISTED_NAMES)))
}

/// `; close names: 'a', 'b'`, or the first few names when none is close.
fn hint_names(name: &str, names: &[&str]) -> String {
    let close = close_names(name, names.iter().copied());
    if !close.is_empty() {
        return format!(" (close names: {})", quoted_list(close));
    }
    if names.is_empty() {
        return " (the inputs have no benchmark)".to_string();
    }
    format!(" (the inputs have {})", listed(names.iter().copied()))
}

fn unique<'a>(names: impl IntoIterator<Item = &'a String>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for name in names {
        if !seen.contains(&name.as_str()) {
            seen.push(name.as_str());
        }
    }
    seen
}

fn directory_reason(reference: &[String], compare: &[String]) -> String {
    if reference.is_empty() && compare.is_empty() {
        return "both directories are empty (no non-empty .json file in either)".to_string();
    }
    format!(
        "the directories have no .json file in common (reference: {}; compare: {})",
        listed(reference.iter().map(String::as_str)),
        listed(compare.iter().map(String::as_str))
    )
}

/// `-b` names that no input has.
fn benchmark_filter_reasons(offer: &Offer, filters: &FilterPlan) -> Vec<String> {
    let all = unique(
        offer
            .pairs
            .iter()
            .flat_map(|p| p.reference_benchmarks.iter().chain(&p.compare_benchmarks)),
    );
    let mut reasons = Vec::new();
    for scope in &filters.scopes {
        let name = &scope.benchmark;
        if !all.contains(&name.as_str()) && !reasons.iter().any(|(n, _)| n == name) {
            let reason = format!(
                "-b '{}' matched no benchmark{}",
                printable(name),
                hint_names(name, &all)
            );
            reasons.push((name.clone(), reason));
        }
    }
    reasons.into_iter().map(|(_, reason)| reason).collect()
}

/// Why one `-a` filter matched no state of the selected benchmarks, if it did not.
fn axis_filter_reason(filter: &AxisFilter, axes: &AxisOffer) -> Option<String> {
    let shown = printable(&filter.display);
    let Some(values) = axes.values_of(&filter.name) else {
        let names: Vec<&str> = axes.axes.iter().map(|(n, _)| n.as_str()).collect();
        let close = close_names(&filter.name, names.iter().copied());
        let hint = if !close.is_empty() {
            format!("close names: {}", quoted_list(close))
        } else if names.is_empty() {
            "the states have no axes".to_string()
        } else {
            format!("the axes are {}", listed(names.iter().copied()))
        };
        return Some(format!(
            "-a {shown} matched nothing: no axis is named '{}' ({hint})",
            printable(&filter.name)
        ));
    };
    if filter.values.iter().any(|v| values.contains(v)) {
        return None;
    }
    let more = if values.len() > LISTED_NAMES {
        ", ..."
    } else {
        ""
    };
    Some(format!(
        "-a {shown} matched nothing: axis '{}' has the values {}{more}{}",
        printable(&filter.name),
        quoted_list(values.iter().take(LISTED_NAMES).map(String::as_str)),
        pow2_hint(filter, values)
    ))
}

/// A filter value written as the table prints a pow2 value (`2^20`) matches
/// nothing: the JSON holds 1048576, and `NAME[pow2]=20` means 2^20.
fn pow2_hint(filter: &AxisFilter, values: &[String]) -> String {
    let exponents: Vec<u32> = filter
        .values
        .iter()
        .filter_map(|v| v.strip_prefix("2^")?.parse().ok())
        .filter(|e| *e < 63)
        .collect();
    let offered = |e: &u32| values.contains(&(1u64 << e).to_string());
    if exponents.is_empty() || !exponents.iter().any(offered) {
        return String::new();
    }
    let list = exponents.iter().map(u32::to_string).collect::<Vec<_>>();
    let value = match list.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(",")),
    };
    format!(
        "; the table's 2^N is the exponent filter -a '{}[pow2]={value}'",
        printable(&filter.name)
    )
}

/// The axis filters that matched nothing, or a note that they only fail together.
fn axis_filter_reasons(offer: &Offer, filters: &FilterPlan) -> Vec<String> {
    let axes = merged_axes(offer);
    let mut reasons: Vec<String> = Vec::new();
    for filter in all_axis_filters(filters) {
        if let Some(reason) = axis_filter_reason(filter, &axes)
            && !reasons.contains(&reason)
        {
            reasons.push(reason);
        }
    }
    if reasons.is_empty() {
        reasons.push("no state matches all of its -a filters at once".to_string());
    }
    reasons
}

/// The `-b` names, `-a` axes and `-a` values that matched nothing in a run
/// that compared states all the same, one warning each, with close names.
pub fn unmatched_filters(offer: &Offer, filters: &FilterPlan) -> Vec<String> {
    let mut warnings = benchmark_filter_reasons(offer, filters);
    let axes = merged_axes(offer);
    for filter in all_axis_filters(filters) {
        let warning = axis_filter_reason(filter, &axes).or_else(|| missing_values(filter, &axes));
        if let Some(warning) = warning.filter(|w| !warnings.contains(w)) {
            warnings.push(warning);
        }
    }
    warnings
}

/// The values of a list filter (`NAME=[a,b]`) that no state has, when
/// others match.
fn missing_values(filter: &AxisFilter, axes: &AxisOffer) -> Option<String> {
    let values = axes.values_of(&filter.name)?;
    let missing: Vec<&str> = filter
        .values
        .iter()
        .map(String::as_str)
        .filter(|v| !values.iter().any(|have| have == v))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let hints: Vec<String> = missing
        .iter()
        .map(|value| {
            let close = close_names(value, values.iter().map(String::as_str));
            match did_you_mean(&close) {
                Some(hint) => format!("'{}' ({hint})", printable(value)),
                None => format!("'{}'", printable(value)),
            }
        })
        .collect();
    Some(format!(
        "-a {}: axis '{}' has no value {}",
        printable(&filter.display),
        printable(&filter.name),
        hints.join(", ")
    ))
}

fn merged_axes(offer: &Offer) -> AxisOffer {
    let mut axes = AxisOffer::default();
    for pair in &offer.pairs {
        for (name, values) in &pair.axes.axes {
            for value in values {
                axes.add(name, value.clone());
            }
        }
    }
    axes
}

fn all_axis_filters(filters: &FilterPlan) -> impl Iterator<Item = &AxisFilter> {
    filters
        .global_axis_filters
        .iter()
        .chain(filters.scopes.iter().flat_map(|s| &s.axis_filters))
}

/// Why nothing was compared, as one line (reasons separated by `; `).
pub fn explain(offer: &Offer, filters: &FilterPlan) -> String {
    if let Some((reference, compare)) = &offer.unpaired_directories {
        return directory_reason(reference, compare);
    }
    let mut reasons = benchmark_filter_reasons(offer, filters);
    let selected = offer.pairs.iter().any(|p| !p.selected.is_empty());
    let states: usize = offer.pairs.iter().map(|p| p.states).sum();
    let filtered: usize = offer.pairs.iter().map(|p| p.filtered_states).sum();
    if !selected && !reasons.is_empty() {
        // The mistyped -b explains it; listing the benchmarks would repeat it.
    } else if !selected {
        let reference = unique(offer.pairs.iter().flat_map(|p| &p.reference_benchmarks));
        let compare = unique(offer.pairs.iter().flat_map(|p| &p.compare_benchmarks));
        reasons.push(format!(
            "no selected benchmark is in both inputs (reference: {}; compare: {})",
            listed(reference.iter().copied()),
            listed(compare.iter().copied())
        ));
    } else if states == 0 {
        reasons.push("the selected benchmarks have no states".to_string());
    } else if filtered == 0 {
        reasons.extend(axis_filter_reasons(offer, filters));
    } else if offer.one_sided_states > 0 {
        reasons.push(format!(
            "no state is in both inputs ({} state(s) on one side only, listed as NEW / DROPPED)",
            offer.one_sided_states
        ));
    } else {
        reasons.push(
            "no state of the selected benchmarks is in both inputs on the selected devices"
                .to_string(),
        );
    }
    reasons.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::filters::{FilterArg, build_filter_plan};

    fn plan(args: &[FilterArg]) -> FilterPlan {
        build_filter_plan(args).unwrap()
    }

    fn pair(names: &[&str], axes: &[(&str, &[&str])], states: usize, filtered: usize) -> PairOffer {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        PairOffer {
            reference_benchmarks: names.clone(),
            compare_benchmarks: names.clone(),
            selected: names,
            states,
            filtered_states: filtered,
            axes: AxisOffer::of(axes),
        }
    }

    #[test]
    fn directories() {
        let empty = Offer {
            unpaired_directories: Some((vec![], vec![])),
            ..Offer::default()
        };
        assert_eq!(
            explain(&empty, &FilterPlan::default()),
            "both directories are empty (no non-empty .json file in either)"
        );
        let disjoint = Offer {
            unpaired_directories: Some((vec!["a/x.json".into()], vec![])),
            ..Offer::default()
        };
        assert_eq!(
            explain(&disjoint, &FilterPlan::default()),
            "the directories have no .json file in common (reference: 'a/x.json'; compare: none)"
        );
    }

    #[test]
    fn mistyped_benchmark_names_close_names() {
        // -b selects neither benchmark.
        let mut unselected = pair(&["copy_sweep", "reduce"], &[], 0, 0);
        unselected.selected.clear();
        let offer = Offer {
            pairs: vec![unselected],
            ..Offer::default()
        };
        let filters = plan(&[FilterArg::Benchmark("copy_swep".into())]);
        assert_eq!(
            explain(&offer, &filters),
            "-b 'copy_swep' matched no benchmark (close names: 'copy_sweep')"
        );
        let far = plan(&[FilterArg::Benchmark("zzzzzzzzzz".into())]);
        assert_eq!(
            explain(&offer, &far),
            "-b 'zzzzzzzzzz' matched no benchmark (the inputs have 'copy_sweep', 'reduce')"
        );
    }

    #[test]
    fn a_mistyped_benchmark_and_a_filtered_one_are_both_explained() {
        let offer = Offer {
            pairs: vec![pair(&["b"], &[("T", &["F32"])], 2, 0)],
            ..Offer::default()
        };
        let filters = plan(&[
            FilterArg::Benchmark("b".into()),
            FilterArg::Axis("T=I8".into()),
            FilterArg::Benchmark("c".into()),
        ]);
        assert_eq!(
            explain(&offer, &filters),
            "-b 'c' matched no benchmark (close names: 'b'); -a T=I8 matched nothing: axis 'T' has the values 'F32'"
        );
    }

    #[test]
    fn axis_filters_name_the_axis_or_its_values() {
        let offer = Offer {
            pairs: vec![pair(&["b"], &[("T", &["F32", "F64"])], 4, 0)],
            ..Offer::default()
        };
        let wrong_value = plan(&[FilterArg::Axis("T=I8".into())]);
        assert_eq!(
            explain(&offer, &wrong_value),
            "-a T=I8 matched nothing: axis 'T' has the values 'F32', 'F64'"
        );
        let wrong_name = plan(&[FilterArg::Axis("t=F32".into())]);
        assert_eq!(
            explain(&offer, &wrong_name),
            "-a t=F32 matched nothing: no axis is named 't' (close names: 'T')"
        );
        let together = plan(&[FilterArg::Axis("T=F32".into())]);
        assert_eq!(
            explain(&offer, &together),
            "no state matches all of its -a filters at once"
        );
    }

    #[test]
    fn long_lists_are_cut() {
        let files: Vec<String> = (0..20).map(|i| format!("f{i}.json")).collect();
        let offer = Offer {
            unpaired_directories: Some((files, vec![])),
            ..Offer::default()
        };
        let text = explain(&offer, &FilterPlan::default());
        assert!(text.contains("'f7.json', ...; compare: none)"), "{text}");
        assert!(!text.contains("f8.json"));
    }

    #[test]
    fn benchmark_and_state_sets() {
        let mut disjoint = pair(&[], &[], 0, 0);
        disjoint.reference_benchmarks = vec!["old".into()];
        disjoint.compare_benchmarks = vec!["new".into()];
        let offer = Offer {
            pairs: vec![disjoint],
            ..Offer::default()
        };
        assert_eq!(
            explain(&offer, &FilterPlan::default()),
            "no selected benchmark is in both inputs (reference: 'old'; compare: 'new')"
        );
        let one_sided = Offer {
            pairs: vec![pair(&["b"], &[], 2, 2)],
            one_sided_states: 2,
            ..Offer::default()
        };
        assert!(
            explain(&one_sided, &FilterPlan::default()).contains("2 state(s) on one side only")
        );
    }
}
