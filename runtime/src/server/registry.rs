//! The tools a server serves at one moment: each with its schemas compiled, in list order, the
//! forms they elicit, and the `tools/list` pages of each revision, serialized on first use and
//! reused. A change to the tool set makes a new registry; calls keep the one they began with.
//!
//! Pagination is off unless the server sets a page size; cursors are opaque strings naming a
//! page, and a cursor the server did not hand out is `-32602`. A tool that runs only as a task
//! is not listed to the revisions that have no tasks.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;

use crate::call::to_client::form::Forms;
use crate::item::tool::{TaskSupport, ToolSpec};
use crate::protocol::ProtocolVersion;
use crate::protocol::id::IdHashing;
use crate::protocol::wire::{self, Cache, ToolEntry, ToolOut};
use crate::run::served::ServedTool;

pub(crate) struct Registry {
    /// In the order of `tools/list`.
    tools: Vec<Arc<ServedTool>>,
    /// The forms the tools elicit.
    pub(crate) forms: Arc<Forms>,
    index: HashMap<Cow<'static, str>, usize, IdHashing>,
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
            .map(|(i, t)| (t.spec.header.name.clone(), i))
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
        let pages = self.pages[version.index()].get_or_init(|| {
            let tools: Vec<&Arc<ServedTool>> = self.listed_to(version, |_| true);
            wire::cursors(tools.len(), self.page_size)
                .map(|cursor| {
                    self.tool_page(&tools, version, cursor.as_deref(), server_meta, cache)
                })
                .collect::<Option<_>>()
                .expect("every cursor of the list has its page")
        });
        // The pages are made once; the cursor picks one, as it picks an entry of any list.
        let (page, _) = wire::page_at(pages, 1, cursor)?;
        Some(&*page[0])
    }

    /// The page a cursor points at of the tools `visible` keeps, made for this request.
    pub(crate) fn page_of(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        server_meta: &RawValue,
        cache: Cache,
        visible: impl Fn(&ToolSpec) -> bool,
    ) -> Option<Box<RawValue>> {
        let tools = self.listed_to(version, visible);
        self.tool_page(&tools, version, cursor, server_meta, cache)
    }

    /// The tools `version` lists that `visible` keeps, in list order.
    fn listed_to(
        &self,
        version: ProtocolVersion,
        visible: impl Fn(&ToolSpec) -> bool,
    ) -> Vec<&Arc<ServedTool>> {
        let listed = self.tools.iter().filter(|t| listed_to(t, version));
        listed.filter(|t| visible(&t.spec)).collect()
    }

    /// The `tools/list` page of `tools` a cursor points at.
    fn tool_page(
        &self,
        tools: &[&Arc<ServedTool>],
        version: ProtocolVersion,
        cursor: Option<&str>,
        server_meta: &RawValue,
        cache: Cache,
    ) -> Option<Box<RawValue>> {
        let (chunk, next) = wire::page_at(tools, self.page_size, cursor)?;
        let listed = chunk.iter().map(|tool| listed(tool, version)).collect();
        Some(wire::tool_page(listed, next, version, server_meta, cache))
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
    let spec = &*tool.spec;
    ToolEntry {
        name: &spec.header.name,
        title: spec.header.title.as_deref(),
        description: spec.header.description.as_deref(),
        annotations: spec.annotations,
        input_schema: &tool.compiled.input_schema_json,
        output_schema: tool.compiled.output_schema(version),
        icons: spec.header.icons,
        meta: tool.held.meta.as_deref(),
        task_support: spec.task.wire_name(),
    }
    .for_version(version)
}
