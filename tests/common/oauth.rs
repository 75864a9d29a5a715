//! An authorization server for tests, on a free loopback port: its metadata, a JWKS the test
//! chooses (and counts fetches of), and introspection answers the test chooses; and access
//! tokens signed with the fixture keys (`tests/fixtures/oauth`: `k1` and `k2`, which it may
//! publish, and `stranger`, which it never does).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jsonwebtoken::{EncodingKey, Header};
use serde_json::{Value, json};

/// The resource the tests' servers protect, as their tokens name it.
pub const RESOURCE: &str = "http://mcp.test/mcp";
/// The client the resource server introspects as (`Basic` of `rs:rs-secret`).
pub const INTROSPECTOR: (&str, &str) = ("rs", "rs-secret");

#[derive(Default)]
struct Published {
    kids: Vec<String>,
    jwks_fetches: usize,
    introspections: usize,
    answers: HashMap<String, Value>,
    /// Introspection answers 503 (counted still).
    failing: bool,
    /// While held, introspection answers wait (counted when they arrive).
    held: Option<tokio::sync::watch::Receiver<bool>>,
    release: Option<tokio::sync::watch::Sender<bool>>,
}

pub struct FakeAs {
    pub issuer: String,
    published: Arc<Mutex<Published>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl FakeAs {
    /// Serving `k1`.
    pub fn start() -> FakeAs {
        let published = Arc::new(Mutex::new(Published {
            kids: vec!["k1".into()],
            ..Published::default()
        }));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let issuer = format!("http://{addr}");
        let metadata = json!({
            "issuer": issuer,
            "jwks_uri": format!("{issuer}/jwks"),
            "introspection_endpoint": format!("{issuer}/introspect"),
        });
        let app = Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                get(move || async move { axum::Json(metadata) }),
            )
            .route("/jwks", get(jwks))
            .route("/introspect", post(introspect))
            .with_state(Arc::clone(&published));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
            })
        });
        FakeAs {
            issuer,
            published,
            stop: Some(stop),
        }
    }

    fn published(&self) -> std::sync::MutexGuard<'_, Published> {
        self.published.lock().unwrap()
    }

    /// Publishes these keys, in this order, from now on.
    pub fn publish(&self, kids: &[&str]) {
        self.published().kids = kids.iter().map(|k| (*k).to_owned()).collect();
    }

    /// How many times the JWKS was fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.published().jwks_fetches
    }

    /// How many introspections were asked.
    pub fn introspections(&self) -> usize {
        self.published().introspections
    }

    /// Introspection answers 503 from now on (`true`), or answers again.
    pub fn fail_introspection(&self, failing: bool) {
        self.published().failing = failing;
    }

    /// Introspection answers wait until [`FakeAs::release`].
    pub fn hold(&self) {
        let (release, held) = tokio::sync::watch::channel(false);
        let mut published = self.published();
        published.held = Some(held);
        published.release = Some(release);
    }

    /// Introspection answers go out, the held ones first.
    pub fn release(&self) {
        let mut published = self.published();
        published.held = None;
        if let Some(release) = published.release.take() {
            let _ = release.send(true);
        }
    }

    /// What introspection says of `token` from now on (`{"active": false}` for one it does not
    /// know).
    pub fn describe(&self, token: &str, answer: Value) {
        self.published().answers.insert(token.to_owned(), answer);
    }

    /// A valid token of this server for [`RESOURCE`], for `sub`, with `scope`, signed by `k1`.
    pub fn token(&self, sub: &str, scope: &str) -> String {
        sign("k1", &self.claims(sub, scope))
    }

    /// The claims of a valid token, to change before signing.
    pub fn claims(&self, sub: &str, scope: &str) -> Value {
        let now = now();
        json!({
            "iss": self.issuer, "aud": RESOURCE, "sub": sub, "client_id": "app",
            "scope": scope, "iat": now, "exp": now + 300, "jti": format!("{sub}-{now}"),
        })
    }
}

impl Drop for FakeAs {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn jwks(State(published): State<Arc<Mutex<Published>>>) -> axum::Json<Value> {
    let mut published = published.lock().unwrap();
    published.jwks_fetches += 1;
    let keys: Vec<Value> = published.kids.iter().map(|kid| public_key(kid)).collect();
    axum::Json(json!({ "keys": keys }))
}

async fn introspect(
    State(published): State<Arc<Mutex<Published>>>,
    headers: HeaderMap,
    body: String,
) -> Response {
    use base64::Engine as _;
    let basic = base64::engine::general_purpose::STANDARD
        .encode(format!("{}:{}", INTROSPECTOR.0, INTROSPECTOR.1));
    let authorized = headers
        .get("authorization")
        .is_some_and(|v| v.as_bytes() == format!("Basic {basic}").as_bytes());
    if !authorized {
        return (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"error": "invalid_client"})),
        )
            .into_response();
    }
    let token = body
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or_default();
    let held = {
        let mut published = published.lock().unwrap();
        published.introspections += 1;
        published.held.clone()
    };
    if let Some(mut held) = held {
        let _ = held.wait_for(|released| *released).await;
    }
    let published = published.lock().unwrap();
    if published.failing {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let answer = published.answers.get(token).cloned();
    axum::Json(answer.unwrap_or(json!({"active": false}))).into_response()
}

fn fixture(name: &str) -> String {
    let path = super::root().join("tests/fixtures/oauth").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The public JWK of fixture key `kid`.
pub fn public_key(kid: &str) -> Value {
    serde_json::from_str(&fixture(&format!("{kid}.jwk.json"))).unwrap()
}

/// `claims` signed RS256 by fixture key `kid`, with the header of an access token.
pub fn sign(kid: &str, claims: &Value) -> String {
    let mut header = Header::new(jsonwebtoken::Algorithm::RS256);
    header.typ = Some("at+jwt".into());
    header.kid = Some(kid.into());
    sign_with(header, kid, claims)
}

/// `claims` signed by fixture key `key` under `header`, whatever it says.
pub fn sign_with(header: Header, key: &str, claims: &Value) -> String {
    let key = EncodingKey::from_rsa_pem(fixture(&format!("{key}.pem")).as_bytes()).unwrap();
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

/// A token whose header and claims are these JSON objects, and whose signature is `signature`
/// (`alg: none` and its kind, which no library signs).
pub fn unsigned(header: &Value, claims: &Value, signature: &str) -> String {
    use base64::Engine as _;
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    format!("{}.{}.{signature}", b64(header), b64(claims))
}

pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}
