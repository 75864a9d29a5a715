//! What a tool hands back, and the trait that turns a return value into it.

use std::borrow::Cow;
use std::fmt::Display;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::value::RawValue;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::binding::BindError;
use crate::protocol::ProtocolVersion;

/// One block of a tool result's `content`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Plain text: `{"type":"text","text":"..."}`.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// The base64 data.
        data: String,
        /// Its MIME type, like `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded (2025-03-26 on; sent to older clients as a text note).
    Audio {
        /// The base64 data.
        data: String,
        /// Its MIME type, like `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A link to a resource (2025-06-18 on; sent to older clients as text with the URI).
    ResourceLink(ResourceLink),
    /// A resource carried in the result.
    Resource {
        /// The resource.
        resource: EmbeddedResource,
    },
}

/// A link to a resource the client may fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl ResourceLink {
    /// A link to `uri`, called `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> ResourceLink {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
        }
    }

    /// The same link, with a MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> ResourceLink {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The same link, with a description.
    pub fn description(mut self, description: impl Into<String>) -> ResourceLink {
        self.description = Some(description.into());
        self
    }
}

/// The contents of a resource carried in a result: text or binary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// Its MIME type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its text, for a text resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its base64 data, for a binary resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text { text: text.into() }
    }

    /// An image from its bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: BASE64.encode(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// Audio from its bytes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: BASE64.encode(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// A link to a resource.
    pub fn resource_link(link: ResourceLink) -> Content {
        Content::ResourceLink(link)
    }

    /// A text resource carried in the result.
    pub fn text_resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: Some(text.into()),
                blob: None,
            },
        }
    }

    /// A binary resource carried in the result.
    pub fn blob_resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: &[u8],
    ) -> Content {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: None,
                blob: Some(BASE64.encode(bytes)),
            },
        }
    }

    /// The block as `version` can carry it: audio before 2025-03-26 and resource links before
    /// 2025-06-18 become text that says what they were, so nothing vanishes unexplained.
    pub(crate) fn for_version(&self, version: ProtocolVersion) -> Cow<'_, Content> {
        match self {
            Content::Audio { data, mime_type } if !version.has_audio() => {
                Cow::Owned(Content::text(format!(
                    "[{mime_type} audio, {} bytes of base64, not shown: protocol {version} cannot carry audio]",
                    data.len()
                )))
            }
            Content::ResourceLink(link) if !version.has_resource_links() => {
                Cow::Owned(Content::text(format!("{}: {}", link.name, link.uri)))
            }
            other => Cow::Borrowed(other),
        }
    }
}

/// The outcome of one tool call, before it is shaped for a protocol revision.
#[derive(Debug)]
pub struct ToolOutput {
    pub(crate) repr: Repr,
}

#[derive(Debug)]
pub(crate) enum Repr {
    /// A `CallToolResult`. `structured` is sent only where the tool advertises an output schema;
    /// its JSON is always sent as the first text block.
    Result {
        content: Vec<Content>,
        structured: Option<Box<RawValue>>,
        is_error: bool,
    },
    /// The client's arguments did not bind.
    InvalidArguments(BindError),
    /// A failure the client must not see in detail (a panic, an unexpected error).
    Internal(String),
}

impl ToolOutput {
    /// A result of one text block.
    pub fn text(text: impl Into<String>) -> ToolOutput {
        Self::content(vec![Content::text(text)])
    }

    /// A result made of the given blocks.
    pub fn content(content: Vec<Content>) -> ToolOutput {
        ToolOutput {
            repr: Repr::Result {
                content,
                structured: None,
                is_error: false,
            },
        }
    }

    /// A tool error (`isError: true`) whose message the client, and the model, will read.
    pub fn error(message: impl Into<String>) -> ToolOutput {
        ToolOutput {
            repr: Repr::Result {
                content: vec![Content::text(message)],
                structured: None,
                is_error: true,
            },
        }
    }

