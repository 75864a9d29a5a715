//! `prompts/list`, `resources/list` and `resources/templates/list`: the entries the caller
//! may see, a page at a time, as the revision lists them. Unlike `tools/list`, these pages are
//! made per request: they are asked for far less often.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::wire;
use crate::server::engine::Engine;
use crate::server::reply::Reply;
use crate::server::session::RequestScope;

/// Which list.
#[derive(Clone, Copy)]
pub(crate) enum Listing {
    Prompts,
    Resources,
    Templates,
}

/// The page of `listing` a cursor points at, for the caller of `scope`.
pub(crate) fn list(
    listing: Listing,
    id: &RawValue,
    engine: &Engine,
    version: ProtocolVersion,
    cursor: Option<&str>,
    scope: RequestScope<'_>,
) -> Result<Reply, ProtocolError> {
    let catalog = engine.catalog();
    let caller = scope.caller();
    let page = match listing {
        Listing::Prompts => {
            let entries: Vec<_> = catalog
                .prompts
                .iter()
                .filter(|p| engine.visible_item(p.spec.info(), &caller))
                .map(|p| p.entry(version))
                .collect();
            paged("prompts", &entries, cursor, engine, version)
        }
        Listing::Resources | Listing::Templates => {
            let templates = matches!(listing, Listing::Templates);
            let mut entries: Vec<serde_json::Value> = catalog
                .resources
                .iter()
                .filter(|r| r.template.is_static() != templates)
                .filter(|r| engine.visible_item(r.spec.info(), &caller))
                .map(|r| serde_json::to_value(r.entry(version)).expect("an entry serializes"))
                .collect();
            // A skill's `SKILL.md` is listed with the resources (SEP-2640); its other files
            // and folders are read without being listed.
            if let (Some(skills), false) = (&engine.skills, templates) {
                entries.extend(skills.listed());
            }
            let key = match templates {
                true => "resourceTemplates",
                false => "resources",
            };
            paged(key, &entries, cursor, engine, version)
        }
    }?;
    Ok(Reply::Now(jsonrpc::result_line(id, &*page)))
}

/// The page of `entries` a cursor points at; `-32602` for a cursor the server did not hand
/// out.
pub(crate) fn paged<T: Serialize>(
    key: &'static str,
    entries: &[T],
    cursor: Option<&str>,
    engine: &Engine,
    version: ProtocolVersion,
) -> Result<Box<RawValue>, ProtocolError> {
    let unknown = || ProtocolError::invalid_params("unknown `cursor`; start again without one");
    let (chunk, next) = wire::page_at(entries, engine.page_size, cursor).ok_or_else(unknown)?;
    Ok(wire::page(
        key,
        chunk,
        next,
        version,
        &engine.server_meta,
        engine.cache(),
    ))
}
