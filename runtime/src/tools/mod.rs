//! What a tool is made of, apart from any call: the values it returns and how each revision
//! receives them, the arguments it binds and the constraints they keep, its schemas.

pub(crate) mod ask_error;
pub(crate) mod bind_error;
pub(crate) mod binding;
pub(crate) mod compiled;
pub(crate) mod constraints;
pub(crate) mod content;
pub(crate) mod default_value;
pub(crate) mod error;
pub(crate) mod failure;
mod format;
pub(crate) mod header_argument;
pub(crate) mod headers;
pub(crate) mod output;
pub(crate) mod render;
pub(crate) mod schema;
pub mod select;

pub use binding::Args;
pub use content::{Annotations, Content, EmbeddedResource, InvalidBase64, ResourceLink, Role};
pub use error::ToolError;
pub use output::{IntoToolOutput, Json, Structured, Text, ToolOutput};
pub use schema::SchemaProfile;