    /// A structured result: the JSON of `value` as `structuredContent`, and the same JSON as a
    /// text block for clients that read only text.
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> ToolOutput {
        // `to_raw_value` keeps serde_json's own output without parsing it again.
        match serde_json::value::to_raw_value(value) {
            Ok(raw) => {
                ToolOutput {
                    repr: Repr::Result {
                        // The text block is written from `structured` when the result is sent.
                        content: Vec::new(),
                        structured: Some(raw),
                        is_error: false,
                    },
                }
            }
            Err(e) => ToolOutput::internal(format!("the tool's result did not serialize: {e}")),
        }
    }

    pub(crate) fn invalid_arguments(error: BindError) -> ToolOutput {
        ToolOutput {
            repr: Repr::InvalidArguments(error),
        }
    }

    /// An internal failure: the client sees "internal error (ref …)" and `detail` goes to
    /// stderr under the same reference (or to the client too, with
    /// `Server::expose_internal_errors`).
    pub fn internal(detail: impl Into<String>) -> ToolOutput {
        ToolOutput {
            repr: Repr::Internal(detail.into()),
        }
    }
}

/// A value a tool can return.
///
/// Implemented for text (`String`, `&str`, `Cow<str>`), `()` (empty content), [`Content`] and
/// `Vec<Content>` (the blocks as given), [`ToolOutput`],
/// [`Json<T>`] and [`Text<T>`]. A tool may also return any other `T: Serialize + JsonSchema`
/// without implementing this trait: it is treated as `Json<T>`. Implement it for a type of your
/// own to control exactly what the client receives.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    note = "a tool may return `String`, `&str`, `()`, `Content`, `Vec<Content>`, `Json<T>`, `Text<T>`, `ToolOutput`, any `T: Serialize + JsonSchema`, or a `Result` of one of these"
)]
pub trait IntoToolOutput {
    /// The output schema of this type (of what serde writes), or `None` when it is not
    /// structured output.
    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        let _ = generator;
        None
    }

    /// Converts the value into the call's outcome.
    fn into_tool_output(self) -> ToolOutput;
}

impl IntoToolOutput for ToolOutput {
    fn into_tool_output(self) -> ToolOutput {
        self
    }
}

impl IntoToolOutput for String {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::text(self)
    }
}

impl IntoToolOutput for &str {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::text(self)
    }
}

impl IntoToolOutput for Cow<'_, str> {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::text(self)
    }
}

impl IntoToolOutput for Content {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::content(vec![self])
    }
}

impl IntoToolOutput for Vec<Content> {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::content(self)
    }
}

impl IntoToolOutput for () {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::content(Vec::new())
    }
}

/// Returns `T` as structured output: its JSON as `structuredContent`, described by an output
/// schema of what serde writes, plus the same JSON as a text block.
///
/// Any `T: Serialize + JsonSchema` returned bare is already treated this way; `Json` makes it
/// explicit, and is the way to return a `String` as structured output instead of as text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: Serialize + JsonSchema> IntoToolOutput for Json<T> {
    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(generator.root_schema_for::<T>())
    }

    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::structured(&self.0)
    }
}

/// Returns `T` as one text block, through its `Display` implementation, with no output schema.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Text<T>(pub T);

impl<T: Display> IntoToolOutput for Text<T> {
    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::text(self.0.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(out: ToolOutput) -> (Vec<Content>, Option<String>, bool) {
        match out.repr {
            Repr::Result {
                content,
                structured,
                is_error,
            } => (content, structured.map(|s| s.get().to_owned()), is_error),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn text_and_structured() {
        assert_eq!(
            parts("hi".into_tool_output()),
            (vec![Content::text("hi")], None, false)
        );
        assert_eq!(parts(().into_tool_output()), (vec![], None, false));
        let (content, structured, _) = parts(Json(vec![1, 2]).into_tool_output());
        assert!(
            content.is_empty(),
            "the text block is rendered from the value"
        );
        assert_eq!(structured.as_deref(), Some("[1,2]"));
        assert_eq!(
            parts(Text(4.5).into_tool_output()).0,
            vec![Content::text("4.5")]
        );
    }

    #[test]
    fn unserializable_values_are_internal_errors() {
        let map: std::collections::HashMap<(u8, u8), u8> = [((1, 2), 3)].into();
        assert!(matches!(
            ToolOutput::structured(&map).repr,
            Repr::Internal(_)
        ));
    }
}
