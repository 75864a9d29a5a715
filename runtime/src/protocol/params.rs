//! The params of the requests the server reads, borrowed from the message, and the `_meta`
//! keys it acts on.

use std::borrow::Cow;

use serde::de::MapAccess;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

use crate::protocol::meta::{Meta, Read};

/// `_meta` key of a result's server.
pub(crate) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key tying a notification to its `subscriptions/listen` stream.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The params of every method this server serves, and of the notifications it reads, in one
/// struct: each message is parsed once. The fields of the hot path (`tools/call`, lists, reads)
/// are inline; those of rarer requests (`initialize`, `completion/complete`, ...) are boxed,
/// allocated only when a message has one, so that every message does not carry (and move) room
/// for all of them.
#[derive(Default, Debug)]
pub(crate) struct Params<'a> {
    pub(crate) name: Option<Cow<'a, str>>,
    pub(crate) arguments: Option<&'a RawValue>,
    pub(crate) cursor: Option<Cow<'a, str>>,
    /// Of a 2026-07-28 retry: the client's answers to the server's `inputRequests` (`null`
    /// kept, to be refused).
    pub(crate) input_responses: Option<&'a RawValue>,
    /// Of a 2026-07-28 retry: the `requestState` the server handed out, echoed (`null` kept).
    pub(crate) request_state: Option<&'a RawValue>,
    /// Of `resources/read`, `resources/subscribe`, `skills/get` and others: the resource.
    pub(crate) uri: Option<Cow<'a, str>>,
    rare: Option<Box<Rare<'a>>>,
    /// `_meta`, read with the rest (see `meta`; boxed: the messages without one, and those of
    /// the hot path, stay small, and are moved as they are parsed and dispatched).
    meta: Option<Box<Read<'a>>>,
}

impl<'a> Params<'a> {
    /// `_meta`: `None` when the message has none (or `null`), `Some(None)` when it is not an
    /// object the server can read. Read once, with the params, since the HTTP transport and
    /// the server's dispatch both need it, and it is most of a 2026-07-28 request's params.
    pub(crate) fn read_meta(&self) -> Option<Option<&Meta<'a>>> {
        match self.meta.as_deref()? {
            Read::Object(meta) => Some(Some(meta)),
            Read::Unreadable => Some(None),
            Read::Null => None,
        }
    }
}

/// The params of the rarer requests and notifications.
#[derive(Default, Debug)]
pub(crate) struct Rare<'a> {
    /// Of `initialize`.
    pub(crate) protocol_version: Option<Cow<'a, str>>,
    pub(crate) capabilities: Option<&'a RawValue>,
    pub(crate) client_info: Option<&'a RawValue>,
    /// Of `logging/setLevel`.
    pub(crate) level: Option<Cow<'a, str>>,
    /// Of `notifications/cancelled`.
    pub(crate) request_id: Option<&'a RawValue>,
    /// Of `subscriptions/listen`: the notifications the client wants.
    pub(crate) notifications: Option<&'a RawValue>,
    /// Of `completion/complete`: the prompt or template (`ref`).
    pub(crate) reference: Option<&'a RawValue>,
    /// Of `completion/complete`: the argument being completed.
    pub(crate) argument: Option<&'a RawValue>,
    /// Of `completion/complete`: the arguments already given.
    pub(crate) context: Option<&'a RawValue>,
    /// Of a 2025-11-25 `tools/call`: the client asks for a task.
    pub(crate) task: Option<&'a RawValue>,
    /// Of `tasks/get`, `tasks/update`, `tasks/cancel`, `tasks/result`.
    pub(crate) task_id: Option<Cow<'a, str>>,
}

/// A message without any of the rarer params.
const NO_RARE: &Rare<'static> = &Rare {
    protocol_version: None,
    capabilities: None,
    client_info: None,
    level: None,
    request_id: None,
    notifications: None,
    reference: None,
    argument: None,
    context: None,
    task: None,
    task_id: None,
};

