//! `--csv`: a line per state and candidate with the table's columns as
//! plain numbers (seconds, fractions), for pandas and spreadsheets. RFC
//! 4180: a header line, comma-separated fields, CRLF line ends, fields with
//! a comma, a quote, a line break or surrounding spaces quoted, quotes
//! doubled. Axis columns are the union of every benchmark's axes (empty
//! where a state has no such axis).

use crate::deciding::repetitions::SideStats;
use crate::deciding::report::{Report, StateRecord};

/// The columns before the axes.
const KEY_COLUMNS: [&str; 5] = ["benchmark", "device", "device_name", "state", "occurrence"];

/// The columns after the axes.
const VALUE_COLUMNS: [&str; 16] = [
    "base",
    "candidate",
    "base_time_s",
    "time_s",
    "base_noise",
    "noise",
    "speedup",
    "delta",
    "sigma",
    "signif",
    "base_reps",
    "reps",
    "status",
    "reason",
    "change_low",
    "change_high",
];

/// A field quoted where RFC 4180 needs it.
fn field(text: &str) -> String {
    let needs_quotes =
        text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A number as Rust prints it shortest (it reads back exactly); empty
/// when there is none or it is not finite.
fn number(value: Option<f64>) -> String {
    value
        .filter(|v| v.is_finite())
        .map_or_else(String::new, |v| v.to_string())
}

fn reps(side: Option<&SideStats>) -> String {
    side.map_or_else(|| "1".to_string(), |s| s.reps().to_string())
}

/// The axis names of every record, in order of first appearance.
fn axis_columns(reports: &[Report]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for record in reports.iter().flat_map(|r| &r.records) {
        for axis in record.axis_values.iter() {
            if !names.contains(&axis.name) {
                names.push(axis.name);
            }
        }
    }
    names
}

fn line(record: &StateRecord, axes: &[&str], (base, candidate): (&str, &str)) -> Vec<String> {
    let c = &record.comparison;
    let stats = record.repetitions.as_ref();
    let noise = |side: Option<&SideStats>, pair: Option<f64>| match stats {
        Some(_) => number(side.and_then(|s| s.noise)),
        None => number(pair),
    };
    let delta = match stats {
        Some(stats) => stats.delta,
        None => match (c.ref_time(), c.cmp_time()) {
            (Some(r), Some(m)) if r > 0.0 => Some(m / r - 1.0),
            _ => None,
        },
    };
    let speedup = match (c.ref_time(), c.cmp_time()) {
        (Some(r), Some(m)) if m > 0.0 => Some(r / m),
        _ => None,
    };
    let mut fields = vec![
        record.pair.benchmark.to_string(),
        record.pair.devices.0.to_string(),
        record
            .pair
            .device_names
            .0
            .as_deref()
            .unwrap_or_default()
            .to_string(),
        record.state_key.to_string(),
        record.occurrence.to_string(),
    ];
    fields.extend(axes.iter().map(|name| {
        record
            .axis_values
            .iter()
            .find(|a| a.name == *name)
            .and_then(|a| a.value)
            .map_or_else(String::new, |v| v.py_str())
    }));
    let (low, high) = c.frac_diff_interval().unzip();
    fields.extend([
        base.to_string(),
        candidate.to_string(),
        number(c.ref_time()),
        number(c.cmp_time()),
        noise(stats.map(|s| &s.reference), c.ref_noise()),
        noise(stats.map(|s| &s.compare), c.cmp_noise()),
        number(speedup),
        number(delta),
        number(stats.and_then(|s| s.sigma)),
        number(stats.and_then(|s| s.significance)),
        reps(stats.map(|s| &s.reference)),
        reps(stats.map(|s| &s.compare)),
        c.status.label().trim().to_string(),
        c.reason.code.canonical().to_string(),
        number(low),
        number(high),
    ]);
    fields
}

/// The CSV text of every candidate's records; `labels` are the sides'
/// labels, baseline first.
pub fn render_csv(labels: &[String], reports: &[Report]) -> String {
    let axes = axis_columns(reports);
    let header = KEY_COLUMNS
        .iter()
        .copied()
        .chain(axes.iter().copied())
        .chain(VALUE_COLUMNS)
        .map(field)
        .collect::<Vec<_>>()
        .join(",");
    let mut out = header;
    out.push_str("\r\n");
    for (candidate, report) in reports.iter().enumerate() {
        let names = (labels[0].as_str(), labels[candidate + 1].as_str());
        for record in &report.records {
            let fields: Vec<String> = line(record, &axes, names)
                .iter()
                .map(|f| field(f))
                .collect();
            out.push_str(&fields.join(","));
            out.push_str("\r\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_rfc_4180_says() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field(" padded"), "\" padded\"");
        assert_eq!(number(Some(0.1)), "0.1");
        assert_eq!(number(Some(f64::NAN)), "");
        assert_eq!(number(None), "");
    }
}
