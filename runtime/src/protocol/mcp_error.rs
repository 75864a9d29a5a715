//! The JSON-RPC errors an author chooses to answer a request with, and what each becomes in
//! each revision.
//!
//! Policy: a code the author gives goes out as given, except that on 2026-07-28 a code of the
//! range the specification reserves (-32020 to -32099) that this revision does not define
//! goes out as `-32603`, since a revision forbids emitting undefined codes from it. The named
//! errors follow their revisions: resource not found is `-32002` until 2025-11-25 and `-32602`
//! on 2026-07-28, with `data.uri`; URL elicitation required is `-32042` on 2025-11-25 (the only
//! revision that defines it), and on 2026-07-28, which retired the code, an `input_required`
//! round asking the same URL elicitations. A client that did not declare URL elicitation
//! gets what a missing capability gets: `-32021` on 2026-07-28, and before, the message and
//! each URL as text (a tool's error result; a prompt's or a resource's `-32603`).

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::protocol::code::ErrorCode;
use crate::protocol::jsonrpc::ProtocolError;
use crate::protocol::version::ProtocolVersion;

/// A JSON-RPC error chosen by the author of a tool, a prompt or a resource: returned as its
/// `Err` (or through [`ToolError`](crate::ToolError), which it converts into), it answers the
/// request as this error instead of a result.
///
/// ```
/// use toolwright_runtime::{McpError, UrlElicitation};
///
/// fn lookup(id: u64) -> Result<String, McpError> {
///     match id {
///         0 => Err(McpError::new(-1, "the catalogue is closed").with_data(serde_json::json!({"retry": 60}))),
///         1 => Err(McpError::resource_not_found("item://1")),
///         2 => Err(McpError::url_elicitation_required(
///             "Sign in to the catalogue first.",
///             [UrlElicitation::new("Sign in", "https://catalogue.example.com/connect")],
///         )),
///         _ => Ok(format!("item {id}")),
///     }
/// }
/// # assert_eq!(lookup(0).unwrap_err().code(), -1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpError(Box<Chosen>);

/// What an [`McpError`] holds, boxed so that a `Result` of one stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Chosen {
    kind: Kind,
    message: String,
    data: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// The author's code, as given.
    Code(i64),
    /// The resource at this URI does not exist.
    ResourceNotFound(String),
    /// The user must open these URLs first.
    UrlElicitationRequired(Vec<UrlElicitation>),
    /// The request cannot go on without this client capability (a path like `sampling`).
    MissingCapability(&'static str),
}

/// A URL the user is asked to open, for [`McpError::url_elicitation_required`]: to sign in
/// somewhere, to pay. What happens there is between the user and that site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlElicitation {
    message: String,
    url: String,
}

impl UrlElicitation {
    /// Asks the user to open `url`, saying why with `message`.
    pub fn new(message: impl Into<String>, url: impl Into<String>) -> UrlElicitation {
        UrlElicitation {
            message: message.into(),
            url: url.into(),
        }
    }

    /// The `elicitation/create` params that ask for it, for `version` (2025-11-25 carries an
    /// `elicitationId`).
    fn params(&self, version: ProtocolVersion) -> Value {
        let mut params = json!({"mode": "url", "message": self.message, "url": self.url});
        if version.has_url_elicitation_id() {
            params["elicitationId"] = json!(crate::protocol::id::random_id());
        }
        params
    }
}

/// What a chosen error becomes in one revision, for one client.
pub(crate) enum Sent {
    /// A JSON-RPC error.
    Error(ProtocolError),
    /// 2026-07-28: a round of asks, `inputRequests` entries by key.
    Round(Vec<(String, Value)>),
    /// No error of the revision says it: the text to show (a tool's error result).
    Text(String),
}

impl McpError {
    /// An error with the author's `code` and `message`. The specification asks applications
    /// to choose codes outside -32768 to -32000, which JSON-RPC and MCP keep for themselves.
    pub fn new(code: i64, message: impl Into<String>) -> McpError {
        McpError::of(Kind::Code(code), message.into())
    }

