//! What a resource is, apart from any request: its contents and what a resource function may
//! return, URI templates and how a requested URI matches one, and the entries and results of
//! each revision.

mod pattern;
mod value;

mod syntax;

pub(crate) mod template;

pub(crate) mod contents;

pub(crate) mod render;

pub use contents::{IntoContents, Read, ResourceOutput};
