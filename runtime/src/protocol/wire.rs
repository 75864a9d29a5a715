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

/// What a server offers besides tools, and what can change while it runs: its capabilities.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Offer {
    /// A handle may change the tools, prompts and resources (`listChanged`).
    pub(crate) changing: bool,
    /// It serves prompts.
    pub(crate) prompts: bool,
    /// It serves resources (or templates, or skills).
    pub(crate) resources: bool,
    /// It can announce that a resource changed ([`ResourceUpdates`](crate::ResourceUpdates)
    /// or a [`ServerHandle`](crate::ServerHandle) was taken): clients may subscribe.
    pub(crate) updates: bool,
    /// Some prompt argument or template variable can be completed.
    pub(crate) completions: bool,
    /// The skills extension, and whether `resources/directory/read` is served.
    pub(crate) skills: Option<bool>,
    /// Some tool runs as a task.
    pub(crate) tasks: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Capabilities {
    tools: ListCapability,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompts: Option<ListCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resources: Option<ResourcesCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    completions: Option<Empty>,
    /// Tools can send `notifications/message` (`Log`).
    logging: Empty,
    /// 2025-11-25's experimental tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extensions: Option<Value>,
}

/// The skills extension's identifier (SEP-2640).
pub(crate) const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The tasks extension's identifier (SEP-2663).
pub(crate) const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The server's capabilities for `version`: `listChanged` when its lists can change while it
/// runs; `prompts`, `resources` (`subscribe` when it can announce that one changed) and
/// `completions` when it serves them (`completions` from 2025-03-26, which defined it); the skills extension where a
/// revision has `extensions` (2026-07-28; legacy results carry it too, as SEP-2133 shows, since
/// `ServerCapabilities` is open there). Tasks are the extension on 2026-07-28 and the
/// experimental `tasks` capability (tool calls, listed and cancelled) on 2025-11-25 alone.
fn capabilities(offer: &Offer, version: Option<ProtocolVersion>) -> Capabilities {
    let list_changed = offer.changing;
    Capabilities {
        tools: ListCapability { list_changed },
        prompts: offer.prompts.then_some(ListCapability { list_changed }),
        resources: offer.resources.then_some(ResourcesCapability {
            subscribe: offer.updates,
            list_changed,
        }),
        completions: (offer.completions
            && version.is_none_or(ProtocolVersion::has_completions_capability))
        .then_some(Empty {}),
        logging: Empty {},
        tasks: (offer.tasks && version.is_some_and(ProtocolVersion::has_experimental_tasks)).then(
            || serde_json::json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        ),
        extensions: extensions(offer, version),
    }
}

/// The extensions the server declares: skills, and tasks where the revision has the extension
/// (`version` is `None` for `server/discover`, which only 2026-07-28 has).
fn extensions(offer: &Offer, version: Option<ProtocolVersion>) -> Option<Value> {
    let mut extensions = serde_json::Map::new();
    if let Some(directory_read) = offer.skills {
        let settings = match directory_read {
            true => serde_json::json!({"directoryRead": true}),
            false => serde_json::json!({}),
        };
        extensions.insert(SKILLS_EXTENSION.into(), settings);
    }
    if offer.tasks && version.is_none_or(ProtocolVersion::has_tasks_extension) {
        extensions.insert(TASKS_EXTENSION.into(), serde_json::json!({}));
    }
    (!extensions.is_empty()).then_some(Value::Object(extensions))
}

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListCapability {
    list_changed: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourcesCapability {
    subscribe: bool,
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
pub(crate) fn initialize<'a>(
    info: &'a ServerInfo,
    version: ProtocolVersion,
    offer: &Offer,
) -> impl Serialize + 'a {
    InitializeResult {
        protocol_version: version.as_str(),
        capabilities: capabilities(offer, Some(version)),
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

/// With whom a 2026-07-28 client, gateway or proxy may share a result it caches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheScope {
    /// With anyone: the result holds nothing of the caller's.
    Public,
    /// Only for the same authorization context.
    Private,
}

impl CacheScope {
    /// Its name on the wire.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// How long a 2026-07-28 client may reuse a result, and with whom.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
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
    offer: &Offer,
) -> impl Serialize + 'a {
    DiscoverResult {
        supported_versions: ProtocolVersion::MODERN.iter().map(|v| v.as_str()).collect(),
        capabilities: capabilities(offer, None),
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
    /// How it runs as a task, where it may: `"optional"` or `"required"`.
    pub(crate) task_support: Option<&'static str>,
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
    /// 2025-11-25's `execution.taskSupport`, for a tool that runs as a task.
    #[serde(skip_serializing_if = "Option::is_none")]
    execution: Option<Execution>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a RawValue>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Execution {
    task_support: &'static str,
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
            execution: self
                .task_support
                .filter(|_| version.has_experimental_tasks())
                .map(|task_support| Execution { task_support }),
            meta: self.meta.filter(|_| modern),
        }
    }
}

