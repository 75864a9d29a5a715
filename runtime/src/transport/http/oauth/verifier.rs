//! [`TokenVerifier`]: what turns a bearer token into the caller it was issued to.

use std::future::Future;
use std::pin::Pin;

use crate::call::auth::Auth;

/// Checks a bearer token presented to this server, and says whose it is.
///
/// toolwright has two (feature `oauth`): [`Jwt`](super::Jwt), for JWT access tokens signed by
/// the authorization server's published keys, and [`Introspection`](super::Introspection), for
/// opaque tokens the authorization server describes (RFC 7662). Implement it for any other
/// kind; the verifier must check that the token was issued for `resource` (its audience) by
/// the authorization server it names, and is valid now.
///
/// ```
/// use std::future::Future;
/// use std::pin::Pin;
/// use toolwright_runtime::Auth;
/// use toolwright_runtime::oauth::{TokenError, TokenVerifier};
///
/// /// Tokens a table knows (for a demonstration: real tokens are checked cryptographically).
/// struct Table(Vec<(&'static str, Auth)>);
///
/// impl TokenVerifier for Table {
///     fn issuer(&self) -> &str {
///         "https://auth.example.com"
///     }
///
///     fn verify<'a>(
///         &'a self,
///         token: &'a str,
///         _resource: &'a str,
///     ) -> Pin<Box<dyn Future<Output = Result<Auth, TokenError>> + Send + 'a>> {
///         let found = self.0.iter().find(|(t, _)| *t == token).map(|(_, auth)| auth.clone());
///         Box::pin(async move { found.ok_or(TokenError::invalid("the token is unknown")) })
///     }
/// }
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// The issuer of the tokens it accepts, exactly as that authorization server's metadata
    /// spells it: the metadata document lists it in `authorization_servers`.
    fn issuer(&self) -> &str;

    /// The caller `token` was issued to, if it is valid now and for `resource`.
    fn verify<'a>(
        &'a self,
        token: &'a str,
        resource: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Auth, TokenError>> + Send + 'a>>;
}

/// Why a token was not accepted.
///
/// Its reason reaches the client (`error_description`) and the server's log: it must not
/// contain the token, nor a `"` or `\` (taken out if it does).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenError {
    /// The token is not valid: malformed, expired, not yet valid, revoked, for another
    /// audience or issuer, or its signature does not verify. Answered 401 `invalid_token`.
    Invalid(String),
    /// The token could not be checked now: the authorization server's keys or introspection
    /// could not be reached. Answered 503; the client may try again.
    Unavailable(String),
}

impl TokenError {
    /// [`TokenError::Invalid`] with `reason`.
    pub fn invalid(reason: impl Into<String>) -> TokenError {
        TokenError::Invalid(reason.into())
    }

    /// [`TokenError::Unavailable`] with `reason`.
    pub fn unavailable(reason: impl Into<String>) -> TokenError {
        TokenError::Unavailable(reason.into())
    }
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Invalid(reason) => write!(f, "invalid token: {reason}"),
            TokenError::Unavailable(reason) => write!(f, "token not checked: {reason}"),
        }
    }
}

impl std::error::Error for TokenError {}
