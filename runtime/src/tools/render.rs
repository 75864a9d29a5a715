//! Result shaping: a tool's output as the `tools/call` response line of one protocol revision.
//!
//! Policy, per revision: arguments that did not bind are a `-32602` error before 2025-11-25 and
//! an `isError` result from then on (SEP-1303), so a model can read the message and retry.
//! Internal failures (a panic, an error the author did not choose to show) are logged to stderr
//! with a reference and reach the client masked as "internal error (ref …)".
//! `structuredContent` goes out exactly when the revision advertised an output schema for the
//! tool, in the shape that schema describes (`{"result": v}` where 2025 revisions need an
//! object); its JSON is the first text block, unless the tool wrote its own.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::value::RawValue;

use crate::diagnostics;
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::{self, INVALID_PARAMS, RpcError};
use crate::protocol::wire::Modern;
use crate::tools::compiled::Compiled;
use crate::tools::content::Content;
use crate::tools::output::{Repr, ToolOutput};

/// What shaping a tool's results needs to know besides the output.
pub(crate) struct Renderer<'a> {
    pub(crate) tool: &'a Compiled,
    pub(crate) name: &'a str,
    /// Show the details of internal errors to the client (development only).
    pub(crate) expose_internal_errors: bool,
    /// The `_meta` of 2026-07-28 results.
    pub(crate) server_meta: &'a RawValue,
}

/// The response line for `output` under `version`.
pub(crate) fn call_result(
    renderer: &Renderer<'_>,
    version: ProtocolVersion,
    id: &RawValue,
    output: ToolOutput,
) -> Vec<u8> {
    let tool = renderer.tool;
    let (content, structured, is_error, own_text) = match output.repr {
        Repr::Result {
            structured: None,
            is_error: false,
            ..
        } if tool.output.is_some() => {
            // Clients must reject a result without the structured content the tool's output
            // schema promises: say where the fault is instead.
            let detail = "the tool declares an output schema but returned no structured content; \
                          its `IntoToolOutput::into_tool_output` must build the result with \
                          `ToolOutput::structured` (or return `None` from `output_schema`)";
            return internal(renderer, version, id, detail);
        }
        Repr::Result {
            content,
            structured,
            is_error,
            own_text,
        } => (content, structured, is_error, own_text),
        Repr::InvalidArguments(error) => {
            let message = error.describe(&tool.input_schema);
            if !version.invalid_arguments_are_tool_errors() {
                let error = RpcError::new(INVALID_PARAMS, message);
                return jsonrpc::error_line(Some(id), &error);
            }
            (vec![Content::text(message)], None, true, false)
        }
        Repr::Internal(detail) => return internal(renderer, version, id, &detail),
    };
    // Structured content goes out exactly when this revision advertised an output schema,
    // in the shape that schema describes.
    let advertised = !is_error && tool.output_schema(version).is_some();
    let structured_content = structured.as_deref().filter(|_| advertised).map(|value| {
        match tool.wraps_output(version) {
            true => Structured::Wrapped(value),
            false => Structured::AsIs(value),
        }
    });
    // The JSON as text: always, unless the tool wrote its own blocks; then only for a client
    // that gets no structured content, and for a value that is not an object (SEP-2106 makes
    // the text a MUST for those).
    let json = structured
        .as_deref()
        .map(RawValue::get)
        .filter(|json| !own_text || structured_content.is_none() || !json.starts_with('{'));
    let result = CallToolResult {
        content: ContentOut {
            json,
            json_first: !own_text,
            blocks: &content,
            version,
        },
        structured_content,
        is_error,
        modern: Modern::of(renderer.server_meta, version),
    };
    jsonrpc::result_line(id, &result)
}

/// A failure the client must not see in detail: logged with a reference, answered masked.
fn internal(
    renderer: &Renderer<'_>,
    version: ProtocolVersion,
    id: &RawValue,
    detail: &str,
) -> Vec<u8> {
    let reference = diagnostics::next_reference();
    diagnostics::error(format_args!(
        "tool `{}` failed (ref {reference}): {detail}",
        renderer.name
    ));
    let message = if renderer.expose_internal_errors {
        format!("internal error (ref {reference}): {detail}")
    } else {
        format!("internal error (ref {reference})")
    };
    let content = [Content::text(message)];
    let result = CallToolResult {
        content: ContentOut {
            json: None,
            json_first: true,
            blocks: &content,
            version,
        },
        structured_content: None,
        is_error: true,
        modern: Modern::of(renderer.server_meta, version),
    };
    jsonrpc::result_line(id, &result)
}

/// The content blocks of a result, each as the revision can carry it, and the JSON of the
/// structured value as a text block when there is one (written from it, not copied): before
/// the blocks, or after the tool's own.
struct ContentOut<'a> {
    json: Option<&'a str>,
    json_first: bool,
    blocks: &'a [Content],
    version: ProtocolVersion,
}

impl Serialize for ContentOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(tag = "type", rename = "text")]
        struct TextBlock<'a> {
            text: &'a str,
        }
        let mut seq = serializer.serialize_seq(Some(self.blocks.len() + 1))?;
        let json = self.json.map(|text| TextBlock { text });
        if self.json_first
            && let Some(json) = &json
        {
            seq.serialize_element(json)?;
        }
        for block in self.blocks {
            seq.serialize_element(&block.for_version(self.version))?;
        }
        if !self.json_first
            && let Some(json) = &json
        {
            seq.serialize_element(json)?;
        }
        seq.end()
    }
}

/// A tool's structured value, as the revision's output schema describes it.
enum Structured<'a> {
    AsIs(&'a RawValue),
    /// `{"result": value}`, for revisions whose structured content must be an object. Written
    /// around the value rather than built as a new document, which would be parsed again.
    Wrapped(&'a RawValue),
}

impl Serialize for Structured<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Structured::AsIs(value) => value.serialize(serializer),
            Structured::Wrapped(value) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("result", value)?;
                map.end()
            }
        }
    }
}

/// A `tools/call` result.
struct CallToolResult<'a> {
    content: ContentOut<'a>,
    structured_content: Option<Structured<'a>>,
    is_error: bool,
    modern: Option<Modern<'a>>,
}

// Written by hand: it is on every call's path, and `#[serde(flatten)]` would route it through
// serde's slower generic map machinery.
impl Serialize for CallToolResult<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("content", &self.content)?;
        if let Some(structured) = &self.structured_content {
            map.serialize_entry("structuredContent", structured)?;
        }
        if self.is_error {
            map.serialize_entry("isError", &true)?;
        }
        if let Some(modern) = &self.modern {
            map.serialize_entry("resultType", modern.result_type)?;
            map.serialize_entry("_meta", modern.meta)?;
        }
        map.end()
    }
}
