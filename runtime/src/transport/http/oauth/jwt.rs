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
        let header = Header::of(token)?;
        let algorithm = Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == header.alg && self.algorithms.contains(a))
            .ok_or_else(|| {
                let alg = header
                    .alg
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .take(16);
                TokenError::invalid(format!(
                    "tokens signed with `{}` are not accepted",
                    alg.collect::<String>()
                ))
            })?;
        let typ = header.typ.as_deref().map(str::to_ascii_lowercase);
        if !self.any_type && !matches!(typ.as_deref(), Some("at+jwt" | "application/at+jwt")) {
            return Err(TokenError::invalid(
                "the token is not an access token (its `typ` is not `at+jwt`)",
            ));
        }
        let family = algorithm.jose().family();
        let key = self.keys.key(header.kid.as_deref(), family).await?;
        if key
            .alg
            .as_deref()
            .is_some_and(|alg| alg != algorithm.name())
        {
            return Err(TokenError::invalid(
                "the token's algorithm is not its key's",
            ));
        }
        let mut validation = Validation::new(algorithm.jose());
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.validate_aud = false;
        validation.set_issuer(&[&self.keys.source.issuer]);
        validation.set_required_spec_claims(&["exp", "iss"]);
        let claims = jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, &validation)
            .map_err(|e| TokenError::invalid(reason(e.kind())))?
            .claims;
        check_audience(&claims, resource).map_err(TokenError::invalid)?;
        claims::bearer_only(&claims).map_err(TokenError::Invalid)?;
        claims::caller(claims).map_err(TokenError::Invalid)
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
        }
    }

    #[test]
    fn names() {
        for algorithm in Algorithm::ALL {
            assert_eq!(format!("{:?}", algorithm.jose()), algorithm.name());
        }
    }
}
