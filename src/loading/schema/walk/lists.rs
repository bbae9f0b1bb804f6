//! The walk over a state's `summaries` list: summaries matched by the
//! templates of [`super::super::repeat`], the others walked token by token
//! (and kept as templates).

use serde::Deserialize;

use super::{Bail, Walker, decimal};
use crate::loading::schema::repeat::{Hit, Kind, Learned};
use crate::loading::summaries::{
    DataEntry, Extracted, RawTag, Summaries, SummariesReader, SummaryData, Tag, extract_summary,
};
use crate::pycompat::{pyfmt, pyjson};

/// The number of a float summary's value text, as the full reader's
/// scalar reads a plain string, or `Bail` for the text it reads otherwise.
pub(in crate::loading::schema) fn float_value(text: &str) -> Result<f64, Bail> {
    if pyjson::special_float(text).is_some() || pyjson::big_integer(text).is_some() {
        return Err(Bail);
    }
    decimal::parse(text.as_bytes())
        .or_else(|| pyfmt::parse_py_float(text))
        .ok_or(Bail)
}

fn push_hit(summaries: &mut SummariesReader, hit: Hit) {
    match hit.kind {
        Kind::Other => summaries.push_other(),
        Kind::Float(tag) => summaries.push_extracted(tag, Extracted::Float(Ok(Some(hit.value)))),
    }
}

impl<'a> Walker<'a> {
    /// A `summaries` list whose summaries all start with a string `tag`.
    pub(super) fn summaries(&mut self, start: usize, depth: usize) -> Result<Summaries, Bail> {
        let mut summaries = std::mem::take(&mut self.summaries);
        let read = self.summary_list(start, depth, &mut summaries);
        let list = read.map(|()| summaries.finish());
        summaries.clear();
        self.summaries = summaries;
        list
    }

    fn summary_list(
        &mut self,
        start: usize,
        depth: usize,
        summaries: &mut SummariesReader,
    ) -> Result<(), Bail> {
        // The template of the summary before (`None`: none before) and
        // where it ended.
        let mut before: Option<Option<u32>> = None;
        let mut before_end = None;
        let mut element = self.first_element(start)?;
        while let Some(pos) = element {
            let Some(first) = self.first_member(pos)? else {
                return Err(Bail);
            };
            self.key(first)?;
            if !self.is(first, b"tag\"") {
                return Err(Bail);
            }
            let tag = self.next()?;
            if self.byte(tag) != b'"' {
                return Err(Bail);
            }
            let input = self.input;
            if let Some(mut hit) = self.repeats.at_tag(input, tag, depth, before, before_end) {
                // This one and the ones after it that match, untokenized.
                push_hit(summaries, hit);
                while let Some(next) = self.repeats.after(input, hit.template, hit.end) {
                    push_hit(summaries, next);
                    hit = next;
                }
                self.tokens.reset(hit.end + 1)?;
                self.tokens.short_chunks();
                before = Some(Some(hit.template));
                before_end = Some(hit.end);
            } else {
                let mut learned = self.summary(tag, depth, summaries)?;
                let end = learned.end;
                // Templates have no backslash (their strings end at the
                // first quote); the blocks know where the last one was.
                if self.tokens.may_have_escape(tag, end + 1) {
                    learned.kind = None;
                }
                let template = self
                    .repeats
                    .learn(input, learned, depth, before, before_end);
                before = Some(template);
                before_end = Some(end);
            }
            element = self.after_element()?;
        }
        Ok(())
    }

