//! What a tool hands back, and the trait that turns a return value into it.

use std::borrow::Cow;
use std::fmt::Display;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::binding::BindError;

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
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text { text: text.into() }
    }
}

/// The outcome of one tool call, before it is shaped for a protocol revision.
#[derive(Debug)]
pub struct ToolOutput {
    pub(crate) repr: Repr,
}

#[derive(Debug)]
pub(crate) enum Repr {
    /// A `CallToolResult`. `structured` is sent only where the tool advertises an output schema.
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
        match serde_json::to_string(value) {
            Ok(json) => {
                let raw = RawValue::from_string(json.clone()).expect("serde_json wrote valid JSON");
                ToolOutput {
                    repr: Repr::Result {
                        content: vec![Content::text(json)],
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
/// Implemented for text (`String`, `&str`, `Cow<str>`), `()` (empty content), [`ToolOutput`],
/// [`Json<T>`] and [`Text<T>`]. A tool may also return any other `T: Serialize + JsonSchema`
/// without implementing this trait: it is treated as `Json<T>`. Implement it for a type of your
/// own to control exactly what the client receives.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    note = "a tool may return `String`, `&str`, `()`, `Json<T>`, `Text<T>`, `ToolOutput`, any `T: Serialize + JsonSchema`, or a `Result` of one of these"
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
        assert_eq!(content, vec![Content::text("[1,2]")]);
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
