//! Values the walker leaves to the full reader: read by serde_json at their
//! position, with the deserializer the model uses for them, so that what
//! they give is what the full reader gives.

use serde_json::value::RawValue;

use super::Bail;
use crate::loading::model::nesting_depth;

/// The full reader's deserializer over one value's text.
pub(super) type FullReader<'a> = serde_json::Deserializer<serde_json::de::SliceRead<'a>>;

/// How deep the schema reader lets values nest, counted from the
/// document's start: below serde_json's limit of 128, so that a value
/// read here on its own never succeeds where the full reader, counting
/// from the document's start, would stop.
pub(super) const MAX_DEPTH: usize = 100;

/// Reads the value at `pos` (a token, no whitespace before it) inside
/// containers `depth` deep with `read`; gives the value and the position
/// just past it. Gives up where serde_json fails and where the value nests
/// deeper than [`MAX_DEPTH`] in all.
pub(super) fn read_at<'a, T>(
    input: &'a [u8],
    pos: usize,
    depth: usize,
    read: impl FnOnce(&mut FullReader<'a>) -> serde_json::Result<T>,
) -> Result<(T, usize), Bail> {
    let (text, end) = value_text_at(input, pos)?;
    // Only containers nest (a string's brackets are not counted anyway).
    let nesting = match text.starts_with(['{', '[']) {
        true => nesting_depth(text),
        false => 0,
    };
    if depth + nesting > MAX_DEPTH {
        return Err(Bail);
    }
    let mut reader = serde_json::Deserializer::from_slice(text.as_bytes());
    let value = read(&mut reader).map_err(|_| Bail)?;
    reader.end().map_err(|_| Bail)?;
    Ok((value, end))
}

/// The text of the JSON value at `pos` (checked by serde_json, UTF-8
/// included) and the position just past it.
fn value_text_at(input: &[u8], pos: usize) -> Result<(&str, usize), Bail> {
    let rest = input.get(pos..).ok_or(Bail)?;
    let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<&RawValue>();
    let text = values.next().ok_or(Bail)?.map_err(|_| Bail)?.get();
    Ok((text, pos + values.byte_offset()))
}
