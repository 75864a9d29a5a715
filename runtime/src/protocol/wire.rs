//! Result bodies of the server's own methods as each protocol revision expects them:
//! `initialize`, `server/discover`, the entries and pages of `tools/list`, and what every
//! 2026-07-28 result carries.
//!
//! Every field that exists only from some revision on is gated here through the predicates of
//! [`ProtocolVersion`], so nothing is sent to a client whose schema does not define it:
//! `title` and `_meta` on tools from 2025-06-18, `annotations` from 2025-03-26 (with the title
//! there before 2025-06-18, where `Tool.title` did not exist yet), `icons` from 2025-11-25.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::protocol::params::SERVER_INFO;
use crate::protocol::version::ProtocolVersion;

/// Who the server says it is.
#[derive(Debug, Clone)]
pub(crate) struct ServerInfo {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) instructions: Option<String>,
}

/// The annotation hints of a tool. `None` is a hint the author did not set: it is not sent,
/// and clients apply the specification's defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may perform destructive updates.
    pub destructive: Option<bool>,
    /// `idempotentHint`: repeated calls with the same arguments have no additional effect.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool interacts with an open world of external entities.
    pub open_world: Option<bool>,
}

impl Annotations {
    fn is_empty(&self) -> bool {
        *self == Annotations::default()
    }
}

/// An icon a client may show for a tool (`Icon` of 2025-11-25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// An `https:` or `data:` URI.
    pub src: &'static str,
    /// Its MIME type, like `image/png`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<&'static str>,
    /// The sizes it fits, like `48x48` or `any`.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub sizes: &'static [&'static str],
    /// `light` or `dark`: the background it is made for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<&'static str>,
}

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

/// The server's capabilities: `listChanged` when its tools can change while it runs.
const fn capabilities(list_changed: bool) -> Capabilities {
    Capabilities {
        tools: ToolsCapability { list_changed },
        logging: Empty {},
    }
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
pub(crate) fn initialize(
    info: &ServerInfo,
    version: ProtocolVersion,
    list_changed: bool,
) -> impl Serialize + '_ {
    InitializeResult {
        protocol_version: version.as_str(),
        capabilities: capabilities(list_changed),
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

/// What every 2026-07-28 result carries: its type, and who answered.
#[derive(Serialize, Clone, Copy)]
pub(crate) struct Modern<'a> {
    #[serde(rename = "resultType")]
    pub(crate) result_type: &'static str,
    #[serde(rename = "_meta")]
    pub(crate) meta: &'a RawValue,
}

impl<'a> Modern<'a> {
    /// The fields for a result of revision `version`; `None` before 2026-07-28. `server_meta`
    /// is [`server_meta`]'s.
    pub(crate) fn of(server_meta: &'a RawValue, version: ProtocolVersion) -> Option<Modern<'a>> {
        version.has_result_type().then_some(Modern {
            result_type: "complete",
            meta: server_meta,
        })
    }
}

/// How long a 2026-07-28 client may reuse a list result, and with whom.
#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Cache {
    pub(crate) ttl_ms: u64,
    pub(crate) cache_scope: &'static str,
}

/// `_meta` of 2026-07-28 results: `{"io.modelcontextprotocol/serverInfo": {...}}`.
pub(crate) fn server_meta(info: &ServerInfo) -> Box<RawValue> {
    let meta = serde_json::json!({
        SERVER_INFO: Implementation {
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
pub(crate) fn discover<'a>(
    info: &'a ServerInfo,
    server_meta: &'a RawValue,
    cache: Cache,
    list_changed: bool,
) -> impl Serialize + 'a {
    DiscoverResult {
        supported_versions: ProtocolVersion::MODERN.iter().map(|v| v.as_str()).collect(),
        capabilities: capabilities(list_changed),
        instructions: info.instructions.as_deref(),
        cache,
        modern: Modern {
            result_type: "complete",
            meta: server_meta,
        },
    }
}

/// What a tool entry of `tools/list` is made of, before the revision chooses its fields.
pub(crate) struct ToolEntry<'a> {
    pub(crate) name: &'a str,
    pub(crate) title: Option<&'a str>,
    pub(crate) description: Option<&'a str>,
    pub(crate) annotations: Annotations,
    pub(crate) input_schema: &'a RawValue,
    /// The output schema this revision advertises, if any.
    pub(crate) output_schema: Option<&'a Value>,
    pub(crate) icons: &'a [Icon],
    pub(crate) meta: Option<&'a RawValue>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ToolOut<'a> {
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

impl<'a> ToolEntry<'a> {
    /// The entry as `version` lists it.
    pub(crate) fn for_version(&self, version: ProtocolVersion) -> ToolOut<'a> {
        let modern = version.has_structured_output();
        // Before `Tool.title` existed (2025-06-18), 2025-03-26 can carry it as `annotations.title`.
        let annotation_title = self.title.filter(|_| !modern);
        let hints = self.annotations;
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
            name: self.name,
            title: self.title.filter(|_| modern),
            description: self.description,
            input_schema: self.input_schema,
            output_schema: self.output_schema,
            annotations,
            icons: if version.has_icons() { self.icons } else { &[] },
            meta: self.meta.filter(|_| modern),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolPage<'a> {
    tools: Vec<ToolOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    cache: Option<Cache>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    modern: Option<Modern<'a>>,
}

/// One `tools/list` result: a page of entries, and the cursor of the next page if there is
/// one.
pub(crate) fn tool_page(
    tools: Vec<ToolOut<'_>>,
    next: Option<usize>,
    version: ProtocolVersion,
    server_meta: &RawValue,
    cache: Cache,
) -> Box<RawValue> {
    let modern = Modern::of(server_meta, version);
    let page = ToolPage {
        tools,
        next_cursor: next.map(cursor_of),
        cache: modern.map(|_| cache),
        modern,
    };
    serde_json::value::to_raw_value(&page).expect("a tool list serializes")
}

/// Cursors are opaque to clients; here they are the page number behind a prefix.
fn cursor_of(page: usize) -> String {
    format!("tw-page-{page}")
}

/// The page a cursor of [`tool_page`]'s points at.
pub(crate) fn page_of(cursor: &str) -> Option<usize> {
    cursor.strip_prefix("tw-page-")?.parse().ok()
}
