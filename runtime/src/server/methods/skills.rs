//! The skills extension's methods (SEP-2640): `skills/list`, `skills/get` and
//! `resources/directory/read`, answered from the folder of skills the server loaded, with the
//! fields of the request's revision: on 2026-07-28 `resultType`, and the cache hints on the
//! listing and on `skills/get` (hosts cache both; the conformance suite asks for them on
//! both).
//!
//! Policy: a URI that is not a served skill's `SKILL.md` is `-32602` for `skills/get`; one that
//! is not a folder of a skill is `-32602` for `resources/directory/read`; so is a cursor the
//! server did not hand out.

use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::method::Method;
use crate::protocol::quote::quoted;
use crate::resources::skills::error::DirectoryError;
use crate::resources::skills::load::Skills;
use crate::server::engine::Engine;
use crate::server::methods::calls::Request;
use crate::server::reply::Reply;

/// The extension's methods; `None` for any other.
pub(crate) fn answer(
    method: &Method<'_>,
    skills: &Skills,
    engine: &Engine,
    request: &Request<'_>,
) -> Option<Result<Reply, ProtocolError>> {
    let params = request.params;
    let (cursor, uri) = (params.cursor.as_deref(), params.uri.as_deref());
    let size = engine.page_size;
    let unknown_cursor =
        || ProtocolError::invalid_params("unknown `cursor`; start again without one");
    let missing_uri = || ProtocolError::invalid_params("missing field `uri`");
    let (result, cacheable) = match method {
        Method::SkillsList => (
            skills.list(cursor, size).map_err(|_| unknown_cursor()),
            true,
        ),
        Method::SkillsGet => {
            let result = uri.ok_or_else(missing_uri).and_then(|uri| {
                skills.get(uri).ok_or_else(|| {
                    ProtocolError::invalid_params(format_args!(
                        "no skill is served at `{}`",
                        quoted(uri)
                    ))
                })
            });
            (result, true)
        }
        Method::ResourcesDirectoryRead => {
            let result = uri.ok_or_else(missing_uri).and_then(|uri| {
                skills.directory(uri, cursor, size).map_err(|e| match e {
                    DirectoryError::NotADirectory => ProtocolError::invalid_params(format_args!(
                        "`{}` is not a folder of a served skill",
                        quoted(uri)
                    )),
                    DirectoryError::BadCursor => unknown_cursor(),
                })
            });
            (result, false)
        }
        _ => return None,
    };
    Some(result.map(|mut result| {
        revision_fields(&mut result, engine, request.version, cacheable);
        Reply::Now(jsonrpc::result_line(request.id, &result))
    }))
}

/// Adds what a result of `version` carries: on 2026-07-28, `resultType` and the server's
/// `_meta`, and the cache hints when the result is `cacheable`.
pub(crate) fn revision_fields(
    result: &mut Value,
    engine: &Engine,
    version: ProtocolVersion,
    cacheable: bool,
) {
    if !version.has_result_type() {
        return;
    }
    if cacheable {
        let cache = engine.cache();
        result["ttlMs"] = json!(cache.ttl_ms);
        result["cacheScope"] = json!(cache.cache_scope);
    }
    result["resultType"] = json!("complete");
    let meta: &RawValue = &engine.server_meta;
    result["_meta"] = serde_json::from_str(meta.get()).unwrap_or_default();
}
