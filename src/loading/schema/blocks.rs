//! Stage 1: the input in 64-byte blocks, each classified into bit masks
//! (bit `i` for byte `i`), from which the positions of the tokens are
//! taken one by one: structural bytes (`{}[]:,`) outside strings, opening
//! quotes and the first byte of each other scalar (number or literal).
//!
//! Strings are found by their quotes (an escaped quote does not count) and
//! validated as they go by: no raw control character, valid escapes, UTF-8.
//! Everything else (structure, scalars) is the walker's to check.

use super::Bail;

/// Byte classes of one block.
#[derive(Clone, Copy, Default)]
pub(super) struct Masks {
    pub quote: u64,
    pub backslash: u64,
    /// `{ } [ ] : ,`
    pub ops: u64,
    /// space, tab, line feed, carriage return
    pub ws: u64,
    /// bytes below 0x20
    pub control: u64,
    /// bytes of 0x80 and above
    pub high: u64,
}

/// A byte's classes as `Masks` bits, for the portable classifier.
const fn class_table() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let mut class = 0;
        if byte == b'"' {
            class |= 1;
        }
        if byte == b'\\' {
            class |= 2;
        }
        // 0x0c and 0x1a as the AVX2 classifier finds them (see `avx2::OPS`).
        if matches!(byte, b'{' | b'}' | b'[' | b']' | b':' | b',' | 0x0c | 0x1a) {
            class |= 4;
        }
        if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
            class |= 8;
        }
        if byte < 0x20 {
            class |= 16;
        }
        if byte >= 0x80 {
            class |= 32;
        }
        table[b] = class;
        b += 1;
    }
    table
}

static CLASSES: [u8; 256] = class_table();

/// Any target: a table lookup per byte.
pub(super) fn classify_portable(block: &[u8; 64]) -> Masks {
    let mut m = Masks::default();
    for (i, &byte) in block.iter().enumerate() {
        let class = u64::from(CLASSES[usize::from(byte)]);
        m.quote |= (class & 1) << i;
        m.backslash |= ((class >> 1) & 1) << i;
        m.ops |= ((class >> 2) & 1) << i;
        m.ws |= ((class >> 3) & 1) << i;
        m.control |= ((class >> 4) & 1) << i;
        m.high |= ((class >> 5) & 1) << i;
    }
    m
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Masks;
    use std::arch::x86_64::{
        __m256i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_set1_epi8,
        _mm256_cmpeq_epi8, _mm256_max_epu8, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8, _mm256_setr_epi8, _mm256_shuffle_epi8,
    };

    /// Whitespace by low nibble: the byte itself where it is whitespace,
    /// a byte of another low nibble elsewhere (so that `==` fails).
    const WS: [i8; 16] = [
        0x20, 2, 3, 4, 5, 6, 7, 8, 9, 0x09, 0x0a, 12, 13, 0x0d, 15, 0,
    ];
    /// `,` `:` and (lowered by `| 0x20`) `{` `}` by low nibble, likewise.
    /// A few control characters also match (0x0c, 0x1a, 0x1b, 0x1d): a
    /// token like any other, which the walker refuses by its byte.
    const OPS: [i8; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x3a, 0x7b, 0x2c, 0x7d, 15, 0];

    #[inline]
    #[target_feature(enable = "avx2")]
    fn table(t: [i8; 16]) -> __m256i {
        {
            _mm256_setr_epi8(
                t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12],
                t[13], t[14], t[15], t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9],
                t[10], t[11], t[12], t[13], t[14], t[15],
            )
        }
    }

    /// The six masks of 32 bytes, in the low half of each word.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn half(x: __m256i) -> Masks {
        let eq = |byte: u8| _mm256_cmpeq_epi8(x, _mm256_set1_epi8(byte as i8));
        let ws = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table(WS), x), x);
        let lowered = _mm256_or_si256(x, _mm256_set1_epi8(0x20));
        let ops = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table(OPS), x), lowered);
        let limit = _mm256_set1_epi8(0x1f);
        let control = _mm256_cmpeq_epi8(_mm256_max_epu8(x, limit), limit);
        let mask = |v: __m256i| u64::from(_mm256_movemask_epi8(v) as u32);
        Masks {
            quote: mask(eq(b'"')),
            backslash: mask(eq(b'\\')),
            ops: mask(ops),
            ws: mask(ws),
            control: mask(control),
            high: mask(x),
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn classify(block: &[u8; 64]) -> Masks {
        let [lo, hi]: [__m256i; 2] = bytemuck::cast(*block);
        let (lo, hi) = (half(lo), half(hi));
        // Each half is made opaque to the optimizer in its register: LLVM
        // otherwise turns the movemask results into vectors of booleans and
        // takes them apart bit by bit (ten times the instructions a block),
        // and `black_box` goes through memory, where the four stores and
        // one wide load it was vectorized into stall store forwarding (a
        // fifth of the stage's time).
        let join = |lo: u64, mut hi: u64| {
            // SAFETY: an empty assembly block that only claims to change `hi`.
            unsafe { std::arch::asm!("/* {0} */", inout(reg) hi, options(pure, nomem, nostack)) };
            lo | hi << 32
        };
        Masks {
            quote: join(lo.quote, hi.quote),
            backslash: join(lo.backslash, hi.backslash),
            ops: join(lo.ops, hi.ops),
            ws: join(lo.ws, hi.ws),
            control: join(lo.control, hi.control),
            high: join(lo.high, hi.high),
        }
    }

    /// `super::prefix_xor` by a carry-less multiplication.
    #[inline]
    #[target_feature(enable = "pclmulqdq")]
    pub(super) fn prefix_xor(x: u64) -> u64 {
        {
            let product = _mm_clmulepi64_si128(_mm_set_epi64x(0, x as i64), _mm_set1_epi8(-1), 0);
            _mm_cvtsi128_si64(product) as u64
        }
    }
}

