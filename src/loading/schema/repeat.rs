//! Summaries read before, matched again byte for byte.
//!
//! NVBench writes every state's summaries with the same text but for the
//! value strings: the same tags, names, descriptions and indentation. A
//! summary the walker has read (checked token by token, its strings by
//! the blocks) is kept as a template: offsets into the input of its bytes
//! from its tag's opening quote (or from just after the summary before it,
//! `,` and `{` and the `"tag":` key included) to its closing `}`, with one
//! hole, the body of one value string. A later summary whose bytes equal a
//! template's on both sides of the hole, and whose hole is a plain string
//! (printable ASCII, no quote, no backslash), is the same JSON value but
//! for that string's text: the walker would have read it the same way, so
//! it is taken without being classified or walked.
//!
//! The hole of a summary the comparison does not read is its last string,
//! which must be a value (only whitespace, `}` and `]` after it); any text
//! there reads the same. The hole of a float summary it reads is the
//! string its value was read from: the value is that text's number, read
//! as [`super::walk`] reads it, or the walker reads the summary.
//!
//! Templates only come from summaries the walker read without giving up,
//! with no backslash from the tag on, and at one depth; a miss costs one
//! comparison, and the walker then reads the summary (and keeps it as the
//! template of its tag instead).

use crate::loading::summaries::Tag;

/// No template.
const NONE: u32 = u32::MAX;

/// At most this many templates are kept (NVBench writes about 30 tags).
const MAX_TEMPLATES: usize = 64;

/// Slots of the table of templates by tag (open addressing, 4 times the
/// templates at most).
const SLOTS: usize = 256;

/// A template whose tag the walker read this many times in a row without
/// a match is kept as it is: its tag's summaries differ every time, and
/// reading them again as templates would only cost. It is read again
/// once every [`RETRY`] misses.
const MAX_MISSES: u32 = 4;
const RETRY: u32 = 64;

/// After this many summaries tried, templates are given up on for the
/// rest of the input when fewer than a quarter of them matched.
const TRIAL: usize = 1024;

/// What a summary matched by a template is.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    /// One the comparison does not read.
    Other,
    /// A float summary it reads.
    Float(Tag),
}

#[derive(Clone, Copy)]
struct Template {
    kind: Kind,
    /// Just after the `}` of the summary before this one, when it followed
    /// one in the same list ([`NO_LEAD`] otherwise).
    lead: usize,
    /// Its tag's opening and closing quotes.
    tag: usize,
    tag_end: usize,
    /// The hole: the body of a value string, from `body` to its closing
    /// quote at `body_end`.
    body: usize,
    body_end: usize,
    /// Its closing `}`.
    end: usize,
    /// The template of the summary that followed it last.
    next: u32,
    /// The depth of the summaries list it was read in.
    depth: usize,
    /// The hash of its tag's body ([`tag_key`]).
    key: u64,
    /// Summaries of its tag the walker read since it last matched one.
    misses: u32,
}

const NO_LEAD: usize = usize::MAX;

/// A summary matched by a template.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    pub kind: Kind,
    /// The float value of a [`Kind::Float`] summary.
    pub value: f64,
    /// The summary's closing `}`.
    pub end: usize,
    pub template: u32,
}

/// A summary the walker read, as a template.
#[derive(Clone, Copy)]
pub(super) struct Learned {
    /// `None`: it cannot be a template.
    pub kind: Option<Kind>,
    /// Its tag's opening quote and its closing `}`.
    pub tag: usize,
    pub end: usize,
    /// For a float summary, the opening quote of the string its value
    /// was read from (a plain string).
    pub value_at: Option<usize>,
}

pub(super) struct Repeats {
    templates: Vec<Template>,
    /// Template indices by [`tag_key`], probed from `key % SLOTS`.
    slots: Box<[u32; SLOTS]>,
    /// The template of the first summary of the last list.
    first: Option<u32>,
    /// Summaries matched, and tried at their tag.
    pub hits: usize,
    tries: usize,
    off: bool,
}

impl Default for Repeats {
    fn default() -> Repeats {
        Repeats {
            templates: Vec::new(),
            slots: Box::new([NONE; SLOTS]),
            first: None,
            hits: 0,
            tries: 0,
            off: false,
        }
    }
}

