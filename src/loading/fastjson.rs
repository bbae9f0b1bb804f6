//! The fast path for reading NVBench JSON: a strict serde `Deserializer`
//! that borrows from the input and skips unread values with word-at-a-time
//! scans instead of byte-at-a-time parsing.
//!
//! It never reports an error of its own. Anything it does not handle, from
//! a syntax error to a number whose conversion it is not sure of, makes it
//! give up ([`Bail`]); the caller then parses the same bytes with
//! serde_json, which stays the one authority on messages and edge cases.
//! Whenever this parser succeeds it must produce exactly what serde_json
//! produces for the same input and target type; the tests below and the
//! `json_loader` fuzz target check that implication.

use std::fmt;

use serde::Deserialize;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// The fast path gave up; parse again with serde_json.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bail;

impl fmt::Display for Bail {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the fast JSON path gave up")
    }
}

impl std::error::Error for Bail {}

impl de::Error for Bail {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Bail
    }
}

/// Deeper inputs are left to serde_json (its own limit is 128).
const MAX_DEPTH: usize = 100;

/// serde_json's private protocol for `RawValue`: a newtype struct of this
/// name is read as a one-entry map from this key to the value's JSON text.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Parses a whole document, or gives up.
pub fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T, Bail> {
    let mut parser = Parser {
        input,
        pos: 0,
        depth: 0,
        scratch: Vec::new(),
    };
    let value = T::deserialize(&mut parser)?;
    parser.skip_whitespace();
    if parser.pos == input.len() {
        Ok(value)
    } else {
        Err(Bail)
    }
}

/// Reads one value starting at `pos` (no whitespace before it) of a
/// document whose enclosing containers are `depth` deep, with `read` (a
/// `Deserialize` impl or a `deserialize_with` function); returns the value
/// and the position just past it. For a reader that walks the document
/// itself and hands values to this one ([`crate::loading::schema`]).
pub(crate) fn parse_at<'de, T>(
    input: &'de [u8],
    pos: usize,
    depth: usize,
    read: impl FnOnce(&mut Parser<'de>) -> Result<T, Bail>,
) -> Result<(T, usize), Bail> {
    let mut parser = Parser {
        input,
        pos,
        depth,
        scratch: Vec::new(),
    };
    let value = read(&mut parser)?;
    Ok((value, parser.pos))
}

