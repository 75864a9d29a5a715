//! The client that sent a request: what it declared about itself, in `initialize` for a whole
//! session or in a 2026-07-28 request's own `_meta`.

use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::protocol::ProtocolVersion;
use crate::protocol::meta::{Meta, Read};

/// The client that sent a request, as it describes itself.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ClientInfo {
    /// The client's name.
    pub name: String,
    /// The client's version.
    pub version: String,
    /// A human-readable name (2025-06-18 on).
    #[serde(default)]
    pub title: Option<String>,
}

/// What a client declared about itself: in `initialize` for a whole session, or in a 2026-07-28
/// request's `_meta` for that request alone.
#[derive(Debug, Default)]
pub(crate) struct DeclaredClient {
    pub(crate) info: Option<ClientInfo>,
    /// A JSON object; empty when the client declared nothing.
    pub(crate) capabilities: Value,
}

impl DeclaredClient {
    /// The client of an `initialize` request's params.
    pub(crate) fn from_initialize(
        info: Option<&RawValue>,
        capabilities: Option<&RawValue>,
    ) -> DeclaredClient {
        DeclaredClient {
            info: info.and_then(|raw| serde_json::from_str(raw.get()).ok()),
            capabilities: capabilities
                .and_then(|raw| serde_json::from_str(raw.get()).ok())
                .unwrap_or_else(|| Value::Object(Default::default())),
        }
    }

    /// Whether the client declared `path` (`"elicitation.url"`): every step an object.
    pub(crate) fn declares(&self, path: &str) -> bool {
        let mut node = &self.capabilities;
        for step in path.split('.') {
            match node.get(step) {
                Some(next) if next.is_object() => node = next,
                _ => return false,
            }
        }
        true
    }

    /// The client of a 2026-07-28 request's `_meta`, as a call's record keeps it.
    pub(crate) fn from_meta(meta: Option<&str>) -> DeclaredClient {
        match meta.and_then(|text| serde_json::from_str::<Read<'_>>(text).ok()) {
            Some(Read::Object(meta)) => DeclaredClient::of(&meta),
            _ => DeclaredClient::of(&Meta::default()),
        }
    }

    /// The client a 2026-07-28 request's `_meta` describes.
    pub(crate) fn of(meta: &Meta<'_>) -> DeclaredClient {
        DeclaredClient::from_initialize(meta.client_info, meta.client_capabilities)
    }
}

/// Where a call's client is described.
pub(crate) enum ClientSource {
    /// By the session's `initialize`.
    Session(Arc<DeclaredClient>),
    /// By the request's own `_meta` (2026-07-28), read on first use.
    Request(OnceLock<DeclaredClient>),
}

/// The client of one request before any call is opened for it: the revision it speaks and what
/// it declared, in the session's `initialize` or in the request's own `_meta` (read only if
/// something asks, since most requests never do).
pub(crate) struct RequestClient<'a> {
    pub(crate) version: ProtocolVersion,
    declared: Declared<'a>,
}

enum Declared<'a> {
    Session(&'a DeclaredClient),
    Request(&'a Meta<'a>, OnceLock<DeclaredClient>),
}

impl<'a> RequestClient<'a> {
    /// The client of a request in a handshake session.
    pub(crate) fn session(version: ProtocolVersion, client: &'a DeclaredClient) -> Self {
        RequestClient {
            version,
            declared: Declared::Session(client),
        }
    }

    /// The client of a 2026-07-28 request, described by its `_meta`.
    pub(crate) fn request(version: ProtocolVersion, meta: &'a Meta<'a>) -> Self {
        RequestClient {
            version,
            declared: Declared::Request(meta, OnceLock::new()),
        }
    }

    /// What the client declared.
    pub(crate) fn declared(&self) -> &DeclaredClient {
        match &self.declared {
            Declared::Session(client) => client,
            Declared::Request(meta, parsed) => parsed.get_or_init(|| DeclaredClient::of(meta)),
        }
    }
}
