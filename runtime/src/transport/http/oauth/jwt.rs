//! [`Jwt`]: JWT access tokens (RFC 9068) checked against the authorization server's keys.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use base64::Engine as _;
use jsonwebtoken::Validation;
use jsonwebtoken::errors::ErrorKind;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::call::auth::Auth;
use crate::transport::http::oauth::cache::{self, Answers};
use crate::transport::http::oauth::claims;
use crate::transport::http::oauth::keys::Keys;
use crate::transport::http::oauth::resource::check_audience;
use crate::transport::http::oauth::verifier::{TokenError, TokenVerifier};

/// A signature algorithm a [`Jwt`] verifier may accept. Only asymmetric ones: a server that
/// accepted `HS256` could be handed a token "signed" with the public key; `none` is no
/// signature at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[allow(clippy::upper_case_acronyms)]
pub enum Algorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256, which every authorization server supports (RFC 9068 §2.1).
    RS256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RS384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RS512,
    /// RSASSA-PSS with SHA-256.
    PS256,
    /// RSASSA-PSS with SHA-384.
    PS384,
    /// RSASSA-PSS with SHA-512.
    PS512,
    /// ECDSA on P-256 with SHA-256.
    ES256,
    /// ECDSA on P-384 with SHA-384.
    ES384,
    /// Ed25519.
    EdDSA,
}

impl Algorithm {
    const ALL: [Algorithm; 9] = [
        Algorithm::RS256,
        Algorithm::RS384,
        Algorithm::RS512,
        Algorithm::PS256,
        Algorithm::PS384,
        Algorithm::PS512,
        Algorithm::ES256,
        Algorithm::ES384,
        Algorithm::EdDSA,
    ];

    /// Its name in a JWT's header.
    pub fn name(self) -> &'static str {
        self.jose_and_name().1
    }

    fn jose(self) -> jsonwebtoken::Algorithm {
        self.jose_and_name().0
    }

    fn jose_and_name(self) -> (jsonwebtoken::Algorithm, &'static str) {
        use jsonwebtoken::Algorithm as J;
        match self {
            Algorithm::RS256 => (J::RS256, "RS256"),
            Algorithm::RS384 => (J::RS384, "RS384"),
            Algorithm::RS512 => (J::RS512, "RS512"),
            Algorithm::PS256 => (J::PS256, "PS256"),
            Algorithm::PS384 => (J::PS384, "PS384"),
            Algorithm::PS512 => (J::PS512, "PS512"),
            Algorithm::ES256 => (J::ES256, "ES256"),
            Algorithm::ES384 => (J::ES384, "ES384"),
            Algorithm::EdDSA => (J::EdDSA, "EdDSA"),
        }
    }
}

/// Checks JWT access tokens (RFC 9068) issued by one authorization server: signed with one of
/// the keys it publishes (its JWKS, found through its metadata, cached, and fetched again when
/// a token names a key not yet seen, at most once per [`refetch_floor`](Jwt::refetch_floor)),
/// with an allowed algorithm, `typ` `at+jwt`, its `iss`, this server in its `aud`, and `exp`
/// and `nbf` that hold now within a leeway.
///
/// A token once checked is not checked again (its signature is most of what a checked request
/// costs) while the answer holds: an accepted token until its `exp` (not its `exp` plus the
/// leeway: past it, each request checks it again), a refused one for ten seconds (one that is
/// not valid *yet* is not kept), and either only while the keys it was checked against are
/// the keys held and still fresh. A key the authorization server withdraws therefore stops
/// being accepted when the keys are next read, as it would with nothing kept: within their
/// freshness (the JWKS's `max-age`, ten minutes when it gives none), or at once when a token
/// naming a new key has the keys read again. Answers are kept under the SHA-256 of the token
/// and the resource it was presented to, never the token itself, at most 10 000 at once.
///
/// ```
/// use std::time::Duration;
/// use toolwright_runtime::oauth::{Algorithm, Jwt};
///
/// let tokens = Jwt::new("https://auth.example.com")
///     .algorithms([Algorithm::RS256, Algorithm::ES256])
///     .leeway(Duration::from_secs(30));
/// ```
pub struct Jwt {
    keys: Keys,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    any_type: bool,
    answers: Answers,
}

