//! [`JwtOrIntrospection`]: JWT access tokens checked here, and opaque tokens by introspection,
//! from one authorization server that issues both.

use std::future::Future;
use std::pin::Pin;

use crate::call::auth::Auth;
use crate::transport::http::oauth::introspection::Introspection;
use crate::transport::http::oauth::jwt::{self, Jwt};
use crate::transport::http::oauth::verifier::{TokenError, TokenVerifier};

/// Tokens of an authorization server that issues JWT access tokens and opaque ones (to
/// different clients, or for different audiences): made by
/// [`Jwt::or_introspection`]. A token shaped as a JWT (three base64url segments, the first a
/// JSON object) is checked as one, against the keys; any other is introspected.
///
/// A token shaped as a JWT is the JWT check's alone: its refusal is the answer (401), not a
/// cue to ask the authorization server, and keys out of reach are a 503. Its header says
/// what it is; the server that signed it would not call it active once it expired, named
/// another audience or failed its signature; and were every forged JWT introspected, made-up
/// tokens would cost the authorization server a question each and every refusal a round trip.
/// An authorization server whose JWTs must be introspected (to see revocations at once) is
/// asked with [`Introspection`] alone.
///
/// The metadata names the JWT's issuer; introspection of another issuer's tokens is listed
/// with [`Authorization::authorization_servers`](super::Authorization::authorization_servers).
///
/// ```
/// use toolwright_runtime::oauth::{Authorization, Introspection, Jwt};
///
/// let issuer = "https://auth.example.com";
/// let tokens = Jwt::new(issuer).or_introspection(Introspection::new(issuer, "mcp-server", "its-secret"));
/// let auth = Authorization::new("https://mcp.example.com/mcp", tokens);
/// # assert_eq!(auth.check(), Ok(()));
/// ```
pub struct JwtOrIntrospection {
    jwt: Jwt,
    introspection: Introspection,
}

impl Jwt {
    /// These JWTs, and the opaque tokens `introspection` accepts: see [`JwtOrIntrospection`].
    pub fn or_introspection(self, introspection: Introspection) -> JwtOrIntrospection {
        JwtOrIntrospection {
            jwt: self,
            introspection,
        }
    }
}

impl TokenVerifier for JwtOrIntrospection {
    fn issuer(&self) -> &str {
        self.jwt.issuer()
    }

    fn verify<'a>(
        &'a self,
        token: &'a str,
        resource: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Auth, TokenError>> + Send + 'a>> {
        match jwt::is_jwt(token) {
            true => self.jwt.verify(token, resource),
            false => self.introspection.verify(token, resource),
        }
    }
}
