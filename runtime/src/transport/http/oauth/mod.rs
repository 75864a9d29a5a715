//! This server as an OAuth 2.1 resource server (feature `http`; token checks with `oauth`).
//!
//! [`Authorization`] is the whole of it: which tokens are accepted ([`Jwt`], [`Introspection`],
//! both ([`Jwt::or_introspection`]), a [`TokenVerifier`] of your own, or a gateway's header),
//! the scopes every request needs, and the Protected Resource Metadata (RFC 9728). Give it to
//! [`Http::authorization`](crate::Http::authorization), or put it in front of a service of
//! your own as a tower layer. Scopes of single items are declared on them:
//! `#[mcp_tool(scopes("notes:write"))]`.
//!
//! | request | answer |
//! |---|---|
//! | `GET /.well-known/oauth-protected-resource[/path]` | 200, the metadata, to anyone |
//! | no token, another scheme than `Bearer`, or a token only in the query string (which is no place for one) | 401 `WWW-Authenticate: Bearer scope="…", resource_metadata="…"` |
//! | two `Authorization` headers, `Bearer` without a token, a token in the query string beside an `Authorization` header | 400 `error="invalid_request"` |
//! | a token that is not valid (signature, `alg`, `typ`, `iss`, `aud`, `exp`, `nbf`, inactive) | 401 `error="invalid_token"` |
//! | a valid token without the server's scopes, or calling an item whose scopes it lacks | 403 `error="insufficient_scope", scope="<every scope the request needs>"` |
//! | the keys or the introspection cannot be reached | 503 |
//!
//! The token itself is never kept, logged, put in a span or an error, nor passed on: tools see
//! the caller as an [`Auth`](crate::Auth).

mod authorization;
mod bearer;
#[cfg(feature = "oauth")]
mod breaker;
#[cfg(feature = "oauth")]
mod cache;
mod challenge;
mod claims;
#[cfg(feature = "oauth")]
mod fetch;
mod front;
#[cfg(feature = "oauth")]
mod introspection;
#[cfg(feature = "oauth")]
mod jwt;
#[cfg(feature = "oauth")]
mod jwt_or_introspection;
#[cfg(feature = "oauth")]
mod keys;
mod layer;
mod resource;
mod verifier;

pub use authorization::Authorization;
#[cfg(feature = "oauth")]
pub use introspection::Introspection;
#[cfg(feature = "oauth")]
pub use jwt::{Algorithm, Jwt};
#[cfg(feature = "oauth")]
pub use jwt_or_introspection::JwtOrIntrospection;
pub use layer::Authorized;
pub use verifier::{TokenError, TokenVerifier};

pub(crate) use front::{Protected, stream_deadline};
