//! What a tool hands back, and the trait that turns a return value into it.

use std::borrow::Cow;
use std::fmt::Display;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::tools::bind_error::BindError;
use crate::tools::content::Content;

/// The outcome of one tool call, before it is shaped for a protocol revision.
#[derive(Debug)]
pub struct ToolOutput {
    pub(crate) repr: Repr,
}

#[derive(Debug)]
pub(crate) enum Repr {
    /// A `CallToolResult`. `structured` is sent only where the tool advertises an output schema;
    /// `json_text` says where its JSON is also sent as text.
    Result {
        content: Vec<Content>,
        /// The value's JSON, as serde_json wrote it: kept as written, not boxed to its length
        /// (a second allocation).
        structured: Option<String>,
        is_error: bool,
        json_text: JsonText,
    },
    /// The client's arguments did not bind.
    InvalidArguments(BindError),
    /// A failure the client must not see in detail (a panic, an unexpected error).
    Internal(String),
    /// A JSON-RPC error the author chose (or a capability the client did not declare),
    /// shaped for the revision where it is rendered.
    Chosen(Box<crate::protocol::McpError>),
    /// A 2026-07-28 round ended on asks only the client's retry can answer.
    InputRequired(Box<InputRequired>),
}

/// Where the JSON of a structured value goes out as a text block too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonText {
    /// The tool gave no blocks of its own: the JSON is the text, first, for every client.
    Only,
    /// The tool gave blocks of its own, which say what the value is: the JSON follows them only
    /// where the specification requires it (structured content that is not an object,
    /// SEP-2106) or where the value would be lost (a result with no advertised output schema).
    /// A client of a revision without `structuredContent` gets the tool's blocks alone, so
    /// media the value carries does not travel twice.
    WhereRequired,
    /// As `WhereRequired`, and for clients without `structuredContent` too: the author asked.
    Fallback,
}

/// The asks a round ended on (`inputRequests` entries, by key), and the answers it used, for
/// the next round's `requestState`.
#[derive(Debug)]
pub(crate) struct InputRequired {
    pub(crate) requests: Vec<(String, serde_json::Value)>,
    pub(crate) answers: serde_json::Map<String, serde_json::Value>,
}

impl InputRequired {
    /// The round an error that asks the user to open URLs is, where `version` makes it one
    /// (2026-07-28, for a client that `takes_urls`).
    pub(crate) fn asked_by(
        chosen: &crate::protocol::McpError,
        version: crate::protocol::ProtocolVersion,
        takes_urls: bool,
    ) -> Option<InputRequired> {
        match chosen.sent(version, takes_urls) {
            crate::protocol::mcp_error::Sent::Round(requests) => Some(InputRequired {
                requests,
                answers: serde_json::Map::new(),
            }),
            _ => None,
        }
    }
}

impl ToolOutput {
    /// The URIs of its links and embedded resources, changed where `rewrite` gives another.
    pub(crate) fn rewrite_uris(&mut self, rewrite: &dyn Fn(&str) -> Option<String>) {
        if let Repr::Result { content, .. } = &mut self.repr {
            content.iter_mut().for_each(|c| c.rewrite_uri(rewrite));
        }
    }

    pub(crate) fn input_required(input: InputRequired) -> ToolOutput {
        ToolOutput {
            repr: Repr::InputRequired(Box::new(input)),
        }
    }

    /// The asks of a round that ended on them, or of an error that asks the user to open
    /// URLs, where `version` makes it a round (2026-07-28, for a client that `takes_urls`);
    /// the output itself otherwise.
    pub(crate) fn into_round(
        self,
        version: crate::protocol::ProtocolVersion,
        takes_urls: bool,
    ) -> Result<InputRequired, ToolOutput> {
        match self.repr {
            Repr::InputRequired(input) => Ok(*input),
            Repr::Chosen(chosen) => match InputRequired::asked_by(&chosen, version, takes_urls) {
                Some(input) => Ok(input),
                None => Err(ToolOutput {
                    repr: Repr::Chosen(chosen),
                }),
            },
            repr => Err(ToolOutput { repr }),
        }
    }

    /// Whether the client will see a failure: a tool error, arguments that did not bind, a
    /// masked internal error, a missing capability. A middleware reads it to count failures.
    pub fn is_error(&self) -> bool {
        match &self.repr {
            Repr::Result { is_error, .. } => *is_error,
            Repr::InputRequired(_) => false,
            Repr::InvalidArguments(_) | Repr::Internal(_) | Repr::Chosen(_) => true,
        }
    }