/// Whether the AVX2 classifier may be used: the CPU has AVX2, PCLMULQDQ,
/// POPCNT and BMI1.
pub(super) fn has_avx2() -> bool {
    crate::cpu::level() >= crate::cpu::Level::Avx2
}

/// Bit `i` set when byte `i` is inside a string according to the quote
/// bits before and at it (the opening quote is in, the closing one out).
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

const EVEN_BITS: u64 = 0x5555_5555_5555_5555;

/// The bytes escaped by a backslash (simdjson's branchless odd-run rule):
/// a run of backslashes escapes the byte after it when its length is odd.
/// `carry` (bit 0) says the block's first byte is escaped; it is updated
/// for the next block.
pub(super) fn escaped_bytes(backslash: u64, carry: &mut u64) -> u64 {
    let backslash = backslash & !*carry;
    let follows_escape = (backslash << 1) | *carry;
    let odd_starts = backslash & !EVEN_BITS & !follows_escape;
    let (even_starts, overflow) = odd_starts.overflowing_add(backslash);
    *carry = u64::from(overflow);
    let invert = even_starts << 1;
    (EVEN_BITS ^ invert) & follows_escape
}

/// Bytes that may follow a number or a literal: structure, whitespace, quotes.
pub(super) fn is_delimiter(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'[' | b']' | b'{' | b'}' | b'"'
    )
}

/// Blocks classified per refill: their tokens are taken from a buffer, so
/// the classification runs in a tight loop instead of once per call.
const CHUNK_BLOCKS: usize = 32;

/// Blocks classified per refill once the walker skips values without the
/// tokens ([`Tokens::short_chunks`]): fewer blocks are then classified
/// for nothing ahead of a skip. On the 2,000-state summary pair, 8 blocks
/// took 141.0 M instructions against 148.1 M with 32 (2 and 4: 142.3 and
/// 140.0 M; 16: 141.5 M).
const SHORT_CHUNK_BLOCKS: usize = 8;

/// Room for the tokens of a chunk (one per byte at most).
const FOUND: usize = CHUNK_BLOCKS * 64;

