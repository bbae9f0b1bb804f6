//! GPU timing summaries of one state: the `nv/cold/...` values the decision
//! tree reads, extracted in the reference's order so that the first schema
//! error it would raise is the one reported.

use crate::failure::Failure;
use crate::model::{DataEntry, Lookup, Scalar, Summaries, SummaryData, Tag, Word};

/// What a summary of a known tag yields, computed once while the file is
/// read so that its data entries need not be kept. Errors are kept too and
/// raised only when the state is compared, where the reference raises them.
#[derive(Debug, Clone, PartialEq)]
pub enum Extracted {
    /// A float summary: `Ok(None)` is a JSON `null`.
    Float(Result<Option<f64>, Failure>),
    /// A sidecar summary: its `size` (any integer, as decimal digits) and
    /// `filename`.
    Sidecar(Result<(String, String), Failure>),
}

/// Extracts the value of one summary of a known tag from its data entries.
pub fn extract_summary(tag: Tag, data: &SummaryData) -> Extracted {
    let entries = match data {
        SummaryData::Entries(entries) => Ok(entries.as_slice()),
        SummaryData::Malformed => Err(Failure::Fatal(format!(
            "summary {} has a 'data' field that is not a list of objects",
            str_repr(tag.name())
        ))),
    };
    if matches!(tag, Tag::SampleTimes | Tag::SampleFrequencies) {
        Extracted::Sidecar(entries.and_then(|e| sidecar_meta(e, tag)))
    } else {
        Extracted::Float(entries.and_then(|e| float_value(e, tag)))
    }
}
use crate::pyfmt::str_repr;

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
    })
}

fn find_summary(summaries: &Summaries, tag: Tag) -> Result<Option<&Extracted>, Failure> {
    match summaries.lookup(tag) {
        Lookup::Missing => Ok(None),
        Lookup::NotAList => Err(Failure::Fatal(
            "a state's 'summaries' is not a list".to_string(),
        )),
        Lookup::Untagged => Err(Failure::Fatal("a summary has no 'tag' key".to_string())),
        Lookup::Found(extracted) => Ok(Some(extracted)),
    }
}

/// The `value` of the data entry called `name`, which must have type `expected_type`.
fn data_value<'a>(
    entries: &'a [DataEntry],
    tag: Tag,
    name: &str,
    expected_type: &str,
) -> Result<&'a Scalar, Failure> {
    let tag_repr = || str_repr(tag.name());
    let entry = entries
        .iter()
        .find(|entry| entry.name.as_ref().and_then(Word::as_str) == Some(name))
        .ok_or_else(|| {
            Failure::Reported(format!(
                "summary {} is missing field {}",
                tag_repr(),
                str_repr(name)
            ))
        })?;
    let null = Word::Other(Scalar::Null);
    let actual_type = entry.value_type.as_ref().unwrap_or(&null);
    if actual_type.as_str() != Some(expected_type) {
        return Err(Failure::Reported(format!(
            "summary {} field {} has type {}; expected {}",
            tag_repr(),
            str_repr(name),
            actual_type.py_repr(),
            str_repr(expected_type)
        )));
    }
    entry.value.as_ref().ok_or_else(|| {
        Failure::Reported(format!(
            "summary {} field {} is missing value",
            tag_repr(),
            str_repr(name)
        ))
    })
}

/// `float(value)` of the `value` entry, `None` for a JSON `null`.
fn float_value(entries: &[DataEntry], tag: Tag) -> Result<Option<f64>, Failure> {
    let value = data_value(entries, tag, "value", "float64")?;
    if *value == Scalar::Null {
        return Ok(None);
    }
    match value.py_float() {
        Ok(Some(number)) => Ok(Some(number)),
        Ok(None) => Err(Failure::Fatal(format!(
            "summary {} value {} is not a number",
            str_repr(tag.name()),
            value.py_repr()
        ))),
        Err(message) => Err(Failure::Reported(message)),
    }
}

/// The `size` and `filename` entries of a sidecar summary.
fn sidecar_meta(entries: &[DataEntry], tag: Tag) -> Result<(String, String), Failure> {
    let size = data_value(entries, tag, "size", "int64")?;
    let count = size.py_int_decimal().ok_or_else(|| {
        Failure::Reported(format!(
            "summary {} field 'size' value {} is not an int64",
            str_repr(tag.name()),
            size.py_repr()
        ))
    })?;
    let filename = data_value(entries, tag, "filename", "string")?;
    let Some(filename) = filename.as_str() else {
        return Err(Failure::Reported(format!(
            "summary {} field 'filename' value must be a string",
            str_repr(tag.name())
        )));
    };
    Ok((count, filename.to_string()))
}

fn extract_float(
    summaries: &Summaries,
    tag: Tag,
    null_value: Option<f64>,
) -> Result<Option<f64>, Failure> {
    match find_summary(summaries, tag)? {
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
    let (count, filename) = match find_summary(summaries, tag)? {
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
