//! The check stage: every rule that parsing one part alone cannot make, over a whole model.
//! It turns a model into a [`checked::Checked`] one, the only input the generators take.

pub(crate) mod checked;
pub(crate) mod string_argument;

pub(crate) mod function;
pub(crate) mod impl_block;
pub(crate) mod param;

pub(crate) mod prompt;
pub(crate) mod resource;
pub(crate) mod tool;

pub(crate) mod tool_type;