/// The tokens of the input, in order, as positions.
pub(super) struct Tokens<'a> {
    input: &'a [u8],
    /// Start of the current block, and of the next one to classify.
    base: usize,
    next_block: usize,
    /// Positions of the tokens classified and not taken yet: `found[head..len]`.
    found: Box<[usize; FOUND]>,
    head: usize,
    len: usize,
    /// All ones when the last block ended inside a string.
    in_string: u64,
    /// Bit 0: the next block's first byte is escaped.
    escaped: u64,
    /// Bit 0: the last block ended with a scalar byte.
    scalar: u64,
    /// Start of a UTF-8 sequence the last block ended in the middle of.
    utf8_pending: Option<usize>,
    /// The last escaping backslash found so far (`None`: none yet).
    last_escape: Option<usize>,
    /// A block was refused (see [`Tokens::fill`]).
    refused: bool,
    /// The AVX2 classifier is used (only where [`has_avx2`]; never read
    /// on other processors).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
    /// Blocks a refill classifies: [`CHUNK_BLOCKS`], or [`SHORT_CHUNK_BLOCKS`]
    /// once the walker skips values without the tokens.
    chunk: usize,
}

impl<'a> Tokens<'a> {
    /// The tokens of `input`, found by the AVX2 classifier when allowed
    /// and the CPU has it.
    pub fn new(input: &'a [u8], allow_avx2: bool) -> Tokens<'a> {
        Tokens {
            input,
            base: 0,
            next_block: 0,
            found: Box::new([0; FOUND]),
            head: 0,
            len: 0,
            in_string: 0,
            escaped: 0,
            scalar: 0,
            utf8_pending: None,
            last_escape: None,
            refused: false,
            avx2: allow_avx2 && has_avx2(),
            chunk: CHUNK_BLOCKS,
        }
    }

    /// Goes on at `pos`, a position outside any string that follows a
    /// complete value (another reader has read what is before it). When
    /// the blocks were classified that far, the tokens before `pos` are
    /// dropped: the classification of a valid value from the document's
    /// start is the one a fresh start at `pos` would give, except for a
    /// scalar byte right after the value (`12x`), which continues the
    /// value's run of scalar bytes instead of starting a token there; no
    /// valid document has one.
    pub fn reset(&mut self, pos: usize) -> Result<(), Bail> {
        if pos <= self.next_block {
            if self.input.get(pos).is_some_and(|&byte| !is_delimiter(byte)) {
                return Err(Bail);
            }
            while self.head < self.len && self.found[self.head] < pos {
                self.head += 1;
            }
            return Ok(());
        }
        self.next_block = pos;
        self.base = pos;
        self.head = 0;
        self.len = 0;
        self.in_string = 0;
        self.escaped = 0;
        self.scalar = 0;
        self.utf8_pending = None;
        Ok(())
    }

    /// Classifies fewer blocks per refill from now on: the walker skips
    /// values without their tokens (see [`SHORT_CHUNK_BLOCKS`]).
    pub fn short_chunks(&mut self) {
        self.chunk = SHORT_CHUNK_BLOCKS;
    }

    /// Whether a backslash escape may lie in `start..end` (a string's body
    /// that the blocks read so far cover).
    #[inline(always)]
    pub fn may_have_escape(&self, start: usize, end: usize) -> bool {
        match self.last_escape {
            Some(last) if last >= start => self.input[start..end].contains(&b'\\'),
            _ => false,
        }
    }

    /// The next token's position; `Bail` at the end of the input or on
    /// invalid string contents.
    #[inline(always)]
    pub fn next(&mut self) -> Result<usize, Bail> {
        if self.head >= self.len {
            self.refill()?;
        }
        // `head < len <= FOUND`: the remainder only spares a bounds check.
        let pos = self.found[self.head % FOUND];
        self.head += 1;
        Ok(pos)
    }

    /// The next token's position, left to be taken.
    #[inline(always)]
    pub fn peek(&mut self) -> Result<usize, Bail> {
        if self.head >= self.len {
            self.refill()?;
        }
        Ok(self.found[self.head % FOUND])
    }

    /// Classifies blocks until some have tokens.
    #[inline(never)]
    fn refill(&mut self) -> Result<(), Bail> {
        while self.head >= self.len {
            if !self.fill()? {
                return Err(Bail);
            }
        }
        Ok(())
    }

    /// After the document: nothing but whitespace may follow, and the
    /// input may not end inside a string or a character.
    pub fn finish(&mut self) -> Result<(), Bail> {
        if self.head < self.len {
            return Err(Bail);
        }
        while self.fill()? {
            if self.len != 0 {
                return Err(Bail);
            }
        }
        if self.in_string != 0 || self.utf8_pending.is_some() || self.escaped != 0 {
            return Err(Bail);
        }
        Ok(())
    }

    /// Classifies up to [`CHUNK_BLOCKS`] blocks into `found`; `false` at
    /// the end of the input.
    /// A block refused once stays refused: the blocks are classified ahead
    /// of the walker, so the value it is in may be one the walker hands to
    /// the full reader before reaching it, and going on after it would
    /// leave its bytes unchecked.
    #[inline]
    fn fill(&mut self) -> Result<bool, Bail> {
        if self.refused {
            return Err(Bail);
        }
        let filled = self.fill_any();
        self.refused = filled.is_err();
        filled
    }

    #[inline]
    fn fill_any(&mut self) -> Result<bool, Bail> {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU has the features
            // (`has_avx2`).
            return unsafe { self.fill_avx2() };
        }
        self.fill_portable()
    }

