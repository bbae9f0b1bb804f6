//! The `summaries` list of a state, reduced while the file is read to the
//! values of the tags the comparison reads (the rest is skipped unparsed).

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::failure::Failure;
use crate::loading::scalar::{Scalar, ScalarVisitor, present};
use crate::pycompat::pyfmt::{self, str_repr};

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
    if !tag.is_float() {
        Extracted::Sidecar(entries.and_then(|e| sidecar_meta(e, tag)))
    } else {
        Extracted::Float(entries.and_then(|e| float_value(e, tag)))
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

/// The summary tags the comparison reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Tag {
    Min,
    Max,
    Mean,
    Stdev,
    StdevRelative,
    Q1,
    Median,
    Q3,
    Iqr,
    IqrRelative,
    LegacyIr,
    LegacyIrRelative,
    SmClockRateMean,
    SampleTimes,
    SampleFrequencies,
}

impl Tag {
    /// A summary whose value is a number (the others name sidecar files).
    pub(crate) fn is_float(self) -> bool {
        !matches!(self, Tag::SampleTimes | Tag::SampleFrequencies)
    }

    pub const COUNT: usize = 15;

    /// Every tag, for the tests that go over them all.
    #[cfg(test)]
    pub(crate) const ALL: [Tag; Tag::COUNT] = [
        Tag::Min,
        Tag::Max,
        Tag::Mean,
        Tag::Stdev,
        Tag::StdevRelative,
        Tag::Q1,
        Tag::Median,
        Tag::Q3,
        Tag::Iqr,
        Tag::IqrRelative,
        Tag::LegacyIr,
        Tag::LegacyIrRelative,
        Tag::SmClockRateMean,
        Tag::SampleTimes,
        Tag::SampleFrequencies,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tag::Min => "nv/cold/time/gpu/min",
            Tag::Max => "nv/cold/time/gpu/max",
            Tag::Mean => "nv/cold/time/gpu/mean",
            Tag::Stdev => "nv/cold/time/gpu/stdev/absolute",
            Tag::StdevRelative => "nv/cold/time/gpu/stdev/relative",
            Tag::Q1 => "nv/cold/time/gpu/q1",
            Tag::Median => "nv/cold/time/gpu/median",
            Tag::Q3 => "nv/cold/time/gpu/q3",
            Tag::Iqr => "nv/cold/time/gpu/iqr/absolute",
            Tag::IqrRelative => "nv/cold/time/gpu/iqr/relative",
            Tag::LegacyIr => "nv/cold/time/gpu/ir/absolute",
            Tag::LegacyIrRelative => "nv/cold/time/gpu/ir/relative",
            Tag::SmClockRateMean => "nv/cold/sm_clock_rate/mean",
            Tag::SampleTimes => "nv/json/bin:nv/cold/sample_times",
            Tag::SampleFrequencies => "nv/json/freqs-bin:nv/cold/sample_freqs",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Tag> {
        // A `match` on strings compares lengths first: most of the ~30
        // tags NVBench writes are rejected without comparing bytes.
        Some(match name {
            "nv/cold/time/gpu/min" => Tag::Min,
            "nv/cold/time/gpu/max" => Tag::Max,
            "nv/cold/time/gpu/mean" => Tag::Mean,
            "nv/cold/time/gpu/stdev/absolute" => Tag::Stdev,
            "nv/cold/time/gpu/stdev/relative" => Tag::StdevRelative,
            "nv/cold/time/gpu/q1" => Tag::Q1,
            "nv/cold/time/gpu/median" => Tag::Median,
            "nv/cold/time/gpu/q3" => Tag::Q3,
            "nv/cold/time/gpu/iqr/absolute" => Tag::Iqr,
            "nv/cold/time/gpu/iqr/relative" => Tag::IqrRelative,
            "nv/cold/time/gpu/ir/absolute" => Tag::LegacyIr,
            "nv/cold/time/gpu/ir/relative" => Tag::LegacyIrRelative,
            "nv/cold/sm_clock_rate/mean" => Tag::SmClockRateMean,
            "nv/json/bin:nv/cold/sample_times" => Tag::SampleTimes,
            "nv/json/freqs-bin:nv/cold/sample_freqs" => Tag::SampleFrequencies,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tag_tests {
    use super::*;

    #[test]
    fn every_tag_is_found_by_its_name() {
        for tag in Tag::ALL {
            assert_eq!(Tag::from_name(tag.name()), Some(tag));
        }
        assert_eq!(Tag::from_name("nv/cold/time/cpu/min"), None);
        assert_eq!(Tag::from_name("nv/cold/time/gpu/min "), None);
    }
}

/// One `{"name", "type", "value"}` entry of a summary's `data` list.
#[derive(Debug, Clone, Deserialize)]
pub struct DataEntry {
    #[serde(default)]
    pub name: Option<Word>,
    #[serde(rename = "type", default)]
    pub value_type: Option<Word>,
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Scalar>,
}

/// The `name` or `type` of a data entry: the few words NVBench writes
/// there are recognised without allocating; anything else is kept whole.
#[derive(Debug, Clone, PartialEq)]
pub enum Word {
    Known(&'static str),
    Other(Scalar),
}

const KNOWN_WORDS: [&str; 6] = ["value", "size", "filename", "float64", "int64", "string"];

impl Word {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Word::Known(word) => Some(word),
            Word::Other(scalar) => scalar.as_str(),
        }
    }

    /// Python `repr` of the value.
    pub fn py_repr(&self) -> String {
        match self {
            Word::Known(word) => pyfmt::str_repr(word),
            Word::Other(scalar) => scalar.py_repr(),
        }
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WordVisitor;
        impl<'de> Visitor<'de> for WordVisitor {
            type Value = Word;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Word, E> {
                Ok(KNOWN_WORDS.iter().find(|word| **word == v).map_or_else(
                    || Word::Other(Scalar::Str(v.into())),
                    |word| Word::Known(word),
                ))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Bool(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Int(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Word, E> {
                ScalarVisitor.visit_u64(v).map(Word::Other)
            }
            fn visit_f64<E>(self, v: f64) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Float(v)))
            }
            fn visit_unit<E>(self) -> Result<Word, E> {
                Ok(Word::Other(Scalar::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Word, A::Error> {
                ScalarVisitor.visit_seq(seq).map(Word::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Word, A::Error> {
                ScalarVisitor.visit_map(map).map(Word::Other)
            }
        }
        deserializer.deserialize_any(WordVisitor)
    }
}

/// A summary's `tag`, read without allocating.
struct TagField(RawTag);

impl<'de> Deserialize<'de> for TagField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TagVisitor;
        impl<'de> Visitor<'de> for TagVisitor {
            type Value = TagField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<TagField, E> {
                Ok(TagField(
                    Tag::from_name(v).map_or(RawTag::Other, RawTag::Known),
                ))
            }
            fn visit_bool<E>(self, _: bool) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_i64<E>(self, _: i64) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_u64<E>(self, _: u64) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_f64<E>(self, _: f64) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_unit<E>(self) -> Result<TagField, E> {
                Ok(TagField(RawTag::Other))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<TagField, A::Error> {
                ScalarVisitor
                    .visit_seq(seq)
                    .map(|_| TagField(RawTag::Other))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TagField, A::Error> {
                ScalarVisitor
                    .visit_map(map)
                    .map(|_| TagField(RawTag::Other))
            }
        }
        deserializer.deserialize_any(TagVisitor)
    }
}

/// A summary as looked up by tag: its data list, or the reason it has none.
#[derive(Debug, Clone)]
pub enum SummaryData {
    Entries(Vec<DataEntry>),
    /// `data` was present but not a list of objects.
    Malformed,
}

/// The `summaries` list of a state, reduced to what the comparison reads:
/// the extracted value of the first summary of each known tag, as a linear
/// search would find it.
///
/// 24 bytes (every state holds one until its benchmark is compared): the
/// entries (16 bytes each) in a boxed slice, a position or count in 4
/// bytes, and the flags in a byte.
#[derive(Debug, Clone, Default)]
pub struct Summaries {
    /// The first summary of each tag.
    first: Box<[Entry]>,
    /// Read from a file: the position of the first summary without a `tag`
    /// key (a linear search reaching it fails). Computed (`COMPUTED`): the
    /// repetitions of an input without a clock domain (Google Benchmark)
    /// they come from.
    counted: Option<Counted>,
    flags: u8,
}

/// The list is not empty (`bool(state.get("summaries"))`).
const TRUTHY: u8 = 1;
/// `summaries` is a truthy value that is not a list (a number, a string,
/// an object): the reference fails only where it looks inside.
const NOT_A_LIST: u8 = 2;
/// Computed from repetitions, not read from an NVBench file.
const COMPUTED: u8 = 4;

/// A summary's position in its list, in 4 bytes: 16-byte entries instead
/// of 24. A list of 2^32 summaries and more (over 8 GB of JSON in one
/// state) would compare its later positions as equal.
type Position = u32;

fn position(index: usize) -> Position {
    Position::try_from(index).unwrap_or(Position::MAX)
}

/// A position or a count in an `Option` of 4 bytes: one more than it
/// (saturated at `u32::MAX - 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Counted(std::num::NonZeroU32);

impl Counted {
    fn of(value: usize) -> Counted {
        let stored = u32::try_from(value).unwrap_or(u32::MAX).saturating_add(1);
        Counted(std::num::NonZeroU32::new(stored).unwrap_or(std::num::NonZeroU32::MAX))
    }

    fn get(self) -> u32 {
        self.0.get() - 1
    }
}

/// A kept summary: its tag, its position in the list and its extracted
/// value, a number in place (what nearly every summary holds), anything
/// else boxed. 16 bytes, the tag and position in the room the value's
/// kind leaves (a tuple with a separate value took 24), on each summary
/// the comparison reads, of every state.
#[derive(Debug, Clone)]
enum Entry {
    Number {
        tag: Tag,
        position: Position,
        value: f64,
    },
    Other {
        tag: Tag,
        position: Position,
        value: Box<Extracted>,
    },
}

impl Entry {
    fn new(tag: Tag, position: Position, value: Extracted) -> Entry {
        match value {
            Extracted::Float(Ok(Some(value))) => Entry::Number {
                tag,
                position,
                value,
            },
            other => Entry::Other {
                tag,
                position,
                value: Box::new(other),
            },
        }
    }

    fn tag(&self) -> Tag {
        match self {
            Entry::Number { tag, .. } | Entry::Other { tag, .. } => *tag,
        }
    }

    fn position(&self) -> Position {
        match self {
            Entry::Number { position, .. } | Entry::Other { position, .. } => *position,
        }
    }

    fn get(&self) -> Cow<'_, Extracted> {
        match self {
            Entry::Number { value, .. } => Cow::Owned(Extracted::Float(Ok(Some(*value)))),
            Entry::Other { value, .. } => Cow::Borrowed(value),
        }
    }
}

/// What a tag lookup finds.
pub enum Lookup<'a> {
    /// `summaries` is not a list.
    NotAList,
    Found(Cow<'a, Extracted>),
    Missing,
    /// A summary without a `tag` key precedes any match.
    Untagged,
}

impl Summaries {
    /// Summaries computed from `repetitions` time-only repetitions (each
    /// tag once, in the order given).
    pub fn computed(values: &[(Tag, f64)], repetitions: usize) -> Summaries {
        Summaries {
            flags: TRUTHY | COMPUTED,
            first: values
                .iter()
                .enumerate()
                .map(|(index, (tag, value))| Entry::Number {
                    tag: *tag,
                    position: position(index),
                    value: *value,
                })
                .collect(),
            counted: Some(Counted::of(repetitions)),
        }
    }

    /// The repetitions computed summaries come from (`None`: read from a file).
    pub fn repetitions(&self) -> Option<usize> {
        let count = self.counted.filter(|_| self.flags & COMPUTED != 0)?;
        Some(count.get() as usize)
    }

    fn first_untagged(&self) -> Option<Counted> {
        self.counted.filter(|_| self.flags & COMPUTED == 0)
    }

    fn not_a_list_flag(&self) -> bool {
        self.flags & NOT_A_LIST != 0
    }

    /// `bool(state.get("summaries"))`, when `summaries` is present.
    pub fn is_truthy(&self) -> bool {
        self.flags & TRUTHY != 0
    }

    /// A `summaries` value that is not a list; a falsy one is no summaries
    /// at all (`bool(state.get("summaries"))`), a truthy one fails when read.
    fn not_a_list(truthy: bool) -> Summaries {
        Summaries {
            flags: if truthy { TRUTHY | NOT_A_LIST } else { 0 },
            ..Summaries::default()
        }
    }

    /// Every tag's value found in one pass, when the list is a list
    /// without an untagged summary: then no lookup fails, and each finds
    /// the first summary of its tag (`None` otherwise: look each tag up).
    #[inline]
    pub fn by_tag(&self) -> Option<ByTag<'_>> {
        if self.not_a_list_flag() || self.first_untagged().is_some() {
            return None;
        }
        let mut slots = [None; Tag::COUNT];
        for entry in self.first.iter() {
            // The first of a tag, as a linear search finds it.
            slots[entry.tag() as usize].get_or_insert(entry);
        }
        Some(ByTag(slots))
    }

    #[inline]
    pub fn lookup(&self, tag: Tag) -> Lookup<'_> {
        if self.not_a_list_flag() {
            return Lookup::NotAList;
        }
        let found = self.first.iter().find(|entry| entry.tag() == tag);
        match (found, self.first_untagged().map(Counted::get)) {
            (Some(entry), Some(untagged)) if untagged < entry.position() => Lookup::Untagged,
            (None, Some(_)) => Lookup::Untagged,
            (Some(entry), _) => Lookup::Found(entry.get()),
            (None, None) => Lookup::Missing,
        }
    }
}

/// The kept summaries of a list by tag, found in one pass, for a list on
/// which no lookup can fail ([`Summaries::by_tag`]): each tag's value is
/// then what [`Summaries::lookup`] finds, or nothing.
pub struct ByTag<'a>([Option<&'a Entry>; Tag::COUNT]);

impl ByTag<'_> {
    /// What [`Summaries::lookup`] finds of a float tag, read in place:
    /// `Ok(None)` when the tag is missing or names a sidecar,
    /// `null_value` for a JSON `null`.
    #[inline]
    pub fn float(&self, tag: Tag, null_value: Option<f64>) -> Result<Option<f64>, Failure> {
        match self.0[tag as usize] {
            None => Ok(None),
            Some(Entry::Number { value, .. }) => Ok(Some(*value)),
            Some(Entry::Other { value, .. }) => match &**value {
                Extracted::Float(value) => value.clone().map(|v| v.or(null_value)),
                Extracted::Sidecar(_) => Ok(None),
            },
        }
    }

    /// The value [`Summaries::lookup`] finds, `None` when the tag is missing.
    #[inline]
    pub fn get(&self, tag: Tag) -> Option<Cow<'_, Extracted>> {
        self.0[tag as usize].map(Entry::get)
    }
}

/// A `summaries` list as it is read: [`SummariesReader::finish`] moves
/// what was kept into a [`Summaries`] of its exact size, and the reader
/// (its room for every tag the comparison reads) serves the next list.
#[derive(Default)]
pub(crate) struct SummariesReader {
    count: usize,
    first: Vec<Entry>,
    first_untagged: Option<Counted>,
}

impl SummariesReader {
    /// A summary whose tag the comparison does not read, for a reader that
    /// walks the list itself ([`crate::loading::schema`]): as
    /// [`SummariesReader::push_read`] records it, only counted.
    pub(crate) fn push_other(&mut self) {
        self.count += 1;
    }

    pub(crate) fn push_read(&mut self, tag: RawTag, data: SummaryData) {
        self.record(self.count, RawSummary { tag, data });
        self.count += 1;
    }

    /// A summary of a known tag whose value the schema reader extracted
    /// itself (see `schema::walk`): as [`SummariesReader::push_read`] with
    /// its data.
    pub(crate) fn push_extracted(&mut self, tag: Tag, value: Extracted) {
        self.keep_first(tag, self.count, || value);
        self.count += 1;
    }

    /// Forgets a list given up on.
    pub(crate) fn clear(&mut self) {
        self.count = 0;
        self.first.clear();
        self.first_untagged = None;
    }

    /// The list read so far, as kept; the reader is empty again.
    pub(crate) fn finish(&mut self) -> Summaries {
        let truthy = std::mem::take(&mut self.count) > 0;
        Summaries {
            first: self.first.drain(..).collect(),
            counted: self.first_untagged.take(),
            flags: if truthy { TRUTHY } else { 0 },
        }
    }

    fn record(&mut self, position: usize, summary: RawSummary) {
        match summary.tag {
            RawTag::Missing => {
                self.first_untagged.get_or_insert(Counted::of(position));
            }
            RawTag::Known(tag) => {
                self.keep_first(tag, position, || extract_summary(tag, &summary.data));
            }
            RawTag::Other => {}
        }
    }

    /// Keeps the value of the first summary of `tag` (a linear search finds
    /// that one); the value of a later one is not even extracted.
    fn keep_first(&mut self, tag: Tag, position: usize, value: impl FnOnce() -> Extracted) {
        if !self.first.iter().any(|entry| entry.tag() == tag) {
            self.first
                .push(Entry::new(tag, self::position(position), value()));
        }
    }
}

/// A summary's `tag`: one the comparison reads, another one, or none.
pub(crate) enum RawTag {
    Known(Tag),
    Other,
    Missing,
}

struct RawSummary {
    tag: RawTag,
    data: SummaryData,
}

impl<'de> Deserialize<'de> for RawSummary {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SummaryVisitor;
        impl<'de> Visitor<'de> for SummaryVisitor {
            type Value = RawSummary;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a summary object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawSummary, A::Error> {
                let mut tag = RawTag::Missing;
                let mut data = SummaryData::Entries(Vec::new());
                while let Some(key) = map.next_key::<SummaryKey>()? {
                    match key {
                        SummaryKey::Tag => tag = map.next_value::<TagField>()?.0,
                        // NVBench writes the tag first: the data of summaries
                        // the comparison never reads is skipped unparsed.
                        SummaryKey::Data if matches!(tag, RawTag::Other) => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        SummaryKey::Data => data = map.next_value::<DataField>()?.0,
                        SummaryKey::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(RawSummary { tag, data })
            }
        }
        deserializer.deserialize_map(SummaryVisitor)
    }
}

/// A key of a summary object, recognised without allocating (serde's
/// `Cow<str>` always allocates an owned `String`: five per summary).
enum SummaryKey {
    Tag,
    Data,
    Other,
}

impl<'de> Deserialize<'de> for SummaryKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = SummaryKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a summary key")
            }
            fn visit_str<E>(self, key: &str) -> Result<SummaryKey, E> {
                Ok(match key {
                    "tag" => SummaryKey::Tag,
                    "data" => SummaryKey::Data,
                    _ => SummaryKey::Other,
                })
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct DataField(SummaryData);

impl<'de> Deserialize<'de> for DataField {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DataVisitor;
        impl<'de> Visitor<'de> for DataVisitor {
            type Value = DataField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of summary data entries")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DataField, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = seq.next_element::<DataEntry>()? {
                    entries.push(entry);
                }
                Ok(DataField(SummaryData::Entries(entries)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DataField, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_unit<E: de::Error>(self) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<DataField, E> {
                Ok(DataField(SummaryData::Malformed))
            }
        }
        deserializer.deserialize_any(DataVisitor)
    }
}

impl<'de> Deserialize<'de> for Summaries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SummariesVisitor;
        impl<'de> Visitor<'de> for SummariesVisitor {
            type Value = Summaries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of summaries")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Summaries, E> {
                Ok(Summaries::default())
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v != 0))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v != 0))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(v != 0.0))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Summaries, E> {
                Ok(Summaries::not_a_list(!v.is_empty()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Summaries, A::Error> {
                let truthy = ScalarVisitor.visit_map(map)?.truthy();
                Ok(Summaries::not_a_list(truthy))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Summaries, A::Error> {
                let mut summaries = SummariesReader::default();
                while let Some(summary) = seq.next_element::<RawSummary>()? {
                    summaries.record(summaries.count, summary);
                    summaries.count += 1;
                }
                Ok(summaries.finish())
            }
        }
        deserializer.deserialize_any(SummariesVisitor)
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    fn median(json: &str) -> Option<f64> {
        let summaries: Summaries = serde_json::from_str(json).expect(json);
        match summaries.lookup(Tag::Median) {
            Lookup::Found(found) => match &*found {
                Extracted::Float(Ok(value)) => *value,
                _ => None,
            },
            _ => None,
        }
    }

    #[test]
    fn summary_keys_are_recognised_in_any_order_and_spelling() {
        let data = r#"[{"name": "value", "type": "float64", "value": "2.5"}]"#;
        let tag = r#""nv/cold/time/gpu/median""#;
        // The usual order, data before tag (not skipped then), an escaped
        // key, and keys that only look alike.
        let cases = [
            format!(r#"[{{"tag": {tag}, "name": "x", "data": {data}}}]"#),
            format!(r#"[{{"data": {data}, "hint": "h", "tag": {tag}}}]"#),
            format!(r#"[{{"t\u0061g": {tag}, "d\u0061ta": {data}}}]"#),
        ];
        for json in &cases {
            assert_eq!(median(json), Some(2.5), "{json}");
        }
        let lookalikes = format!(r#"[{{"Tag": {tag}, "tags": {tag}, "data": {data}}}]"#);
        let summaries: Summaries = serde_json::from_str(&lookalikes).unwrap();
        assert!(matches!(summaries.lookup(Tag::Median), Lookup::Untagged));
    }

    /// Every state of every run holds its kept summaries until its group
    /// is compared: 8 bytes an entry are 19 MB on six runs of 200,000
    /// states of two kept summaries.
    #[test]
    fn kept_summaries_stay_small() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Summaries>(), 24);
        assert_eq!(std::mem::size_of::<Option<Summaries>>(), 24);
    }
}
