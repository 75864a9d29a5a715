//! What one `resources/read` produced, and the return types a resource function may have.

use std::fmt::Display;

use serde::Serialize;

use crate::protocol::McpError;
use crate::tools::bind_error::BindError;
use crate::tools::content::EmbeddedResource;
use crate::tools::failure::{Failure, failure};
use crate::tools::output::{InputRequired, Json, ToolOutput};

/// What a conversion into contents knows of the read: the URI asked for and the MIME type the
/// resource declares.
#[derive(Debug, Clone, Copy)]
pub struct Read<'a> {
    /// The URI the client read.
    pub uri: &'a str,
    /// The resource's declared MIME type (`mime_type = "…"`), if it has one.
    pub mime_type: Option<&'a str>,
}

/// The outcome of one resource function's run. Generated code makes it; a server shapes it.
#[derive(Debug)]
pub struct ResourceOutput {
    pub(crate) repr: ResourceRepr,
}

#[derive(Debug)]
pub(crate) enum ResourceRepr {
    Contents(Vec<EmbeddedResource>),
    /// The function says there is no such resource.
    NotFound,
    /// The template's values did not bind to the parameters: `-32602`.
    InvalidArguments(BindError),
    /// The function's own error, shown as it wrote it: `-32603`.
    Failed(String),
    /// A JSON-RPC error the author chose, shaped for the revision.
    Chosen(Box<McpError>),
    /// A failure the client must not see in detail (a panic): `-32603`, masked.
    Internal(String),
    /// A 2026-07-28 round ended on asks only the client's retry can answer.
    InputRequired(Box<InputRequired>),
}

impl ResourceOutput {
    /// The URIs of its contents, changed where `rewrite` gives another.
    pub(crate) fn rewrite_uris(&mut self, rewrite: &dyn Fn(&str) -> Option<String>) {
        if let ResourceRepr::Contents(contents) = &mut self.repr {
            for content in contents {
                if let Some(rewritten) = rewrite(&content.uri) {
                    content.uri = rewritten;
                }
            }
        }
    }

    pub(crate) fn new(repr: ResourceRepr) -> ResourceOutput {
        ResourceOutput { repr }
    }

    pub(crate) fn internal(detail: String) -> ResourceOutput {
        ResourceOutput::new(ResourceRepr::Internal(detail))
    }

    pub(crate) fn input_required(input: InputRequired) -> ResourceOutput {
        ResourceOutput::new(ResourceRepr::InputRequired(Box::new(input)))
    }

    /// The asks of a round that ended on them, or of an error that asks the user to open
    /// URLs where `version` makes it a round; the output itself otherwise.
    pub(crate) fn into_round(
        self,
        version: crate::protocol::ProtocolVersion,
        takes_urls: bool,
    ) -> Result<InputRequired, ResourceOutput> {
        match self.repr {
            ResourceRepr::InputRequired(input) => Ok(*input),
            ResourceRepr::Chosen(chosen) => {
                match InputRequired::asked_by(&chosen, version, takes_urls) {
                    Some(input) => Ok(input),
                    None => Err(ResourceOutput::new(ResourceRepr::Chosen(chosen))),
                }
            }
            repr => Err(ResourceOutput::new(repr)),
        }
    }

    /// The output of values that did not bind (what `Arguments::bind` refused with).
    pub fn unbound(refused: ToolOutput) -> ResourceOutput {
        ResourceOutput::new(match refused.into_bind_error() {
            Ok(error) => ResourceRepr::InvalidArguments(error),
            Err(other) => ResourceRepr::Internal(format!("{other:?}")),
        })
    }

    /// Turns a resource function's returned value into its output.
    pub fn from_value<T: IntoContents>(value: T, read: &Read<'_>) -> ResourceOutput {
        value.into_contents(read)
    }
}

/// What a `#[mcp_resource]` function may return: text (`String`, `&'static str`), bytes
/// (`Vec<u8>`, sent as a base64 blob), [`Json`] of any `Serialize` value (JSON text,
/// `application/json`), one [`EmbeddedResource`] or a `Vec` of them (as given), an `Option` of
/// any of these (`None`: the resource does not exist), or a `Result` whose error is shown to
/// the client as it is written (its `Display`, in a `-32603` error), or, for an [`McpError`]
/// (or a [`ToolError`](crate::ToolError) made from one), is the JSON-RPC error it describes.
///
/// Text and bytes carry the resource's declared MIME type, or `text/plain` and
/// `application/octet-stream`.
#[diagnostic::on_unimplemented(
    message = "a resource cannot return `{Self}`",
    label = "not a resource's contents",
    note = "a resource returns `String`, `&'static str`, `Vec<u8>`, `Json<T>` (for any \
            `T: Serialize`), `EmbeddedResource`, `Vec<EmbeddedResource>`, or an `Option` or \
            `Result` of one of these"
)]
pub trait IntoContents {
    /// The read's output.
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput;
}

fn one(resource: EmbeddedResource) -> ResourceOutput {
    ResourceOutput::new(ResourceRepr::Contents(vec![resource]))
}

impl IntoContents for String {
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput {
        let mime_type = read.mime_type.unwrap_or("text/plain");
        one(EmbeddedResource::text(read.uri, self).mime_type(mime_type))
    }
}

impl IntoContents for &'static str {
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput {
        self.to_owned().into_contents(read)
    }
}

impl IntoContents for Vec<u8> {
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput {
        let mime_type = read.mime_type.unwrap_or("application/octet-stream");
        one(EmbeddedResource::blob(read.uri, &self).mime_type(mime_type))
    }
}

impl<T: Serialize> IntoContents for Json<T> {
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput {
        match serde_json::to_string(&self.0) {
            Ok(text) => {
                let mime_type = read.mime_type.unwrap_or("application/json");
                one(EmbeddedResource::text(read.uri, text).mime_type(mime_type))
            }
            Err(error) => {
                ResourceOutput::internal(format!("the value does not serialize: {error}"))
            }
        }
    }
}

impl IntoContents for EmbeddedResource {
    fn into_contents(self, _: &Read<'_>) -> ResourceOutput {
        one(self)
    }
}

impl IntoContents for Vec<EmbeddedResource> {
    fn into_contents(self, _: &Read<'_>) -> ResourceOutput {
        ResourceOutput::new(ResourceRepr::Contents(self))
    }
}

impl<T: IntoContents> IntoContents for Option<T> {
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput {
        match self {
            Some(value) => value.into_contents(read),
            None => ResourceOutput::new(ResourceRepr::NotFound),
        }
    }
}

impl<T: IntoContents, E: Display + 'static> IntoContents for Result<T, E> {
    fn into_contents(self, read: &Read<'_>) -> ResourceOutput {
        match self {
            Ok(value) => value.into_contents(read),
            Err(error) => ResourceOutput::new(match failure(error) {
                Failure::Chosen(chosen) => ResourceRepr::Chosen(chosen),
                Failure::Message(message) => ResourceRepr::Failed(message),
            }),
        }
    }
}