/// A hash of the plain string body `input[start..end]`.
fn tag_key(input: &[u8], start: usize, end: usize) -> u64 {
    let mut hash = (end - start) as u64;
    let mut at = start;
    while at < end {
        let take = (end - at).min(8);
        let word = match input.get(at..at + 8) {
            Some(word) => u64::from_le_bytes(word.try_into().unwrap_or_default()),
            None => input[at..end]
                .iter()
                .rev()
                .fold(0, |word, &b| word << 8 | u64::from(b)),
        };
        let word = if take == 8 {
            word
        } else {
            word & ((1 << (8 * take)) - 1)
        };
        hash = (hash ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
        at += 8;
    }
    hash
}

/// The length of the plain string body at the start of `bytes` (up to a
/// quote; printable ASCII without backslash), or `None`.
#[inline]
fn plain_body_len(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().ok()?);
        let zero = |x: u64| x.wrapping_sub(ONES) & !x;
        // Each test is exact at its lowest flagged byte (a borrow only
        // flags bytes above a flagged one), so the lowest of all is exact.
        let special = (zero(word ^ (ONES * u64::from(b'"')))
            | zero(word ^ (ONES * u64::from(b'\\')))
            | (word.wrapping_sub(ONES * 0x20) & !word)
            | word)
            & HIGH;
        if special != 0 {
            let first = at + special.trailing_zeros() as usize / 8;
            return (bytes[first] == b'"').then_some(first);
        }
        at += 8;
    }
    for (i, &byte) in bytes.iter().enumerate().skip(at) {
        match byte {
            b'"' => return Some(i),
            b'\\' | 0..=0x1f | 0x80.. => return None,
            _ => {}
        }
    }
    None
}

impl Template {
    /// Whether its tag's summaries differ every time.
    fn dead(&self) -> bool {
        self.misses > MAX_MISSES
    }
}

impl Repeats {
    /// The template from `from` (its tag or its lead) to the end, matched
    /// at `at`: the hit, or `None`.
    #[inline]
    fn match_from(&self, input: &[u8], index: u32, from: usize, at: usize) -> Option<Hit> {
        let t = self.templates.get(index as usize)?;
        let head = input.get(from..t.body)?;
        if input.get(at..at + head.len())? != head {
            return None;
        }
        let body = at + head.len();
        let body_end = body + plain_body_len(input.get(body..)?)?;
        let tail = input.get(t.body_end..=t.end)?;
        if input.get(body_end..body_end + tail.len())? != tail {
            return None;
        }
        let value = match t.kind {
            Kind::Other => 0.0,
            // SAFETY: printable ASCII (`plain_body_len`).
            Kind::Float(_) => super::walk::float_value(unsafe {
                std::str::from_utf8_unchecked(&input[body..body_end])
            })
            .ok()?,
        };
        Some(Hit {
            kind: t.kind,
            value,
            end: body_end + tail.len() - 1,
            template: index,
        })
    }

    /// The summary whose tag's opening quote is at `tag` (the walker has
    /// read its `{` and `"tag":`), at `depth`; `before` is the template of
    /// the summary before it in its list (`None` for the first one), and
    /// `before_end` where that summary ended, when it is known.
    pub fn at_tag(
        &mut self,
        input: &[u8],
        tag: usize,
        depth: usize,
        before: Option<Option<u32>>,
        before_end: Option<usize>,
    ) -> Option<Hit> {
        if self.off {
            return None;
        }
        self.tries += 1;
        if self.tries == TRIAL && self.hits * 4 < TRIAL {
            self.off = true;
        }
        let guess = match before {
            None => self.first,
            Some(Some(before)) => self.templates.get(before as usize).map(|t| t.next),
            Some(None) => None,
        }
        .filter(|&i| {
            self.templates
                .get(i as usize)
                .is_some_and(|t| t.depth == depth)
        });
        let mut hit = None;
        if let Some(guess) = guess {
            let t = &self.templates[guess as usize];
            if t.dead() {
                return None;
            }
            hit = self.match_from(input, guess, t.tag, tag);
        }
        if hit.is_none() {
            let found = self.by_tag(input, tag, depth)?;
            let t = &self.templates[found as usize];
            if Some(found) == guess || t.dead() {
                return None;
            }
            hit = self.match_from(input, found, t.tag, tag);
        }
        let hit = hit?;
        // Now this occurrence, with its lead when the one kept has none.
        let t = &mut self.templates[hit.template as usize];
        if let (NO_LEAD, Some(end)) = (t.lead, before_end) {
            let shift = |x: usize| x - t.tag + tag;
            *t = Template {
                lead: end + 1,
                tag,
                tag_end: shift(t.tag_end),
                body: shift(t.body),
                body_end: hit.end - (t.end - t.body_end),
                end: hit.end,
                ..*t
            };
        }
        t.misses = 0;
        self.follows(before, hit.template);
        self.hits += 1;
        Some(hit)
    }

    /// The template of the tag whose opening quote is at `tag`, at `depth`.
    fn by_tag(&self, input: &[u8], tag: usize, depth: usize) -> Option<u32> {
        let len = plain_body_len(input.get(tag + 1..)?)?;
        self.find(input, tag, tag_key(input, tag + 1, tag + 1 + len), depth)
            .ok()
    }

    /// The template of the tag (of hash `key`) whose opening quote is at
    /// `tag`, or the free slot for it.
    fn find(&self, input: &[u8], tag: usize, key: u64, depth: usize) -> Result<u32, usize> {
        let mut slot = key as usize % SLOTS;
        loop {
            let index = self.slots[slot];
            let t = self.templates.get(index as usize).ok_or(slot)?;
            // With its quotes: template tags have no escape.
            if t.key == key
                && t.depth == depth
                && input.get(tag..=tag + t.tag_end - t.tag) == input.get(t.tag..=t.tag_end)
            {
                return Ok(index);
            }
            slot = (slot + 1) % SLOTS;
        }
    }