/// Byte classes of a fixed-width block of input, as bit masks (bit `i`
/// for byte `i`): SSE2, which every x86_64 CPU has, or a portable loop.
#[cfg(target_arch = "x86_64")]
mod block {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };

    pub const WIDTH: usize = 16;

    pub fn spaces(bytes: &[u8; WIDTH]) -> u32 {
        // SAFETY: SSE2 is part of every x86_64 target, and `bytes` is 16
        // readable bytes (the unaligned load has no alignment requirement).
        unsafe {
            let x = _mm_loadu_si128(bytes.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8))) as u32
        }
    }

    /// Quotes, backslashes and control characters; and non-ASCII bytes.
    pub fn string_specials(bytes: &[u8; WIDTH]) -> (u32, u32) {
        // SAFETY: as in `spaces`.
        unsafe {
            let x = _mm_loadu_si128(bytes.as_ptr().cast());
            let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
            // Unsigned `x <= 0x1f` is `max(x, 0x1f) == 0x1f`.
            let limit = _mm_set1_epi8(0x1f);
            let control = _mm_cmpeq_epi8(_mm_max_epu8(x, limit), limit);
            let specials = _mm_or_si128(_mm_or_si128(quote, backslash), control);
            (
                _mm_movemask_epi8(specials) as u32,
                _mm_movemask_epi8(x) as u32,
            )
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod block {
    pub const WIDTH: usize = 8;

    fn mask(bytes: &[u8; WIDTH], class: impl Fn(u8) -> bool) -> u32 {
        (0..WIDTH).fold(0, |mask, i| mask | (u32::from(class(bytes[i])) << i))
    }

    pub fn spaces(bytes: &[u8; WIDTH]) -> u32 {
        mask(bytes, |b| b == b' ')
    }

    pub fn string_specials(bytes: &[u8; WIDTH]) -> (u32, u32) {
        let specials = mask(bytes, |b| b == b'"' || b == b'\\' || b < 0x20);
        (specials, mask(bytes, |b| b >= 0x80))
    }
}

fn block_at(input: &[u8], pos: usize) -> Option<&[u8; block::WIDTH]> {
    input
        .get(pos..pos.checked_add(block::WIDTH)?)?
        .try_into()
        .ok()
}

/// What a scan over a string's body found.
struct StringBody {
    escaped: bool,
    ascii: bool,
}

enum Number {
    Unsigned(u64),
    Negative(i64),
    Float(f64),
}

pub(crate) struct Parser<'de> {
    input: &'de [u8],
    pos: usize,
    depth: usize,
    scratch: Vec<u8>,
}

impl<'de> Parser<'de> {
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        let input = self.input;
        let mut pos = self.pos;
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = input.get(pos) {
            pos += 1;
            // Indentation comes in runs of spaces: take them a block at a time.
            while let Some(bytes) = block_at(input, pos) {
                let run = block::spaces(bytes).trailing_ones() as usize;
                pos += run;
                if run < block::WIDTH {
                    break;
                }
            }
        }
        self.pos = pos;
    }

    fn expect(&mut self, byte: u8) -> Result<(), Bail> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Bail)
        }
    }

    fn literal(&mut self, text: &[u8]) -> Result<(), Bail> {
        if self.input.get(self.pos..self.pos + text.len()) == Some(text) {
            self.pos += text.len();
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// Moves past a string whose opening quote was consumed.
    fn skip_string_body(&mut self) -> Result<StringBody, Bail> {
        let input = self.input;
        let mut body = StringBody {
            escaped: false,
            ascii: true,
        };
        loop {
            let mut pos = self.pos;
            while let Some(bytes) = block_at(input, pos) {
                let (specials, non_ascii) = block::string_specials(bytes);
                let run = (specials.trailing_zeros() as usize).min(block::WIDTH);
                body.ascii &= non_ascii & (((1u64 << run) - 1) as u32) == 0;
                pos += run;
                if run < block::WIDTH {
                    break;
                }
            }
            self.pos = pos;
            match input.get(pos).ok_or(Bail)? {
                b'"' => {
                    self.pos += 1;
                    return Ok(body);
                }
                b'\\' => {
                    body.escaped = true;
                    self.skip_escape()?;
                }
                0..=0x1f => return Err(Bail),
                byte => {
                    body.ascii &= byte.is_ascii();
                    self.pos += 1;
                }
            }
        }
    }

    /// Skips a string nobody reads, which must still be UTF-8 (Python
    /// decodes the whole file): non-ASCII bodies, rare, are checked.
    fn skip_checked_string_body(&mut self) -> Result<(), Bail> {
        let start = self.pos;
        let body = self.skip_string_body()?;
        if !body.ascii {
            std::str::from_utf8(&self.input[start..self.pos - 1]).map_err(|_| Bail)?;
        }
        Ok(())
    }

    fn skip_escape(&mut self) -> Result<(), Bail> {
        match self.input.get(self.pos + 1).ok_or(Bail)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.pos += 2,
            b'u' => {
                self.hex_escape(self.pos + 2)?;
                self.pos += 6;
            }
            _ => return Err(Bail),
        }
        Ok(())
    }

    fn hex_escape(&self, at: usize) -> Result<u32, Bail> {
        let digits = self.input.get(at..at + 4).ok_or(Bail)?;
        digits.iter().try_fold(0u32, |code, &digit| {
            let value = char::from(digit).to_digit(16).ok_or(Bail)?;
            Ok(code * 16 + value)
        })
    }

    /// Reads a string whose opening quote is at `pos`.
    fn string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Bail> {
        self.pos += 1;
        let start = self.pos;
        let body = self.skip_string_body()?;
        let raw = &self.input[start..self.pos - 1];
        if !body.escaped {
            let text = if body.ascii {
                // SAFETY: every byte of `raw` is below 0x80, and ASCII is valid UTF-8.
                unsafe { std::str::from_utf8_unchecked(raw) }
            } else {
                std::str::from_utf8(raw).map_err(|_| Bail)?
            };
            return visitor.visit_borrowed_str(text);
        }
        self.scratch.clear();
        unescape(raw, &mut self.scratch)?;
        let text = std::str::from_utf8(&self.scratch).map_err(|_| Bail)?;
        visitor.visit_str(text)
    }

    /// JSON number grammar; returns whether a fraction or exponent follows.
    fn skip_number(&mut self) -> Result<bool, Bail> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    return Err(Bail);
                }
            }
            Some(b'1'..=b'9') => self.skip_digits(),
            _ => return Err(Bail),
        }
        let mut fractional = false;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.require_digits()?;
            fractional = true;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.require_digits()?;
            fractional = true;
        }
        Ok(fractional)
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    fn require_digits(&mut self) -> Result<(), Bail> {
        let start = self.pos;
        self.skip_digits();
        if self.pos == start { Err(Bail) } else { Ok(()) }
    }

    /// The value serde_json would give, for the numbers whose conversion is
    /// certainly the same: integers of at most 18 digits (except `-0`, a
    /// float there) and finite, normal floats (or zeros written as zero).
    fn number(&mut self) -> Result<Number, Bail> {
        let start = self.pos;
        let fractional = self.skip_number()?;
        let text = std::str::from_utf8(&self.input[start..self.pos]).map_err(|_| Bail)?;
        let negative = text.starts_with('-');
        if !fractional {
            let digits = &text[usize::from(negative)..];
            if digits.len() > 18 {
                return Err(Bail);
            }
            let magnitude: u64 = digits.parse().map_err(|_| Bail)?;
            return match (negative, i64::try_from(magnitude)) {
                (false, _) => Ok(Number::Unsigned(magnitude)),
                (true, Ok(m)) if m > 0 => Ok(Number::Negative(-m)),
                _ => Err(Bail),
            };
        }
        let value: f64 = text.parse().map_err(|_| Bail)?;
        let mantissa = &self.input[start..self.pos];
        let written_as_zero = !mantissa
            .iter()
            .take_while(|b| !matches!(b, b'e' | b'E'))
            .any(|b| (b'1'..=b'9').contains(b));
        let exact_kind = value.is_normal() || (value == 0.0 && written_as_zero);
        if exact_kind {
            Ok(Number::Float(value))
        } else {
            Err(Bail)
        }
    }

    fn enter(&mut self) -> Result<(), Bail> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Bail)
        } else {
            Ok(())
        }
    }

    /// `"key"` then `:`, inside an object being skipped.
    fn skip_key_and_colon(&mut self) -> Result<(), Bail> {
        self.skip_whitespace();
        self.expect(b'"')?;
        self.skip_checked_string_body()?;
        self.skip_whitespace();
        self.expect(b':')
    }

    /// Moves past one value, checking its syntax as serde_json's
    /// `ignore_value` does, without building anything.
    fn skip_value(&mut self) -> Result<(), Bail> {
        // One bit per open container: set for objects.
        let mut objects: u128 = 0;
        let mut open = 0usize;
        'value: loop {
            self.skip_whitespace();
            match self.peek().ok_or(Bail)? {
                open_byte @ (b'{' | b'[') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    let object = open_byte == b'{';
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                    } else {
                        if self.depth + open + 1 > MAX_DEPTH {
                            return Err(Bail);
                        }
                        objects = (objects & !(1 << open)) | (u128::from(object) << open);
                        open += 1;
                        if object {
                            self.skip_key_and_colon()?;
                        }
                        continue 'value;
                    }
                }
                b'"' => {
                    self.pos += 1;
                    self.skip_checked_string_body()?;
                }
                b'-' | b'0'..=b'9' => {
                    self.skip_number()?;
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                _ => return Err(Bail),
            }
            // A value is complete: close containers until one continues.
            loop {
                if open == 0 {
                    return Ok(());
                }
                self.skip_whitespace();
                let in_object = (objects >> (open - 1)) & 1 == 1;
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if in_object {
                            self.skip_key_and_colon()?;
                        }
                        continue 'value;
                    }
                    Some(b'}') if in_object => {
                        self.pos += 1;
                        open -= 1;
                    }
                    Some(b']') if !in_object => {
                        self.pos += 1;
                        open -= 1;
                    }
                    _ => return Err(Bail),
                }
            }
        }
    }

    fn raw_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_whitespace();
        let start = self.pos;
        self.skip_value()?;
        let raw = std::str::from_utf8(&self.input[start..self.pos]).map_err(|_| Bail)?;
        visitor.visit_map(RawValueAccess { raw: Some(raw) })
    }
}

