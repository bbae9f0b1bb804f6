//! Stage 2: the walk over the tokens along the NVBench schema.
//!
//! Depths count the containers around a value (the document is at 0, the
//! root object's values at 1), as the full reader counts them for its
//! nesting limit.

use std::sync::Arc;

use compact_str::CompactString;
use serde::Deserialize;
use serde::de::value::{BorrowedStrDeserializer, U64Deserializer};

use super::Bail;
use super::blocks::{Tokens, is_delimiter};
use super::decimal;
use super::full::{self, FullReader, MAX_DEPTH};
use super::intern::AxisInterner;
use super::repeat::Repeats;
use crate::loading::anchor::{BenchmarkIdents, Role, ident_of, list_at};
use crate::loading::model::{
    self, Axis, AxisValue, Benchmark, Meta, Root, State, StateDevice, StateIdent, identical_lists,
};
use crate::loading::scalar::Scalar;
use crate::loading::summaries::{Summaries, SummariesReader, Word};

mod lists;
pub(super) use lists::float_value;

pub(super) struct Walker<'a> {
    input: &'a [u8],
    tokens: Tokens<'a>,
    /// The axis values of a benchmark's states as they are read; each
    /// state's list is moved into an allocation of its exact length once
    /// every state is read (see [`Walker::states`]).
    pending_values: Vec<AxisValue>,
    /// The range of `pending_values` listed by the state just read, with
    /// its name and device (set when its walk succeeds): its ident is made
    /// with the list.
    pending_list: Option<(std::ops::Range<usize>, CompactString, StateDevice)>,
    axis_handles: AxisInterner<'a>,
    /// What the run does with the comparison's anchor (see `loading::anchor`).
    role: Role<'a>,
    /// The first run's idents of the benchmark being read (a later run's).
    anchor_idents: Option<BenchmarkIdents>,
    /// Where the walk is: the benchmark's and the state's positions in
    /// their lists, and where the state's axis values start in
    /// `pending_values`.
    benchmark_index: usize,
    state_index: usize,
    state_mark: usize,
    /// A state's summaries as they are read (its room is kept for the next).
    summaries: SummariesReader,
    /// Summaries read before, to match again.
    repeats: Repeats,
}

/// Keys seen in an object, one bit each: a second one is left to the full reader.
#[derive(Default)]
struct Seen(u32);

impl Seen {
    fn first(&mut self, bit: u32) -> Result<(), Bail> {
        if self.0 & (1 << bit) != 0 {
            return Err(Bail);
        }
        self.0 |= 1 << bit;
        Ok(())
    }
}

/// The `type` or `value` of an axis value as the walker found it.
enum AxisField<'a> {
    Missing,
    /// The body of a plain string.
    Text(&'a str),
    Parsed(Option<Scalar>),
}

impl AxisField<'_> {
    /// The value, as the derived reader gives it.
    fn scalar(self) -> Result<Option<Scalar>, Bail> {
        match self {
            AxisField::Missing => Ok(None),
            AxisField::Text(text) => {
                Scalar::deserialize(BorrowedStrDeserializer::<Bail>::new(text)).map(Some)
            }
            AxisField::Parsed(value) => Ok(value),
        }
    }
}

/// Whether the string whose body starts with `raw` (16 bytes, read past
/// its end if need be) is none of the tags the comparison reads, told by
/// its first bytes: two thirds of the tags, whose ends then need not be
/// found. Every name of [`Tag`] starts with one of `PREFIXES`; a body
/// that differs from each of them at a byte that is no backslash (the
/// bytes before it are the prefix's own, plain) spells none of them,
/// whatever escapes follow.
pub(super) fn surely_other_tag(raw: &[u8]) -> bool {
    const PREFIXES: [&[u8; 16]; 3] = [
        b"nv/cold/time/gpu",
        b"nv/cold/sm_clock",
        b"nv/json/\0\0\0\0\0\0\0\0",
    ];
    const LENGTHS: [usize; 3] = [16, 16, 8];
    let word = |bytes: &[u8], at: usize| {
        bytes
            .get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
    };
    let (Some(raw0), Some(raw1)) = (word(raw, 0), word(raw, 8)) else {
        return false;
    };
    PREFIXES.iter().zip(LENGTHS).all(|(prefix, len)| {
        let (Some(p0), Some(p1)) = (word(*prefix, 0), word(*prefix, 8)) else {
            return false;
        };
        let differs = if raw0 != p0 {
            (raw0 ^ p0).trailing_zeros() as usize / 8
        } else if len == 16 && raw1 != p1 {
            8 + (raw1 ^ p1).trailing_zeros() as usize / 8
        } else {
            return false;
        };
        raw[differs] != b'\\'
    })
}

