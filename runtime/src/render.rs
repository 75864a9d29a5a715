//! Result shaping: a tool's output as the `tools/call` response line of one protocol revision.

use serde_json::value::RawValue;

use crate::jsonrpc::{self, INVALID_PARAMS, RpcError};
use crate::log;
use crate::output::{Content, Repr, ToolOutput};
use crate::protocol::ProtocolVersion;
use crate::server::Service;
use crate::wire;

/// The response line for `output` of the tool at index `tool`, under `version`.
pub(crate) fn call_result(
    service: &Service,
    tool: usize,
    version: ProtocolVersion,
    id: &RawValue,
    output: ToolOutput,
) -> Vec<u8> {
    let tool = &service.tools[tool];
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
            return internal(service, tool.spec.name, version, id, detail);
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
        Repr::Internal(detail) => return internal(service, tool.spec.name, version, id, &detail),
    };
    // Structured content goes out exactly when this revision advertised an output schema,
    // in the shape that schema describes.
    let advertised = !is_error && tool.output_schema(version).is_some();
    let structured_content = structured.as_deref().filter(|_| advertised).map(|value| {
        match tool.wraps_output(version) {
            true => wire::Structured::Wrapped(value),
            false => wire::Structured::AsIs(value),
        }
    });
    // The JSON as text: always, unless the tool wrote its own blocks; then only for a client
    // that gets no structured content, and for a value that is not an object (SEP-2106 makes
    // the text a MUST for those).
    let json = structured
        .as_deref()
        .map(RawValue::get)
        .filter(|json| !own_text || structured_content.is_none() || !json.starts_with('{'));
    let result = wire::CallToolResult {
        content: wire::ContentOut {
            json,
            json_first: !own_text,
            blocks: &content,
            version,
        },
        structured_content,
        is_error,
        modern: wire::Modern::of(service, version),
    };
    jsonrpc::result_line(id, &result)
}

/// A failure the client must not see in detail: logged with a reference, answered masked.
fn internal(
    service: &Service,
    tool: &str,
    version: ProtocolVersion,
    id: &RawValue,
    detail: &str,
) -> Vec<u8> {
    let reference = log::next_reference();
    log::error(format_args!(
        "tool `{tool}` failed (ref {reference}): {detail}"
    ));
    let message = if service.limits.expose_internal_errors {
        format!("internal error (ref {reference}): {detail}")
    } else {
        format!("internal error (ref {reference})")
    };
    let content = [Content::text(message)];
    let result = wire::CallToolResult {
        content: wire::ContentOut {
            json: None,
            json_first: true,
            blocks: &content,
            version,
        },
        structured_content: None,
        is_error: true,
        modern: wire::Modern::of(service, version),
    };
    jsonrpc::result_line(id, &result)
}
