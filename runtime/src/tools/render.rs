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
use serde_json::Value;
use serde_json::value::RawValue;

use crate::diagnostics;
use crate::protocol::McpError;
use crate::protocol::ProtocolVersion;
use crate::protocol::code::ErrorCode;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::mcp_error::Sent;
use crate::protocol::wire::Modern;
use crate::tools::compiled::Compiled;
use crate::tools::content::Content;
use crate::tools::output::{JsonText, Repr, ToolOutput};

/// Why an output that ended a round reached a renderer: only a 2026-07-28 request answers
/// with a round, and it does before anything is rendered.
pub(crate) const OUTSIDE_ROUNDS: &str = "a round of asks ended outside 2026-07-28 rounds";

/// What shaping a tool's results needs to know besides the output.
pub(crate) struct Renderer<'a> {
    pub(crate) tool: &'a Compiled,
    pub(crate) name: &'a str,
    /// Show the details of internal errors to the client (development only).
    pub(crate) expose_internal_errors: bool,
    /// The `_meta` of 2026-07-28 results.
    pub(crate) server_meta: &'a RawValue,
    /// Whether the call's client takes URL elicitations (for an error that asks for them).
    pub(crate) client_takes_urls: bool,
}

/// A call's response line, and its JSON-RPC error code when it is an error response.
pub(crate) struct Rendered {
    pub(crate) line: Vec<u8>,
    pub(crate) error_code: Option<ErrorCode>,
}

impl Rendered {
    pub(crate) fn result(line: Vec<u8>) -> Rendered {
        Rendered {
            line,
            error_code: None,
        }
    }

    pub(crate) fn error(id: &RawValue, error: &ProtocolError) -> Rendered {
        Rendered {
            line: jsonrpc::error_line(Some(id), error),
            error_code: Some(error.code()),
        }
    }
}

/// How a task's call ended, for its `tasks/get`: `Ok` with the result its response would have
/// carried (a tool error is a result: the task `completed`), or `Err` with the JSON-RPC error
/// it would have been, where a failure the client must not see in detail (a panic) is one too:
/// the task `failed` (SEP-2663 keeps `failed` for protocol errors).
pub(crate) fn task_ending(
    renderer: &Renderer<'_>,
    version: ProtocolVersion,
    output: ToolOutput,
) -> Result<Value, Value> {
    let error = match output.repr {
        Repr::Internal(detail) => {
            let expose = renderer.expose_internal_errors;
            masked_error("tool", renderer.name, expose, &detail)
        }
        Repr::InputRequired(_) => ProtocolError::internal("a task's asks ended outside its task"),
        repr => {
            let id = RawValue::from_string("0".into()).expect("0 is JSON");
            let rendered = call_result(renderer, version, &id, ToolOutput { repr });
            let mut response: Value =
                serde_json::from_slice(&rendered.line).expect("a response is JSON");
            return match response.get_mut("error") {
                Some(error) => Err(error.take()),
                None => Ok(response["result"].take()),
            };
        }
    };
    let line = jsonrpc::error_line(None, &error);
    let mut response: Value = serde_json::from_slice(&line).expect("a response is JSON");
    Err(response["error"].take())
}

/// The response for `output` under `version`.
pub(crate) fn call_result(
    renderer: &Renderer<'_>,
    version: ProtocolVersion,
    id: &RawValue,
    output: ToolOutput,
) -> Rendered {
    let tool = renderer.tool;
    let (content, structured, is_error, json_text) = match output.repr {
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
            return Rendered::result(internal(renderer, version, id, detail));
        }
        Repr::Result {
            content,
            structured,
            is_error,
            json_text,
        } => (content, structured, is_error, json_text),
        Repr::InvalidArguments(error) => {
            let message = error.describe(&tool.input_schema);
            if !version.invalid_arguments_are_tool_errors() {
                return Rendered::error(id, &ProtocolError::invalid_arguments(message));
            }
            (vec![Content::text(message)], None, true, JsonText::Only)
        }
        Repr::Internal(detail) => {
            return Rendered::result(internal(renderer, version, id, &detail));
        }
        Repr::Chosen(chosen) => match chosen.sent(version, renderer.client_takes_urls) {
            Sent::Error(error) => return Rendered::error(id, &error),
            Sent::Text(text) => (vec![Content::text(text)], None, true, JsonText::Only),
            // A round is the call's answer before it is rendered (`Delivery`); a task's
            // result cannot be one, so it says what the user must open.
            Sent::Round(_) => (
                vec![Content::text(chosen.text())],
                None,
                true,
                JsonText::Only,
            ),
        },
        Repr::InputRequired(_) => {
            let detail = OUTSIDE_ROUNDS;
            return Rendered::result(internal(renderer, version, id, detail));
        }
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
    // The JSON as text: always, unless the tool wrote its own blocks; then beside structured
    // content that is not an object (SEP-2106 makes the text a MUST for those), where the
    // revision has structured content but the tool advertised none (the value would be lost),
    // and for a revision without structured content only when the author asked.
    let json = structured.as_deref().filter(|json| {
        let object = json.starts_with('{');
        match (json_text, &structured_content) {
            (JsonText::Only, _) => true,
            (_, Some(_)) => !object,
            (JsonText::WhereRequired, None) => version.has_structured_output(),
            (JsonText::Fallback, None) => true,
        }
    });
    let result = CallToolResult {
        content: ContentOut {
            json,
            json_first: json_text == JsonText::Only,
            blocks: &content,
            version,
        },
        structured_content,
        is_error,
        modern: Modern::of(renderer.server_meta, version),
    };
    Rendered::result(result.line(id))
}