/// How long a refusal is kept: a token refused stays refused (it expired, its signature does
/// not verify), but for a rotation's new key, which a new generation of keys lets in anyway.
const REFUSAL_KEPT: Duration = Duration::from_secs(10);
/// The longest an acceptance is kept, whatever its `exp`: keys are fresh no longer.
const ACCEPTANCE_KEPT: Duration = Duration::from_secs(24 * 3600);

/// Why a token was not accepted, and whether that may change before the cache would notice.
enum Refused {
    /// For good, or until the keys change.
    Kept(String),
    /// Not kept: what is found again at no cost (not a JWT), what may change in a moment (not
    /// valid yet, `nbf`), or a token not checked at all (the keys out of reach).
    Passing(TokenError),
}

impl Jwt {
    /// Tokens of the authorization server `issuer`, spelled exactly as its metadata and its
    /// tokens spell it (`https://auth.example.com`). By default: RS256, PS256, ES256 and
    /// EdDSA, a leeway of one minute, keys fetched again at most every 30 seconds.
    ///
    /// (A constructor like [`Introspection::new`](super::Introspection::new); the issuer a
    /// verifier accepts is [`TokenVerifier::issuer`].)
    pub fn new(issuer: impl Into<String>) -> Jwt {
        // A program that also links jsonwebtoken's other backend would otherwise have no
        // default, and every check would panic; a provider already installed stays.
        let _ = jsonwebtoken::crypto::aws_lc::DEFAULT_PROVIDER.install_default();
        Jwt {
            keys: Keys::new(issuer.into()),
            algorithms: vec![
                Algorithm::RS256,
                Algorithm::PS256,
                Algorithm::ES256,
                Algorithm::EdDSA,
            ],
            leeway: Duration::from_secs(60),
            any_type: false,
            answers: Answers::default(),
        }
    }

    /// Reads the keys at `url` rather than where the issuer's metadata says.
    pub fn jwks_uri(mut self, url: impl Into<String>) -> Jwt {
        self.keys.source.jwks_uri = Some(url.into());
        self
    }

    /// The algorithms accepted (none but these; none at all leaves the defaults).
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Jwt {
        let algorithms: Vec<Algorithm> = algorithms.into_iter().collect();
        if !algorithms.is_empty() {
            self.algorithms = algorithms;
        }
        self
    }

    /// How far clocks may disagree: a token is still accepted this long after its `exp`, and
    /// this long before its `nbf`. At most five minutes.
    pub fn leeway(mut self, leeway: Duration) -> Jwt {
        self.leeway = leeway.min(Duration::from_secs(300));
        self
    }

    /// The least time between two fetches of the keys that a token naming an unknown key
    /// causes: tokens made up with random `kid`s do not make the server hammer the
    /// authorization server. At most an hour.
    pub fn refetch_floor(mut self, floor: Duration) -> Jwt {
        self.keys.source.floor = floor.min(Duration::from_secs(3600));
        self
    }

    /// Accepts tokens whatever their `typ` header says. RFC 9068 has `at+jwt`, which tells an
    /// access token from an ID token; some authorization servers write `JWT`.
    pub fn accept_any_type(mut self) -> Jwt {
        self.any_type = true;
        self
    }

