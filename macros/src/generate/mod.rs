//! The generate stage: checked models to tokens. Everything fallible happened before, so no
//! generator can fail. Token helpers and the target come first; the parts every kind of item
//! needs (injected parameters, the spec's shared fields, registration, arguments, completion,
//! the handler) next; then each kind's own.

pub(crate) mod tokens;

pub(crate) mod target;

pub(crate) mod injected;
pub(crate) mod registration;
pub(crate) mod spec;

pub(crate) mod arguments;
pub(crate) mod completion;
pub(crate) mod outcome;

pub(crate) mod handler;

pub(crate) mod string_item;

pub(crate) mod prompt;
pub(crate) mod resource;
pub(crate) mod tool;

pub(crate) mod tool_type;
