//! How an unauthorized request is answered (RFC 6750 §3, RFC 9728 §5.1): the status, one
//! `Bearer` challenge in `WWW-Authenticate`, and an OAuth-style JSON body.
//!
//! The challenge is written for the SDKs' parsers: `Bearer` first, every value double-quoted,
//! none empty, none holding `"` or `\`.

use http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderValue, Response, StatusCode};

use crate::transport::http::stream::ResponseBody;

/// Why a request was not let through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No credentials: 401 and a challenge with no error code (RFC 6750 §3.1).
    Missing,
    /// A malformed request: 400 `invalid_request`.
    Malformed(String),
    /// A token that is not valid: 401 `invalid_token`.
    Invalid(String),
    /// A valid token without these scopes, which the request needs (all of them, granted or
    /// not, so that a client that replaces its scopes asks for enough): 403
    /// `insufficient_scope`.
    Insufficient(Vec<String>),
    /// The token could not be checked now: 503.
    Unavailable(String),
}

/// Where the challenge points the client: the metadata, and the scopes every request needs.
pub(crate) struct Challenger<'a> {
    pub(crate) metadata_url: Option<&'a str>,
    pub(crate) scopes: &'a [String],
}

impl Refusal {
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            Refusal::Missing | Refusal::Invalid(_) => StatusCode::UNAUTHORIZED,
            Refusal::Malformed(_) => StatusCode::BAD_REQUEST,
            Refusal::Insufficient(_) => StatusCode::FORBIDDEN,
            Refusal::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error(&self) -> Option<(&'static str, String)> {
        match self {
            Refusal::Missing => None,
            Refusal::Malformed(reason) => Some(("invalid_request", clean(reason))),
            Refusal::Invalid(reason) => Some(("invalid_token", clean(reason))),
            Refusal::Insufficient(scopes) => Some((
                "insufficient_scope",
                clean(&format!(
                    "this request needs the scopes {}",
                    scopes.join(" ")
                )),
            )),
            // The reason (which server, which URL) is for the log, not for anyone who asks.
            Refusal::Unavailable(_) => Some((
                "temporarily_unavailable",
                "the token could not be checked now; try again later".to_owned(),
            )),
        }
    }

    /// The `WWW-Authenticate` value; none for 503, which is no challenge.
    pub(crate) fn challenge(&self, to: &Challenger<'_>) -> Option<String> {
        let mut params = Vec::new();
        match self {
            Refusal::Unavailable(_) => return None,
            Refusal::Missing => {}
            _ => {
                let (error, description) = self.error()?;
                params.push(format!("error=\"{error}\""));
                params.push(format!("error_description=\"{description}\""));
            }
        }
        let scopes = match self {
            Refusal::Insufficient(scopes) => scopes.as_slice(),
            Refusal::Malformed(_) => &[],
            _ => to.scopes,
        };
        if !scopes.is_empty() {
            params.push(format!("scope=\"{}\"", scopes.join(" ")));
        }
        if let Some(url) = to.metadata_url {
            params.push(format!("resource_metadata=\"{url}\""));
        }
        Some(match params.is_empty() {
            true => "Bearer".to_owned(),
            false => format!("Bearer {}", params.join(", ")),
        })
    }

    pub(crate) fn response(&self, to: &Challenger<'_>) -> Response<ResponseBody> {
        let body = match self.error() {
            Some((error, description)) => {
                serde_json::json!({"error": error, "error_description": description})
            }
            None => serde_json::json!({"error_description": "this server needs a bearer token"}),
        };
        let mut response = Response::new(ResponseBody::full(body.to_string().into_bytes()));
        *response.status_mut() = self.status();
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(challenge) = self.challenge(to)
            && let Ok(value) = HeaderValue::from_str(&challenge)
        {
            headers.insert(WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// `reason` as a quoted-string value the SDKs parse: printable ASCII but `"` and `\`.
fn clean(reason: &str) -> String {
    reason
        .chars()
        .filter(|c| (' '..='~').contains(c) && !matches!(c, '"' | '\\'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRM: &str = "https://h/.well-known/oauth-protected-resource/mcp";

    fn to(scopes: &[String]) -> Challenger<'_> {
        Challenger {
            metadata_url: Some(PRM),
            scopes,
        }
    }

    #[test]
    fn challenges() {
        let base = ["mcp:tools".to_owned()];
        assert_eq!(
            Refusal::Missing.challenge(&to(&base)).unwrap(),
            format!("Bearer scope=\"mcp:tools\", resource_metadata=\"{PRM}\"")
        );
        assert_eq!(
            Refusal::Missing.challenge(&to(&[])).unwrap(),
            format!("Bearer resource_metadata=\"{PRM}\"")
        );
        assert_eq!(
            Refusal::Invalid("it \"expired\"\n".into())
                .challenge(&to(&base))
                .unwrap(),
            format!(
                "Bearer error=\"invalid_token\", error_description=\"it expired\", \
                 scope=\"mcp:tools\", resource_metadata=\"{PRM}\""
            )
        );
        let needed = vec!["mcp:tools".to_owned(), "mcp:admin".to_owned()];
        let challenge = Refusal::Insufficient(needed).challenge(&to(&base)).unwrap();
        assert!(challenge.starts_with("Bearer error=\"insufficient_scope\", "));
        assert!(challenge.contains(" scope=\"mcp:tools mcp:admin\", resource_metadata="));
        let malformed = Refusal::Malformed("two headers".into()).challenge(&to(&base));
        assert!(!malformed.unwrap().contains("scope="));
        assert_eq!(
            Refusal::Unavailable("down".into()).challenge(&to(&base)),
            None
        );
    }

    #[test]
    fn responses() {
        let response = Refusal::Missing.response(&to(&[]));
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
        let response = Refusal::Insufficient(vec!["a".into()]).response(&to(&[]));
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            Refusal::Unavailable("down".into()).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
