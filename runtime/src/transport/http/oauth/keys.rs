//! The authorization server's signing keys (its JWKS), as a JWT verifier needs them: found
//! through its metadata, cached as long as it says (ten minutes when it does not), fetched
//! again when a token names a key not among them (at most once per floor), one fetch at a
//! time however many requests wait for it.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::Jwk;
use serde_json::Value;
use tokio::sync::MutexGuard;

use crate::transport::http::oauth::fetch;
use crate::transport::http::oauth::verifier::TokenError;

/// How long keys are kept when the server does not say.
const DEFAULT_FRESHNESS: Duration = Duration::from_secs(600);
/// The longest keys are kept, whatever the server says, and the longest they are still used
/// while the server cannot be reached.
const MAX_FRESHNESS: Duration = Duration::from_secs(24 * 3600);

/// A signing key of the authorization server.
pub(crate) struct Key {
    pub(crate) kid: Option<String>,
    /// The algorithm the key is for, if its JWK says.
    pub(crate) alg: Option<String>,
    pub(crate) key: DecodingKey,
}

pub(crate) struct Keys {
    pub(crate) issuer: String,
    pub(crate) jwks_uri: Option<String>,
    pub(crate) floor: Duration,
    client: reqwest::Client,
    state: RwLock<Arc<State>>,
    fetching: tokio::sync::Mutex<()>,
}

/// What the cache holds: the keys, when they were last asked for and last read, until when
/// they are fresh, and why the last fetch failed if it did.
#[derive(Default)]
struct State {
    keys: Vec<Arc<Key>>,
    asked: Option<Instant>,
    /// When the keys were last read.
    fetched: Option<Instant>,
    fresh_until: Option<Instant>,
    jwks_uri: Option<String>,
    failure: Option<TokenError>,
}

impl State {
    fn find(&self, kid: Option<&str>) -> Option<Arc<Key>> {
        match kid {
            Some(kid) => self
                .keys
                .iter()
                .find(|k| k.kid.as_deref() == Some(kid))
                .cloned(),
            // A token that names no key can only mean the one key there is.
            None => match self.keys.as_slice() {
                [only] => Some(Arc::clone(only)),
                _ => None,
            },
        }
    }
}

impl Keys {
    pub(crate) fn new(issuer: String) -> Keys {
        Keys {
            issuer,
            jwks_uri: None,
            floor: Duration::from_secs(30),
            client: fetch::client(),
            state: RwLock::default(),
            fetching: tokio::sync::Mutex::new(()),
        }
    }

    fn current(&self) -> Arc<State> {
        Arc::clone(&self.state.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// The key `kid` names (the only key, for a token that names none).
    ///
    /// Keys past their freshness are fetched again by one request, which waits for them;
    /// requests meanwhile use the keys there are. A token naming a key not among them causes a
    /// fetch, unless one was made less than the floor ago.
    pub(crate) async fn key(&self, kid: Option<&str>) -> Result<Arc<Key>, TokenError> {
        let state = self.current();
        let now = Instant::now();
        let fresh = state.fresh_until.is_some_and(|until| now < until);
        let known = state.find(kid);
        let state = match (fresh, known) {
            (true, Some(key)) => return Ok(key),
            (false, Some(key)) => match self.fetching.try_lock() {
                Ok(one_at_a_time) => self.fetch(state.asked, one_at_a_time).await,
                Err(_) => return Ok(key),
            },
            (true, None) if !self.may_ask(&state, now) => state,
            _ => self.fetch(state.asked, self.fetching.lock().await).await,
        };
        if let Some(key) = state.find(kid) {
            return Ok(key);
        }
        match &state.failure {
            Some(failure) if state.keys.is_empty() => Err(failure.clone()),
            _ => Err(TokenError::invalid(
                "the token was signed with a key the authorization server does not publish",
            )),
        }
    }

    fn may_ask(&self, state: &State, now: Instant) -> bool {
        state
            .asked
            .is_none_or(|asked| asked.checked_add(self.floor).is_none_or(|next| now >= next))
    }

    /// Asks the server for its keys, unless someone else did since `seen`; what the cache
    /// then holds. A failed fetch keeps the keys there were, for the floor, and for no longer
    /// than the most they may be kept since they were last fetched; the next fetch finds the
    /// server's metadata again.
    async fn fetch(&self, seen: Option<Instant>, _one_at_a_time: MutexGuard<'_, ()>) -> Arc<State> {
        let state = self.current();
        if state.asked != seen {
            return state;
        }
        let now = Instant::now();
        let next = match self.read(state.jwks_uri.as_deref()).await {
            Ok((keys, jwks_uri, max_age)) => {
                let keep = max_age.unwrap_or(DEFAULT_FRESHNESS);
                State {
                    keys,
                    asked: Some(now),
                    fetched: Some(now),
                    fresh_until: now.checked_add(keep.clamp(self.floor, MAX_FRESHNESS)),
                    jwks_uri: Some(jwks_uri),
                    failure: None,
                }
            }
            Err(failure) => {
                tracing::warn!(issuer = %self.issuer, %failure, "the signing keys could not be fetched");
                let usable = state
                    .fetched
                    .is_some_and(|fetched| now.duration_since(fetched) < MAX_FRESHNESS);
                State {
                    keys: if usable {
                        state.keys.clone()
                    } else {
                        Vec::new()
                    },
                    asked: Some(now),
                    fetched: state.fetched,
                    fresh_until: now.checked_add(self.floor),
                    jwks_uri: None,
                    failure: Some(failure),
                }
            }
        };
        let next = Arc::new(next);
        *self.state.write().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&next);
        next
    }

    /// The keys at the server's `jwks_uri` (configured, known, or found in its metadata).
    async fn read(
        &self,
        known: Option<&str>,
    ) -> Result<(Vec<Arc<Key>>, String, Option<Duration>), TokenError> {
        let jwks_uri = match self.jwks_uri.as_deref().or(known) {
            Some(uri) => uri.to_owned(),
            None => fetch::metadata(&self.client, &self.issuer)
                .await?
                .get("jwks_uri")
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    TokenError::unavailable("the authorization server's metadata has no `jwks_uri`")
                })?
                .to_owned(),
        };
        let (jwks, max_age) =
            fetch::get(&self.client, &jwks_uri, "the authorization server's keys").await?;
        let keys = match jwks.get("keys") {
            Some(Value::Array(keys)) => keys.iter().filter_map(key).map(Arc::new).collect(),
            _ => {
                return Err(TokenError::unavailable(
                    "the authorization server's keys are not a JWKS",
                ));
            }
        };
        Ok((keys, jwks_uri, max_age))
    }
}

/// A signing key of a JWKS; none for an encryption key or one of a kind not supported.
fn key(jwk: &Value) -> Option<Key> {
    if jwk
        .get("use")
        .and_then(Value::as_str)
        .is_some_and(|u| u != "sig")
    {
        return None;
    }
    let parsed: Jwk = serde_json::from_value(jwk.clone()).ok()?;
    Some(Key {
        kid: parsed.common.key_id.clone(),
        alg: jwk.get("alg").and_then(Value::as_str).map(str::to_owned),
        key: DecodingKey::from_jwk(&parsed).ok()?,
    })
}
