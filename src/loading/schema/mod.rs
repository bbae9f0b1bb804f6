//! The reader written for the NVBench schema: it finds the keys and the
//! `data` lists of the summaries the comparison reads from a stream of
//! token positions ([`blocks`]: 64-byte blocks classified into bit masks,
//! simdjson's stage 1) and skips everything else token by token, checking
//! its syntax, without building anything. Summaries equal to one read
//! before but for one value string ([`repeat`]) are taken without being
//! classified or walked.
//!
//! It produces exactly what the full reader (serde_json,
//! [`crate::loading::inputs::read_full`]) produces, or gives up ([`Bail`]).
//! The small or rare values (`meta`, `devices`, a benchmark's name and
//! axes, a state's name, device and axis values) are handed to serde_json
//! at their position ([`full`]), with the deserializer the model uses for
//! them. When a benchmark, a state or a summaries list has an unusual
//! shape (keys in an unusual order, escapes in keys, duplicate keys,
//! values of other types), that whole value is read again by the full
//! reader's deserializer; so every error message and edge case stays the
//! full reader's.
//!
//! Validation: strings are checked by [`blocks`] (control characters,
//! escapes, UTF-8), scalars and structure by the walker, and nothing but
//! whitespace may follow the document.

mod blocks;
mod decimal;
mod full;
mod intern;
mod repeat;
mod walk;

use crate::loading::anchor::Role;
use crate::loading::model::Root;

/// The schema reader gave up; the full reader reads the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bail;

impl std::fmt::Display for Bail {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("the schema reader gave up")
    }
}

impl std::error::Error for Bail {}

/// For the serde deserializers the walker runs on the strings it reads.
impl serde::de::Error for Bail {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Bail
    }
}

/// Reads a whole NVBench document, or gives up. Without AVX2 it gives up
/// at once: the portable classifier (a table lookup per byte) makes the
/// walk slower than the full reader (5.7 times the instructions measured
/// on a 15 MB file), so it is only the tests' and the fuzzer's.
pub fn read(input: &[u8]) -> Result<Root, Bail> {
    read_anchored(input, Role::Alone)
}

/// [`read`], sharing what names the states with the comparison's other
/// runs as `role` says (what is read is the same either way).
pub fn read_anchored(input: &[u8], role: Role) -> Result<Root, Bail> {
    if !blocks::has_avx2() {
        return Err(Bail);
    }
    read_anchored_with(input, true, role)
}

/// [`read`] with the portable classifier, or the AVX2 one when allowed
/// and the CPU has it.
pub fn read_with(input: &[u8], allow_avx2: bool) -> Result<Root, Bail> {
    read_anchored_with(input, allow_avx2, Role::Alone)
}

fn read_anchored_with(input: &[u8], allow_avx2: bool, role: Role) -> Result<Root, Bail> {
    walk::Walker::new(input, allow_avx2 && blocks::has_avx2(), role).document()
}

/// [`read_with`], and how many summaries were matched by templates.
#[cfg(test)]
fn read_and_hits(input: &[u8], allow_avx2: bool) -> (Result<Root, Bail>, usize) {
    walk::Walker::new(input, allow_avx2 && blocks::has_avx2(), Role::Alone).document_and_hits()
}

#[cfg(test)]
mod tests;

/// Stage 1 alone, for measurements (`examples/read_phase.rs tokens`):
/// the number of tokens before the end of the input or a refused block.
#[doc(hidden)]
pub fn count_tokens(input: &[u8]) -> usize {
    let mut tokens = blocks::Tokens::new(input, blocks::has_avx2());
    std::iter::from_fn(|| tokens.next().ok()).count()
}
