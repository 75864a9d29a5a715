//! The params of the requests the server reads, borrowed from the message, and the `_meta`
//! keys it acts on.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};
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

/// The params of every method this server serves, and of the notifications it reads, in one
/// struct: each message is parsed once.
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Params<'a> {
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(crate) name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) arguments: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(crate) protocol_version: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(crate) capabilities: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) client_info: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(crate) cursor: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(crate) level: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "_meta")]
    pub(crate) meta: Option<&'a RawValue>,
    /// Of `notifications/cancelled`.
    #[serde(borrow, default)]
    pub(crate) request_id: Option<&'a RawValue>,
    /// Of a 2026-07-28 retry: the client's answers to the server's `inputRequests` (`null`
    /// kept, to be refused).
    #[serde(borrow, default, deserialize_with = "present")]
    pub(crate) input_responses: Option<&'a RawValue>,
    /// Of `subscriptions/listen`: the notifications the client wants.
    #[serde(borrow, default)]
    pub(crate) notifications: Option<&'a RawValue>,
    /// Of `resources/read`, `resources/subscribe`, `skills/get` and others: the resource.
    #[serde(borrow, default, deserialize_with = "borrowed")]
    pub(crate) uri: Option<Cow<'a, str>>,
    /// Of `completion/complete`: the prompt or template (`ref`).
    #[serde(borrow, default, rename = "ref")]
    pub(crate) reference: Option<&'a RawValue>,
    /// Of `completion/complete`: the argument being completed.
    #[serde(borrow, default)]
    pub(crate) argument: Option<&'a RawValue>,
    /// Of `completion/complete`: the arguments already given.
    #[serde(borrow, default)]
    pub(crate) context: Option<&'a RawValue>,
    /// Of a 2026-07-28 retry: the `requestState` the server handed out, echoed.
    #[serde(borrow, default, deserialize_with = "present")]
    pub(crate) request_state: Option<&'a RawValue>,
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
    #[serde(
        borrow,
        default,
        rename = "io.modelcontextprotocol/logLevel",
        deserialize_with = "borrowed"
    )]
    pub(crate) log_level: Option<Cow<'a, str>>,
}

impl<'a> Meta<'a> {
    /// `_meta` read from a JSON object only (serde's derived structs would read an array too);
    /// `None` when it is not one.
    pub(crate) fn parse(raw: &'a RawValue) -> Option<Meta<'a>> {
        match raw.get().starts_with('{') {
            true => serde_json::from_str(raw.get()).ok(),
            false => None,
        }
    }

    /// The revision a 2026-07-28 request names in its envelope, checked: the request must
    /// declare the client's capabilities and name the revision as a string. `Ok(None)` for a
    /// request that names none (it belongs to a handshake session); `Err` says what is wrong.
    pub(crate) fn stateless_version(&self) -> Result<Option<String>, String> {
        let Some(version) = self.protocol_version else {
            return Ok(None);
        };
        if self.client_capabilities.is_none() {
            return Err(format!("`_meta` lacks `{CLIENT_CAPABILITIES}`"));
        }
        match serde_json::from_str(version.get()) {
            Ok(version) => Ok(Some(version)),
            Err(_) => Err(format!("`{PROTOCOL_VERSION}` must be a string")),
        }
    }
}

/// A field as sent, `null` included: absent is `None`, `null` is `Some("null")`.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

/// A string borrowed from the message when it has no escapes, `null` as absent. serde borrows
/// a field of type `Cow<str>` itself, but not one inside an `Option`: that one it would copy,
/// on every message.
pub(crate) fn borrowed<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    struct Maybe;
    struct Visit;

    impl<'de> serde::de::Visitor<'de> for Maybe {
        type Value = Option<Cow<'de, str>>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }

        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_str(Visit).map(Some)
        }
    }

    impl<'de> serde::de::Visitor<'de> for Visit {
        type Value = Cow<'de, str>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }

        fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Borrowed(s))
        }

        fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Owned(s.to_owned()))
        }

        fn visit_string<E>(self, s: String) -> Result<Cow<'de, str>, E> {
            Ok(Cow::Owned(s))
        }
    }

    deserializer.deserialize_option(Maybe)
}
