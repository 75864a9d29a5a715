//! [`Introspection`]: opaque tokens the authorization server describes (RFC 7662).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;
use tracing::Instrument;

use crate::call::auth::Auth;
use crate::transport::http::oauth::breaker::Breaker;
use crate::transport::http::oauth::cache::{self, Answers, Digest};
use crate::transport::http::oauth::claims;
use crate::transport::http::oauth::fetch;
use crate::transport::http::oauth::resource::check_audience;
use crate::transport::http::oauth::verifier::{TokenError, TokenVerifier};

/// Checks opaque tokens by asking the authorization server (RFC 7662), authenticated as a
/// client of it with HTTP Basic. An active token must have been issued for this server (its
/// `aud`), by `issuer` (its `iss`, when it says), and be valid now.
///
/// An answer is kept for the token's lifetime, and at most [`cache_for`](Introspection::cache_for)
/// (a minute by default): a revoked token is refused within that time. A refusal is kept as
/// long. The cache is keyed by the SHA-256 of the token and the resource it was presented
/// to; the token itself is not kept.
///
/// The authorization server is asked as little as the answers allow:
/// - one question at a time per token: requests presenting a token being asked about wait
///   for that question's answer;
/// - each question (and the search for the endpoint in the issuer's metadata, which questions
///   share) is a task of its own, which a client hanging up does not cancel: its answer is
///   kept for the next request;
/// - a circuit breaker: once a question failed (the server out of reach, too slow, answering
///   an error), requests that would ask it are answered 503 at once for
///   [`breaker`](Introspection::breaker) (ten seconds by default), so that an outage costs
///   one timeout rather than one per request; then one request asks, and its answer closes the
///   breaker or opens it again.
///
/// ```
/// use std::time::Duration;
/// use toolwright_runtime::oauth::Introspection;
///
/// let tokens = Introspection::new("https://auth.example.com", "mcp-server", "its-secret")
///     .cache_for(Duration::from_secs(30));
/// ```
pub struct Introspection {
    source: Arc<Source>,
    state: Arc<State>,
}

/// Whom to ask and how: what each question, a task of its own, holds.
#[derive(Clone)]
struct Source {
    issuer: String,
    endpoint: Option<String>,
    client_id: String,
    client_secret: String,
    cache_for: Duration,
    open_for: Duration,
    client: reqwest::Client,
}

/// What the questions share: the endpoint once found, the answers, the questions under way
/// (each known by its token's digest, and heard through a channel its answer is sent on), and
/// the breaker.
struct State {
    found: Found,
    answers: Answers,
    asking: Mutex<HashMap<Digest, watch::Receiver<Option<Outcome>>>>,
    breaker: Breaker,
}

/// The introspection endpoint, found once.
type Found = tokio::sync::OnceCell<String>;

/// How a question ended.
type Outcome = Result<Auth, TokenError>;