/// JSON number grammar from `pos`; the position after it.
fn number_end(input: &[u8], mut pos: usize) -> Result<usize, Bail> {
    let digit = |pos: usize| input.get(pos).is_some_and(u8::is_ascii_digit);
    let digits = |mut pos: usize| {
        while digit(pos) {
            pos += 1;
        }
        pos
    };
    if input.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match input.get(pos) {
        Some(b'0') => pos += 1,
        Some(b'1'..=b'9') => pos = digits(pos + 1),
        _ => return Err(Bail),
    }
    if input.get(pos) == Some(&b'.') {
        if !digit(pos + 1) {
            return Err(Bail);
        }
        pos = digits(pos + 1);
    }
    if let Some(b'e' | b'E') = input.get(pos) {
        pos += 1;
        if let Some(b'+' | b'-') = input.get(pos) {
            pos += 1;
        }
        if !digit(pos) {
            return Err(Bail);
        }
        pos = digits(pos);
    }
    Ok(pos)
}

/// The first run's axis value at `position` in the state at `state`,
/// when its benchmark is published already (a run read after it).
fn anchored_value(
    idents: Option<&[Arc<StateIdent>]>,
    state: usize,
    position: usize,
) -> Option<&AxisValue> {
    list_at(idents?, state)?.get(position)
}

