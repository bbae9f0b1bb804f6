//! File names as text, losslessly. Paths are `String` throughout this tool
//! (they are printed, joined as Python joins them, written into JSON), but a
//! Unix file name is any bytes: the reference reads a non-UTF-8 name
//! through Python's `surrogateescape`. Here each byte that is not part of
//! valid UTF-8 becomes one character of a reserved Private Use range
//! (U+10FD80..=U+10FDFF, the byte's value above U+10FD00), and turns back
//! into that byte when the file is opened. A valid name that itself holds
//! characters of that range has their bytes encoded the same way, so the
//! mapping stays reversible for every name.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// The first character of the reserved range; byte `b` (always >= 0x80
/// here) is `RESERVED_BASE + b`.
const RESERVED_BASE: u32 = 0x10FD00;

/// A character that stands for a byte of a non-UTF-8 file name.
pub fn is_reserved(c: char) -> bool {
    (RESERVED_BASE + 0x80..=RESERVED_BASE + 0xFF).contains(&(c as u32))
}

/// The reserved character standing for `byte` (at least 0x80).
pub fn byte_char(byte: u8) -> char {
    char::from_u32(RESERVED_BASE + u32::from(byte)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// A file name's text: itself when it is UTF-8 without reserved
/// characters, else with its odd bytes mapped into the reserved range.
pub fn to_text(name: &OsStr) -> String {
    let bytes = name.as_bytes();
    if let Ok(text) = std::str::from_utf8(bytes)
        && !text.chars().any(is_reserved)
    {
        return text.to_string();
    }
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if is_reserved(c) {
                let mut buffer = [0; 4];
                out.extend(c.encode_utf8(&mut buffer).bytes().map(byte_char));
            } else {
                out.push(c);
            }
        }
        out.extend(chunk.invalid().iter().copied().map(byte_char));
    }
    out
}

/// The path a text made by [`to_text`] (or typed as UTF-8) names.
pub fn to_path(text: &str) -> Cow<'_, Path> {
    if !text.chars().any(is_reserved) {
        return Cow::Borrowed(Path::new(text));
    }
    let mut bytes = Vec::with_capacity(text.len());
    for c in text.chars() {
        if is_reserved(c) {
            bytes.push((c as u32 - RESERVED_BASE) as u8);
        } else {
            let mut buffer = [0; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
    }
    Cow::Owned(PathBuf::from(OsString::from_vec(bytes)))
}

/// The byte a reserved character stands for.
pub fn reserved_byte(c: char) -> Option<u8> {
    is_reserved(c).then(|| (c as u32 - RESERVED_BASE) as u8)
}

/// `text` with the bytes of a non-UTF-8 file name shown as `\xff`: valid
/// text for documents that cannot hold the bytes themselves.
pub fn bytes_escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_reserved) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match byte_escape(c) {
            Some(escape) => out.push_str(&escape),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// How a reserved character is shown: as the byte it stands for (`\xff`).
pub fn byte_escape(c: char) -> Option<String> {
    is_reserved(c).then(|| format!("\\x{:02x}", c as u32 - RESERVED_BASE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(bytes: &[u8]) -> String {
        let text = to_text(OsStr::from_bytes(bytes));
        assert_eq!(to_path(&text).as_os_str().as_bytes(), bytes, "{bytes:?}");
        text
    }

    #[test]
    fn utf8_names_are_themselves() {
        assert_eq!(round_trip(b"ref.json"), "ref.json");
        assert_eq!(round_trip("résumé/ü.json".as_bytes()), "résumé/ü.json");
        assert!(matches!(to_path("ref.json"), Cow::Borrowed(_)));
    }

    #[test]
    fn odd_bytes_round_trip_and_show_as_escapes() {
        let text = round_trip(b"r\xffe\x80f.json");
        let shown: String = text
            .chars()
            .map(|c| byte_escape(c).unwrap_or(c.to_string()))
            .collect();
        assert_eq!(shown, "r\\xffe\\x80f.json");
        assert_eq!(text.chars().count(), "r?e?f.json".len());
        // A truncated multi-byte sequence, and bytes that are never UTF-8.
        round_trip(b"\xc3");
        round_trip(b"a\xe2\x82");
        round_trip(b"\xf8\xfe\xff");
    }

    #[test]
    fn names_holding_reserved_characters_still_round_trip() {
        let reserved = char::from_u32(RESERVED_BASE + 0x80).unwrap();
        let name = format!("x{reserved}y");
        let text = round_trip(name.as_bytes());
        assert_ne!(text, name, "its bytes are encoded, not kept");
        round_trip(format!("{reserved}\u{ff}").as_bytes());
    }
}
