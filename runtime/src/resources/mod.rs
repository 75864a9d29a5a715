//! What a resource is, apart from any request: its contents and what a resource function may
//! return, URI templates and how a requested URI matches one, the folders of skills a server
//! serves as resources (read once, when the server is built), and the entries and results of
//! each revision.

mod pattern;
mod value;

pub(crate) mod skills;

mod syntax;

pub(crate) mod template;

pub(crate) mod contents;

pub(crate) mod render;

pub use contents::{IntoContents, Read, ResourceOutput};
