//! GPU timing summaries of one state: the `nv/cold/...` values the decision
//! tree reads, extracted in the reference's order so that the first schema
//! error it would raise is the one reported.

use std::borrow::Cow;

use crate::failure::Failure;
use crate::loading::summaries::{Extracted, Lookup, Summaries, Tag};

/// A `--jsonbin` sidecar as advertised by a summary: the file name as
/// written in the JSON and the number of float32 values it should hold.
#[derive(Debug, Clone, PartialEq)]
pub struct SidecarRef {
    /// The advertised count, saturated at `u64::MAX` (no file holds more).
    pub count: u64,
    /// The advertised count exactly, as decimal digits, for messages and
    /// outputs (Python ints are unbounded).
    pub count_text: String,
    pub filename: String,
}

/// Timing summaries of one state (`None` = tag absent or JSON `null`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timing {
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub mean: Option<f64>,
    pub stdev: Option<f64>,
    pub stdev_relative: Option<f64>,
    pub first_quartile: Option<f64>,
    pub median: Option<f64>,
    pub third_quartile: Option<f64>,
    pub interquartile_range: Option<f64>,
    pub interquartile_range_relative: Option<f64>,
    pub sm_clock_rate_mean: Option<f64>,
    pub samples: Option<SidecarRef>,
    pub frequencies: Option<SidecarRef>,
    /// `Some(n)`: summaries of `n` repetitions of an input that has no clock
    /// domain at all (Google Benchmark): a gap can only be confirmed in time.
    pub repetitions: Option<usize>,
}

/// A warning about unusable bulk data, in the reference's words.
pub fn bulk_warning(description: &str, message: &str) -> String {
    format!("Could not use NVBench {description} data: {message}; treating it as unavailable")
}

/// Extracts the timing of one state. Warnings (stderr) are pushed to `warnings`.
pub fn extract_timing(
    summaries: &Summaries,
    warnings: &mut Vec<String>,
) -> Result<Timing, Failure> {
    let mut samples = extract_sidecar(summaries, Tag::SampleTimes, "sample time", warnings)?;
    let mut frequencies = extract_sidecar(
        summaries,
        Tag::SampleFrequencies,
        "sample frequency",
        warnings,
    )?;
    if let (Some(s), Some(f)) = (&samples, &frequencies) {
        if s.count_text != f.count_text {
            warnings.push(bulk_warning(
                "paired sample time and frequency",
                &format!(
                    "sample count ({}) does not match frequency count ({})",
                    s.count_text, f.count_text
                ),
            ));
            samples = None;
            frequencies = None;
        }
    }
    let float = |tag| extract_float(summaries, tag, None);
    let dispersion = |tag| extract_float(summaries, tag, Some(f64::INFINITY));
    let with_fallback = |primary, fallback| -> Result<Option<f64>, Failure> {
        match dispersion(primary)? {
            Some(value) => Ok(Some(value)),
            None => dispersion(fallback),
        }
    };
    Ok(Timing {
        minimum: float(Tag::Min)?,
        maximum: float(Tag::Max)?,
        mean: float(Tag::Mean)?,
        stdev: dispersion(Tag::Stdev)?,
        stdev_relative: dispersion(Tag::StdevRelative)?,
        first_quartile: float(Tag::Q1)?,
        median: float(Tag::Median)?,
        third_quartile: float(Tag::Q3)?,
        interquartile_range: with_fallback(Tag::Iqr, Tag::LegacyIr)?,
        interquartile_range_relative: with_fallback(Tag::IqrRelative, Tag::LegacyIrRelative)?,
        sm_clock_rate_mean: float(Tag::SmClockRateMean)?,
        samples,
        frequencies,
        repetitions: summaries.repetitions(),
    })
}

// Inlined, so that the value found is read in place, not returned as a
// `Cow` (outlined, it cost 450 instructions a state on h20).
#[inline(always)]
fn find_summary(summaries: &Summaries, tag: Tag) -> Result<Option<Cow<'_, Extracted>>, Failure> {
    match summaries.lookup(tag) {
        Lookup::Missing => Ok(None),
        Lookup::NotAList => Err(Failure::Fatal(
            "a state's 'summaries' is not a list".to_string(),
        )),
        Lookup::Untagged => Err(Failure::Fatal("a summary has no 'tag' key".to_string())),
        Lookup::Found(extracted) => Ok(Some(extracted)),
    }
}

fn extract_float(
    summaries: &Summaries,
    tag: Tag,
    null_value: Option<f64>,
) -> Result<Option<f64>, Failure> {
    match find_summary(summaries, tag)?.as_deref() {
        None => Ok(None),
        Some(Extracted::Float(value)) => value.clone().map(|v| v.or(null_value)),
        Some(Extracted::Sidecar(_)) => Ok(None),
    }
}

fn extract_sidecar(
    summaries: &Summaries,
    tag: Tag,
    description: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<SidecarRef>, Failure> {
    let (count, filename) = match find_summary(summaries, tag)?.as_deref() {
        Some(Extracted::Sidecar(meta)) => meta.clone()?,
        _ => return Ok(None),
    };
    if count.starts_with('-') {
        warnings.push(bulk_warning(
            description,
            &format!("negative value count {count}"),
        ));
        return Ok(None);
    }
    Ok(Some(SidecarRef {
        count: count.parse().unwrap_or(u64::MAX),
        count_text: count,
        filename,
    }))
}
