//! The params of the requests the server reads, borrowed from the message, and the `_meta`
//! keys it acts on.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// `_meta` key naming the revision of a 2026-07-28 request.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of a 2026-07-28 request's client capabilities.
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of a 2026-07-28 request's client.
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of a result's server.
pub(crate) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key tying a notification to its `subscriptions/listen` stream.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The params of every method this server serves, in one struct: each request is parsed once.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Params<'a> {
    #[serde(borrow, default)]
    pub(crate) name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) arguments: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) protocol_version: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) capabilities: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) client_info: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) cursor: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) level: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "_meta")]
    pub(crate) meta: Option<&'a RawValue>,
}

/// The `_meta` keys the server acts on.
#[derive(Deserialize, Default)]
pub(crate) struct Meta<'a> {
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    pub(crate) protocol_version: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/clientCapabilities")]
    pub(crate) client_capabilities: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "progressToken")]
    pub(crate) progress_token: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/logLevel")]
    pub(crate) log_level: Option<Cow<'a, str>>,
}

/// `notifications/cancelled`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CancelParams<'a> {
    #[serde(borrow)]
    pub(crate) request_id: &'a RawValue,
}
