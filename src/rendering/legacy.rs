//! The text of NVBench's classic comparison script
//! (`nvbench-compare-legacy`), byte for byte: its durations and
//! percentages, the status cell (colorama colours, or an emoji with
//! `--no-color`), the device heading, the table (tabulate's "github"
//! format), the reader's version warnings and the summary block.

use crate::deciding::legacy::{Tally, Verdict};
use crate::pycompat::pyfmt::format_f;
use crate::pycompat::tabulate::{Align, github_table};

/// colorama's `Fore` codes the script uses, and `Fore.RESET`.
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const BLUE: &str = "\x1b[34m";
const RESET: &str = "\x1b[39m";

/// `format_duration(seconds)`: s, ms, or us (below 1 us too), three
/// decimals. A NaN or negative time compares false everywhere: us.
pub fn duration(seconds: f64) -> String {
    let (multiplier, units) = if seconds >= 1.0 {
        (1.0, "s")
    } else if seconds >= 1e-3 {
        (1e3, "ms")
    } else {
        (1e6, "us")
    };
    format!("{} {units}", format_f(seconds * multiplier, 3))
}

/// `format_percentage(fraction)`; a noise the file gave as `null` is `inf`.
pub fn percentage(fraction: Option<f64>) -> String {
    match fraction {
        None => "inf".to_string(),
        Some(x) => format!("{}%", format_f(x * 100.0, 2)),
    }
}

/// The status cell: the label in its colour, or after its emoji.
pub fn status(verdict: Verdict, no_color: bool) -> String {
    let (color, emoji) = match verdict {
        Verdict::Unknown => (YELLOW, "\u{1f7e1}"),
        Verdict::Same => (BLUE, "\u{1f535}"),
        Verdict::Fast => (GREEN, "\u{1f7e2}"),
        Verdict::Slow => (RED, "\u{1f534}"),
    };
    if no_color {
        format!("{emoji} {}", verdict.label())
    } else {
        format!("{color}{}{RESET}", verdict.label())
    }
}

/// `Device sections do not match: ` (red, yellow when the devices are
/// ignored, plain with `--no-color`), before the jsondiff text.
pub fn device_mismatch(ignore_devices: bool, no_color: bool) -> String {
    const TEXT: &str = "Device sections do not match";
    if no_color {
        format!("{TEXT}: ")
    } else {
        let color = if ignore_devices { YELLOW } else { RED };
        format!("{color}{TEXT}{RESET}: ")
    }
}

/// `# NAME` and a blank line.
pub fn benchmark_heading(name: &str) -> String {
    format!("# {name}\n\n")
}

/// `## [ID] NAME` (one device) or `## [ID] NAME vs. [ID] NAME`, and a
/// blank line; ids already as `%d` prints them.
pub fn device_heading(reference: (&str, &str), compare: Option<(&str, &str)>) -> String {
    match compare {
        None => format!("## [{}] {}\n\n", reference.0, reference.1),
        Some(compare) => format!(
            "## [{}] {} vs. [{}] {}\n\n",
            reference.0, reference.1, compare.0, compare.1
        ),
    }
}

/// The columns after the axes, and their alignment.
const VALUE_COLUMNS: [(&str, Align); 7] = [
    ("Ref Time", Align::Right),
    ("Ref Noise", Align::Right),
    ("Cmp Time", Align::Right),
    ("Cmp Noise", Align::Right),
    ("Diff", Align::Right),
    ("%Diff", Align::Right),
    ("Status", Align::Center),
];

/// One device's table and the blank line after it. Rows are the axis
/// cells then the seven value cells (a state may have more or fewer axis
/// values than the benchmark has axes: tabulate pads with empty cells).
pub fn table(axis_names: &[String], rows: &[Vec<String>]) -> String {
    let mut headers: Vec<String> = axis_names.to_vec();
    let mut aligns = vec![Align::Center; axis_names.len()];
    for (header, align) in VALUE_COLUMNS {
        headers.push(header.to_string());
        aligns.push(align);
    }
    let mut text = github_table(&headers, &aligns, rows);
    text.push_str("\n\n");
    text
}

/// The cells of a shown row after its axis cells.
pub struct RowValues {
    pub reference_time: f64,
    pub reference_noise: Option<f64>,
    pub compare_time: f64,
    pub compare_noise: Option<f64>,
    pub diff: f64,
    pub fraction: f64,
    pub verdict: Verdict,
}

pub fn push_values(row: &mut Vec<String>, values: &RowValues, no_color: bool) {
    row.push(duration(values.reference_time));
    row.push(percentage(values.reference_noise));
    row.push(duration(values.compare_time));
    row.push(percentage(values.compare_noise));
    row.push(duration(values.diff));
    row.push(percentage(Some(values.fraction)));
    row.push(status(values.verdict, no_color));
}

/// The reader's version warnings, as the NVBench reader prints them.
pub use crate::loading::inputs::{unversioned_warning, version_warning};

/// The summary block the script ends with.
pub fn summary(tally: &Tally) -> String {
    format!(
        "# Summary\n\n- Total Matches: {}\n  - Pass    (diff <= min_noise): {}\n  - Unknown (infinite noise):    {}\n  - Failure (diff > min_noise):  {}\n",
        tally.matches, tally.pass, tally.unknown, tally.failure
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_percentages_as_the_script_prints_them() {
        assert_eq!(duration(1.5), "1.500 s");
        assert_eq!(duration(0.0123456), "12.346 ms");
        assert_eq!(duration(40.002e-6), "40.002 us");
        assert_eq!(duration(2.5e-9), "0.003 us");
        assert_eq!(duration(-1.515e-6), "-1.515 us");
        assert_eq!(duration(-0.5), "-500000.000 us");
        assert_eq!(duration(f64::NAN), "nan us");
        assert_eq!(duration(f64::INFINITY), "inf s");
        assert_eq!(percentage(Some(0.0018)), "0.18%");
        assert_eq!(percentage(Some(-0.0000001)), "-0.00%");
        assert_eq!(percentage(None), "inf");
    }

    #[test]
    fn status_cells() {
        assert_eq!(status(Verdict::Slow, false), "\x1b[31mSLOW\x1b[39m");
        assert_eq!(status(Verdict::Same, true), "\u{1f535} SAME");
        assert_eq!(status(Verdict::Unknown, true), "\u{1f7e1} ????");
    }
}
