//! The generate stage: checked models to tokens. Everything fallible happened before, so no
//! generator can fail. Token helpers and the target come first; the parts any kind of item
//! needs (injected parameters) next; then each kind's own.

pub(crate) mod tokens;

pub(crate) mod target;

pub(crate) mod injected;

pub(crate) mod arguments;
pub(crate) mod outcome;

pub(crate) mod tool;

pub(crate) mod tool_type;