impl<'a> Params<'a> {
    /// The params of the rarer requests (none set when the message has none).
    pub(crate) fn rare(&self) -> &Rare<'a> {
        self.rare.as_deref().unwrap_or(NO_RARE)
    }

    fn rare_mut(&mut self) -> &mut Rare<'a> {
        self.rare.get_or_insert_default()
    }
}

/// The keys of `Params`, those of the hot path first (a key is looked for in this order).
const KEYS: [&str; 18] = [
    "name",
    "arguments",
    "_meta",
    "cursor",
    "uri",
    "inputResponses",
    "requestState",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "level",
    "requestId",
    "notifications",
    "ref",
    "argument",
    "context",
    "task",
    "taskId",
];

/// A key of `Params`, as its place in [`KEYS`]; `None` for a key it does not read.
struct Key(Option<usize>);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct Visit;

        impl serde::de::Visitor<'_> for Visit {
            type Value = Key;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a field name")
            }

            fn visit_str<E>(self, key: &str) -> Result<Key, E> {
                Ok(Key(KEYS.iter().position(|known| *known == key)))
            }
        }

        deserializer.deserialize_identifier(Visit)
    }
}

/// A string field: borrowed when it has no escapes; `null` is absent.
struct Text<'a>(Option<Cow<'a, str>>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        borrowed(deserializer).map(Text)
    }
}

/// A field kept raw; `null` is absent.
struct Raw<'a>(Option<&'a RawValue>);

impl<'de> Deserialize<'de> for Raw<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(deserializer)?;
        Ok(Raw((raw.get() != "null").then_some(raw)))
    }
}

/// A field kept raw, `null` included.
struct Present<'a>(&'a RawValue);

impl<'de> Deserialize<'de> for Present<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&RawValue>::deserialize(deserializer).map(Present)
    }
}

impl<'de> Deserialize<'de> for Params<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;

        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Params<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("struct Params")
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Params<'de>, M::Error> {
                let mut params = Params::default();
                let mut seen = 0u32;
                while let Some(Key(key)) = map.next_key()? {
                    let Some(index) = key else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        continue;
                    };
                    // As a derived struct does: a field given twice is refused.
                    if seen & (1 << index) != 0 {
                        let error = format_args!("duplicate field `{}`", KEYS[index]);
                        return Err(serde::de::Error::custom(error));
                    }
                    seen |= 1 << index;
                    let text = |map: &mut M| map.next_value::<Text<'de>>().map(|t| t.0);
                    let raw = |map: &mut M| map.next_value::<Raw<'de>>().map(|r| r.0);
                    let present = |map: &mut M| map.next_value::<Present<'de>>().map(|p| Some(p.0));
                    match index {
                        0 => params.name = text(&mut map)?,
                        1 => params.arguments = raw(&mut map)?,
                        2 => params.meta = Some(Box::new(map.next_value::<Read<'de>>()?)),
                        3 => params.cursor = text(&mut map)?,
                        4 => params.uri = text(&mut map)?,
                        5 => params.input_responses = present(&mut map)?,
                        6 => params.request_state = present(&mut map)?,
                        7 => params.rare_mut().protocol_version = text(&mut map)?,
                        8 => params.rare_mut().capabilities = raw(&mut map)?,
                        9 => params.rare_mut().client_info = raw(&mut map)?,
                        10 => params.rare_mut().level = text(&mut map)?,
                        11 => params.rare_mut().request_id = raw(&mut map)?,
                        12 => params.rare_mut().notifications = raw(&mut map)?,
                        13 => params.rare_mut().reference = raw(&mut map)?,
                        14 => params.rare_mut().argument = raw(&mut map)?,
                        15 => params.rare_mut().context = raw(&mut map)?,
                        16 => params.rare_mut().task = raw(&mut map)?,
                        _ => params.rare_mut().task_id = text(&mut map)?,
                    }
                }
                Ok(params)
            }
        }

        deserializer.deserialize_map(Visit)
    }
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
