//! Attribute parsing, split by what it parses: the shared machinery of one `key = value` (and
//! the suggestion for a misspelt key) at the bottom, then the keys every kind of item takes,
//! then each attribute's own.

pub(crate) mod suggest;

pub(crate) mod key;

pub(crate) mod item;
pub(crate) mod schemars;

pub(crate) mod arg;
pub(crate) mod prompt;
pub(crate) mod resource;
pub(crate) mod tool;