/// A 2026-07-28 round that ended on asks: the `inputRequests` and the sealed `requestState`,
/// if there is one to carry.
pub(crate) fn input_required(
    server_meta: &RawValue,
    id: &RawValue,
    requests: &[(String, serde_json::Value)],
    state: Option<&str>,
) -> Vec<u8> {
    let requests: serde_json::Map<String, serde_json::Value> = requests.iter().cloned().collect();
    let mut result = serde_json::json!({
        "resultType": "input_required",
        "inputRequests": requests,
        "_meta": serde_json::from_str::<serde_json::Value>(server_meta.get()).unwrap_or_default(),
    });
    if let Some(state) = state {
        result["requestState"] = serde_json::json!(state);
    }
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
    diagnostics::masked(renderer.name, &reference, detail);
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
    result.line(id)
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

/// A tool's structured value, as the revision's output schema describes it.
enum Structured<'a> {
    AsIs(&'a str),
    /// `{"result": value}`, for revisions whose structured content must be an object. Written
    /// around the value rather than built as a new document, which would be parsed again.
    Wrapped(&'a str),
}

/// A `tools/call` result.
struct CallToolResult<'a> {
    content: ContentOut<'a>,
    structured_content: Option<Structured<'a>>,
    is_error: bool,
    modern: Option<Modern<'a>>,
}

// Written by hand, constant parts as bytes: it is on every call's path, and serde would escape
// every key of it on every call.
impl CallToolResult<'_> {
    fn line(&self, id: &RawValue) -> Vec<u8> {
        // Room for all of it, so that the line is written without growing: the text and the
        // structured copy of a JSON result, and who answered.
        let size = self.content.json.map_or(0, str::len) * 2
            + self.modern.map_or(0, |m| m.meta.get().len())
            + 96;
        jsonrpc::result_line_with(id, size, |out| self.write(out))
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(br#"{"content":["#);
        self.content.write(out);
        out.push(b']');
        match &self.structured_content {
            Some(Structured::AsIs(value)) => {
                out.extend_from_slice(br#","structuredContent":"#);
                out.extend_from_slice(value.as_bytes());
            }
            Some(Structured::Wrapped(value)) => {
                out.extend_from_slice(br#","structuredContent":{"result":"#);
                out.extend_from_slice(value.as_bytes());
                out.push(b'}');
            }
            None => {}
        }
        if self.is_error {
            out.extend_from_slice(br#","isError":true"#);
        }
        if let Some(modern) = &self.modern {
            out.extend_from_slice(br#","resultType":"#);
            write_json(out, modern.result_type);
            out.extend_from_slice(br#","_meta":"#);
            out.extend_from_slice(modern.meta.get().as_bytes());
        }
        out.push(b'}');
    }
}

impl ContentOut<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        let mut first = true;
        let mut separate = |out: &mut Vec<u8>| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
        };
        let text = |out: &mut Vec<u8>, text: &str| {
            out.extend_from_slice(br#"{"type":"text","text":"#);
            write_json(out, text);
            out.push(b'}');
        };
        if let (true, Some(json)) = (self.json_first, self.json) {
            separate(out);
            text(out, json);
        }
        for block in self.blocks {
            separate(out);
            let block = block.for_version(self.version);
            match block.plain_text() {
                Some(t) => text(out, t),
                None => write_json(out, &*block),
            }
        }
        if let (false, Some(json)) = (self.json_first, self.json) {
            separate(out);
            text(out, json);
        }
    }
}

fn write_json<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    // Serializing plain data into a Vec cannot fail.
    serde_json::to_writer(out, value).expect("content serializes");
}

/// The JSON-RPC error a chosen error is for a request whose answer has no error result (a
/// prompt's, a resource's): the revision's error, or `-32603` with the text where the
/// revision has none for it.
pub(crate) fn chosen_error(
    chosen: &McpError,
    version: ProtocolVersion,
    takes_urls: bool,
) -> ProtocolError {
    match chosen.sent(version, takes_urls) {
        Sent::Error(error) => error,
        Sent::Text(text) => ProtocolError::failed(&text),
        // A round is the request's answer before it is rendered (`into_round`).
        Sent::Round(_) => ProtocolError::failed(&chosen.text()),
    }
}

/// A failure the client must not see in detail: logged with a reference, answered with a
/// protocol error (for requests that have no error result of their own, unlike tools: a
/// prompt's, a resource's, a completion function's; `kind` says which).
pub(crate) fn masked_error(kind: &str, name: &str, expose: bool, detail: &str) -> ProtocolError {
    let reference = diagnostics::next_reference();
    diagnostics::masked_item(kind, name, &reference, detail);
    match expose {
        true => ProtocolError::internal(format_args!("(ref {reference}) {detail}")),
        false => ProtocolError::internal(format_args!("(ref {reference})")),
    }
}