/// One page of a list result: its entries under `key`, the cursor of the next page if there
/// is one, and on 2026-07-28 the cache hints and `resultType`.
pub(crate) fn page<T: Serialize>(
    key: &'static str,
    entries: &[T],
    next: Option<usize>,
    version: ProtocolVersion,
    server_meta: &RawValue,
    cache: Cache,
) -> Box<RawValue> {
    struct Page<'a, T> {
        key: &'static str,
        entries: &'a [T],
        next_cursor: Option<String>,
        modern: Option<(Cache, Modern<'a>)>,
    }
    impl<T: Serialize> Serialize for Page<'_, T> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(None)?;
            map.serialize_entry(self.key, self.entries)?;
            if let Some(cursor) = &self.next_cursor {
                map.serialize_entry("nextCursor", cursor)?;
            }
            if let Some((cache, modern)) = &self.modern {
                map.serialize_entry("ttlMs", &cache.ttl_ms)?;
                map.serialize_entry("cacheScope", cache.cache_scope)?;
                map.serialize_entry("resultType", modern.result_type)?;
                map.serialize_entry("_meta", modern.meta)?;
            }
            map.end()
        }
    }
    let page = Page {
        key,
        entries,
        next_cursor: next.map(cursor_of),
        modern: Modern::of(server_meta, version).map(|modern| (cache, modern)),
    };
    serde_json::value::to_raw_value(&page).expect("a list serializes")
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
    page("tools", &tools, next, version, server_meta, cache)
}

/// Cursors are opaque to clients; here they are the page number behind a prefix.
fn cursor_of(page: usize) -> String {
    format!("tw-page-{page}")
}

/// The page a cursor of [`tool_page`]'s points at.
fn page_of(cursor: &str) -> Option<usize> {
    cursor.strip_prefix("tw-page-")?.parse().ok()
}

/// Every list's pager: the entries of the page a cursor points at (the first without one),
/// `size` to a page, and the number of the next page, if any; `None` for a cursor the server
/// did not hand out. An empty list is one empty page.
pub(crate) fn page_at<'e, T>(
    entries: &'e [T],
    size: usize,
    cursor: Option<&str>,
) -> Option<(&'e [T], Option<usize>)> {
    let index = match cursor {
        None | Some("") => 0,
        Some(cursor) => page_of(cursor)?,
    };
    let pages = entries.len().div_ceil(size).max(1);
    if index >= pages {
        return None;
    }
    let start = index * size;
    let next = (index + 1 < pages).then_some(index + 1);
    Some((&entries[start..entries.len().min(start + size)], next))
}

/// The cursors of every page of `len` entries, `size` to a page, in order.
pub(crate) fn cursors(len: usize, size: usize) -> impl Iterator<Item = Option<String>> {
    (0..len.div_ceil(size).max(1)).map(|index| (index > 0).then(|| cursor_of(index)))
}
