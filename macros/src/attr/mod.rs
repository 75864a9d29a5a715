//! Attribute parsing, split by what it parses: the shared machinery of one `key = value` (and
//! the suggestion for a misspelt key) at the bottom, then each attribute's keys.

pub(crate) mod suggest;

pub(crate) mod key;

pub(crate) mod schemars;

pub(crate) mod arg;
pub(crate) mod tool;
