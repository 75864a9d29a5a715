//! What a client sent, as an error quotes it: within a bound, so that an error never grows with
//! the input it describes.

use std::borrow::Cow;

/// The most of what a client sent that an error quotes: a name, a URI, a value.
const QUOTED: usize = 200;

/// What a client sent, as an error quotes it: whole when it is short, else its beginning and
/// its length, so that an error never grows with the input it describes.
pub(crate) fn quoted(text: &str) -> Cow<'_, str> {
    match text.len() <= QUOTED {
        true => Cow::Borrowed(text),
        false => Cow::Owned(format!("{}… ({} bytes)", prefix(text, QUOTED), text.len())),
    }
}

/// `text`, or its beginning of at most `max` bytes and an ellipsis.
pub(crate) fn shortened(text: &str, max: usize) -> Cow<'_, str> {
    match text.len() <= max {
        true => Cow::Borrowed(text),
        false => Cow::Owned(format!("{}…", prefix(text, max))),
    }
}

/// The longest beginning of `text` of at most `max` bytes that ends on a character.
fn prefix(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