    /// The summary after the one `before` matched, which ended at `end`:
    /// the template that followed that one last, from its lead.
    #[inline]
    pub fn after(&mut self, input: &[u8], before: u32, end: usize) -> Option<Hit> {
        let before = self.templates.get(before as usize)?;
        let (next, depth) = (before.next, before.depth);
        let t = self.templates.get(next as usize)?;
        if t.lead == NO_LEAD || t.depth != depth || t.dead() {
            return None;
        }
        let hit = self.match_from(input, next, t.lead, end + 1)?;
        self.templates[next as usize].misses = 0;
        self.hits += 1;
        Some(hit)
    }

    /// Records that the summary of template `index` followed the one of
    /// `before` (`None`: it was the first of its list).
    fn follows(&mut self, before: Option<Option<u32>>, index: u32) {
        match before {
            None => self.first = Some(index),
            Some(Some(before)) => {
                if let Some(t) = self.templates.get_mut(before as usize) {
                    t.next = index;
                }
            }
            Some(None) => {}
        }
    }

    /// Keeps a summary the walker read at `depth` as the template of its
    /// tag, when it can be one; its template, if any. `before` and
    /// `before_end` are as for [`Repeats::at_tag`].
    pub fn learn(
        &mut self,
        input: &[u8],
        summary: Learned,
        depth: usize,
        before: Option<Option<u32>>,
        before_end: Option<usize>,
    ) -> Option<u32> {
        if self.off {
            return None;
        }
        let index = self.template_of(input, &summary, depth, before_end);
        if let Some(index) = index {
            self.follows(before, index);
        } else if before.is_none() {
            self.first = None;
        }
        index
    }

    fn template_of(
        &mut self,
        input: &[u8],
        summary: &Learned,
        depth: usize,
        before_end: Option<usize>,
    ) -> Option<u32> {
        let Learned { kind, tag, end, .. } = *summary;
        let kind = kind?;
        let tag_end = tag + 1 + plain_body_len(input.get(tag + 1..)?)?;
        let key = tag_key(input, tag + 1, tag_end);
        let found = self.find(input, tag, key, depth);
        if let Ok(index) = found {
            let t = &mut self.templates[index as usize];
            t.misses = t.misses.saturating_add(1);
            if t.dead() {
                if !t.misses.is_multiple_of(RETRY) {
                    return Some(index);
                }
                // Tried once more, as read now.
                t.misses = MAX_MISSES;
            }
        }
        if input.get(end) != Some(&b'}') {
            return None;
        }
        let (body, body_end) = match summary.value_at {
            Some(at) => (at + 1, at + 1 + plain_body_len(input.get(at + 1..)?)?),
            None => {
                // The last string, followed by whitespace, `}` and `]` only.
                let body_end = tag
                    + input[tag..=end]
                        .iter()
                        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'}' | b']'))?;
                if input[body_end] != b'"' {
                    return None;
                }
                let open = tag + input[tag..body_end].iter().rposition(|&b| b == b'"')?;
                (open + 1, body_end)
            }
        };
        // The hole is a plain string after the tag (the caller saw no
        // backslash from the tag on).
        if body <= tag_end + 1 || plain_body_len(&input[body..]) != Some(body_end - body) {
            return None;
        }
        let template = Template {
            kind,
            lead: before_end.map_or(NO_LEAD, |end| end + 1),
            tag,
            tag_end,
            body,
            body_end,
            end,
            next: NONE,
            depth,
            key,
            misses: 0,
        };
        match found {
            Ok(index) => {
                let t = &mut self.templates[index as usize];
                *t = Template {
                    next: t.next,
                    misses: t.misses,
                    ..template
                };
                Some(index)
            }
            Err(slot) if self.templates.len() < MAX_TEMPLATES => {
                let index = u32::try_from(self.templates.len()).ok()?;
                self.templates.push(template);
                self.slots[slot] = index;
                Some(index)
            }
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plain_body_len;

    #[test]
    fn plain_bodies_end_at_their_quote() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            crate::testing::xorshift_step(&mut state);
            let len = (state % 24) as usize;
            let mut bytes = Vec::new();
            for _ in 0..len {
                crate::testing::xorshift_step(&mut state);
                bytes.push(match state % 40 {
                    0 => b'"',
                    1 => b'\\',
                    2 => (state >> 8) as u8 & 0x1f,
                    3 => 0x80 | (state >> 8) as u8,
                    4 => 0x7f,
                    5 => 0x20,
                    _ => b'0' + (state >> 8) as u8 % 10,
                });
            }
            let expected = bytes
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b))
                .filter(|&i| bytes[i] == b'"');
            assert_eq!(plain_body_len(&bytes), expected, "{bytes:?}");
        }
    }
}
