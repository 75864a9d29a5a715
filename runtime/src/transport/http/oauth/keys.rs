//! The authorization server's signing keys (its JWKS), as a JWT verifier needs them: found
//! through its metadata, cached as long as it says (ten minutes when it does not), fetched
//! again when a token names a key not among them (at most once per floor), one fetch at a
//! time however many requests wait for it, and each fetch to its end even when the request
//! that began it is dropped.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{AlgorithmFamily, DecodingKey};
use serde_json::Value;
use tokio::sync::OwnedMutexGuard;
use tracing::Instrument;

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
    pub(crate) source: Source,
    state: Arc<RwLock<Arc<State>>>,
    fetching: Arc<tokio::sync::Mutex<()>>,
}

/// Where the keys come from and how often they may be asked for: what a fetch, a task of its
/// own, takes a copy of.
#[derive(Clone)]
pub(crate) struct Source {
    pub(crate) issuer: String,
    pub(crate) jwks_uri: Option<String>,
    pub(crate) floor: Duration,
    client: reqwest::Client,
}

/// What the cache holds: the keys, when they were last asked for and last read, until when
/// they are fresh, and why the last fetch failed if it did.
#[derive(Default)]
struct State {
    keys: Vec<Arc<Key>>,
    /// Which set of keys this is: it changes whenever the keys may have (each fetch that read
    /// them, and one that failed and dropped them), so that what was checked against the keys
    /// before (the verifier's answers) is checked again.
    generation: u64,
    asked: Option<Instant>,
    /// When the keys were last read.
    fetched: Option<Instant>,
    fresh_until: Option<Instant>,
    jwks_uri: Option<String>,
    failure: Option<TokenError>,
}

impl State {
    /// The key named `kid` of the `family` a token's algorithm needs: a JWKS may give one
    /// `kid` to keys of different types (RFC 7517 §4.5). A token that names no key can only
    /// mean the one key of that family there is.
    fn find(&self, kid: Option<&str>, family: AlgorithmFamily) -> Option<Arc<Key>> {
        let mut fitting = self.keys.iter().filter(|k| k.key.family() == family);
        match kid {
            Some(kid) => fitting.find(|k| k.kid.as_deref() == Some(kid)).cloned(),
            None => match (fitting.next(), fitting.next()) {
                (Some(only), None) => Some(Arc::clone(only)),
                _ => None,
            },
        }
    }
}

impl Keys {
    pub(crate) fn new(issuer: String) -> Keys {
        Keys {
            source: Source {
                issuer,
                jwks_uri: None,
                floor: Duration::from_secs(30),
                client: fetch::client(),
            },
            state: Arc::default(),
            fetching: Arc::default(),
        }
    }