    async fn check(&self, token: &str, resource: &str) -> Result<Auth, TokenError> {
        let digest = cache::digest(resource, token);
        let (generation, fresh) = self.keys.generation();
        if fresh && let Some(answer) = self.answers.get(&digest, generation) {
            return answer.map_err(TokenError::Invalid);
        }
        match self.check_now(token, resource).await {
            Ok((caller, generation)) => {
                let expires = claims::time_of(caller.claim("exp"));
                let kept = Ok(caller.clone());
                self.answers
                    .keep(digest, kept, ACCEPTANCE_KEPT, expires, generation);
                Ok(caller)
            }
            Err(Refused::Kept(reason)) => {
                // Kept for the keys the check began with: should they have changed meanwhile
                // (a rotation's new key), the refusal is not used.
                let kept = Err(reason.clone());
                self.answers
                    .keep(digest, kept, REFUSAL_KEPT, None, generation);
                Err(TokenError::Invalid(reason))
            }
            Err(Refused::Passing(error)) => Err(error),
        }
    }

    /// The caller of `token`, and the generation of the keys its signature was checked with.
    async fn check_now(&self, token: &str, resource: &str) -> Result<(Auth, u64), Refused> {
        let refused = |reason: String| Refused::Kept(reason);
        let header = Header::of(token).map_err(Refused::Passing)?;
        let algorithm = Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == header.alg && self.algorithms.contains(a))
            .ok_or_else(|| {
                let alg = header
                    .alg
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .take(16);
                refused(format!(
                    "tokens signed with `{}` are not accepted",
                    alg.collect::<String>()
                ))
            })?;
        let typ = header.typ.as_deref().map(str::to_ascii_lowercase);
        if !self.any_type && !matches!(typ.as_deref(), Some("at+jwt" | "application/at+jwt")) {
            let why = "the token is not an access token (its `typ` is not `at+jwt`)";
            return Err(refused(why.into()));
        }
        let family = algorithm.jose().family();
        let (key, generation) = match self.keys.key(header.kid.as_deref(), family).await {
            Ok(found) => found,
            Err(TokenError::Invalid(reason)) => return Err(refused(reason)),
            Err(unavailable) => return Err(Refused::Passing(unavailable)),
        };
        if key
            .alg
            .as_deref()
            .is_some_and(|alg| alg != algorithm.name())
        {
            return Err(refused("the token's algorithm is not its key's".into()));
        }
        let mut validation = Validation::new(algorithm.jose());
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.validate_aud = false;
        validation.set_issuer(&[&self.keys.source.issuer]);
        validation.set_required_spec_claims(&["exp", "iss"]);
        let claims = match jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, &validation)
        {
            Ok(decoded) => decoded.claims,
            // It may be valid in a moment: not kept.
            Err(e) if matches!(e.kind(), ErrorKind::ImmatureSignature) => {
                return Err(Refused::Passing(TokenError::invalid(reason(e.kind()))));
            }
            Err(e) => return Err(refused(reason(e.kind()))),
        };
        check_audience(&claims, resource).map_err(|why| refused(why.into()))?;
        claims::bearer_only(&claims).map_err(refused)?;
        let caller = claims::caller(claims).map_err(refused)?;
        Ok((caller, generation))
    }
}

impl TokenVerifier for Jwt {
    fn issuer(&self) -> &str {
        &self.keys.source.issuer
    }

    fn verify<'a>(
        &'a self,
        token: &'a str,
        resource: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Auth, TokenError>> + Send + 'a>> {
        Box::pin(self.check(token, resource))
    }
}

/// Whether `token` is shaped as a JWT: three segments, the first a JSON object with an `alg`.
pub(crate) fn is_jwt(token: &str) -> bool {
    Header::of(token).is_ok()
}

/// What a JWT's header says, read before any key is chosen.
#[derive(Deserialize)]
struct Header {
    alg: String,
    typ: Option<String>,
    kid: Option<String>,
}

impl Header {
    fn of(token: &str) -> Result<Header, TokenError> {
        let not_jwt = || TokenError::invalid("the token is not a JWT");
        let mut segments = token.split('.');
        let (Some(header), Some(_), Some(_), None) = (
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
        ) else {
            return Err(not_jwt());
        };
        let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(header)
            .map_err(|_| not_jwt())?;
        serde_json::from_slice(&json).map_err(|_| not_jwt())
    }
}

