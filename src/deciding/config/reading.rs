//! Reading a config file: its bytes as Python's `open()` reads them, and
//! strict UTF-8 decoding, failing with the reference's texts.

use std::path::Path;

use super::messages;
use crate::loading::opening::{Input, as_not_regular, open_input, read_all};
use crate::pycompat::oserror::os_error_text;

pub(super) fn read_config_bytes(path: &str) -> Result<Vec<u8>, String> {
    if path.contains('\0') {
        return Err(messages::EMBEDDED_NULL_BYTE.to_string());
    }
    read_file_like_python(path).map_err(|os_error| messages::read_failed(path, &os_error))
}

/// Reads the whole file, describing failures the way Python's `OSError`
/// prints. The file is opened without blocking: a FIFO with a name, a
/// device or a socket is refused (the message names the config already),
/// a directory fails with EISDIR naming the path, as Python's `open()`
/// does; a pipe (`--config <(...)`) is read.
fn read_file_like_python(path: &str) -> Result<Vec<u8>, String> {
    let input = open_input(Path::new(path)).map_err(|error| match as_not_regular(&error) {
        Some(refused) => refused.to_string(),
        None => os_error_text(&error, path),
    })?;
    let (Input::Regular(file, _) | Input::Pipe(file)) = input;
    // Read failures after a successful open carry no file name in Python.
    read_all(&file).map_err(|error| os_error_text(&error, None))
}

/// Strict UTF-8 decoding; the error text is Python's `UnicodeDecodeError`
/// message, which the reference prints bare (it is not a TOML or OS error).
pub(super) fn decode_utf8(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes)
        .map_err(|error| describe_utf8_error(error.as_bytes(), error.utf8_error()))
}

fn describe_utf8_error(bytes: &[u8], error: std::str::Utf8Error) -> String {
    let start = error.valid_up_to();
    let first = bytes.get(start).copied().unwrap_or(0);
    let (length, reason) = match error.error_len() {
        None => (bytes.len().saturating_sub(start), "unexpected end of data"),
        Some(length) if is_utf8_lead_byte(first) => (length, "invalid continuation byte"),
        Some(length) => (length, "invalid start byte"),
    };
    let location = if length <= 1 {
        format!("byte 0x{first:02x} in position {start}")
    } else {
        format!("bytes in position {start}-{}", start + length - 1)
    };
    format!("'utf-8' codec can't decode {location}: {reason}")
}

fn is_utf8_lead_byte(byte: u8) -> bool {
    (0xC2..=0xF4).contains(&byte)
}
