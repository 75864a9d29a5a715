//! Result bodies as each protocol revision expects them.
//!
//! Every field that exists only from some revision on is gated here through the predicates of
//! [`ProtocolVersion`], so nothing is sent to a client whose schema does not define it.

use serde::Serialize;
use serde::ser::SerializeSeq;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::output::Content;
use crate::protocol::{Era, ProtocolVersion};
use crate::server::{ServerInfo, Service};
use crate::tool::{Icon, ToolDef};

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
    /// Tools can send `notifications/message` (`Log`).
    logging: Empty,
}

#[derive(Serialize)]
struct Empty {}

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
            logging: Empty {},
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
#[serde(rename_all = "camelCase")]
struct ToolList<'a> {
    tools: Vec<ToolOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    cache: Option<Cache>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    modern: Option<Modern<'a>>,
}

/// What every 2026-07-28 result carries: its type, and who answered.
#[derive(Serialize)]
pub(crate) struct Modern<'a> {
    #[serde(rename = "resultType")]
    result_type: &'static str,
    #[serde(rename = "_meta")]
    meta: &'a RawValue,
}

impl<'a> Modern<'a> {
    /// The fields for a result of revision `version`; `None` before 2026-07-28.
    pub(crate) fn of(service: &'a Service, version: ProtocolVersion) -> Option<Modern<'a>> {
        (version.era() == Era::Modern).then_some(Modern {
            result_type: "complete",
            meta: &service.server_meta,
        })
    }
}

/// How long a 2026-07-28 client may reuse a list result, and with whom.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Cache {
    ttl_ms: u64,
    cache_scope: &'static str,
}

impl Cache {
    fn of(service: &Service) -> Cache {
        Cache {
            ttl_ms: u64::try_from(service.limits.cache_ttl.as_millis()).unwrap_or(u64::MAX),
            // The tool list is the same for every client.
            cache_scope: "public",
        }
    }
}

/// `_meta` of 2026-07-28 results: `{"io.modelcontextprotocol/serverInfo": {...}}`.
pub(crate) fn server_meta(info: &ServerInfo) -> Box<RawValue> {
    let meta = serde_json::json!({
        "io.modelcontextprotocol/serverInfo": Implementation {
            name: &info.name,
            title: info.title.as_deref(),
            version: &info.version,
        }
    });
    serde_json::value::to_raw_value(&meta).expect("server info serializes")
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiscoverResult<'a> {
    supported_versions: Vec<&'static str>,
    capabilities: Capabilities,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<&'a str>,
    #[serde(flatten)]
    cache: Cache,
    #[serde(flatten)]
    modern: Modern<'a>,
}

/// The `server/discover` result. Only stateless revisions are listed: a client that wants a
/// handshake revision sends `initialize`.
pub(crate) fn discover(service: &Service) -> impl Serialize + '_ {
    DiscoverResult {
        supported_versions: ProtocolVersion::MODERN.iter().map(|v| v.as_str()).collect(),
        capabilities: Capabilities {
            tools: ToolsCapability {
                list_changed: false,
            },
            logging: Empty {},
        },
        instructions: service.info.instructions.as_deref(),
        cache: Cache::of(service),
        modern: Modern {
            result_type: "complete",
            meta: &service.server_meta,
        },
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    input_schema: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<AnnotationsOut<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    icons: &'a [Icon],
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a RawValue>,
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
        input_schema: &tool.input_schema_json,
        output_schema: tool.output_schema(version),
        annotations,
        icons: if version.has_icons() { spec.icons } else { &[] },
        meta: tool.meta.as_deref().filter(|_| modern),
    }
}

/// The `tools/list` result pages, serialized once per revision.
pub(crate) fn tool_pages(service: &Service, version: ProtocolVersion) -> Vec<Box<RawValue>> {
    let size = service.limits.page_size.unwrap_or(usize::MAX);
    let chunks: Vec<&[ToolDef]> = match service.tools.is_empty() {
        true => vec![&[]],
        false => service.tools.chunks(size).collect(),
    };
    let last = chunks.len() - 1;
    chunks
        .into_iter()
        .enumerate()
        .map(|(index, tools)| {
            let modern = Modern::of(service, version);
            let list = ToolList {
                tools: tools.iter().map(|t| tool_out(t, version)).collect(),
                next_cursor: (index < last).then(|| cursor_of(index + 1)),
                cache: modern.as_ref().map(|_| Cache::of(service)),
                modern,
            };
            serde_json::value::to_raw_value(&list).expect("a tool list serializes")
        })
        .collect()
}

/// Cursors are opaque to clients; here they are the page number behind a prefix.
fn cursor_of(page: usize) -> String {
    format!("tw-page-{page}")
}

pub(crate) fn page_of(cursor: &str) -> Option<usize> {
    cursor.strip_prefix("tw-page-")?.parse().ok()
}

/// The content blocks of a result, each as the revision can carry it, and the JSON of the
/// structured value as a text block when there is one (written from it, not copied): before
/// the blocks, or after the tool's own.
pub(crate) struct ContentOut<'a> {
    pub(crate) json: Option<&'a str>,
    pub(crate) json_first: bool,
    pub(crate) blocks: &'a [Content],
    pub(crate) version: ProtocolVersion,
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
pub(crate) enum Structured<'a> {
    AsIs(&'a RawValue),
    /// `{"result": value}`, for revisions whose structured content must be an object. Written
    /// around the value rather than built as a new document, which would be parsed again.
    Wrapped(&'a RawValue),
}

impl Serialize for Structured<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
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
pub(crate) struct CallToolResult<'a> {
    pub(crate) content: ContentOut<'a>,
    pub(crate) structured_content: Option<Structured<'a>>,
    pub(crate) is_error: bool,
    pub(crate) modern: Option<Modern<'a>>,
}

// Written by hand: it is on every call's path, and `#[serde(flatten)]` would route it through
// serde's slower generic map machinery.
impl Serialize for CallToolResult<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
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