impl<'a> Walker<'a> {
    pub fn new(input: &'a [u8], avx2: bool, role: Role<'a>) -> Walker<'a> {
        Walker {
            role,
            anchor_idents: None,
            benchmark_index: 0,
            state_index: 0,
            state_mark: 0,
            input,
            tokens: Tokens::new(input, avx2),
            pending_values: Vec::new(),
            pending_list: None,
            axis_handles: AxisInterner::default(),
            summaries: SummariesReader::default(),
            repeats: Repeats::default(),
        }
    }

    pub fn document(mut self) -> Result<Root, Bail> {
        let start = self.tokens.next()?;
        let root = self.root(start)?;
        self.tokens.finish()?;
        Ok(root)
    }

    /// [`Walker::document`], and how many summaries templates matched.
    #[cfg(test)]
    pub fn document_and_hits(mut self) -> (Result<Root, Bail>, usize) {
        let mut read = || {
            let start = self.tokens.next()?;
            let root = self.root(start)?;
            self.tokens.finish()?;
            Ok(root)
        };
        let root = read();
        (root, self.repeats.hits)
    }

    #[inline(always)]
    fn next(&mut self) -> Result<usize, Bail> {
        self.tokens.next()
    }

    #[inline(always)]
    fn byte(&self, pos: usize) -> u8 {
        self.input[pos]
    }

    /// A token that must be `byte`.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Result<usize, Bail> {
        let pos = self.next()?;
        if self.byte(pos) == byte {
            Ok(pos)
        } else {
            Err(Bail)
        }
    }

    /// Reads the value at `pos` with the full reader's deserializer `read`.
    fn delegate<T>(
        &mut self,
        pos: usize,
        depth: usize,
        read: impl FnOnce(&mut FullReader<'a>) -> serde_json::Result<T>,
    ) -> Result<T, Bail> {
        let (value, end) = full::read_at(self.input, pos, depth, read)?;
        self.tokens.reset(end)?;
        Ok(value)
    }

    /// Walks the value at `pos`; when the walk gives up, the full reader's
    /// deserializer reads it from the start.
    fn walk_or_delegate<T>(
        &mut self,
        pos: usize,
        depth: usize,
        walk: impl FnOnce(&mut Self, usize, usize) -> Result<T, Bail>,
        read: impl FnOnce(&mut FullReader<'a>) -> serde_json::Result<T>,
    ) -> Result<T, Bail> {
        match walk(self, pos, depth) {
            Ok(value) => Ok(value),
            Err(Bail) => self.delegate(pos, depth, read),
        }
    }

    /// The key token at `pos` and its colon: the colon's position.
    #[inline(always)]
    fn key(&mut self, pos: usize) -> Result<usize, Bail> {
        if self.byte(pos) != b'"' {
            return Err(Bail);
        }
        self.expect(b':')
    }

    /// Whether the key at `pos` is `name` (given with its closing quote:
    /// a body that starts with a name free of quotes and backslashes, then
    /// a quote, is exactly that name).
    #[inline(always)]
    fn is(&self, pos: usize, name: &[u8]) -> bool {
        self.input.get(pos + 1..pos + 1 + name.len()) == Some(name)
    }

    /// A key none of the names matched, whose colon is at `colon`: it must
    /// have no escape (an escaped key may spell a name; the full reader
    /// reads it).
    #[inline]
    fn other_key(&self, pos: usize, colon: usize) -> Result<(), Bail> {
        if self.tokens.may_have_escape(pos + 1, colon) {
            Err(Bail)
        } else {
            Ok(())
        }
    }

    /// The body of the string token at `pos`, the last token taken, if it
    /// has no escape. Only whitespace lies between its closing quote and
    /// the next token, and the blocks that found that token checked the
    /// body (no control character, valid escapes, UTF-8). Scanning the
    /// body for its end cost 40% more instructions (eight bytes at a time;
    /// so did skipping the indentation before the next token so).
    #[inline]
    fn plain_string(&mut self, pos: usize) -> Option<&'a str> {
        let next = self.tokens.peek().ok()?;
        let input = self.input;
        let mut end = next;
        loop {
            end = end.checked_sub(1)?;
            match input[end] {
                b' ' | b'\n' | b'\t' | b'\r' => {}
                b'"' => break,
                _ => return None,
            }
        }
        if end <= pos || self.tokens.may_have_escape(pos + 1, end) {
            return None;
        }
        // SAFETY: checked by the blocks (above).
        Some(unsafe { std::str::from_utf8_unchecked(&input[pos + 1..end]) })
    }

    /// The body of the string at `pos` when it is a plain string (see
    /// [`Self::plain_string`]); `None` for any other value.
    #[inline]
    fn string_body(&mut self, pos: usize) -> Option<&'a str> {
        if self.byte(pos) != b'"' {
            return None;
        }
        self.plain_string(pos)
    }

    /// The number at `pos` when it is a non-negative integer of at most
    /// 18 digits, which serde_json reads as a `u64`; `None` for any other
    /// value.
    fn small_integer(&self, pos: usize) -> Option<u64> {
        let digits = self.input[pos..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || digits > 18 || self.check_scalar(pos).is_err() {
            return None;
        }
        match self.input.get(pos + digits) {
            Some(b'.' | b'e' | b'E') => None,
            _ => std::str::from_utf8(&self.input[pos..pos + digits])
                .ok()?
                .parse()
                .ok(),
        }
    }

    /// After a member's value: `,` and the next key, or the object's end.
    #[inline(always)]
    fn after_member(&mut self) -> Result<Option<usize>, Bail> {
        self.after_item(b'}')
    }

    /// After an element: `,` and the next element, or the array's end.
    #[inline(always)]
    fn after_element(&mut self) -> Result<Option<usize>, Bail> {
        self.after_item(b']')
    }

    /// After an item of a container closed by `close`: `,` and the next
    /// item, or the end.
    #[inline(always)]
    fn after_item(&mut self, close: u8) -> Result<Option<usize>, Bail> {
        let pos = self.next()?;
        match self.byte(pos) {
            b',' => Ok(Some(self.next()?)),
            byte if byte == close => Ok(None),
            _ => Err(Bail),
        }
    }

    /// The first member of the object opened at `pos`, if any.
    #[inline(always)]
    fn first_member(&mut self, pos: usize) -> Result<Option<usize>, Bail> {
        self.first_item(pos, b'{', b'}')
    }

    /// The first element of the array opened at `pos`, if any.
    #[inline(always)]
    fn first_element(&mut self, pos: usize) -> Result<Option<usize>, Bail> {
        self.first_item(pos, b'[', b']')
    }

    /// The first item of the container `open` at `pos`, if any.
    #[inline(always)]
    fn first_item(&mut self, pos: usize, open: u8, close: u8) -> Result<Option<usize>, Bail> {
        if self.byte(pos) != open {
            return Err(Bail);
        }
        let first = self.next()?;
        Ok((self.byte(first) != close).then_some(first))
    }

    /// Walks the members of the object opened at `start`: `read` takes a
    /// member's key and value tokens and says whether it read the value;
    /// any other member must have a plain key, and its value is skipped at
    /// `depth`.
    #[inline(always)]
    fn members(
        &mut self,
        start: usize,
        depth: usize,
        mut read: impl FnMut(&mut Self, usize, usize) -> Result<bool, Bail>,
    ) -> Result<(), Bail> {
        let mut member = self.first_member(start)?;
        while let Some(pos) = member {
            let colon = self.key(pos)?;
            let value = self.next()?;
            if !read(self, pos, value)? {
                self.other_key(pos, colon)?;
                self.skip(value, depth)?;
            }
            member = self.after_member()?;
        }
        Ok(())
    }

    /// Walks the elements of the array opened at `start`, each by `read`.
    #[inline(always)]
    fn elements(
        &mut self,
        start: usize,
        mut read: impl FnMut(&mut Self, usize) -> Result<(), Bail>,
    ) -> Result<(), Bail> {
        let mut element = self.first_element(start)?;
        while let Some(pos) = element {
            read(self, pos)?;
            element = self.after_element()?;
        }
        Ok(())
    }

    fn root(&mut self, start: usize) -> Result<Root, Bail> {
        let mut root = Root {
            meta: None,
            devices: None,
            benchmarks: None,
        };
        let mut seen = Seen::default();
        self.members(start, 1, |this, key, value| {
            match () {
                _ if this.is(key, b"meta\"") => {
                    seen.first(0)?;
                    root.meta = this.delegate(value, 1, |p| Option::<Meta>::deserialize(p))?;
                }
                _ if this.is(key, b"devices\"") => {
                    seen.first(1)?;
                    root.devices = this.delegate(value, 1, |p| Option::<Vec<_>>::deserialize(p))?;
                }
                _ if this.is(key, b"benchmarks\"") => {
                    seen.first(2)?;
                    root.benchmarks = if this.byte(value) == b'[' {
                        Some(this.benchmarks(value, 1)?)
                    } else {
                        this.delegate(value, 1, |p| Option::<Vec<Benchmark>>::deserialize(p))?
                    };
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(root)
    }

    fn benchmarks(&mut self, start: usize, depth: usize) -> Result<Vec<Benchmark>, Bail> {
        let mut benchmarks = Vec::new();
        self.elements(start, |this, pos| {
            this.benchmark_index = benchmarks.len();
            let benchmark = this.walk_or_delegate(pos, depth + 1, Self::benchmark, |p| {
                Benchmark::deserialize(p)
            })?;
            if let Role::First(anchor) = this.role {
                anchor.publish(
                    benchmark
                        .states()
                        .iter()
                        .map(|s| Arc::clone(s.ident()))
                        .collect(),
                );
            }
            benchmarks.push(benchmark);
            Ok(())
        })?;
        Ok(benchmarks)
    }

    fn benchmark(&mut self, start: usize, depth: usize) -> Result<Benchmark, Bail> {
        let (mut name, mut devices, mut axes, mut states) = (None, None, None, None);
        let mut seen = Seen::default();
        let inner = depth + 1;
        self.members(start, inner, |this, key, value| {
            match () {
                _ if this.is(key, b"name\"") => {
                    seen.first(0)?;
                    name = Some(this.delegate(value, inner, |p| model::loose_name(p))?);
                }
                _ if this.is(key, b"devices\"") => {
                    seen.first(1)?;
                    devices = Some(this.delegate(value, inner, |p| model::loose_ints(p))?);
                }
                _ if this.is(key, b"axes\"") => {
                    seen.first(2)?;
                    axes = this.delegate(value, inner, |p| Option::<Vec<Axis>>::deserialize(p))?;
                }
                _ if this.is(key, b"states\"") => {
                    seen.first(3)?;
                    states = if this.byte(value) == b'[' {
                        Some(this.states(value, inner)?)
                    } else {
                        this.delegate(value, inner, |p| Option::<Vec<State>>::deserialize(p))?
                    };
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(Benchmark {
            name: name.ok_or(Bail)?,
            devices: devices.ok_or(Bail)?,
            axes,
            states,
        })
    }

    /// The states of a benchmark. Their idents and axis-value lists are
    /// made after all of them: a run read beside the first one takes the
    /// first run's identical ones then (see `loading::anchor`), and those
    /// a run makes are side by side rather than between the states'
    /// summaries (freed between live summaries, as the lists of a run
    /// shared after it was read were, they left holes of 48 bytes that
    /// nothing later took: about 48 MB at 200,000 states and six runs).
    fn states(&mut self, start: usize, depth: usize) -> Result<Vec<State>, Bail> {
        let mut states = Vec::new();
        let mut lists: Vec<(usize, usize, CompactString, StateDevice)> = Vec::new();
        self.pending_values.clear();
        // The first run's idents, if published already: its axis values are
        // then taken as they are read (see `axis_value`).
        self.anchor_idents = match self.role {
            Role::Later(anchor) => anchor.published(self.benchmark_index),
            _ => None,
        };
        let mut last = start;
        self.elements(start, |this, pos| {
            last = pos;
            let mark = this.pending_values.len();
            this.pending_list = None;
            this.state_index = states.len();
            let state =
                this.walk_or_delegate(pos, depth + 1, Self::state, |p| State::deserialize(p))?;
            // Set only by a state the walk read to its end.
            match this.pending_list.take() {
                Some((range, name, device)) => {
                    lists.push((states.len(), range.len(), name, device))
                }
                // Read by the full reader after the walk gave up, or given
                // its own ident already (a state with a skip reason).
                None => this.pending_values.truncate(mark),
            }
            states.push(state);
            Ok(())
        })?;
        // As the full reader does (`loading::exact`): no slack on huge inputs.
        states.shrink_to_fit();
        // A run read beside the first one waits for its idents here.
        if let (Role::Later(anchor), None) = (self.role, &self.anchor_idents) {
            crate::loading::mapped::release_before(self.input.as_ptr().wrapping_add(last));
            self.anchor_idents = anchor.wait_for(self.benchmark_index);
        }
        let idents = self.anchor_idents.take();
        let idents = idents.as_deref();
        let mut values = self.pending_values.drain(..);
        for (index, len, name, device) in lists {
            let anchored = idents
                .and_then(|idents| list_at(idents, index))
                .filter(|list| identical_lists(list, &values.as_slice()[..len]));
            let list = match anchored {
                Some(list) => {
                    values.by_ref().take(len).for_each(drop);
                    Arc::clone(list)
                }
                None => values.by_ref().take(len).collect(),
            };
            states[index].set_ident(ident_of(idents, index, name, device, list));
        }
        Ok(states)
    }

    fn state(&mut self, start: usize, depth: usize) -> Result<State, Bail> {
        let mut state = State::unnamed(false);
        let (mut name, mut device) = (CompactString::default(), StateDevice::Missing);
        let mut reason = None;
        // The axis-value list: pending (made by `states`) or read.
        let (mut pending, mut list) = (None, None);
        let mut seen = Seen::default();
        let inner = depth + 1;
        self.members(start, inner, |this, key, value| {
            match () {
                _ if this.is(key, b"name\"") => {
                    seen.first(0)?;
                    name = this.state_name(value, inner)?;
                }
                _ if this.is(key, b"device\"") => {
                    seen.first(1)?;
                    device = this.state_device(value, inner)?;
                }
                _ if this.is(key, b"axis_values\"") => {
                    seen.first(2)?;
                    let mark = this.pending_values.len();
                    this.state_mark = mark;
                    state.set_axis_values_key(true);
                    if this.byte(value) != b'[' {
                        let values =
                            this.delegate(value, inner, |p| model::present_axis_values(p))?;
                        state.set_axis_values_key(values.is_some());
                        list = values.flatten();
                    } else if this.axis_values(value, inner).is_ok() {
                        // The list is made by `states` once all are read.
                        pending = Some(mark..this.pending_values.len());
                    } else {
                        this.pending_values.truncate(mark);
                        list = Some(this.delegate(value, inner, |p| model::axis_value_list(p))?);
                    }
                }
                _ if this.is(key, b"summaries\"") => {
                    seen.first(3)?;
                    state.summaries = if this.byte(value) == b'[' {
                        Some(this.walk_or_delegate(value, inner, Self::summaries, |p| {
                            Summaries::deserialize(p)
                        })?)
                    } else {
                        this.delegate(value, inner, |p| Option::<Summaries>::deserialize(p))?
                    };
                }
                _ if this.is(key, b"is_skipped\"") => {
                    seen.first(4)?;
                    let is_skipped = if matches!(this.byte(value), b't' | b'f') {
                        // The usual `false`, without the full reader.
                        this.check_scalar(value)?;
                        Some(Scalar::Bool(this.byte(value) == b't'))
                    } else {
                        this.delegate(value, inner, |p| Option::<Scalar>::deserialize(p))?
                    };
                    state.set_skipped(is_skipped.as_ref());
                }
                _ if this.is(key, b"skip_reason\"") => {
                    seen.first(5)?;
                    reason = this.delegate(value, inner, |p| Option::<Scalar>::deserialize(p))?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        // `name` has no default.
        if seen.0 & 1 == 0 {
            return Err(Bail);
        }
        let reason = reason.filter(Scalar::truthy);
        if let (Some(range), None) = (&pending, &reason) {
            self.pending_list = Some((range.clone(), name, device));
            return Ok(state);
        }
        // A skip reason is kept in the state's own ident, made now (the
        // caller drops the pending values of a state it has no range of).
        if let Some(range) = pending {
            list = Some(self.pending_values[range].iter().cloned().collect());
        }
        state.set_ident(Arc::new(StateIdent::new(name, device, list)));
        state.set_skip_reason(reason);
        Ok(state)
    }

    /// An `axis_values` list of objects with a plain string `name` (the
    /// derived reader's errors, duplicate keys included, are left to it),
    /// appended to `pending_values` (what it appended is left there when it
    /// gives up: the caller drops it).
    fn axis_values(&mut self, start: usize, depth: usize) -> Result<(), Bail> {
        let member_depth = depth + 2;
        self.elements(start, |this, pos| {
            let (mut name, mut value_type, mut value) = (None, AxisField::Missing, None);
            let mut seen = Seen::default();
            let mut name_first = false;
            this.members(pos, member_depth, |this, key, at| {
                match () {
                    _ if this.is(key, b"name\"") => {
                        seen.first(0)?;
                        name_first = seen.0 == 1;
                        name = Some(this.string_body(at).ok_or(Bail)?);
                    }
                    _ if this.is(key, b"type\"") => {
                        seen.first(1)?;
                        value_type =
                            if this.byte(at) == b'"' {
                                this.axis_field(at, member_depth)?
                            } else {
                                AxisField::Parsed(this.delegate(at, member_depth, |p| {
                                    Option::<Scalar>::deserialize(p)
                                })?)
                            };
                    }
                    _ if this.is(key, b"value\"") => {
                        seen.first(2)?;
                        value = Some(this.axis_field(at, member_depth)?);
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
            let value = value.unwrap_or(AxisField::Missing);
            let name = name.ok_or(Bail)?;
            let handle = this.axis_value(name, name_first, value_type, value)?;
            this.pending_values.push(handle);
            Ok(())
        })
    }

    /// A present `type` or `value` of an axis value: its text when it is
    /// a plain string (as the key of its handle), else its value.
    fn axis_field(&mut self, pos: usize, depth: usize) -> Result<AxisField<'a>, Bail> {
        if let Some(text) = self.string_body(pos) {
            return Ok(AxisField::Text(text));
        }
        Ok(AxisField::Parsed(Some(self.scalar(pos, depth)?)))
    }

    /// The handle of an axis value: shared with every earlier one read
    /// from the same text, from its name's body to the end of its last
    /// field, when its name comes first and its fields are plain strings
    /// (equal texts then hold equal members, and `scalar` reads a plain
    /// string as its body); else one of its own.
    fn axis_value(
        &mut self,
        name: &'a str,
        name_first: bool,
        value_type: AxisField<'a>,
        value: AxisField<'a>,
    ) -> Result<AxisValue, Bail> {
        // The anchor's value at this position, when identical, instead of one
        // of this run's own.
        // Borrowed, not cloned: only a value made here (not one interned
        // before) is compared with it.
        let anchored = anchored_value(
            self.anchor_idents.as_deref(),
            self.state_index,
            self.pending_values.len() - self.state_mark,
        );
        let make = |value_type: AxisField, value: AxisField| -> Result<AxisValue, Bail> {
            let made = AxisValue::new(name.into(), value_type.scalar()?, value.scalar()?);
            Ok(match anchored {
                Some(anchored) if anchored.identical(&made) => anchored.clone(),
                _ => made,
            })
        };
        let offset = |text: &str| text.as_ptr() as usize - self.input.as_ptr() as usize;
        let end = |field: &AxisField| match field {
            AxisField::Missing => Some(0),
            AxisField::Text(text) => Some(offset(text) + text.len()),
            AxisField::Parsed(_) => None,
        };
        let (start, name_end) = (offset(name), offset(name) + name.len());
        match (name_first, end(&value_type), end(&value)) {
            (true, Some(type_end), Some(value_end)) => {
                let text = &self.input[start..name_end.max(type_end).max(value_end)];
                self.axis_handles
                    .get_or_make(text, || make(value_type, value))
            }
            _ => make(value_type, value),
        }
    }

    // The values below are read by the model's deserializers from their
    // text when it is a plain string (or a small integer), as serde_json
    // would hand it to them, else by the full reader.

    fn word(&mut self, pos: usize, depth: usize) -> Result<Word, Bail> {
        match self.string_body(pos) {
            Some(text) => Word::deserialize(BorrowedStrDeserializer::<Bail>::new(text)),
            None => self.delegate(pos, depth, |p| Word::deserialize(p)),
        }
    }

    fn scalar(&mut self, pos: usize, depth: usize) -> Result<Scalar, Bail> {
        match self.string_body(pos) {
            Some(text) => Scalar::deserialize(BorrowedStrDeserializer::<Bail>::new(text)),
            None => self.delegate(pos, depth, |p| Scalar::deserialize(p)),
        }
    }

    fn state_name(&mut self, pos: usize, depth: usize) -> Result<CompactString, Bail> {
        match self.string_body(pos) {
            Some(text) => model::state_name(BorrowedStrDeserializer::<Bail>::new(text)),
            None => self.delegate(pos, depth, |p| model::state_name(p)),
        }
    }

    fn state_device(&mut self, pos: usize, depth: usize) -> Result<StateDevice, Bail> {
        match self.small_integer(pos) {
            Some(number) => model::state_device(U64Deserializer::<Bail>::new(number)),
            None => self.delegate(pos, depth, |p| model::state_device(p)),
        }
    }

    /// A number or literal token: its syntax, and a delimiter after it.
    fn check_scalar(&self, pos: usize) -> Result<(), Bail> {
        let input = self.input;
        let end = match input[pos] {
            b't' if input[pos..].starts_with(b"true") => pos + 4,
            b'f' if input[pos..].starts_with(b"false") => pos + 5,
            b'n' if input[pos..].starts_with(b"null") => pos + 4,
            b'-' | b'0'..=b'9' => number_end(input, pos)?,
            _ => return Err(Bail),
        };
        match input.get(end) {
            Some(&byte) if !is_delimiter(byte) => Err(Bail),
            _ => Ok(()),
        }
    }

    /// Moves past the value whose first token is at `pos`, checking its
    /// syntax as the full reader's skipping does (strings, most skipped
    /// values, were checked by the blocks).
    #[inline(always)]
    fn skip(&mut self, pos: usize, depth: usize) -> Result<(), Bail> {
        if self.byte(pos) == b'"' {
            Ok(())
        } else {
            self.skip_other(pos, depth)
        }
    }

    #[inline(never)]
    fn skip_other(&mut self, pos: usize, depth: usize) -> Result<(), Bail> {
        if self.byte(pos) == b'[' && depth + 2 < MAX_DEPTH {
            return self.skip_entries(pos, depth);
        }
        self.skip_nested(pos, depth, 0, 0)
    }

    /// Skips an array of flat objects of string members (the `data` of
    /// the summaries not read), the common case of [`Self::skip_nested`]
    /// without its container stack; at any other value it goes on there.
    fn skip_entries(&mut self, start: usize, depth: usize) -> Result<(), Bail> {
        let mut element = self.first_element(start)?;
        while let Some(pos) = element {
            if self.byte(pos) != b'{' {
                return self.skip_nested(pos, depth, 0, 1);
            }
            let mut member = self.next()?;
            if self.byte(member) != b'}' {
                loop {
                    self.key(member)?;
                    let value = self.next()?;
                    if self.byte(value) != b'"' {
                        return self.skip_nested(value, depth, 0b10, 2);
                    }
                    let after = self.next()?;
                    match self.byte(after) {
                        b',' => member = self.next()?,
                        b'}' => break,
                        _ => return Err(Bail),
                    }
                }
            }
            element = self.after_element()?;
        }
        Ok(())
    }

    /// Moves past the rest of a value whose containers `open` (their kinds
    /// in `objects`, one bit each, set for objects) were opened already,
    /// starting at the value token `pos` (the whole value when `open` is 0).
    fn skip_nested(
        &mut self,
        mut pos: usize,
        depth: usize,
        mut objects: u128,
        mut open: usize,
    ) -> Result<(), Bail> {
        'value: loop {
            match self.byte(pos) {
                b'"' => {}
                byte @ (b'{' | b'[') => {
                    let object = byte == b'{';
                    let first = self.next()?;
                    let close = if object { b'}' } else { b']' };
                    if self.byte(first) != close {
                        if depth + open + 1 > MAX_DEPTH {
                            return Err(Bail);
                        }
                        objects = (objects & !(1 << open)) | (u128::from(object) << open);
                        open += 1;
                        pos = first;
                        if object {
                            self.key(first)?;
                            pos = self.next()?;
                        }
                        continue 'value;
                    }
                }
                _ => self.check_scalar(pos)?,
            }
            // A value is complete: close containers until one continues.
            loop {
                if open == 0 {
                    return Ok(());
                }
                let in_object = (objects >> (open - 1)) & 1 == 1;
                let next = self.next()?;
                match self.byte(next) {
                    b',' => {
                        pos = self.next()?;
                        if in_object {
                            self.key(pos)?;
                            pos = self.next()?;
                        }
                        continue 'value;
                    }
                    b'}' if in_object => open -= 1,
                    b']' if !in_object => open -= 1,
                    _ => return Err(Bail),
                }
            }
        }
    }
}