    /// `-32602` (Invalid params): the request cannot be served as it was sent.
    pub fn invalid_params(message: impl Into<String>) -> McpError {
        McpError::new(ErrorCode::InvalidParams.as_i64(), message)
    }

    /// `-32603` (Internal error), with a message the client may read.
    pub fn internal(message: impl Into<String>) -> McpError {
        McpError::new(ErrorCode::InternalError.as_i64(), message)
    }

    /// The resource at `uri` does not exist: `-32002` until 2025-11-25, `-32602` on
    /// 2026-07-28, with the URI in `data.uri`.
    pub fn resource_not_found(uri: impl Into<String>) -> McpError {
        McpError::of(
            Kind::ResourceNotFound(uri.into()),
            "Resource not found".into(),
        )
    }

    /// The request needs the user to open each of `elicitations` first: `-32042`
    /// (URLElicitationRequired) with them in `data.elicitations` on 2025-11-25, an
    /// `input_required` round asking them on 2026-07-28 (which retired the code); for a client
    /// that does not take URL elicitations, what a missing capability is (`-32021` on
    /// 2026-07-28, `message` and the URLs as text before).
    pub fn url_elicitation_required(
        message: impl Into<String>,
        elicitations: impl IntoIterator<Item = UrlElicitation>,
    ) -> McpError {
        let elicitations = elicitations.into_iter().collect();
        McpError::of(Kind::UrlElicitationRequired(elicitations), message.into())
    }

    /// The request cannot go on without the client capability `capability` (a path like
    /// `elicitation.url`).
    pub(crate) fn missing_capability(capability: &'static str, message: String) -> McpError {
        McpError::of(Kind::MissingCapability(capability), message)
    }

    fn of(kind: Kind, message: String) -> McpError {
        McpError(Box::new(Chosen {
            kind,
            message,
            data: None,
        }))
    }

    /// The same error with `data` for the client (a value that does not serialize is left
    /// out). A named error's own fields (`uri`, `elicitations`) are added to an object.
    pub fn with_data(mut self, data: impl Serialize) -> McpError {
        self.0.data = serde_json::to_value(data).ok();
        self
    }

    /// The error's message.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The code it names: the author's own, or that of the named error on 2025-11-25 (each
    /// revision's own is chosen where it is sent, and one that revision lacks becomes
    /// another, or a result that says the same).
    pub fn code(&self) -> i64 {
        match &self.0.kind {
            Kind::Code(code) => *code,
            Kind::ResourceNotFound(_) => ErrorCode::ResourceNotFound.as_i64(),
            Kind::UrlElicitationRequired(_) => ErrorCode::UrlElicitationRequired.as_i64(),
            Kind::MissingCapability(_) => ErrorCode::MissingClientCapability.as_i64(),
        }
    }

