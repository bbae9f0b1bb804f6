//! Device selection (spec "Matching Inputs"): the devices of a file or of a
//! benchmark that `--reference-devices` / `--compare-devices` pick, in filter
//! order, paired by position.

use std::collections::{HashMap, HashSet};

use crate::failure::Failure;
use crate::loading::model::Device;
use crate::matching::filters::DeviceFilter;
use crate::pycompat::pyfmt::str_repr;

fn format_ids(ids: &[i64]) -> String {
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The devices of a file selected by a device filter, in filter order.
pub fn select_devices<'a>(
    all: &'a [Device],
    filter: &DeviceFilter,
    option: &str,
) -> Result<Vec<&'a Device>, Failure> {
    let Some(ids) = filter else {
        return Ok(all.iter().collect());
    };
    if all.iter().any(|d| d.id.is_none()) {
        return Err(Failure::fatal(format!(
            "a device in the input has no 'id' (needed by {option})"
        )));
    }
    // The last device with a given id wins, as in a dict built from the list.
    let by_id: HashMap<i64, &Device> = all
        .iter()
        .filter_map(|d| Some((d.integer_id()?, d)))
        .collect();
    let find = |id: i64| by_id.get(&id).copied();
    let missing: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| find(*id).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(Failure::reported(format!(
            "{option} requested device id(s) not present in input: {}",
            format_ids(&missing)
        )));
    }
    Ok(ids.iter().filter_map(|id| find(*id)).collect())
}

/// The device ids of a benchmark to compare, in pairing order: `devices`
/// are the ids the benchmark's instances list.
pub fn benchmark_device_ids(
    name: &str,
    devices: &[i64],
    filter: &DeviceFilter,
    option: &str,
) -> Result<Vec<i64>, Failure> {
    let Some(ids) = filter else {
        return Ok(devices.to_vec());
    };
    let listed: HashSet<i64> = devices.iter().copied().collect();
    let missing: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !listed.contains(id))
        .collect();
    if !missing.is_empty() {
        return Err(Failure::reported(format!(
            "benchmark {} does not contain {option} device id(s): {}",
            str_repr(name),
            format_ids(&missing)
        )));
    }
    Ok(ids.clone())
}