    /// Whether it is a JSON-RPC error the author chose.
    pub(crate) fn is_chosen(&self) -> bool {
        matches!(self.repr, Repr::Chosen(_))
    }

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
                json_text: JsonText::Only,
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
                json_text: JsonText::Only,
            },
        }
    }

    /// A structured result: the JSON of `value` as `structuredContent`, and the same JSON as a
    /// text block for clients that read only text.
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> ToolOutput {
        Self::structured_with(value, Vec::new())
    }

    /// A structured result with a text block of the tool's own beside it (a sentence, or the
    /// JSON pretty-printed) instead of the compact JSON.
    ///
    /// ```
    /// # use toolwright_runtime::ToolOutput;
    /// # let deleted = serde_json::json!({"success": true, "message": "3 entities deleted"});
    /// ToolOutput::structured_with_text(&deleted, "Entities deleted successfully");
    /// ```
    ///
    /// Clients that cannot receive `structuredContent` (revisions before 2025-06-18) get your
    /// text alone, unless you ask for the JSON too ([`json_fallback`](ToolOutput::json_fallback)).
    /// A value that is not a JSON object keeps its JSON text beside yours wherever it is sent as
    /// structured content, as the specification requires (SEP-2106).
    pub fn structured_with_text<T: Serialize + ?Sized>(
        value: &T,
        text: impl Into<String>,
    ) -> ToolOutput {
        Self::structured_with(value, vec![Content::text(text)])
    }

    /// A structured result with content blocks of the tool's own beside it (an image the value
    /// describes, a sentence), as [`structured_with_text`](ToolOutput::structured_with_text)
    /// does for one text block: clients without `structuredContent` get these blocks, each as
    /// their revision can carry it, not a JSON copy of the same data. With no blocks, the JSON
    /// of `value` is the text block.
    pub fn structured_with<T: Serialize + ?Sized>(value: &T, content: Vec<Content>) -> ToolOutput {
        // serde_json's own output, not parsed again.
        match serde_json::to_string(value) {
            Ok(raw) => ToolOutput {
                repr: Repr::Result {
                    json_text: match content.is_empty() {
                        true => JsonText::Only,
                        false => JsonText::WhereRequired,
                    },
                    // The JSON text block is written from `structured` when the result is sent.
                    content,
                    structured: Some(raw),
                    is_error: false,
                },
            },
            Err(e) => ToolOutput::internal(format!("the tool's result did not serialize: {e}")),
        }
    }

    /// The same structured result, whose JSON also goes, as a text block after the tool's own
    /// blocks, to clients that cannot receive `structuredContent` (revisions before
    /// 2025-06-18): for a value whose fields the tool's blocks do not already show.
    pub fn json_fallback(mut self) -> ToolOutput {
        if let Repr::Result { json_text, .. } = &mut self.repr
            && *json_text == JsonText::WhereRequired
        {
            *json_text = JsonText::Fallback;
        }
        self
    }

    /// The path of the value arguments that did not bind were refused for.
    pub(crate) fn bind_error_path(&self) -> Option<&str> {
        match &self.repr {
            Repr::InvalidArguments(error) => Some(&error.path),
            _ => None,
        }
    }

    /// What arguments that did not bind were refused with; the output itself otherwise.
    pub(crate) fn into_bind_error(self) -> Result<BindError, ToolOutput> {
        match self.repr {
            Repr::InvalidArguments(error) => Ok(error),
            repr => Err(ToolOutput { repr }),
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
/// [`Json<T>`], [`Structured<T>`] and [`Text<T>`]. A tool may also return any other `T: Serialize + JsonSchema`
/// without implementing this trait: it is treated as `Json<T>`. Implement it for a type of your
/// own to control exactly what the client receives.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    note = "a tool may return `String`, `&str`, `()`, `Content`, `Vec<Content>`, `Json<T>`, `Structured<T>`, `Text<T>`, `ToolOutput`, any `T: Serialize + JsonSchema`, or a `Result` of one of these"
)]
pub trait IntoToolOutput {
    /// The output schema of this type (of what serde writes), or `None` when it is not
    /// structured output.
    ///
    /// A type with an output schema must build its successful results with
    /// [`ToolOutput::structured`] or its siblings: clients reject a result without the
    /// structured content the schema promises, so the server answers such a result as an
    /// internal error that names the fault. Build the schema with the generator it is given
    /// (`generator.subschema_for::<T>()`); the definitions it collects are served with it.
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

/// Returns `T` as structured output with content blocks of your own beside it (a sentence, the
/// JSON pretty-printed), instead of the JSON as text.
///
/// ```
/// # use toolwright_runtime::Structured;
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Deleted { success: bool, message: String }
///
/// fn delete_entities(names: Vec<String>) -> Structured<Deleted> {
///     let message = format!("{} entities deleted", names.len());
///     Structured::new(Deleted { success: true, message }).text("Entities deleted successfully")
/// }
/// ```
///
/// What clients get is [`ToolOutput::structured_with`]'s: your blocks (an image the value
/// describes is sent once, not again inside a JSON copy), and the value as `structuredContent`
/// where the revision has it.
#[derive(Debug, Clone, PartialEq)]
pub struct Structured<T> {
    value: T,
    content: Vec<Content>,
    json_fallback: bool,
}

impl<T> Structured<T> {
    /// `value` as structured output; with no blocks added, its JSON is the text block.
    pub fn new(value: T) -> Structured<T> {
        Structured {
            value,
            content: Vec::new(),
            json_fallback: false,
        }
    }

    /// Adds a text block.
    pub fn text(self, text: impl Into<String>) -> Structured<T> {
        self.content(Content::text(text))
    }

    /// Adds a content block.
    pub fn content(mut self, block: Content) -> Structured<T> {
        self.content.push(block);
        self
    }

    /// Sends the value's JSON as text too, after your blocks, to clients that cannot receive
    /// `structuredContent` (see [`ToolOutput::json_fallback`]).
    pub fn json_fallback(mut self) -> Structured<T> {
        self.json_fallback = true;
        self
    }
}

impl<T: Serialize + JsonSchema> IntoToolOutput for Structured<T> {
    fn output_schema(generator: &mut SchemaGenerator) -> Option<Schema> {
        Json::<T>::output_schema(generator)
    }

    fn into_tool_output(self) -> ToolOutput {
        let output = ToolOutput::structured_with(&self.value, self.content);
        match self.json_fallback {
            true => output.json_fallback(),
            false => output,
        }
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
                ..
            } => (content, structured, is_error),
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
