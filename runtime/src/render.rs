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
    let (content, structured, is_error) = match output.repr {
        Repr::Result {
            content,
            structured,
            is_error,
        } => (content, structured, is_error),
        Repr::InvalidArguments(error) => {
            let message = error.describe(&tool.input_schema);
            if !version.invalid_arguments_are_tool_errors() {
                let error = RpcError::new(INVALID_PARAMS, message);
                return jsonrpc::error_line(Some(id), &error);
            }
            (vec![Content::text(message)], None, true)
        }
        Repr::Internal(detail) => {
            let reference = log::next_reference();
            log::error(format_args!(
                "tool `{}` failed (ref {reference}): {detail}",
                tool.spec.name
            ));
            let message = if service.limits.expose_internal_errors {
                format!("internal error (ref {reference}): {detail}")
            } else {
                format!("internal error (ref {reference})")
            };
            (vec![Content::text(message)], None, true)
        }
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
    let result = wire::CallToolResult {
        content: wire::ContentOut {
            text: structured.as_deref().map(RawValue::get),
            blocks: &content,
            version,
        },
        structured_content,
        is_error,
        modern: wire::Modern::of(service, version),
    };
    jsonrpc::result_line(id, &result)
}
