//! [`Introspection`]: opaque tokens the authorization server describes (RFC 7662).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::call::auth::Auth;
use crate::transport::http::oauth::claims;
use crate::transport::http::oauth::fetch;
use crate::transport::http::oauth::resource::check_audience;
use crate::transport::http::oauth::verifier::{TokenError, TokenVerifier};

/// The most answers kept at once; beyond it, the expired ones go, then the oldest.
const MAX_CACHED: usize = 10_000;

/// Checks opaque tokens by asking the authorization server (RFC 7662), authenticated as a
/// client of it with HTTP Basic. An active token must have been issued for this server (its
/// `aud`), by `issuer` (its `iss`, when it says), and be valid now.
///
/// An answer is kept for the token's lifetime, and at most [`cache_for`](Introspection::cache_for)
/// (a minute by default): a revoked token is refused within that time. A refusal is kept as
/// long. The cache is keyed by
/// the token's SHA-256; the token itself is not kept.
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
    cache: Mutex<HashMap<[u8; 32], (Answer, Instant)>>,
}

/// What the authorization server said of a token: its caller, or why it is not valid.
type Answer = Result<Auth, String>;

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
            cache: Mutex::default(),
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
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(answer) = self.cached(&digest) {
            return answer.map_err(TokenError::Invalid);
        }
        match self.ask(token, resource).await {
            Ok((caller, lifetime)) => {
                let keep = lifetime.map_or(self.cache_for, |l| l.min(self.cache_for));
                self.keep(digest, Ok(caller.clone()), keep);
                Ok(caller)
            }
            Err(TokenError::Invalid(reason)) => {
                self.keep(digest, Err(reason.clone()), self.cache_for);
                Err(TokenError::Invalid(reason))
            }
            Err(unavailable) => Err(unavailable),
        }
    }

    /// What the authorization server says of `token`, and how long that holds.
    async fn ask(
        &self,
        token: &str,
        resource: &str,
    ) -> Result<(Auth, Option<Duration>), TokenError> {
        let endpoint = self
            .found_endpoint
            .get_or_try_init(|| self.find_endpoint())
            .await?;
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
        let lifetime = number("exp").map(|exp| Duration::from_secs(exp.saturating_sub(now)));
        let caller = claims::caller(answer).map_err(TokenError::Invalid)?;
        Ok((caller, lifetime))
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

    fn cached(&self, digest: &[u8; 32]) -> Option<Answer> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let (answer, until) = cache.get(digest)?;
        (Instant::now() < *until).then(|| answer.clone())
    }

    fn keep(&self, digest: [u8; 32], answer: Answer, time: Duration) {
        let Some(until) = Instant::now().checked_add(time).filter(|_| !time.is_zero()) else {
            return;
        };
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if cache.len() >= MAX_CACHED {
            cache.retain(|_, (_, until)| *until > now);
        }
        if cache.len() >= MAX_CACHED {
            let oldest = cache
                .iter()
                .min_by_key(|(_, (_, until))| *until)
                .map(|(k, _)| *k);
            if let Some(oldest) = oldest {
                cache.remove(&oldest);
            }
        }
        cache.insert(digest, (answer, until));
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
