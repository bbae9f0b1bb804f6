//! Lists read into vectors of exactly their length.
//!
//! A vector grown one element at a time keeps room for four at least and
//! doubles after: a state's two axis values would carry room for four, and
//! a benchmark's states up to twice their number. On inputs of a million
//! states that slack is a large part of the peak memory.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};

/// Elements read before the vector is allocated.
const HEAD: usize = 4;

/// A list as a vector without spare capacity.
pub struct ExactVec<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ExactVec<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ExactVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ExactVisitor<T> {
            type Value = ExactVec<T>;
            // serde's own text for a `Vec`: error messages stay the same.
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ExactVec<T>, A::Error> {
                read_exact(seq).map(ExactVec)
            }
        }
        deserializer.deserialize_seq(ExactVisitor(PhantomData))
    }
}

/// Short lists are allocated once at their length; longer ones grow and
/// give their spare capacity back at the end.
fn read_exact<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<T>, A::Error> {
    let mut head: [Option<T>; HEAD] = std::array::from_fn(|_| None);
    let mut count = 0;
    while count < HEAD {
        match seq.next_element::<T>()? {
            Some(element) => head[count] = Some(element),
            None => break,
        }
        count += 1;
    }
    let mut elements = Vec::with_capacity(count);
    elements.extend(head.into_iter().flatten());
    if count < HEAD {
        return Ok(elements);
    }
    while let Some(element) = seq.next_element::<T>()? {
        elements.push(element);
    }
    elements.shrink_to_fit();
    Ok(elements)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<u32> {
        serde_json::from_str::<ExactVec<u32>>(text).unwrap().0
    }

    #[test]
    fn every_length_has_no_spare_capacity() {
        for length in 0..40 {
            let list: Vec<String> = (0..length).map(|i| i.to_string()).collect();
            let elements = read(&format!("[{}]", list.join(",")));
            assert_eq!(elements, (0..length).collect::<Vec<u32>>());
            assert_eq!(elements.capacity(), length as usize, "length {length}");
        }
    }

    #[test]
    fn errors_read_as_for_a_vec() {
        for text in ["5", "{}", "[1,\"x\"]", "[1,2,3,4,5,"] {
            let exact = serde_json::from_str::<ExactVec<u32>>(text)
                .err()
                .map(|e| e.to_string());
            let plain = serde_json::from_str::<Vec<u32>>(text)
                .err()
                .map(|e| e.to_string());
            assert_eq!(exact, plain, "{text}");
            assert!(exact.is_some());
        }
    }
}
