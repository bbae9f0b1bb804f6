//! One handle per distinct axis value of a file: a cartesian product
//! repeats each value of an axis in many states, and every state of a
//! large file is held until its benchmark is compared.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use crate::loading::model::AxisValue;

/// The handles of one file's axis values by the text they were read
/// from. One per file read (each on its own thread), so no locking.
pub(super) struct AxisInterner<'a> {
    handles: HashMap<Key<'a>, AxisValue, BuildHasherDefault<KeyHasher>>,
    seed: u64,
}

impl Default for AxisInterner<'_> {
    fn default() -> Self {
        AxisInterner {
            handles: HashMap::default(),
            seed: seed(),
        }
    }
}

impl<'a> AxisInterner<'a> {
    /// The handle of the axis value read from `text`, made by `make` the
    /// first time.
    pub fn get_or_make<E>(
        &mut self,
        text: &'a [u8],
        make: impl FnOnce() -> Result<AxisValue, E>,
    ) -> Result<AxisValue, E> {
        let key = Key {
            hash: text_hash(self.seed, text),
            text,
        };
        if let Some(handle) = self.handles.get(&key) {
            return Ok(handle.clone());
        }
        let handle = make()?;
        self.handles.insert(key, handle.clone());
        Ok(handle)
    }
}

/// A text with its hash, computed once (the map's hasher passes it on).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key<'a> {
    hash: u64,
    text: &'a [u8],
}

impl std::hash::Hash for Key<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

#[inline(always)]
fn mix(hash: u64, word: u64) -> u64 {
    (hash ^ word)
        .wrapping_mul(0xf135_7aea_2e62_a9c5)
        .rotate_left(26)
}

/// A multiply-rotate hash of the text, then its length, eight bytes at a
/// time (the last word overlaps the one before it; a shorter text is read
/// as two overlapping halves, or three of its bytes, as wyhash reads it).
fn text_hash(seed: u64, text: &[u8]) -> u64 {
    let len = text.len();
    let word = |at: usize| u64::from_le_bytes(text[at..at + 8].try_into().unwrap_or_default());
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            text[at..at + 4].try_into().unwrap_or_default(),
        ))
    };
    let mut hash = seed;
    match len {
        0 => {}
        1..=3 => {
            let bytes =
                u64::from(text[0]) | u64::from(text[len / 2]) << 8 | u64::from(text[len - 1]) << 16;
            hash = mix(hash, bytes);
        }
        4..=7 => hash = mix(hash, half(0) << 32 | half(len - 4)),
        _ => {
            let mut at = 0;
            while at + 8 < len {
                hash = mix(hash, word(at));
                at += 8;
            }
            hash = mix(hash, word(len - 8));
        }
    }
    // Last, so that the last word reaches the top bits too (the map's
    // 7-bit tags are taken from there: without this they were alike for
    // texts that differ at their ends, and each lookup compared ten keys).
    mix(hash, len as u64)
}

/// A seed per process, so that no file can be made to collide.
fn seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u64))
}

/// Passes a key's hash, computed already, on.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = mix(self.0, u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_one_handle_and_other_texts_do_not() {
        let mut interner = AxisInterner::default();
        let mut made = 0;
        let input = b"N int64 1 N int64 1 N int64 2";
        let mut get = |range: std::ops::Range<usize>| {
            interner
                .get_or_make(&input[range], || {
                    made += 1;
                    Ok::<_, ()>(AxisValue::new("N".into(), None, None))
                })
                .unwrap()
        };
        let values = [get(0..9), get(10..19), get(20..29)];
        // Made once for the two equal inputs, once for the other.
        assert_eq!(made, 2);
        assert!(values.iter().all(|value| value.name == "N"));
    }

    /// Every byte of a text counts, at every length.
    #[test]
    fn texts_hash_by_every_byte() {
        let text: Vec<u8> = (0..40u8).collect();
        for len in 0..text.len() {
            let hash = text_hash(7, &text[..len]);
            for at in 0..len {
                let mut other = text[..len].to_vec();
                other[at] ^= 0x20;
                assert_ne!(hash, text_hash(7, &other), "{len} {at}");
            }
            assert_ne!(hash, text_hash(7, &text[..len + 1]), "{len}");
        }
    }
}