    #[inline(never)]
    fn fill_portable(&mut self) -> Result<bool, Bail> {
        self.fill_with(classify_portable, prefix_xor)
    }

    /// Runs only where [`has_avx2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,pclmulqdq,popcnt,bmi1")]
    fn fill_avx2(&mut self) -> Result<bool, Bail> {
        // Closures here are compiled with the function's features.
        self.fill_with(|block| avx2::classify(block), |x| avx2::prefix_xor(x))
    }

    #[inline(always)]
    fn fill_with(
        &mut self,
        classify: impl Fn(&[u8; 64]) -> Masks + Copy,
        prefix_xor: impl Fn(u64) -> u64 + Copy,
    ) -> Result<bool, Bail> {
        self.head = 0;
        self.len = 0;
        let mut len = 0;
        let mut classified = false;
        for _ in 0..self.chunk.min(CHUNK_BLOCKS) {
            let Some(mut bits) = self.advance_with(classify, prefix_xor)? else {
                break;
            };
            classified = true;
            let base = self.base;
            let count = bits.count_ones() as usize;
            let found: &mut [usize; 64] = (&mut self.found[len..len + 64])
                .try_into()
                .map_err(|_| Bail)?;
            // Four at a time, unconditionally (simdjson's flattening): the
            // slots past `count` are overwritten or never read.
            let mut i = 0;
            while i < count {
                for slot in &mut found[i..i + 4] {
                    *slot = base + bits.trailing_zeros() as usize;
                    bits &= bits.wrapping_sub(1);
                }
                i += 4;
            }
            len += count;
        }
        self.len = len;
        Ok(classified)
    }

    /// Classifies the next block: its tokens as bits, `None` at the end of the input.
    #[inline(always)]
    fn advance_with(
        &mut self,
        classify: impl Fn(&[u8; 64]) -> Masks,
        prefix_xor: impl Fn(u64) -> u64,
    ) -> Result<Option<u64>, Bail> {
        let input = self.input;
        let pos = self.next_block;
        if pos >= input.len() {
            return Ok(None);
        }
        let m = match input.get(pos..pos + 64) {
            Some(bytes) => classify(bytes.try_into().map_err(|_| Bail)?),
            None => {
                // The last, partial block, padded with spaces.
                let mut block = [b' '; 64];
                block[..input.len() - pos].copy_from_slice(&input[pos..]);
                classify(&block)
            }
        };
        self.base = pos;
        self.next_block = pos + 64;
        let escaped = if m.backslash | self.escaped == 0 {
            0
        } else {
            escaped_bytes(m.backslash, &mut self.escaped)
        };
        let quote = m.quote & !escaped;
        let in_string = prefix_xor(quote) ^ self.in_string;
        self.in_string = ((in_string as i64) >> 63) as u64;
        // Raw control characters are not allowed in strings (the closing
        // quote is out of `in_string`, and is no control character).
        let escapes = m.backslash & !escaped;
        if (m.control & in_string) | escapes | m.high != 0 || self.utf8_pending.is_some() {
            self.check_strings(m, in_string, escapes)?;
        }
        let outside = !(in_string | quote);
        let scalar = outside & !(m.ops | m.ws);
        let starts = scalar & !((scalar << 1) | self.scalar);
        self.scalar = scalar >> 63;
        Ok(Some((m.ops & outside) | (quote & in_string) | starts))
    }