    /// What it becomes under `version`, for a client that takes URL elicitations or not.
    pub(crate) fn sent(&self, version: ProtocolVersion, takes_urls: bool) -> Sent {
        let modern = version.missing_capability_is_protocol_error();
        match &self.0.kind {
            Kind::Code(code) => {
                let mut code = ErrorCode::of(*code);
                if code == ErrorCode::ResourceNotFound
                    && version.resource_not_found_is_invalid_params()
                {
                    // 2026-07-28 says resource not found with `-32602`, and forbids `-32002`.
                    code = ErrorCode::InvalidParams;
                } else if version.reserves_error_codes() && reserved_undefined(code) {
                    code = ErrorCode::InternalError;
                }
                Sent::Error(ProtocolError::chosen(code, &self.0.message, self.0.data.clone()))
            }
            // Asking for no URL asks nothing: the request failed, as the author said.
            Kind::UrlElicitationRequired(urls) if urls.is_empty() => {
                Sent::Error(ProtocolError::failed(&self.0.message))
            }
            Kind::ResourceNotFound(uri) => {
                let why: Option<&dyn fmt::Display> = None;
                let error = ProtocolError::resource_not_found(version, uri, why);
                Sent::Error(self.with_fields(error))
            }
            Kind::MissingCapability(capability) => match modern {
                true => Sent::Error(ProtocolError::missing_client_capability(
                    capability,
                    &self.0.message,
                )),
                false => Sent::Text(self.0.message.clone()),
            },
            Kind::UrlElicitationRequired(urls) if !takes_urls || !version.has_elicitation_modes() => {
                match modern {
                    true => Sent::Error(ProtocolError::missing_client_capability(
                        "elicitation.url",
                        &self.0.message,
                    )),
                    false => Sent::Text(listed(&self.0.message, urls)),
                }
            }
            Kind::UrlElicitationRequired(urls) if !version.has_url_elicitation_required_error() => Sent::Round(
                urls.iter()
                    .enumerate()
                    .map(|(i, url)| {
                        let key = match i {
                            0 => "url".to_owned(),
                            i => format!("url_{}", i + 1),
                        };
                        let request = json!({"method": "elicitation/create", "params": url.params(version)});
                        (key, request)
                    })
                    .collect(),
            ),
            Kind::UrlElicitationRequired(urls) => {
                let asked: Vec<Value> = urls.iter().map(|url| url.params(version)).collect();
                let mut data = self.data_object();
                data.insert("elicitations".into(), Value::Array(asked));
                let code = ErrorCode::UrlElicitationRequired;
                Sent::Error(ProtocolError::chosen(code, &self.0.message, Some(Value::Object(data))))
            }
        }
    }

    /// The JSON-RPC error it is under `version`, for a request whose answer can only be an
    /// error (a subscription, say): what it asks of the user or the client said as text.
    pub(crate) fn protocol_error(&self, version: ProtocolVersion) -> ProtocolError {
        match self.sent(version, false) {
            Sent::Error(error) => error,
            Sent::Text(_) | Sent::Round(_) => ProtocolError::failed(&self.text()),
        }
    }

    /// A named error's own `error`, with the message and the data the author gave.
    fn with_fields(&self, error: ProtocolError) -> ProtocolError {
        let own = error.data().and_then(Value::as_object).cloned();
        let mut data = self.data_object();
        data.extend(own.into_iter().flatten());
        ProtocolError::chosen(error.code(), error.message(), Some(Value::Object(data)))
    }

    /// The author's data as an object to add fields to (a value of another kind under
    /// `value`).
    fn data_object(&self) -> Map<String, Value> {
        match &self.0.data {
            None => Map::new(),
            Some(Value::Object(data)) => data.clone(),
            Some(other) => Map::from_iter([("value".to_owned(), other.clone())]),
        }
    }
}

/// Whether `code` is of the range 2026-07-28 reserves and not one it defines.
fn reserved_undefined(code: ErrorCode) -> bool {
    let defined = matches!(
        code,
        ErrorCode::HeaderMismatch
            | ErrorCode::MissingClientCapability
            | ErrorCode::UnsupportedProtocolVersion
    );
    (-32099..=-32020).contains(&code.as_i64()) && !defined
}

impl McpError {
    /// What it says as text, for an answer that cannot be the error itself: its message, and
    /// each URL it asks the user to open.
    pub(crate) fn text(&self) -> String {
        match &self.0.kind {
            Kind::UrlElicitationRequired(urls) => listed(&self.0.message, urls),
            _ => self.0.message.clone(),
        }
    }
}

