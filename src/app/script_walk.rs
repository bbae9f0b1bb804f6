//! Where the robust command's script stops on files it reads but this
//! tool's model cannot hold (NVBench files from before JSON format 1.0,
//! with states and axes as objects): the script's first steps over the
//! parsed values, as Python runs them, up to the exception it raises and
//! prints as `invalid NVBench JSON structure while comparing ...`, after the
//! benchmark headings it printed by then.
//!
//! Only the steps before a device pair's states are compared are walked:
//! when the files get that far (or a filter is given) the walk gives up and
//! the caller reports the file in its own words.

use std::io::Write;

use serde_json::Value;

use crate::failure::Failure;
use crate::pycompat::pyfmt::str_repr;
use crate::pycompat::pyvalue::{Raised, equal, get, getitem, iterate, py_str, truthy};
use crate::settings::Settings;

/// How the walk ended.
enum Ending {
    /// Python raised a structure error (AttributeError, KeyError, TypeError,
    /// IndexError).
    Raised(Raised),
    /// The script's own ValueError, printed as it is.
    Refused(String),
    /// The script goes on past what the walk follows.
    Beyond,
}

impl From<Raised> for Ending {
    fn from(raised: Raised) -> Self {
        Ending::Raised(raised)
    }
}

/// The script's failure on these files (what it printed first is written
/// to `out`), or `None` where the walk cannot tell.
pub(super) fn script_failure(
    s: &Settings,
    paths: (&str, &str),
    (reference, compare): (&Value, &Value),
    out: &mut dyn Write,
) -> Option<Failure> {
    if !modelled(s) {
        return None;
    }
    let devices = |root: &Value| getitem(root, "devices").ok().cloned();
    if !equal(&devices(reference)?, &devices(compare)?) {
        return None;
    }
    let mut printed = String::new();
    let ending = walk_benchmarks(reference, compare, &mut printed)?;
    if write!(out, "{printed}").is_err() {
        return Some(Failure::AlreadyReported);
    }
    Some(Failure::reported(match ending {
        Ending::Refused(message) => message,
        Ending::Raised(raised) => structure_error(paths, &raised),
        Ending::Beyond => return None,
    }))
}

/// Device and benchmark filters select through steps the walk leaves out.
fn modelled(s: &Settings) -> bool {
    s.reference_devices.is_none()
        && s.compare_devices.is_none()
        && s.filters.scopes.is_empty()
        && s.filters.global_axis_filters.is_empty()
}

/// The script's message for an exception of the walk.
fn structure_error((reference, compare): (&str, &str), raised: &Raised) -> String {
    let detail = match raised.kind {
        // A KeyError's message is already the key's repr.
        "KeyError" => format!("missing key {}", raised.message),
        _ if raised.message.is_empty() => raised.kind.to_string(),
        _ => raised.message.clone(),
    };
    format!(
        "invalid NVBench JSON structure while comparing {} and {}: {detail}",
        str_repr(reference),
        str_repr(compare)
    )
}

/// `compare_benches` up to the first device pair's grouping of states;
/// `None` when it gets past that.
fn walk_benchmarks(reference: &Value, compare: &Value, printed: &mut String) -> Option<Ending> {
    let mut step = || -> Result<(), Ending> {
        let ref_benches = getitem(reference, "benchmarks")?;
        for cmp_bench in iterate(getitem(compare, "benchmarks")?)? {
            let Some(ref_bench) = find_matching_bench(&cmp_bench, ref_benches)? else {
                continue;
            };
            walk_benchmark(&ref_bench, &cmp_bench, printed)?;
        }
        Ok(())
    };
    match step() {
        Ok(()) | Err(Ending::Beyond) => None,
        Err(ending) => Some(ending),
    }
}

fn find_matching_bench(needle: &Value, haystack: &Value) -> Result<Option<Value>, Raised> {
    for hay in iterate(haystack)? {
        if equal(getitem(&hay, "name")?, getitem(needle, "name")?) {
            return Ok(truthy(&hay).then(|| hay.into_owned()));
        }
    }
    Ok(None)
}

/// One benchmark: its devices, its heading, its axes' names and each
/// device pair's states. A pair whose states all group is as far as the
/// walk goes (`Ok` only for a benchmark without device pairs).
fn walk_benchmark(
    ref_bench: &Value,
    cmp_bench: &Value,
    printed: &mut String,
) -> Result<(), Ending> {
    let name = getitem(cmp_bench, "name")?;
    let cmp_ids = iterate(getitem(cmp_bench, "devices")?)?;
    let ref_ids = iterate(getitem(ref_bench, "devices")?)?;
    if cmp_ids.len() != ref_ids.len() {
        return Err(Ending::Refused(format!(
            "benchmark {} has {} reference device(s) but {} compare device(s); nvbench-compare-robust pairs devices by position, so each compared benchmark must contain the same number of devices",
            crate::pycompat::pyvalue::py_repr(name),
            ref_ids.len(),
            cmp_ids.len()
        )));
    }
    printed.push_str(&format!("# {}\n\n", py_str(name)));
    let axes = getitem(cmp_bench, "axes")?;
    let ref_states = getitem(ref_bench, "states")?;
    let cmp_states = getitem(cmp_bench, "states")?;
    if truthy(axes) {
        for axis in iterate(axes)? {
            getitem(&axis, "name")?;
        }
    }
    // The first device pair only: past its grouping the script compares
    // states, which the walk does not follow.
    let Some((cmp_id, ref_id)) = cmp_ids.iter().zip(&ref_ids).next() else {
        return Ok(());
    };
    group_states(ref_states, ref_id)?;
    group_states(cmp_states, cmp_id)?;
    Err(Ending::Beyond)
}

/// A device's states and their keys, as the script builds them.
fn group_states(states: &Value, device: &Value) -> Result<(), Raised> {
    let mut selected = Vec::new();
    for state in iterate(states)? {
        if equal(getitem(&state, "device")?, device) {
            selected.push(state);
        }
    }
    for state in &selected {
        state_key(state)?;
    }
    Ok(())
}

/// `state_comparison_key`'s lookups: the name against `Device=N`, then the
/// axis values' entries.
fn state_key(state: &Value) -> Result<(), Raised> {
    let prefix = format!("Device={}", py_str(getitem(state, "device")?));
    let name = getitem(state, "name")?;
    let is_prefix = matches!(name, Value::String(text) if *text == prefix);
    if !is_prefix && !name.is_string() {
        return Err(Raised::new(
            "AttributeError",
            format!(
                "'{}' object has no attribute 'startswith'",
                crate::pycompat::pyvalue::type_name(name)
            ),
        ));
    }
    let axis_values = get(state, "axis_values")?;
    if let Some(values) = axis_values.filter(|v| truthy(v)) {
        for axis_value in iterate(values)? {
            for key in ["name", "type", "value"] {
                get(&axis_value, key)?;
            }
        }
    }
    Ok(())
}