    #[cold]
    #[inline(never)]
    fn check_strings(&mut self, m: Masks, in_string: u64, escapes: u64) -> Result<(), Bail> {
        if m.control & in_string != 0 {
            return Err(Bail);
        }
        if escapes != 0 {
            self.check_escapes(escapes, in_string)?;
        }
        if m.high != 0 || self.utf8_pending.is_some() {
            self.check_utf8(m.high)?;
        }
        Ok(())
    }

    /// Every escaping backslash is in a string and starts a valid escape
    /// (as the full reader checks the strings it skips).
    fn check_escapes(&mut self, escapes: u64, in_string: u64) -> Result<(), Bail> {
        if escapes & !in_string != 0 {
            return Err(Bail);
        }
        let mut bits = escapes;
        while bits != 0 {
            let at = self.base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match self.input.get(at + 1).ok_or(Bail)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                b'u' => {
                    let digits = self.input.get(at + 2..at + 6).ok_or(Bail)?;
                    if !digits.iter().all(u8::is_ascii_hexdigit) {
                        return Err(Bail);
                    }
                }
                _ => return Err(Bail),
            }
            self.last_escape = Some(at);
        }
        Ok(())
    }

    /// The non-ASCII bytes of the block are UTF-8. Characters are made of
    /// non-ASCII bytes only, so each run of them is checked on its own.
    fn check_utf8(&mut self, high: u64) -> Result<(), Bail> {
        let input = self.input;
        let base = self.base;
        let end = input.len().min(base + 64);
        let start = match self.utf8_pending.take() {
            Some(start) => start,
            None => base + high.trailing_zeros() as usize,
        };
        if high == 0 {
            // A sequence cut short by an ASCII byte.
            return Err(Bail);
        }
        let last = base + 63 - high.leading_zeros() as usize;
        if last + 1 == end && end < input.len() {
            // The run may go on in the next block.
            match std::str::from_utf8(&input[start..end]) {
                Ok(_) => Ok(()),
                Err(e) if e.error_len().is_none() => {
                    self.utf8_pending = Some(start + e.valid_up_to());
                    Ok(())
                }
                Err(_) => Err(Bail),
            }
        } else {
            std::str::from_utf8(&input[start..=last])
                .map(|_| ())
                .map_err(|_| Bail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(block: &[u8; 64], avx2: bool) -> Masks {
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            // SAFETY: `avx2` is true only when the CPU has AVX2.
            return unsafe { avx2::classify(block) };
        }
        let _ = avx2;
        classify_portable(block)
    }

    #[test]
    fn classifiers_agree() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            let mut block = [0u8; 64];
            for byte in &mut block {
                crate::testing::xorshift_step(&mut state);
                *byte = b"\"\\{}[]:, \t\n\r\x01\x1f\x7f\x80\xffa0"[(state % 19) as usize]
                    ^ if state.is_multiple_of(97) {
                        (state >> 20) as u8
                    } else {
                        0
                    };
            }
            let a = classify_portable(&block);
            let b = classify(&block, has_avx2());
            assert_eq!(
                (a.quote, a.backslash, a.ops, a.ws, a.control, a.high),
                (b.quote, b.backslash, b.ops, b.ws, b.control, b.high)
            );
        }
    }

    /// The escaped bytes by the branchless rule and byte by byte, across blocks.
    #[test]
    fn escapes_across_blocks() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..500 {
            let mut bytes = vec![b'a'; 256];
            for byte in &mut bytes {
                crate::testing::xorshift_step(&mut state);
                if state.is_multiple_of(3) {
                    *byte = b'\\';
                }
            }
            let mut expected = vec![false; 256];
            let mut i = 0;
            while i < 256 {
                if bytes[i] == b'\\' && i + 1 < 256 {
                    expected[i + 1] = true;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            let mut carry = 0;
            for (block, chunk) in bytes.chunks(64).enumerate() {
                let backslash = chunk
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (i, b)| m | (u64::from(*b == b'\\') << i));
                let escaped = escaped_bytes(backslash, &mut carry);
                for i in 0..64 {
                    assert_eq!(escaped >> i & 1 == 1, expected[block * 64 + i]);
                }
            }
        }
    }
}
