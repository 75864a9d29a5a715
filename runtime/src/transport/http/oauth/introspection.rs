//! [`Introspection`]: opaque tokens the authorization server describes (RFC 7662).

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::call::auth::Auth;
use crate::transport::http::oauth::cache::{self, Answers};
use crate::transport::http::oauth::claims;
use crate::transport::http::oauth::fetch;
use crate::transport::http::oauth::resource::check_audience;
use crate::transport::http::oauth::verifier::{TokenError, TokenVerifier};

/// How long a failure to find the introspection endpoint is the answer, before the next
/// request looks again.
const RETRY_DISCOVERY: Duration = Duration::from_secs(10);

/// Checks opaque tokens by asking the authorization server (RFC 7662), authenticated as a
/// client of it with HTTP Basic. An active token must have been issued for this server (its
/// `aud`), by `issuer` (its `iss`, when it says), and be valid now.
///
/// An answer is kept for the token's lifetime, and at most [`cache_for`](Introspection::cache_for)
/// (a minute by default): a revoked token is refused within that time. A refusal is kept as
/// long. The cache is keyed by the SHA-256 of the token and the resource it was presented
/// to; the token itself is not kept.
///
/// ```
/// use std::time::Duration;
/// use toolwright_runtime::oauth::Introspection;
///
/// let tokens = Introspection::new("https://auth.example.com", "mcp-server", "its-secret")
///     .cache_for(Duration::from_secs(30));
/// ```
pub struct Introspection {
    issuer: String,
    endpoint: Option<String>,
    client_id: String,
    client_secret: String,
    cache_for: Duration,
    client: reqwest::Client,
    found_endpoint: tokio::sync::OnceCell<String>,
    /// Held by the one request looking for the endpoint, with the last failure to find it.
    discovery: tokio::sync::Mutex<Option<(TokenError, Instant)>>,
    answers: Answers,
}

