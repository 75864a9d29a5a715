//! A mounted server's items as the server it is mounted into serves them: each spec copied
//! under its namespaced name (tools, prompts) or URI (resources, templates), with the mount it
//! came through, and every name or URI it carries that points at its own server rewritten the
//! same way (a tool's `_meta.ui.resourceUri`, when the child serves it). Checked here as every item is: a mounted tool's
//! whole name must keep the tool-name rules, and a URI without `scheme://` cannot be mounted.

use std::sync::Arc;

use serde_json::Value;

use crate::item::header::{Header, ItemKind, Level, Mount};
use crate::item::prompt::PromptSpec;
use crate::item::resource::ResourceSpec;
use crate::item::shared::Shared;
use crate::item::tool::ToolSpec;
use crate::server::error::{Error, Result};
use crate::server::toolset::name_problem;

/// The keys of a tool's `_meta` that name its UI resource (MCP Apps): `ui.resourceUri`, and
/// the flat key older hosts read.
const UI: &str = "ui";
const UI_RESOURCE_URI: &str = "resourceUri";
const FLAT_UI_RESOURCE_URI: &str = "ui/resourceUri";

/// The tool of `spec`, served through `level` (outside the mounts it already had); `serves`
/// says whether the server mounted through `level` serves a URI (as it names it), which a
/// UI resource the tool names is rewritten for only then.
pub(crate) fn tool(
    spec: &Shared<ToolSpec>,
    level: &Arc<Level>,
    serves: &dyn Fn(&str) -> bool,
) -> Result<Shared<ToolSpec>> {
    let (name, mount) = through(&spec.header, level);
    let mut header = spec.header.mounted(name.into(), mount);
    if let Some(problem) = name_problem(&header.name) {
        let problem = format!("mounted as `{}`, {problem}", header.name);
        return Err(Error::invalid(ItemKind::Tool, &spec.header, problem));
    }
    if let Some(meta) = &spec.header.meta {
        let meta = ui_rewritten(meta, level, serves)
            .map_err(|problem| Error::invalid(ItemKind::Tool, &spec.header, problem))?;
        header.meta = Some(meta.into());
    }
    Ok(Shared::Owned(Arc::new(ToolSpec {
        header,
        ..(**spec).clone()
    })))
}

/// The prompt of `spec`, served through `level`.
pub(crate) fn prompt(spec: &Shared<PromptSpec>, level: &Arc<Level>) -> Shared<PromptSpec> {
    let (name, mount) = through(&spec.header, level);
    Shared::Owned(Arc::new(PromptSpec {
        header: spec.header.mounted(name.into(), mount),
        ..(**spec).clone()
    }))
}

/// The resource (or template) of `spec`, served through `level`: its name as it was (a
/// resource is known by its URI), its URI namespaced.
pub(crate) fn resource(
    spec: &Shared<ResourceSpec>,
    level: &Arc<Level>,
) -> Result<Shared<ResourceSpec>> {
    let uri = level
        .namespace
        .uri(&spec.uri)
        .map_err(|problem| Error::invalid(ItemKind::Resource, &spec.header, problem))?;
    let mount = Arc::new(Mount::outside(level, spec.header.mount.as_deref()));
    Ok(Shared::Owned(Arc::new(ResourceSpec {
        header: spec.header.mounted(spec.header.name.clone(), mount),
        uri: uri.into(),
        ..(**spec).clone()
    })))
}

/// The tool of `spec`, defined in a server served through `mount` (innermost level last): what
/// a mounted server's handle adds; `serves` says whether that server serves a URI (as it names
/// it).
pub(crate) fn tool_in(
    spec: &Shared<ToolSpec>,
    mount: &Mount,
    serves: &dyn Fn(&str) -> bool,
) -> Result<Shared<ToolSpec>> {
    // Whether the UI resource the tool names is its server's is decided once, where the tool
    // is defined; each level then takes the URI one namespace further out.
    let ui = spec.header.meta.as_deref().and_then(ui_uri);
    let own = ui.as_deref().is_some_and(serves);
    let mut levels = mount.levels.iter().rev();
    levels.try_fold(spec.clone(), |spec, level| tool(&spec, level, &|_| own))
}

/// The prompt of `spec`, defined in a server served through `mount`.
pub(crate) fn prompt_in(spec: &Shared<PromptSpec>, mount: &Mount) -> Shared<PromptSpec> {
    let levels = mount.levels.iter().rev();
    levels.fold(spec.clone(), |spec, level| prompt(&spec, level))
}

/// The resource of `spec`, defined in a server served through `mount`.
pub(crate) fn resource_in(
    spec: &Shared<ResourceSpec>,
    mount: &Mount,
) -> Result<Shared<ResourceSpec>> {
    let mut levels = mount.levels.iter().rev();
    levels.try_fold(spec.clone(), |spec, level| resource(&spec, level))
}

/// What an item a mounted server calls `local` is called where it is served through `mount`.
pub(crate) fn name_in(local: &str, mount: &Mount) -> String {
    let levels = mount.levels.iter().rev();
    levels.fold(local.to_owned(), |name, level| level.namespace.name(&name))
}

/// The name of the item of `header` one mount further out, and the mount it is served through.
fn through(header: &Header, level: &Arc<Level>) -> (String, Arc<Mount>) {
    let name = level.namespace.name(&header.name);
    (
        name,
        Arc::new(Mount::outside(level, header.mount.as_deref())),
    )
}

/// The UI resource a tool's `_meta` text names, if it names one.
fn ui_uri(meta: &str) -> Option<String> {
    let meta: Value = serde_json::from_str(meta).ok()?;
    let nested = meta.get(UI).and_then(|ui| ui.get(UI_RESOURCE_URI));
    let uri = nested.or_else(|| meta.get(FLAT_UI_RESOURCE_URI))?;
    uri.as_str().map(str::to_owned)
}

/// A tool's `_meta` text with the UI resource it names namespaced by `level`, where `serves`
/// says the server mounted through it serves that resource (a link elsewhere stays as it is).
fn ui_rewritten(
    meta: &str,
    level: &Level,
    serves: &dyn Fn(&str) -> bool,
) -> std::result::Result<String, String> {
    let Ok(Value::Object(mut meta)) = serde_json::from_str::<Value>(meta) else {
        // Not an object: the server refuses it when it serves the tool, saying so.
        return Ok(meta.to_owned());
    };
    let rewrite = |value: &mut Value| -> std::result::Result<(), String> {
        if let Value::String(uri) = value
            && serves(uri)
        {
            *uri = level.namespace.uri(uri)?;
        }
        Ok(())
    };
    if let Some(Value::Object(ui)) = meta.get_mut(UI)
        && let Some(uri) = ui.get_mut(UI_RESOURCE_URI)
    {
        rewrite(uri)?;
    }
    if let Some(uri) = meta.get_mut(FLAT_UI_RESOURCE_URI) {
        rewrite(uri)?;
    }
    Ok(Value::Object(meta).to_string())
}