/// `message`, then each URL with its own message, for a client that cannot open them for the
/// user.
fn listed(message: &str, urls: &[UrlElicitation]) -> String {
    let mut text = message.to_owned();
    for url in urls {
        text.push_str(&format!("\n{}: {}", url.message, url.url));
    }
    text
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for McpError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(sent: Sent) -> Value {
        match sent {
            Sent::Error(error) => serde_json::to_value(&error).unwrap(),
            Sent::Round(_) => panic!("a round"),
            Sent::Text(text) => panic!("text: {text}"),
        }
    }

    const MODERN: ProtocolVersion = ProtocolVersion::V2026_07_28;
    const LATEST_LEGACY: ProtocolVersion = ProtocolVersion::V2025_11_25;

    #[test]
    fn a_code_goes_out_as_given_except_an_undefined_reserved_one_on_2026() {
        let chosen = McpError::new(-1, "closed").with_data(json!({"retry": 60}));
        for version in ProtocolVersion::ALL {
            let sent = error(chosen.sent(version, false));
            assert_eq!(
                sent,
                json!({"code": -1, "message": "closed", "data": {"retry": 60}})
            );
        }
        let reserved = McpError::new(-32050, "odd");
        assert_eq!(error(reserved.sent(LATEST_LEGACY, false))["code"], -32050);
        assert_eq!(error(reserved.sent(MODERN, false))["code"], -32603);
        let defined = McpError::new(-32021, "needs sampling");
        assert_eq!(error(defined.sent(MODERN, false))["code"], -32021);
    }

    #[test]
    fn resource_not_found_follows_the_revision_with_its_uri() {
        let missing = McpError::resource_not_found("memo://gone").with_data(json!({"hint": 1}));
        let legacy = error(missing.sent(LATEST_LEGACY, false));
        assert_eq!(legacy["code"], -32002);
        assert_eq!(legacy["data"], json!({"hint": 1, "uri": "memo://gone"}));
        assert_eq!(legacy["message"], "Resource not found: memo://gone");
        assert_eq!(error(missing.sent(MODERN, false))["code"], -32602);
    }

    #[test]
    fn url_elicitation_required_is_32042_on_2025_11_25_and_a_round_on_2026() {
        let required = McpError::url_elicitation_required(
            "Sign in first.",
            [
                UrlElicitation::new("Sign in", "https://a.example/connect"),
                UrlElicitation::new("Pay", "https://b.example/pay"),
            ],
        );
        let sent = error(required.sent(LATEST_LEGACY, true));
        assert_eq!(sent["code"], -32042);
        let elicitations = sent["data"]["elicitations"].as_array().unwrap();
        assert_eq!(elicitations.len(), 2);
        assert_eq!(elicitations[0]["mode"], "url");
        assert_eq!(elicitations[0]["url"], "https://a.example/connect");
        assert_eq!(elicitations[0]["elicitationId"].as_str().unwrap().len(), 32);
        let Sent::Round(asks) = required.sent(MODERN, true) else {
            panic!("not a round");
        };
        let keys: Vec<&str> = asks.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["url", "url_2"]);
        assert_eq!(
            asks[1].1["params"],
            json!({"mode": "url", "message": "Pay", "url": "https://b.example/pay"})
        );
        // A client that takes no URLs: what a missing capability is.
        assert_eq!(error(required.sent(MODERN, false))["code"], -32021);
        let Sent::Text(text) = required.sent(LATEST_LEGACY, false) else {
            panic!("not text");
        };
        assert_eq!(
            text,
            "Sign in first.\nSign in: https://a.example/connect\nPay: https://b.example/pay"
        );
        assert!(matches!(
            required.sent(ProtocolVersion::V2025_06_18, true),
            Sent::Text(_)
        ));
        let nothing = McpError::url_elicitation_required("nothing to open", []);
        assert_eq!(error(nothing.sent(MODERN, true))["code"], -32603);
    }

    #[test]
    fn a_retired_code_goes_out_as_its_revision_says_it() {
        let gone = McpError::new(-32002, "no such memo");
        assert_eq!(error(gone.sent(LATEST_LEGACY, false))["code"], -32002);
        assert_eq!(error(gone.sent(MODERN, false))["code"], -32602);
        let url = McpError::new(-32042, "open it");
        assert_eq!(error(url.sent(MODERN, false))["code"], -32603);
    }
}