impl Introspection {
    /// Asks `issuer`'s introspection endpoint (from its metadata), as the client `client_id`.
    pub fn new(
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Introspection {
        Introspection {
            issuer: issuer.into(),
            endpoint: None,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            cache_for: Duration::from_secs(60),
            client: fetch::client(),
            found_endpoint: tokio::sync::OnceCell::new(),
            discovery: tokio::sync::Mutex::default(),
            answers: Answers::default(),
        }
    }

    /// Asks `url` rather than the endpoint the issuer's metadata names.
    pub fn endpoint(mut self, url: impl Into<String>) -> Introspection {
        self.endpoint = Some(url.into());
        self
    }

    /// The longest an answer is kept (zero: never kept, every request asks), at most a day.
    /// A refusal is kept as long: a token that is not valid does not become valid, and
    /// made-up tokens then cost the authorization server one question each, not one per
    /// request.
    pub fn cache_for(mut self, time: Duration) -> Introspection {
        self.cache_for = time.min(Duration::from_secs(24 * 3600));
        self
    }

    async fn check(&self, token: &str, resource: &str) -> Result<Auth, TokenError> {
        let digest = cache::digest(resource, token);
        if let Some(answer) = self.answers.get(&digest, 0) {
            return answer.map_err(TokenError::Invalid);
        }
        match self.ask(token, resource).await {
            Ok(caller) => {
                let expires = cache::time_of(caller.claim("exp"));
                let kept = Ok(caller.clone());
                self.answers.keep(digest, kept, self.cache_for, expires, 0);
                Ok(caller)
            }
            Err(TokenError::Invalid(reason)) => {
                let kept = Err(reason.clone());
                self.answers.keep(digest, kept, self.cache_for, None, 0);
                Err(TokenError::Invalid(reason))
            }
            Err(unavailable) => Err(unavailable),
        }
    }

    /// What the authorization server says of `token`.
    async fn ask(&self, token: &str, resource: &str) -> Result<Auth, TokenError> {
        let endpoint = self.introspection_endpoint().await?;
        let what = "the authorization server's introspection";
        let response = self
            .client
            .post(endpoint)
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .header(reqwest::header::ACCEPT, "application/json")
            .form(&[("token", token), ("token_type_hint", "access_token")])
            .send()
            .await
            .map_err(|e| fetch::unavailable(what, &e))?;
        let status = response.status();
        if status == reqwest::StatusCode::BAD_REQUEST {
            // `unsupported_token_type` and the like: a token it does not know how to describe.
            return Err(TokenError::invalid(
                "the authorization server does not know the token",
            ));
        }
        if !status.is_success() {
            let status = status.as_u16();
            return Err(TokenError::unavailable(format!("{what} answered {status}")));
        }
        let (mut answer, _) = fetch::object(response, what).await?;
        if answer.remove("active") != Some(Value::Bool(true)) {
            return Err(TokenError::invalid(
                "the token is not active (expired, revoked or unknown)",
            ));
        }
        let token_type = answer.get("token_type").and_then(Value::as_str);
        if token_type.is_some_and(|t| !t.eq_ignore_ascii_case("bearer")) {
            return Err(TokenError::invalid(
                "the token is not a bearer access token (its `token_type`)",
            ));
        }
        claims::bearer_only(&answer).map_err(TokenError::Invalid)?;
        let now = now();
        let number = |name: &str| answer.get(name).and_then(Value::as_u64);
        if number("exp").is_some_and(|exp| exp <= now) {
            return Err(TokenError::invalid("the token expired"));
        }
        if number("nbf").is_some_and(|nbf| nbf > now) {
            return Err(TokenError::invalid("the token is not valid yet (`nbf`)"));
        }
        if answer
            .get("iss")
            .is_some_and(|iss| iss.as_str() != Some(&self.issuer))
        {
            return Err(TokenError::invalid(
                "the token was issued by another authorization server",
            ));
        }
        check_audience(&answer, resource).map_err(TokenError::invalid)?;
        claims::caller(answer).map_err(TokenError::Invalid)
    }

    /// The introspection endpoint: configured, or found in the issuer's metadata by one
    /// request while the others wait for it. A failure to find it is the answer for a few
    /// seconds, so that while the authorization server is down each request does not, in its
    /// turn, wait for its own attempt.
    async fn introspection_endpoint(&self) -> Result<&String, TokenError> {
        if let Some(endpoint) = self.found_endpoint.get() {
            return Ok(endpoint);
        }
        let mut failed = self.discovery.lock().await;
        if let Some(endpoint) = self.found_endpoint.get() {
            return Ok(endpoint);
        }
        if let Some((failure, at)) = failed.as_ref()
            && at.elapsed() < RETRY_DISCOVERY
        {
            return Err(failure.clone());
        }
        match self.find_endpoint().await {
            Ok(endpoint) => {
                *failed = None;
                Ok(self.found_endpoint.get_or_init(|| async { endpoint }).await)
            }
            Err(failure) => {
                *failed = Some((failure.clone(), Instant::now()));
                Err(failure)
            }
        }
    }

    async fn find_endpoint(&self) -> Result<String, TokenError> {
        if let Some(endpoint) = &self.endpoint {
            return Ok(endpoint.clone());
        }
        let metadata = fetch::metadata(&self.client, &self.issuer).await?;
        match metadata
            .get("introspection_endpoint")
            .and_then(Value::as_str)
        {
            Some(endpoint) => Ok(endpoint.to_owned()),
            None => Err(TokenError::unavailable(
                "the authorization server's metadata has no `introspection_endpoint`",
            )),
        }
    }
}

impl TokenVerifier for Introspection {
    fn issuer(&self) -> &str {
        &self.issuer
    }

    fn verify<'a>(
        &'a self,
        token: &'a str,
        resource: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Auth, TokenError>> + Send + 'a>> {
        Box::pin(self.check(token, resource))
    }
}

/// Seconds since the Unix epoch.
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io::{Read, Write};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// An authorization server that answers every request 503, and counts them.
    fn down() -> (String, Arc<AtomicUsize>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let asked = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&asked);
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                counted.fetch_add(1, Ordering::SeqCst);
                let _ = stream.read(&mut [0; 4096]);
                let refusal = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                let _ = stream.write_all(refusal.as_bytes());
            }
        });
        (issuer, asked)
    }

    #[test]
    fn a_failure_to_find_the_endpoint_is_the_answer_for_a_while() {
        let (issuer, asked) = down();
        let tokens = Introspection::new(issuer, "rs", "secret");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let check = |token: &str| runtime.block_on(tokens.check(token, "http://mcp.test/mcp"));
        assert!(matches!(check("one"), Err(TokenError::Unavailable(_))));
        let looked = asked.load(Ordering::SeqCst);
        assert!(looked > 0);
        for token in ["two", "three", "four"] {
            assert!(matches!(check(token), Err(TokenError::Unavailable(_))));
        }
        assert_eq!(asked.load(Ordering::SeqCst), looked, "not asked again yet");
    }
}