impl Introspection {
    /// Asks `issuer`'s introspection endpoint (from its metadata), as the client `client_id`.
    pub fn new(
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Introspection {
        let source = Source {
            issuer: issuer.into(),
            endpoint: None,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            cache_for: Duration::from_secs(60),
            open_for: Duration::from_secs(10),
            client: fetch::client(),
        };
        Introspection {
            source: Arc::new(source),
            state: Arc::new(State {
                found: Found::new(),
                answers: Answers::default(),
                asking: Mutex::default(),
                breaker: Breaker::new(),
            }),
        }
    }

    fn source(&mut self) -> &mut Source {
        Arc::make_mut(&mut self.source)
    }

    /// Asks `url` rather than the endpoint the issuer's metadata names.
    pub fn endpoint(mut self, url: impl Into<String>) -> Introspection {
        self.source().endpoint = Some(url.into());
        self
    }

    /// The longest an answer is kept (zero: never kept, every request asks), at most a day.
    /// A refusal is kept as long: a token that is not valid does not become valid, and
    /// made-up tokens then cost the authorization server one question each, not one per
    /// request.
    pub fn cache_for(mut self, time: Duration) -> Introspection {
        self.source().cache_for = time.min(Duration::from_secs(24 * 3600));
        self
    }

    /// How long, once a question to the authorization server failed, requests that would ask
    /// it are answered 503 at once, before one is let through to try again (the circuit
    /// breaker's open time); ten seconds by default, at most ten minutes.
    pub fn breaker(mut self, open_for: Duration) -> Introspection {
        self.source().open_for = open_for.min(Duration::from_secs(600));
        self
    }

    async fn check(&self, token: &str, resource: &str) -> Result<Auth, TokenError> {
        let digest = cache::digest(resource, token);
        if let Some(answer) = self.state.answers.get(&digest, 0) {
            return answer.map_err(TokenError::Invalid);
        }
        let mut answered = {
            let mut asking = self.state.asking();
            // Looked at again under the lock: a question that ends keeps its answer before it
            // leaves `asking`.
            if let Some(answer) = self.state.answers.get(&digest, 0) {
                return answer.map_err(TokenError::Invalid);
            }
            match asking.get(&digest) {
                Some(under_way) => under_way.clone(),
                None => {
                    self.state.breaker.admit()?;
                    let (answer, answered) = watch::channel(None);
                    asking.insert(digest, answered.clone());
                    let question = Question {
                        source: Arc::clone(&self.source),
                        state: Arc::clone(&self.state),
                        digest,
                    };
                    let (token, resource) = (token.to_owned(), resource.to_owned());
                    let asked = async move { question.ask(&token, &resource, answer).await };
                    tokio::spawn(asked.in_current_span());
                    answered
                }
            }
        };
        let outcome = match answered.wait_for(Option::is_some).await {
            Ok(outcome) => outcome.clone(),
            Err(_) => None,
        };
        outcome.unwrap_or_else(|| {
            // The question's task ended without an answer (it panicked): the next request
            // asks again.
            let mut asking = self.state.asking();
            if asking
                .get(&digest)
                .is_some_and(|a| a.same_channel(&answered))
            {
                asking.remove(&digest);
            }
            Err(TokenError::unavailable(
                "the introspection ended without an answer",
            ))
        })
    }
}

impl State {
    fn asking(&self) -> MutexGuard<'_, HashMap<Digest, watch::Receiver<Option<Outcome>>>> {
        self.asking.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One question about a token, asked by a task of its own.
struct Question {
    source: Arc<Source>,
    state: Arc<State>,
    digest: Digest,
}

impl Question {
    /// Asks, records the answer (in the breaker, and in the cache before the question leaves
    /// `asking`), and sends it to the requests waiting for it.
    async fn ask(self, token: &str, resource: &str, answer: watch::Sender<Option<Outcome>>) {
        let (source, state) = (&*self.source, &*self.state);
        let outcome = source.ask(&state.found, token, resource).await;
        let failed = outcome.as_ref().map(|_| ());
        state.breaker.record(failed, source.open_for);
        {
            let mut asking = state.asking();
            let kept = match &outcome {
                Ok(caller) => Some((Ok(caller.clone()), claims::time_of(caller.claim("exp")))),
                Err(TokenError::Invalid(reason)) => Some((Err(reason.clone()), None)),
                Err(_) => None,
            };
            if let Some((kept, expires)) = kept {
                let time = source.cache_for;
                state.answers.keep(self.digest, kept, time, expires, 0);
            }
            asking.remove(&self.digest);
        }
        let _ = answer.send(Some(outcome));
    }
}

impl Source {
    /// What the authorization server says of `token`.
    async fn ask(&self, found: &Found, token: &str, resource: &str) -> Result<Auth, TokenError> {
        let endpoint = found.get_or_try_init(|| self.find_endpoint()).await?;
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

    /// The endpoint configured, or the one the issuer's metadata names.
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
        &self.source.issuer
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
    use std::sync::atomic::{AtomicUsize, Ordering};

    const RESOURCE: &str = "http://mcp.test/mcp";

    /// An authorization server the test controls, one connection at a time: it answers
    /// everything 503 while `down`, and otherwise its metadata (once the test sends on the
    /// returned channel, when `hold`) and an active token of `ada` for any token; it counts
    /// the requests, and those for each.
    struct Server {
        issuer: String,
        requests: Arc<AtomicUsize>,
        metadata: Arc<AtomicUsize>,
        questions: Arc<AtomicUsize>,
        down: Arc<std::sync::atomic::AtomicBool>,
    }

    fn server(hold: bool) -> (Server, std::sync::mpsc::Sender<()>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let (release, released) = std::sync::mpsc::channel::<()>();
        let server = Server {
            issuer: issuer.clone(),
            requests: Arc::default(),
            metadata: Arc::default(),
            questions: Arc::default(),
            down: Arc::default(),
        };
        let (metadata, questions) = (Arc::clone(&server.metadata), Arc::clone(&server.questions));
        let down = Arc::clone(&server.down);
        let requests = Arc::clone(&server.requests);
        std::thread::spawn(move || {
            let mut held = hold;
            for mut stream in listener.incoming().flatten() {
                requests.fetch_add(1, Ordering::SeqCst);
                let mut head = [0; 4096];
                let read = stream.read(&mut head).unwrap_or(0);
                let head = String::from_utf8_lossy(&head[..read]).into_owned();
                let path = head.split(' ').nth(1).unwrap_or_default().to_owned();
                let body = if down.load(Ordering::SeqCst) {
                    None
                } else if path.starts_with("/.well-known/oauth-authorization-server") {
                    metadata.fetch_add(1, Ordering::SeqCst);
                    if std::mem::take(&mut held) {
                        let _ = released.recv();
                    }
                    Some(serde_json::json!({"issuer": issuer,
                        "introspection_endpoint": format!("{issuer}/introspect")}))
                } else if path == "/introspect" {
                    questions.fetch_add(1, Ordering::SeqCst);
                    Some(serde_json::json!({"active": true, "sub": "ada", "aud": RESOURCE}))
                } else {
                    None
                };
                let response = match body {
                    Some(body) => format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                         content-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.to_string().len()
                    ),
                    None => "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\
                             connection: close\r\n\r\n"
                        .to_owned(),
                };
                let _ = stream.write_all(response.as_bytes());
            }
        });
        (server, release)
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    /// Waits until `count` reaches `n`.
    async fn reaches(count: &AtomicUsize, n: usize) {
        let start = std::time::Instant::now();
        while count.load(Ordering::SeqCst) < n {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "never reached {n}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[test]
    fn a_failure_opens_the_breaker_until_one_request_tries_again() {
        let (server, _) = server(false);
        server.down.store(true, Ordering::SeqCst);
        let open_for = Duration::from_millis(200);
        let tokens = Introspection::new(&server.issuer, "rs", "secret").breaker(open_for);
        let runtime = runtime();
        let check = |token: &str| runtime.block_on(tokens.check(token, RESOURCE));
        let requests = || server.requests.load(Ordering::SeqCst);
        assert!(matches!(check("one"), Err(TokenError::Unavailable(_))));
        let tried = requests();
        assert!(tried > 0);
        for token in ["two", "three", "four"] {
            assert!(matches!(check(token), Err(TokenError::Unavailable(_))));
        }
        assert_eq!(requests(), tried, "not asked again while open");
        // Half open: one request tries, and the server, back, answers it.
        std::thread::sleep(open_for);
        server.down.store(false, Ordering::SeqCst);
        assert!(check("five").is_ok());
        assert!(check("six").is_ok());
        assert_eq!(
            requests(),
            tried + 3,
            "the metadata, then a question for each"
        );
    }

    #[test]
    fn questions_whose_requests_were_dropped_go_on_and_share_one_search_for_the_endpoint() {
        let (server, release) = server(true);
        let tokens = Introspection::new(&server.issuer, "rs", "secret");
        runtime().block_on(async {
            // Requests whose clients hang up while the endpoint is being looked for.
            for n in 0..5 {
                let token = format!("token-{n}");
                let asked = tokens.check(&token, RESOURCE);
                let dropped = tokio::time::timeout(Duration::from_millis(30), asked).await;
                assert!(dropped.is_err(), "the server does not answer yet");
            }
            release.send(()).unwrap();
            reaches(&server.questions, 5).await;
            assert_eq!(server.metadata.load(Ordering::SeqCst), 1);
            // Their answers are kept for the next request.
            let mut kept = false;
            for _ in 0..100 {
                if tokens
                    .state
                    .answers
                    .get(&cache::digest(RESOURCE, "token-0"), 0)
                    .is_some()
                {
                    kept = true;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            assert!(kept);
            assert!(tokens.check("token-0", RESOURCE).await.is_ok());
            assert_eq!(server.questions.load(Ordering::SeqCst), 5);
        });
    }

    #[test]
    fn requests_presenting_one_token_at_once_share_one_question() {
        let (server, release) = server(true);
        let tokens = Arc::new(Introspection::new(&server.issuer, "rs", "secret"));
        runtime().block_on(async {
            let waiting: Vec<_> = (0..8)
                .map(|_| {
                    let tokens = Arc::clone(&tokens);
                    tokio::spawn(async move { tokens.check("shared", RESOURCE).await })
                })
                .collect();
            reaches(&server.metadata, 1).await;
            tokio::time::sleep(Duration::from_millis(50)).await;
            release.send(()).unwrap();
            for answer in waiting {
                assert_eq!(
                    answer.await.unwrap().map(|a| a.subject().to_owned()),
                    Ok("ada".into())
                );
            }
            assert_eq!(server.questions.load(Ordering::SeqCst), 1);
        });
    }
}