    /// Walks the rest of a summary whose tag string is at `value` (its
    /// `{` and `"tag":` were read): what it was, as a template.
    fn summary(
        &mut self,
        value: usize,
        depth: usize,
        summaries: &mut SummariesReader,
    ) -> Result<Learned, Bail> {
        let member_depth = depth + 2;
        let tag = match self.input.get(value + 1..value + 17) {
            Some(raw) if super::surely_other_tag(raw) => RawTag::Other,
            _ => match self.plain_string(value).map(Tag::from_name) {
                Some(Some(tag)) => RawTag::Known(tag),
                Some(None) => RawTag::Other,
                None => return Err(Bail),
            },
        };
        // The value of a known tag's `data`, once it is read.
        let mut extracted = None;
        let mut value_at = None;
        let end = loop {
            let separator = self.next()?;
            match self.byte(separator) {
                b',' => {}
                b'}' => break separator,
                _ => return Err(Bail),
            }
            let pos = self.next()?;
            let colon = self.key(pos)?;
            let member = self.next()?;
            match &tag {
                _ if self.is(pos, b"tag\"") => return Err(Bail),
                RawTag::Known(known) if self.is(pos, b"data\"") => {
                    if extracted.is_some() {
                        return Err(Bail);
                    }
                    let (data, at) = self.known_data(*known, member, member_depth)?;
                    extracted = Some(data);
                    value_at = at;
                }
                _ => {
                    self.other_key(pos, colon)?;
                    self.skip(member, member_depth)?
                }
            }
        };
        let kind = match (tag, extracted) {
            (RawTag::Known(known), Some(data)) => {
                summaries.push_extracted(known, data);
                value_at.map(|_| Kind::Float(known))
            }
            (RawTag::Other, _) => {
                summaries.push_other();
                Some(Kind::Other)
            }
            (tag, _) => {
                summaries.push_read(tag, SummaryData::Entries(Vec::new()));
                None
            }
        };
        Ok(Learned {
            kind,
            tag: value,
            end,
            value_at,
        })
    }

    /// The value of the `data` of a summary the comparison reads, and for
    /// a float read from a plain string, that string's position.
    fn known_data(
        &mut self,
        tag: Tag,
        value: usize,
        depth: usize,
    ) -> Result<(Extracted, Option<usize>), Bail> {
        if !tag.is_float() {
            let entries = self.data(value, depth)?;
            return Ok((extract_summary(tag, &SummaryData::Entries(entries)), None));
        }
        match self.float_data(value) {
            Ok((number, at)) => Ok((Extracted::Float(Ok(Some(number))), Some(at))),
            Err(Bail) => {
                let entries = self.delegate(value, depth, |p| Vec::<DataEntry>::deserialize(p))?;
                Ok((extract_summary(tag, &SummaryData::Entries(entries)), None))
            }
        }
    }

    /// The usual `data` of a float summary, read without building its
    /// entries: objects of plain string `name`, `type` and `value` members
    /// only, whose first `value` entry is a `float64` a number string; the
    /// number, and its string's position. Anything else gives up (the
    /// caller reads the data again).
    fn float_data(&mut self, start: usize) -> Result<(f64, usize), Bail> {
        let mut found = None;
        self.elements(start, |this, pos| {
            let (mut name, mut value_type, mut value) = (None, None, None);
            let mut value_at = 0;
            // Depth is not needed: every other member gives up.
            this.members(pos, 0, |this, key, text_at| {
                let slot = match () {
                    _ if this.is(key, b"name\"") => &mut name,
                    _ if this.is(key, b"type\"") => &mut value_type,
                    _ if this.is(key, b"value\"") => {
                        value_at = text_at;
                        &mut value
                    }
                    _ => return Err(Bail),
                };
                if this.byte(text_at) != b'"' || slot.is_some() {
                    return Err(Bail);
                }
                // The usual name and type without looking for their ends.
                *slot = Some(match () {
                    _ if this.is(text_at, b"value\"") => "value",
                    _ if this.is(text_at, b"float64\"") => "float64",
                    _ => this.plain_string(text_at).ok_or(Bail)?,
                });
                Ok(true)
            })?;
            if found.is_none() && name == Some("value") {
                found = Some((value_type, value, value_at));
            }
            Ok(())
        })?;
        let Some((Some("float64"), Some(text), at)) = found else {
            return Err(Bail);
        };
        Ok((float_value(text)?, at))
    }

    /// A `data` list of entry objects (any other value is left to the full reader).
    fn data(&mut self, start: usize, depth: usize) -> Result<Vec<DataEntry>, Bail> {
        let mut entries = Vec::new();
        let member_depth = depth + 2;
        self.elements(start, |this, pos| {
            let mut entry = DataEntry {
                name: None,
                value_type: None,
                value: None,
            };
            let mut seen = super::Seen::default();
            this.members(pos, member_depth, |this, key, value| {
                match () {
                    _ if this.is(key, b"name\"") => {
                        seen.first(0)?;
                        entry.name = Some(this.word(value, member_depth)?);
                    }
                    _ if this.is(key, b"type\"") => {
                        seen.first(1)?;
                        entry.value_type = Some(this.word(value, member_depth)?);
                    }
                    _ if this.is(key, b"value\"") => {
                        seen.first(2)?;
                        entry.value = Some(this.scalar(value, member_depth)?);
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
            entries.push(entry);
            Ok(())
        })?;
        Ok(entries)
    }
}
