//! GPU timing summaries of one state: the `nv/cold/...` values the decision
//! tree reads, extracted in the reference's order so that the first schema
//! error it would raise is the one reported.

use std::borrow::Cow;

use crate::failure::Failure;
use crate::loading::summaries::{ByTag, Extracted, Lookup, Summaries, Tag};

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
    match summaries.by_tag() {
        // Nearly every list: its tags found in one pass, the values read
        // in place (15 searches of the list cost 1,350 instructions a side).
        Some(by_tag) => timing_from(&by_tag, summaries.repetitions(), warnings),
        None => timing_from(&Searched(summaries), summaries.repetitions(), warnings),
    }
}

/// Where the summaries of a state are looked up: the list searched tag by
/// tag (whose lookups may fail), or every tag found ahead ([`ByTag`]).
trait TagSource {
    fn find(&self, tag: Tag) -> Result<Option<Cow<'_, Extracted>>, Failure>;
    fn float(&self, tag: Tag, null_value: Option<f64>) -> Result<Option<f64>, Failure>;
}

struct Searched<'a>(&'a Summaries);

impl TagSource for Searched<'_> {
    fn find(&self, tag: Tag) -> Result<Option<Cow<'_, Extracted>>, Failure> {
        find_summary(self.0, tag)
    }

    fn float(&self, tag: Tag, null_value: Option<f64>) -> Result<Option<f64>, Failure> {
        extract_float(self.0, tag, null_value)
    }
}

impl TagSource for ByTag<'_> {
    #[inline]
    fn find(&self, tag: Tag) -> Result<Option<Cow<'_, Extracted>>, Failure> {
        Ok(self.get(tag))
    }

    #[inline]
    fn float(&self, tag: Tag, null_value: Option<f64>) -> Result<Option<f64>, Failure> {
        ByTag::float(self, tag, null_value)
    }
}

/// [`extract_timing`] from either source, in the reference's order.
#[inline]
fn timing_from(
    source: &impl TagSource,
    repetitions: Option<usize>,
    warnings: &mut Vec<String>,
) -> Result<Timing, Failure> {
    let mut samples = extract_sidecar(source, Tag::SampleTimes, "sample time", warnings)?;
    let mut frequencies =
        extract_sidecar(source, Tag::SampleFrequencies, "sample frequency", warnings)?;
    if let (Some(s), Some(f)) = (&samples, &frequencies)
        && s.count_text != f.count_text
    {
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
    let float = |tag| source.float(tag, None);
    let dispersion = |tag| source.float(tag, Some(f64::INFINITY));
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
        repetitions,
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
    source: &impl TagSource,
    tag: Tag,
    description: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<SidecarRef>, Failure> {
    let (count, filename) = match source.find(tag)?.as_deref() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift_step;

    /// Every tag the comparison reads, and two it does not.
    fn tags() -> Vec<&'static str> {
        let read = Tag::ALL.iter().map(|tag| tag.name());
        read.chain(["nv/cold/bw/global/bytes_per_second", "nv/cold/sample_size"])
            .collect()
    }

    /// A summary of `tag` whose data is one of the shapes the reader meets.
    fn summary(tag: &str, shape: u64) -> String {
        let data = match shape % 9 {
            0..=2 => r#"[{"name": "value", "type": "float64", "value": "2.5"}]"#,
            3 => r#"[{"name": "value", "type": "float64", "value": null}]"#,
            4 => r#"[{"name": "value", "type": "float64", "value": "x"}]"#,
            5 => r#"[{"name": "value", "type": "int64", "value": "2"}]"#,
            6 => r#"{"value": 1}"#,
            7 => {
                r#"[{"name": "size", "type": "int64", "value": "100"},
                    {"name": "filename", "type": "string", "value": "a.bin"}]"#
            }
            _ => {
                r#"[{"name": "size", "type": "int64", "value": "-3"},
                    {"name": "filename", "type": "string", "value": "b.bin"}]"#
            }
        };
        format!(r#"{{"tag": "{tag}", "data": {data}}}"#)
    }

    /// The timing and warnings through both sources, and through `extract_timing`.
    fn both(summaries: &Summaries) -> [(Result<Timing, Failure>, Vec<String>); 2] {
        let mut searched_warnings = Vec::new();
        let searched = timing_from(
            &Searched(summaries),
            summaries.repetitions(),
            &mut searched_warnings,
        );
        let mut warnings = Vec::new();
        let extracted = extract_timing(summaries, &mut warnings);
        [(searched, searched_warnings), (extracted, warnings)]
    }

    /// Lists of random tags, duplicates and shapes: the tags found in one
    /// pass give the timing, warnings and first error of the searches.
    #[test]
    fn one_pass_lookups_are_the_searches() {
        let tags = tags();
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let (mut one_pass, mut failed, mut warned) = (0, 0, 0);
        for _ in 0..3000 {
            let count = xorshift_step(&mut state) % 12;
            let mut items = Vec::new();
            for _ in 0..count {
                let r = xorshift_step(&mut state);
                let tag = tags[(r % tags.len() as u64) as usize];
                items.push(match (r >> 32) & 31 {
                    0 => r#"{"data": []}"#.to_string(),
                    _ => summary(tag, r >> 40),
                });
            }
            let json = format!("[{}]", items.join(","));
            let summaries: Summaries = serde_json::from_str(&json).expect(&json);
            let [searched, extracted] = both(&summaries);
            if summaries.by_tag().is_some() {
                one_pass += 1;
                failed += usize::from(extracted.0.is_err());
                warned += usize::from(!extracted.1.is_empty());
            }
            assert_eq!(searched, extracted, "{json}");
        }
        // Values, errors and warnings all met in one pass.
        assert!(
            one_pass > 1000 && failed > 100 && warned > 50,
            "{one_pass} {failed} {warned}"
        );
        // A value that is not a list looks nothing up in one pass.
        for json in ["1", "\"text\"", "{\"a\": 1}"] {
            let summaries: Summaries = serde_json::from_str(json).unwrap();
            assert!(summaries.by_tag().is_none());
            let [searched, extracted] = both(&summaries);
            assert!(searched.0.is_err());
            assert_eq!(searched, extracted, "{json}");
        }
    }
}
