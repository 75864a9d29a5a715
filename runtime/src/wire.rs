//! Result bodies as each protocol revision expects them.
//!
//! Every field that exists only from some revision on is gated here through the predicates of
//! [`ProtocolVersion`], so nothing is sent to a client whose schema does not define it.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::output::Content;
use crate::protocol::ProtocolVersion;
use crate::server::Service;
use crate::tool::ToolDef;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitializeResult<'a> {
    protocol_version: &'static str,
    capabilities: Capabilities,
    server_info: Implementation<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<&'a str>,
}

#[derive(Serialize)]
struct Capabilities {
    tools: ToolsCapability,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolsCapability {
    list_changed: bool,
}

#[derive(Serialize)]
struct Implementation<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    version: &'a str,
}

/// The `initialize` result.
pub(crate) fn initialize(service: &Service, version: ProtocolVersion) -> impl Serialize + '_ {
    let info = &service.info;
    InitializeResult {
        protocol_version: version.as_str(),
        capabilities: Capabilities {
            tools: ToolsCapability {
                list_changed: false,
            },
        },
        server_info: Implementation {
            name: &info.name,
            title: info
                .title
                .as_deref()
                .filter(|_| version.has_structured_output()),
            version: &info.version,
        },
        instructions: info.instructions.as_deref(),
    }
}

#[derive(Serialize)]
struct ToolList<'a> {
    tools: Vec<ToolOut<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    input_schema: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<AnnotationsOut<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AnnotationsOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_only_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    destructive_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotent_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    open_world_hint: Option<bool>,
}

fn tool_out(tool: &ToolDef, version: ProtocolVersion) -> ToolOut<'_> {
    let spec = tool.spec;
    let modern = version.has_structured_output();
    // Before `Tool.title` existed (2025-06-18), 2025-03-26 can carry it as `annotations.title`.
    let annotation_title = spec.title.filter(|_| !modern);
    let hints = spec.annotations;
    let annotations = (version.has_tool_annotations()
        && (annotation_title.is_some() || !hints.is_empty()))
    .then_some(AnnotationsOut {
        title: annotation_title,
        read_only_hint: hints.read_only,
        destructive_hint: hints.destructive,
        idempotent_hint: hints.idempotent,
        open_world_hint: hints.open_world,
    });
    ToolOut {
        name: spec.name,
        title: spec.title.filter(|_| modern),
        description: spec.description,
        input_schema: &tool.input_schema,
        output_schema: tool.object_output_schema().filter(|_| modern),
        annotations,
    }
}

/// The `tools/list` result, serialized once per revision.
pub(crate) fn tool_list(service: &Service, version: ProtocolVersion) -> Box<RawValue> {
    let list = ToolList {
        tools: service.tools.iter().map(|t| tool_out(t, version)).collect(),
    };
    serde_json::value::to_raw_value(&list).expect("a tool list serializes")
}

/// A `tools/call` result.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallToolResult<'a> {
    pub(crate) content: &'a [Content],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) structured_content: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) is_error: bool,
}
