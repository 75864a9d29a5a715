//! The tools a server serves at one moment: each with its schemas compiled, in list order, the
//! forms they elicit, and the `tools/list` pages of each revision, serialized on first use and
//! reused. A change to the tool set makes a new registry; calls keep the one they began with.
//!
//! Pagination is off unless the server sets a page size; cursors are opaque strings naming a
//! page, and a cursor the server did not hand out is `-32602`. A tool that runs only as a task
//! is not listed to the revisions that have no tasks.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;

use crate::call::asking::form::Forms;
use crate::call::spec::{TaskSupport, ToolSpec};
use crate::protocol::ProtocolVersion;
use crate::protocol::id::IdHashing;
use crate::protocol::wire::{self, Cache, ToolEntry, ToolOut};
use crate::run::served::ServedTool;

pub(crate) struct Registry {
    /// In the order of `tools/list`.
    tools: Vec<Arc<ServedTool>>,
    /// The forms the tools elicit.
    pub(crate) forms: Arc<Forms>,
    index: HashMap<&'static str, usize, IdHashing>,
    page_size: usize,
    pages: [OnceLock<Vec<Box<RawValue>>>; ProtocolVersion::ALL.len()],
}

impl Registry {
    pub(crate) fn new(
        tools: Vec<Arc<ServedTool>>,
        forms: Arc<Forms>,
        page_size: usize,
    ) -> Registry {
        let index = tools
            .iter()
            .enumerate()
            .map(|(i, t)| (t.spec.name, i))
            .collect();
        Registry {
            tools,
            forms,
            index,
            page_size,
            pages: Default::default(),
        }
    }

    /// The tool named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<&Arc<ServedTool>> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    /// The `tools/list` result a cursor points at (the first page without one); `None` for a
    /// cursor this server did not hand out.
    pub(crate) fn page(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        server_meta: &RawValue,
        cache: Cache,
    ) -> Option<&RawValue> {
        let pages =
            self.pages[version.index()].get_or_init(|| self.paginate(version, server_meta, cache));
        let index = match cursor {
            None | Some("") => 0,
            Some(cursor) => wire::page_of(cursor)?,
        };
        pages.get(index).map(|page| &**page)
    }

    /// The page a cursor points at of the tools `visible` keeps, made for this request.
    pub(crate) fn page_of(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        server_meta: &RawValue,
        cache: Cache,
        visible: impl Fn(&'static ToolSpec) -> bool,
    ) -> Option<Box<RawValue>> {
        let index = match cursor {
            None | Some("") => 0,
            Some(cursor) => wire::page_of(cursor)?,
        };
        let tools: Vec<&Arc<ServedTool>> = self
            .tools
            .iter()
            .filter(|t| listed_to(t, version) && visible(t.spec))
            .collect();
        let pages = tools.len().div_ceil(self.page_size).max(1);
        if index >= pages {
            return None;
        }
        let start = index.saturating_mul(self.page_size);
        let chunk = tools.iter().skip(start).take(self.page_size);
        let listed = chunk.map(|tool| listed(tool, version)).collect();
        let next = (index + 1 < pages).then_some(index + 1);
        Some(wire::tool_page(listed, next, version, server_meta, cache))
    }

    fn paginate(
        &self,
        version: ProtocolVersion,
        server_meta: &RawValue,
        cache: Cache,
    ) -> Vec<Box<RawValue>> {
        let tools: Vec<&Arc<ServedTool>> = self
            .tools
            .iter()
            .filter(|t| listed_to(t, version))
            .collect();
        let chunks: Vec<&[&Arc<ServedTool>]> = match tools.is_empty() {
            true => vec![&[]],
            false => tools.chunks(self.page_size).collect(),
        };
        let last = chunks.len() - 1;
        chunks
            .into_iter()
            .enumerate()
            .map(|(index, tools)| {
                let tools = tools.iter().map(|tool| listed(tool, version)).collect();
                let next = (index < last).then_some(index + 1);
                wire::tool_page(tools, next, version, server_meta, cache)
            })
            .collect()
    }
}

/// Whether `version` lists the tool: not one that runs only as a task to a revision without
/// tasks (before 2025-11-25), whose clients could never call it.
fn listed_to(tool: &ServedTool, version: ProtocolVersion) -> bool {
    tool.spec.task != TaskSupport::Required
        || version.has_experimental_tasks()
        || version.has_tasks_extension()
}

/// A tool's entry as `version` lists it.
fn listed(tool: &ServedTool, version: ProtocolVersion) -> ToolOut<'_> {
    let spec = tool.spec;
    ToolEntry {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        annotations: spec.annotations,
        input_schema: &tool.compiled.input_schema_json,
        output_schema: tool.compiled.output_schema(version),
        icons: spec.icons,
        meta: tool.compiled.meta.as_deref(),
        task_support: spec.task.wire_name(),
    }
    .for_version(version)
}