/// Decodes the escapes of a string body; `\u` escapes of surrogates are
/// left to serde_json.
fn unescape(raw: &[u8], out: &mut Vec<u8>) -> Result<(), Bail> {
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            out.push(raw[i]);
            i += 1;
            continue;
        }
        let decoded = match raw.get(i + 1).ok_or(Bail)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let digits = raw.get(i + 2..i + 6).ok_or(Bail)?;
                let digits = std::str::from_utf8(digits).map_err(|_| Bail)?;
                let code = u32::from_str_radix(digits, 16).map_err(|_| Bail)?;
                i += 4;
                char::from_u32(code).ok_or(Bail)?
            }
            _ => return Err(Bail),
        };
        let mut buffer = [0u8; 4];
        out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
        i += 2;
    }
    Ok(())
}

impl<'de> de::Deserializer<'de> for &mut Parser<'de> {
    type Error = Bail;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_whitespace();
        match self.peek().ok_or(Bail)? {
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'"' => self.string(visitor),
            b'-' | b'0'..=b'9' => match self.number()? {
                Number::Unsigned(value) => visitor.visit_u64(value),
                Number::Negative(value) => visitor.visit_i64(value),
                Number::Float(value) => visitor.visit_f64(value),
            },
            b'[' => {
                self.enter()?;
                self.pos += 1;
                let mut access = Elements {
                    parser: self,
                    progress: Progress::START,
                };
                let value = visitor.visit_seq(&mut access)?;
                if !access.progress.done {
                    return Err(Bail);
                }
                self.depth -= 1;
                Ok(value)
            }
            b'{' => {
                self.enter()?;
                self.pos += 1;
                let mut access = Entries {
                    parser: self,
                    progress: Progress::START,
                };
                let value = visitor.visit_map(&mut access)?;
                if !access.progress.done {
                    return Err(Bail);
                }
                self.depth -= 1;
                Ok(value)
            }
            _ => Err(Bail),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_whitespace();
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Bail> {
        if name == RAW_VALUE_TOKEN {
            self.raw_value(visitor)
        } else {
            visitor.visit_newtype_struct(self)
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_value()?;
        visitor.visit_unit()
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_whitespace();
        if self.peek() == Some(b'"') {
            self.string(visitor)
        } else {
            Err(Bail)
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.deserialize_str(visitor)
    }

    // serde_json also reads structs from arrays; that case is left to it.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Bail> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_whitespace();
        if self.peek() == Some(b'{') {
            self.deserialize_any(visitor)
        } else {
            Err(Bail)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.skip_whitespace();
        if self.peek() == Some(b'[') {
            self.deserialize_any(visitor)
        } else {
            Err(Bail)
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Bail> {
        Err(Bail)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Bail> {
        Err(Bail)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Bail> {
        Err(Bail)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        unit unit_struct tuple tuple_struct
    }
}

/// Where a container being read stands: before its first item, or closed.
struct Progress {
    first: bool,
    done: bool,
}

impl Progress {
    const START: Progress = Progress {
        first: true,
        done: false,
    };

    /// Moves to the next item: `Ok(false)` past the closing byte.
    fn advance(&mut self, parser: &mut Parser, close: u8) -> Result<bool, Bail> {
        if self.done {
            return Err(Bail);
        }
        parser.skip_whitespace();
        match parser.peek() {
            Some(byte) if byte == close => {
                parser.pos += 1;
                self.done = true;
                return Ok(false);
            }
            Some(b',') if !self.first => {
                parser.pos += 1;
                parser.skip_whitespace();
                if parser.peek() == Some(close) {
                    return Err(Bail);
                }
            }
            _ if self.first => {}
            _ => return Err(Bail),
        }
        self.first = false;
        Ok(true)
    }
}

struct Elements<'a, 'de> {
    parser: &'a mut Parser<'de>,
    progress: Progress,
}

impl<'de> SeqAccess<'de> for Elements<'_, 'de> {
    type Error = Bail;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Bail> {
        if !self.progress.advance(self.parser, b']')? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.parser).map(Some)
    }
}

struct Entries<'a, 'de> {
    parser: &'a mut Parser<'de>,
    progress: Progress,
}

impl<'de> MapAccess<'de> for Entries<'_, 'de> {
    type Error = Bail;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Bail> {
        if !self.progress.advance(self.parser, b'}')? {
            return Ok(None);
        }
        if self.parser.peek() != Some(b'"') {
            return Err(Bail);
        }
        seed.deserialize(&mut *self.parser).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Bail> {
        let parser = &mut *self.parser;
        parser.skip_whitespace();
        parser.expect(b':')?;
        seed.deserialize(&mut *self.parser)
    }
}

/// Hands a value's JSON text to serde_json's `RawValue`.
struct RawValueAccess<'de> {
    raw: Option<&'de str>,
}

impl<'de> MapAccess<'de> for RawValueAccess<'de> {
    type Error = Bail;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Bail> {
        if self.raw.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(RAW_VALUE_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Bail> {
        let raw = self.raw.take().ok_or(Bail)?;
        seed.deserialize(BorrowedStrDeserializer::new(raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::model::Root;

    /// The fast path's contract: when it succeeds, serde_json succeeds with
    /// the same result. Returns whether the fast path succeeded.
    fn agree(input: &[u8]) -> bool {
        let fast_value = from_slice::<serde_json::Value>(input);
        let slow_value = serde_json::from_slice::<serde_json::Value>(input);
        if let Ok(fast) = &fast_value {
            let slow = slow_value
                .as_ref()
                .unwrap_or_else(|e| panic!("serde_json refused {input:?} ({e})"));
            assert_eq!(fast.to_string(), slow.to_string(), "input {input:?}");
        }
        let fast_root = from_slice::<Root>(input);
        if let Ok(fast) = &fast_root {
            let slow = serde_json::from_slice::<Root>(input)
                .unwrap_or_else(|e| panic!("serde_json refused {input:?} as Root ({e})"));
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "input {input:?}");
        }
        fast_root.is_ok()
    }

    #[test]
    fn agrees_with_serde_json_on_every_shipped_file() {
        let (accepted, files) = crate::testing::accepted_shipped_files(agree);
        // Only deliberately malformed corpus inputs may fall back.
        assert!(accepted * 10 >= files * 9, "{accepted}/{files}");
    }

    #[test]
    fn numbers_are_converted_as_serde_json_does_or_left_to_it() {
        let accepted = [
            "0",
            "-1",
            "17",
            "999999999999999999",
            "-999999999999999999",
            "0.5",
            "-0.0",
            "0e5",
            "1E5",
            "1e-5",
            "-1.5e-3",
            "2.5E+2",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "0.1",
            "123.456e-7",
        ];
        for text in accepted {
            let input = format!("[{text}]");
            agree(input.as_bytes());
            assert!(
                from_slice::<serde_json::Value>(input.as_bytes()).is_ok(),
                "{text}"
            );
        }
        let bailed = [
            "-0",
            "1e400",
            "-1e400",
            "1e-400",
            "5e-324",
            "1234567890123456789",
            "18446744073709551616",
            "01",
            "1.",
            ".5",
            "-",
            "+1",
            "1e",
            "1e+",
            "0x10",
            "NaN",
            "Infinity",
            "1.5.2",
            "--1",
        ];
        for text in bailed {
            let input = format!("[{text}]");
            assert!(
                from_slice::<serde_json::Value>(input.as_bytes()).is_err(),
                "{text}"
            );
            agree(input.as_bytes());
        }
    }

    #[test]
    fn strings_escapes_and_encoding() {
        let accepted: [&[u8]; 7] = [
            br#"["plain", "", "a\"b", "back\\slash", "\/\b\f\n\r\t"]"#,
            br#"["\u00e9\u0000\u20AC", "caf\u00e9"]"#,
            "[\"caf\u{e9} \u{1F600}\"]".as_bytes(),
            br#"{"key with \"escape\"": 1, "k\u0041": [true, false, null]}"#,
            b"  {\"a\" : [ 1 , 2 ] }  \n",
            b"{\"long\": \"0123456789abcdef0123456789abcdef0123456789\"}",
            b"{\"skip\": {\"deep\": [[[{\"x\": \"\\u0041\"}]]]}}",
        ];
        for input in accepted {
            assert!(from_slice::<serde_json::Value>(input).is_ok(), "{input:?}");
            agree(input);
        }
        let bailed: [&[u8]; 12] = [
            b"[\"unterminated]",
            b"[\"tab\there\"]",
            b"[\"nul\x00\"]",
            br#"["\x"]"#,
            br#"["\u12"]"#,
            br#"["\ud83d\ude00"]"#,
            br#"["\udc00"]"#,
            b"[\"\xff\"]",
            b"{\"\xc3\x28\": 1}",
            b"\xef\xbb\xbf[1]",
            b"[1,]",
            b"{\"a\":1,}",
        ];
        for input in bailed {
            assert!(from_slice::<serde_json::Value>(input).is_err(), "{input:?}");
            agree(input);
        }
    }

    #[test]
    fn structure_errors_and_limits_are_left_to_serde_json() {
        let bailed: [&[u8]; 12] = [
            b"",
            b"   ",
            b"[1] x",
            b"[1 2]",
            b"{\"a\" 1}",
            b"{\"a\":1 \"b\":2}",
            b"{1:2}",
            b"[nul]",
            b"[truex]",
            b"{\"a\":}",
            b"[",
            b"}",
        ];
        for input in bailed {
            assert!(from_slice::<serde_json::Value>(input).is_err(), "{input:?}");
            agree(input);
        }
        let deep = format!("{}{}", "[".repeat(150), "]".repeat(150));
        assert!(from_slice::<serde_json::Value>(deep.as_bytes()).is_err());
        agree(deep.as_bytes());
        let skipped_deep = format!(
            "{{\"meta\": {}{}, \"benchmarks\": []}}",
            "[".repeat(150),
            "]".repeat(150)
        );
        agree(skipped_deep.as_bytes());
        let shallow = format!("{}{}", "[".repeat(90), "]".repeat(90));
        assert!(agree(shallow.as_bytes()) || from_slice::<Root>(shallow.as_bytes()).is_err());
        assert!(from_slice::<serde_json::Value>(shallow.as_bytes()).is_ok());
    }

    /// Random edits of real NVBench files: whatever the fast path accepts,
    /// serde_json accepts with the same result.
    #[test]
    fn mutated_files_never_disagree() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            crate::testing::xorshift_step(&mut state);
            state
        };
        const INTERESTING: &[u8] = b"\"{}[],:\\ \n0123456789eE.+-tfnu\x00\x1f\x7f\x80\xc3\xff";
        let bases: Vec<Vec<u8>> = crate::testing::shipped_json_files()
            .into_iter()
            .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() < 20_000))
            .step_by(8)
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        assert!(bases.len() > 10);
        let (mut accepted, mut total) = (0, 0);
        for base in &bases {
            for _ in 0..200 {
                let mut input = base.clone();
                for _ in 0..1 + next() % 3 {
                    if input.is_empty() {
                        break;
                    }
                    let at = (next() as usize) % input.len();
                    let byte = INTERESTING[(next() as usize) % INTERESTING.len()];
                    match next() % 3 {
                        0 => input[at] = byte,
                        1 => input.insert(at, byte),
                        _ => {
                            input.remove(at);
                        }
                    }
                }
                total += 1;
                if agree(&input) {
                    accepted += 1;
                }
            }
        }
        // Most edits hit whitespace or string contents and stay valid.
        assert!(accepted * 4 > total, "{accepted}/{total}");
    }
}