    fn current(&self) -> Arc<State> {
        Arc::clone(&self.state.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// The generation of the keys held (see `State::generation`), and whether they are fresh:
    /// what was checked against keys that are no longer fresh is checked again, and so fetches
    /// them again, as it would with no answers kept.
    pub(crate) fn generation(&self) -> (u64, bool) {
        let state = self.current();
        let fresh = state
            .fresh_until
            .is_some_and(|until| Instant::now() < until);
        (state.generation, fresh)
    }

    /// The key `kid` names, of the `family` of the token's algorithm (the only such key, for
    /// a token that names none), with the generation of the keys it is one of.
    ///
    /// Keys past their freshness are fetched again by one request, which waits for them;
    /// requests meanwhile use the keys there are. A token naming a key not among them causes a
    /// fetch, unless one was made less than the floor ago.
    pub(crate) async fn key(
        &self,
        kid: Option<&str>,
        family: AlgorithmFamily,
    ) -> Result<(Arc<Key>, u64), TokenError> {
        let state = self.current();
        let now = Instant::now();
        let fresh = state.fresh_until.is_some_and(|until| now < until);
        let known = state.find(kid, family);
        let fetching = Arc::clone(&self.fetching);
        let state = match (fresh, known) {
            (true, Some(key)) => return Ok((key, state.generation)),
            (false, Some(key)) => match fetching.try_lock_owned() {
                Ok(one_at_a_time) => self.fetch(state.asked, one_at_a_time).await,
                Err(_) => return Ok((key, state.generation)),
            },
            (true, None) if !self.may_ask(&state, now) => state,
            _ => self.fetch(state.asked, fetching.lock_owned().await).await,
        };
        if let Some(key) = state.find(kid, family) {
            return Ok((key, state.generation));
        }
        match &state.failure {
            Some(failure) if state.keys.is_empty() => Err(failure.clone()),
            _ => Err(TokenError::invalid(
                "the token was signed with a key the authorization server does not publish",
            )),
        }
    }

    fn may_ask(&self, state: &State, now: Instant) -> bool {
        state.asked.is_none_or(|asked| {
            (asked.checked_add(self.source.floor)).is_none_or(|next| now >= next)
        })
    }

    /// Asks the server for its keys, unless someone else did since `seen`; what the cache
    /// then holds.
    ///
    /// The fetch is a task of its own, which holds `one_at_a_time` until it has recorded what
    /// it found: should the request waiting for it be dropped (its client gone), the fetch
    /// still ends and counts against the floor, and the requests waiting their turn find its
    /// keys instead of each beginning a fetch of their own.
    async fn fetch(&self, seen: Option<Instant>, one_at_a_time: OwnedMutexGuard<()>) -> Arc<State> {
        let state = self.current();
        if state.asked != seen {
            return state;
        }
        let source = self.source.clone();
        let cache = Arc::clone(&self.state);
        let task = tokio::spawn(
            async move {
                let next = Arc::new(source.run(&state).await);
                *cache.write().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&next);
                drop(one_at_a_time);
                next
            }
            .in_current_span(),
        );
        // A fetch that panicked changed nothing.
        task.await.unwrap_or_else(|_| self.current())
    }
}

impl Source {
    /// What the cache holds after `state` once the keys were read. A failed fetch keeps the
    /// keys there were, for the floor, and for no longer than the most they may be kept since
    /// they were last fetched; the next fetch finds the server's metadata again.
    async fn run(&self, state: &State) -> State {
        let now = Instant::now();
        match self.read(state.jwks_uri.as_deref()).await {
            Ok((keys, jwks_uri, max_age)) => {
                let keep = max_age.unwrap_or(DEFAULT_FRESHNESS);
                State {
                    keys,
                    generation: state.generation + 1,
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
                    generation: state.generation + u64::from(!usable),
                    asked: Some(now),
                    fetched: state.fetched,
                    fresh_until: now.checked_add(self.floor),
                    jwks_uri: None,
                    failure: Some(failure),
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn key(kid: &str, key: DecodingKey) -> Arc<Key> {
        let kid = Some(kid.to_owned());
        Arc::new(Key {
            kid,
            alg: None,
            key,
        })
    }

    #[test]
    fn a_kid_names_the_key_of_the_family_the_algorithm_needs() {
        let rsa = || DecodingKey::from_rsa_components("AQAB", "AQAB").unwrap();
        let ec = || DecodingKey::from_ec_components("AQAB", "AQAB").unwrap();
        let state = State {
            keys: vec![key("k1", rsa()), key("k1", ec()), key("k2", rsa())],
            ..State::default()
        };
        let found = |kid, family| state.find(kid, family).map(|k| k.key.family());
        assert_eq!(
            found(Some("k1"), AlgorithmFamily::Ec),
            Some(AlgorithmFamily::Ec)
        );
        assert_eq!(
            found(Some("k1"), AlgorithmFamily::Rsa),
            Some(AlgorithmFamily::Rsa)
        );
        assert_eq!(found(Some("k2"), AlgorithmFamily::Ec), None);
        // No kid: the one key of the family, if there is only one.
        assert_eq!(found(None, AlgorithmFamily::Ec), Some(AlgorithmFamily::Ec));
        assert_eq!(found(None, AlgorithmFamily::Rsa), None);
        assert_eq!(found(None, AlgorithmFamily::Ed), None);
    }

    #[test]
    fn a_fetch_its_request_gave_up_on_still_ends_and_counts_against_the_floor() {
        // An authorization server that answers 503, once the test lets it.
        let slow = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = slow.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&connections);
        let (release, released) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            for mut stream in slow.incoming().flatten() {
                counted.fetch_add(1, Ordering::SeqCst);
                let _ = stream.read(&mut [0; 4096]);
                let _ = released.recv();
                let refusal = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n";
                let _ = stream.write_all(refusal.as_bytes());
            }
        });
        let mut keys = Keys::new("http://127.0.0.1".to_owned());
        keys.source.jwks_uri = Some(format!("http://{address}/jwks"));
        keys.source.floor = Duration::from_secs(3600);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            // Tokens naming keys nobody knows, each request dropped soon after (its client
            // gone): the first fetch goes on, and the others wait for it rather than begin
            // their own.
            for n in 0..5 {
                let kid = format!("random-{n}");
                let asked = keys.key(Some(&kid), AlgorithmFamily::Rsa);
                let dropped = tokio::time::timeout(Duration::from_millis(30), asked).await;
                assert!(dropped.is_err(), "the server does not answer yet");
            }
            release.send(()).unwrap();
            let mut waited = Duration::ZERO;
            while keys.current().asked.is_none() {
                assert!(waited < Duration::from_secs(10), "the fetch never ended");
                tokio::time::sleep(Duration::from_millis(10)).await;
                waited += Duration::from_millis(10);
            }
            // The fetch ended (in failure) with nobody waiting, and counts: within the floor,
            // another unknown key is refused without asking again.
            let refused = keys.key(Some("random-5"), AlgorithmFamily::Rsa).await.err();
            assert!(
                matches!(refused, Some(TokenError::Unavailable(_))),
                "{refused:?}"
            );
        });
        assert_eq!(connections.load(Ordering::SeqCst), 1);
    }
}
