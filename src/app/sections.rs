//! The device sections of a group of runs: which devices are compared,
//! the `## [id] name` heading of a device pair's table, and the
//! reference's report of device sections that differ.

use std::collections::HashMap;
use std::io::Write;

use serde_json::Value;

use crate::failure::Failure;
use crate::loading::model::{Device, Root};
use crate::matching::filters::DeviceFilter;
use crate::matching::{self};
use crate::pycompat::jsondiff::symmetric_diff_repr;
use crate::rendering::{Color, colorize};
use crate::text::printable::printable;

use crate::settings::Settings;

/// The selected devices of one input, or the reference's error.
pub(crate) fn selected_devices<'a>(
    root: &'a Root,
    path: &str,
    filter: &DeviceFilter,
    option: &str,
) -> Result<Vec<&'a Device>, Failure> {
    let devices = root
        .devices
        .as_deref()
        .ok_or_else(|| Failure::fatal(format!("{path}: the file has no 'devices' section")))?;
    matching::select_devices(devices, filter, option)
}

/// Per group of runs: the first runs' files and selected device sections,
/// which name the comparison.
pub(crate) struct FileContext<'a> {
    pub(crate) ref_path: &'a str,
    pub(crate) cmp_path: &'a str,
    pub(crate) ref_devices: DevicesById<'a>,
    pub(crate) cmp_devices: DevicesById<'a>,
    /// The candidate compared with the baseline (its index).
    pub(crate) candidate: usize,
}

/// Python `str()` of a device field (`None` when absent).
pub(super) fn field_text(value: &Option<crate::loading::scalar::Scalar>) -> String {
    value
        .as_ref()
        .map_or_else(|| "None".to_string(), |v| v.py_str())
}

pub(super) fn device_name(device: &Device) -> String {
    field_text(&device.name)
}

/// The names of a device pair's reference and compare devices.
pub(crate) fn device_names(
    context: &FileContext,
    (ref_id, cmp_id): (i64, i64),
) -> (Option<String>, Option<String>) {
    (
        context.ref_devices.get(ref_id).and_then(named),
        context.cmp_devices.get(cmp_id).and_then(named),
    )
}

pub(super) fn named(device: &Device) -> Option<String> {
    device.name.as_ref().map(|name| name.py_str())
}

/// Selected device sections by id: each device pair looks its devices up
/// (a search of the list per pair would be quadratic in the devices).
pub(crate) struct DevicesById<'a>(HashMap<i64, &'a Device>);

impl<'a> DevicesById<'a> {
    pub(crate) fn new(devices: &[&'a Device]) -> DevicesById<'a> {
        let mut by_id = HashMap::with_capacity(devices.len());
        for device in devices {
            if let Some(id) = device.integer_id() {
                // The first section with an id wins, as a search of the list gives.
                by_id.entry(id).or_insert(*device);
            }
        }
        DevicesById(by_id)
    }

    pub(crate) fn get(&self, id: i64) -> Option<&'a Device> {
        self.0.get(&id).copied()
    }
}

/// `## [id] name`, or `## [rid] rname vs. [cid] cname` when the devices differ.
pub(crate) fn device_heading(
    context: &FileContext,
    bench: &str,
    ref_id: i64,
    cmp_id: i64,
) -> Result<String, Failure> {
    let (Some(ref_device), Some(cmp_device)) = (
        context.ref_devices.get(ref_id),
        context.cmp_devices.get(cmp_id),
    ) else {
        return Err(Failure::reported(format!(
            "benchmark {} references device pair ref={ref_id} cmp={cmp_id}, but device metadata is missing",
            crate::pycompat::pyfmt::str_repr(bench)
        )));
    };
    let label = |d: &Device| {
        let (id, name) = (field_text(&d.id), field_text(&d.name));
        format!("[{}] {}", printable(&id), printable(&name))
    };
    Ok(if ref_device.python_eq(cmp_device) {
        format!("## {}", label(cmp_device))
    } else {
        format!("## {} vs. {}", label(ref_device), label(cmp_device))
    })
}

/// Prints the reference's "Device sections do not match" line with the
/// symmetric diff; the run stops there unless `--ignore-devices` or a
/// device filter says to go on.
pub(crate) fn report_device_mismatch(
    s: &Settings,
    heading: &str,
    (reference, compare): (&[&Device], &[&Device]),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let as_list = |devices: &[&Device]| Value::Array(devices.iter().map(|d| d.value()).collect());
    let color = if s.ignore_devices {
        Color::Yellow
    } else {
        Color::Red
    };
    writeln!(
        out,
        "{}: {}",
        colorize(heading, color, None, s.no_color),
        symmetric_diff_repr(&as_list(reference), &as_list(compare))
    )
    .map_err(Failure::write)?;
    let filtered = s.reference_devices.is_some() || s.compare_devices.is_some();
    if !s.ignore_devices && !filtered {
        return Err(Failure::AlreadyReported);
    }
    Ok(())
}
