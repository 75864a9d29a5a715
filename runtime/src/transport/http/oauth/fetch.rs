//! Reading the authorization server: its metadata (RFC 8414, or OpenID Connect Discovery), and
//! JSON documents of bounded size, each within a time limit.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::transport::http::oauth::verifier::TokenError;

/// How long one request to the authorization server may take.
const TIMEOUT: Duration = Duration::from_secs(10);
/// The largest document read from it (a JWKS, metadata, an introspection response).
const MAX_DOCUMENT: usize = 1 << 20;

/// The HTTP client of the verifiers: redirects not followed (the issuer is configuration, and
/// so is everything fetched), proxies from the environment, the platform's certificates.
///
/// # Panics
///
/// When TLS cannot be set up at all, as the verifier is made: nothing could be checked.
pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .user_agent(concat!("toolwright/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("the HTTP client of the token checks could not be made (no TLS backend)")
}

/// A JSON object the response carries, with its `Cache-Control` `max-age` if it has one.
pub(crate) async fn object(
    response: reqwest::Response,
    what: &str,
) -> Result<(Map<String, Value>, Option<Duration>), TokenError> {
    let max_age = response
        .headers()
        .get(reqwest::header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .and_then(max_age);
    let mut response = response;
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| unavailable(what, &e))? {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_DOCUMENT {
            return Err(TokenError::unavailable(format!("{what} is over 1 MiB")));
        }
    }
    match serde_json::from_slice(&body) {
        Ok(Value::Object(object)) => Ok((object, max_age)),
        _ => Err(TokenError::unavailable(format!(
            "{what} is not a JSON object"
        ))),
    }
}

/// GETs `url`, a JSON object.
pub(crate) async fn get(
    client: &reqwest::Client,
    url: &str,
    what: &str,
) -> Result<(Map<String, Value>, Option<Duration>), TokenError> {
    let response = client
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| unavailable(what, &e))?;
    if !response.status().is_success() {
        let status = response.status().as_u16();
        return Err(TokenError::unavailable(format!("{what} answered {status}")));
    }
    object(response, what).await
}

/// The authorization server's metadata, from the URLs clients try, in their order: RFC 8414's
/// and OpenID Connect's, path-inserted for an issuer with a path, then OpenID Connect's
/// path-appended one. Its `issuer` must be `issuer` itself (RFC 8414 §3.3).
pub(crate) async fn metadata(
    client: &reqwest::Client,
    issuer: &str,
) -> Result<Map<String, Value>, TokenError> {
    let mut last = None;
    for url in metadata_urls(issuer) {
        match get(client, &url, "the authorization server's metadata").await {
            Ok((metadata, _)) => {
                let named = metadata.get("issuer").and_then(Value::as_str);
                if named != Some(issuer) {
                    return Err(TokenError::unavailable(format!(
                        "the metadata at {url} is for the issuer {named:?}, not {issuer}"
                    )));
                }
                return Ok(metadata);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| TokenError::unavailable("the issuer is not a URL")))
}

fn metadata_urls(issuer: &str) -> Vec<String> {
    let Some((scheme, rest)) = issuer.split_once("://") else {
        return Vec::new();
    };
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = path.trim_end_matches('/');
    let origin = format!("{scheme}://{host}");
    match path.is_empty() {
        true => vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ],
        false => vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ],
    }
}

/// `max-age` of a `Cache-Control` value (`no-store` and `no-cache` are none).
fn max_age(value: &str) -> Option<Duration> {
    let directives = value.split(',').map(str::trim);
    let mut age = None;
    for directive in directives {
        let lower = directive.to_ascii_lowercase();
        if lower == "no-store" || lower == "no-cache" {
            return Some(Duration::ZERO);
        }
        if let Some(seconds) = lower.strip_prefix("max-age=") {
            age = seconds
                .trim_matches('"')
                .parse()
                .ok()
                .map(Duration::from_secs);
        }
    }
    age
}

/// A failed request, without the URL's query (none of ours has one) or anything secret.
pub(crate) fn unavailable(what: &str, error: &reqwest::Error) -> TokenError {
    let why = match () {
        _ if error.is_timeout() => "took too long",
        _ if error.is_connect() => "could not be reached",
        _ => "could not be read",
    };
    TokenError::unavailable(format!("{what} {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_order() {
        assert_eq!(
            metadata_urls("https://as.example.com"),
            [
                "https://as.example.com/.well-known/oauth-authorization-server",
                "https://as.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("https://as.example.com/tenant1"),
            [
                "https://as.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://as.example.com/.well-known/openid-configuration/tenant1",
                "https://as.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn cache_control() {
        assert_eq!(
            max_age("public, max-age=600"),
            Some(Duration::from_secs(600))
        );
        assert_eq!(max_age("no-store"), Some(Duration::ZERO));
        assert_eq!(max_age("public"), None);
    }
}
