//! Text made from file names and other input: lossless text for non-UTF-8
//! paths ([`path_text`]) and the escaping that keeps names printed on
//! stdout on one line and harmless to the terminal ([`printable`]). A leaf:
//! every stage uses it, it uses none of them.

pub mod digits;
pub mod path_text;
pub mod printable;
