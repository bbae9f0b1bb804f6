//! GPU timing summaries of one state: the `nv/cold/...` values the decision
//! tree reads, extracted in the reference's order so that the first schema
//! error it would raise is the one reported.

use crate::failure::Failure;
use crate::model::{DataEntry, Lookup, Scalar, Summaries, SummaryData, Tag};
use crate::pyfmt::str_repr;

/// A `--jsonbin` sidecar as advertised by a summary: the file name as
/// written in the JSON and the number of float32 values it should hold.
#[derive(Debug, Clone, PartialEq)]
pub struct SidecarRef {
    pub count: u64,
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
        if s.count != f.count {
            warnings.push(bulk_warning(
                "paired sample time and frequency",
                &format!(
                    "sample count ({}) does not match frequency count ({})",
                    s.count, f.count
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

fn find_summary(summaries: &Summaries, tag: Tag) -> Result<Option<&[DataEntry]>, Failure> {
    match summaries.lookup(tag) {
        Lookup::Missing => Ok(None),
        Lookup::Untagged => Err(Failure::Fatal("a summary has no 'tag' key".to_string())),
        Lookup::Found(SummaryData::Entries(entries)) => Ok(Some(entries)),
        Lookup::Found(SummaryData::Malformed) => Err(Failure::Fatal(format!(
            "summary {} has a 'data' field that is not a list of objects",
            str_repr(tag.name())
        ))),
    }
}

/// The `value` of the data entry called `name`, which must have type `expected_type`.
fn data_value<'a>(
    entries: &'a [DataEntry],
    tag: Tag,
    name: &str,
    expected_type: &str,
) -> Result<&'a Scalar, Failure> {
    let tag_repr = str_repr(tag.name());
    let entry = entries
        .iter()
        .find(|entry| entry.name.as_ref().and_then(Scalar::as_str) == Some(name))
        .ok_or_else(|| {
            Failure::Reported(format!(
                "summary {tag_repr} is missing field {}",
                str_repr(name)
            ))
        })?;
    let actual_type = entry.value_type.as_ref().unwrap_or(&Scalar::Null);
    if actual_type.as_str() != Some(expected_type) {
        return Err(Failure::Reported(format!(
            "summary {tag_repr} field {} has type {}; expected {}",
            str_repr(name),
            actual_type.py_repr(),
            str_repr(expected_type)
        )));
    }
    entry.value.as_ref().ok_or_else(|| {
        Failure::Reported(format!(
            "summary {tag_repr} field {} is missing value",
            str_repr(name)
        ))
    })
}

fn extract_float(
    summaries: &Summaries,
    tag: Tag,
    null_value: Option<f64>,
) -> Result<Option<f64>, Failure> {
    let Some(entries) = find_summary(summaries, tag)? else {
        return Ok(None);
    };
    let value = data_value(entries, tag, "value", "float64")?;
    if *value == Scalar::Null {
        return Ok(null_value);
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

fn extract_sidecar(
    summaries: &Summaries,
    tag: Tag,
    description: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<SidecarRef>, Failure> {
    let Some(entries) = find_summary(summaries, tag)? else {
        return Ok(None);
    };
    let size = data_value(entries, tag, "size", "int64")?;
    let count = size.py_int().ok_or_else(|| {
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
    if count < 0 {
        warnings.push(bulk_warning(
            description,
            &format!("negative value count {count}"),
        ));
        return Ok(None);
    }
    Ok(Some(SidecarRef {
        count: u64::try_from(count).unwrap_or(u64::MAX),
        filename: filename.to_string(),
    }))
}