/// What went wrong, for the client.
fn reason(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another authorization server".into(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => {
            let claim: String = claim.chars().filter(char::is_ascii_alphanumeric).collect();
            format!("the token has no `{claim}` claim")
        }
        _ => "the token is malformed".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let b64 = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        let token = format!(
            "{}.e30.sig",
            b64(r#"{"alg":"RS256","typ":"at+jwt","kid":"k1"}"#)
        );
        let header = Header::of(&token).unwrap();
        assert_eq!(
            (header.alg.as_str(), header.kid.as_deref()),
            ("RS256", Some("k1"))
        );
        for bad in ["abc", "a.b", "a.b.c.d.e", &format!("{}.e30.sig", b64("[]"))] {
            assert!(Header::of(bad).is_err(), "{bad}");
            assert!(!is_jwt(bad), "{bad}");
        }
        assert!(is_jwt(&token));
        // An opaque token with dots in it is no JWT.
        assert!(!is_jwt("abc.def.ghi"));
    }

    #[test]
    fn names() {
        for algorithm in Algorithm::ALL {
            assert_eq!(format!("{:?}", algorithm.jose()), algorithm.name());
        }
    }

    use std::io::{Read, Write};
    use std::sync::{Arc, Mutex};
    use std::time::SystemTime;

    const RESOURCE: &str = "https://mcp.test/mcp";
    const ISSUER: &str = "https://auth.test";

    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/../tests/fixtures/oauth/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// A JWKS at a loopback URL, publishing the fixture keys the test chooses.
    fn jwks(kids: &[&str]) -> (String, Arc<Mutex<Vec<String>>>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/jwks", listener.local_addr().unwrap());
        let published: Vec<String> = kids.iter().map(|k| k.to_string()).collect();
        let published = Arc::new(Mutex::new(published));
        let kids = Arc::clone(&published);
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let _ = stream.read(&mut [0; 4096]);
                let keys: Vec<String> = kids
                    .lock()
                    .unwrap()
                    .iter()
                    .map(|kid| fixture(&format!("{kid}.jwk.json")))
                    .collect();
                let body = format!(r#"{{"keys": [{}]}}"#, keys.join(","));
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes());
            }
        });
        (url, published)
    }

    /// The PKCS#1 key inside a PKCS#8 one (`PrivateKeyInfo`'s `privateKey`), which is what
    /// jsonwebtoken signs with when it reads no PEM itself.
    fn pkcs1(pkcs8: &[u8]) -> &[u8] {
        // Where the value of the DER element at `at` begins, and its length.
        let element = |at: usize| {
            let first = usize::from(pkcs8[at + 1]);
            if first < 0x80 {
                return (at + 2, first);
            }
            let n = first & 0x7f;
            let bytes = &pkcs8[at + 2..at + 2 + n];
            (
                at + 2 + n,
                bytes.iter().fold(0, |len, b| len << 8 | usize::from(*b)),
            )
        };
        let (version, _) = element(0);
        let (algorithm, length) = element(version);
        let (identifier, length) = element(algorithm + length);
        let (key, length) = element(identifier + length);
        &pkcs8[key..key + length]
    }

    /// `claims` (over a valid token's) signed RS256 by fixture key `kid`.
    fn token(kid: &str, claims: serde_json::Value) -> String {
        let pem = fixture(&format!("{kid}.pem"));
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(body)
            .unwrap();
        let key = jsonwebtoken::EncodingKey::from_rsa_der(pkcs1(&der));
        let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
        header.typ = Some("at+jwt".into());
        header.kid = Some(kid.into());
        let mut all = serde_json::json!({"iss": ISSUER, "aud": RESOURCE, "sub": "ada",
            "exp": cache::tests_now() + 300});
        all.as_object_mut()
            .unwrap()
            .extend(claims.as_object().unwrap().clone());
        jsonwebtoken::encode(&header, &all, &key).unwrap()
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    fn kept(jwt: &Jwt, token: &str, resource: &str) -> Option<cache::Answer> {
        let (generation, _) = jwt.keys.generation();
        jwt.answers.get(&cache::digest(resource, token), generation)
    }

    #[test]
    fn a_checked_token_is_answered_from_what_was_kept_for_its_resource() {
        let (url, _) = jwks(&["k1"]);
        let jwt = Jwt::new(ISSUER).jwks_uri(url);
        let runtime = runtime();
        let ada = token("k1", serde_json::json!({}));
        let caller = runtime.block_on(jwt.check(&ada, RESOURCE)).unwrap();
        assert_eq!(kept(&jwt, &ada, RESOURCE), Some(Ok(caller.clone())));
        assert_eq!(runtime.block_on(jwt.check(&ada, RESOURCE)), Ok(caller));
        // Another resource is another question, and another answer.
        let other = "https://mcp.test/other";
        assert!(runtime.block_on(jwt.check(&ada, other)).is_err());
        assert!(matches!(kept(&jwt, &ada, other), Some(Err(_))));
        assert!(matches!(kept(&jwt, &ada, RESOURCE), Some(Ok(_))));
        // A refusal is kept too, but not one that is not valid *yet*, nor a token that is not
        // a JWT at all (found again for nothing).
        let forged = token("stranger", serde_json::json!({}));
        assert!(runtime.block_on(jwt.check(&forged, RESOURCE)).is_err());
        assert!(matches!(kept(&jwt, &forged, RESOURCE), Some(Err(_))));
        let early = token("k1", serde_json::json!({"nbf": cache::tests_now() + 600}));
        assert!(runtime.block_on(jwt.check(&early, RESOURCE)).is_err());
        assert_eq!(kept(&jwt, &early, RESOURCE), None);
        assert!(runtime.block_on(jwt.check("abc", RESOURCE)).is_err());
        assert_eq!(kept(&jwt, "abc", RESOURCE), None);
    }

    #[test]
    fn an_acceptance_is_not_kept_past_the_tokens_exp() {
        let (url, _) = jwks(&["k1"]);
        // Within the leeway, a token past its `exp` is still accepted, but each time checked.
        let jwt = Jwt::new(ISSUER).jwks_uri(url);
        let runtime = runtime();
        let exp = SystemTime::now() + Duration::from_millis(1500);
        let exp = exp
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let brief = token("k1", serde_json::json!({"exp": exp}));
        assert!(runtime.block_on(jwt.check(&brief, RESOURCE)).is_ok());
        assert!(kept(&jwt, &brief, RESOURCE).is_some());
        let past = SystemTime::UNIX_EPOCH + Duration::from_secs(exp) + Duration::from_millis(50);
        while SystemTime::now() < past {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(kept(&jwt, &brief, RESOURCE), None);
        assert!(runtime.block_on(jwt.check(&brief, RESOURCE)).is_ok());
        assert_eq!(kept(&jwt, &brief, RESOURCE), None);
    }

    #[test]
    fn answers_found_against_keys_no_longer_held_are_not_used() {
        let (url, published) = jwks(&["k1"]);
        let jwt = Jwt::new(ISSUER).jwks_uri(url).refetch_floor(Duration::ZERO);
        let runtime = runtime();
        let old = token("k1", serde_json::json!({}));
        assert!(runtime.block_on(jwt.check(&old, RESOURCE)).is_ok());
        // The authorization server withdraws k1; a token naming its new key has the keys read
        // again, and the token k1 signed, accepted a moment ago, is refused.
        *published.lock().unwrap() = vec!["k2".into()];
        let new = token("k2", serde_json::json!({}));
        assert!(runtime.block_on(jwt.check(&new, RESOURCE)).is_ok());
        assert_eq!(kept(&jwt, &old, RESOURCE), None);
        let refused = runtime.block_on(jwt.check(&old, RESOURCE));
        assert!(
            matches!(refused, Err(TokenError::Invalid(_))),
            "{refused:?}"
        );
    }
}
