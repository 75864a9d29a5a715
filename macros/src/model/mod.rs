//! The models: what an item is, read from its syntax and attributes. Each part keeps a reference
//! to the syntax it came from, so errors and generated code carry its span. The parts every
//! kind of item shares (its kind's names, its parameters, its function, the impl block it may
//! sit in) come first, with a resource's URI template; each kind's own model builds on them.

pub(crate) mod kind;
pub(crate) mod template;

pub(crate) mod param;

pub(crate) mod function;
pub(crate) mod impl_block;

pub(crate) mod prompt;
pub(crate) mod resource;
pub(crate) mod tool;
