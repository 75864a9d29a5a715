//! [`Authorization`]: this server as an OAuth 2.1 resource server, in one value.

use std::sync::Arc;

use http::HeaderName;

use crate::call::auth::Auth;
use crate::transport::http::oauth::resource::Resource;
use crate::transport::http::oauth::verifier::TokenVerifier;

/// This server as an OAuth 2.1 resource server: which tokens it accepts, the scopes every
/// request needs, and what its Protected Resource Metadata (RFC 9728) says.
///
/// Give it to [`Http::authorization`](crate::Http::authorization) and the endpoint serves the
/// metadata at `/.well-known/oauth-protected-resource` (with the resource's path appended,
/// and at the root), answers a request without a valid token with 401 and a challenge that
/// points at the metadata, one whose token lacks a scope with 403 `insufficient_scope` naming
/// the scopes, and hands every other request's caller to the tools as an [`Auth`](crate::Auth).
/// It is also a tower [`Layer`](tower_layer::Layer), to put in front of a service of your own.
///
/// ```no_run
/// # #[cfg(feature = "oauth")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use toolwright_runtime::oauth::{Authorization, Jwt};
/// use toolwright_runtime::{Http, Server};
///
/// let tokens = Jwt::new("https://auth.example.com");
/// let auth = Authorization::new("https://mcp.example.com/mcp", tokens).require_scopes(["mcp:tools"]);
/// Server::new("notes", "1.0.0")
///     .discover()
///     .serve_http_with("0.0.0.0:8080".parse()?, Http::new().authorization(auth), std::future::pending())?;
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "oauth"))]
/// # fn main() {}
/// ```
#[derive(Clone)]
pub struct Authorization {
    pub(crate) inner: Arc<Settings>,
}

#[derive(Clone)]
pub(crate) struct Settings {
    /// The resource URI, or why it is not one (reported when the endpoint is made).
    pub(crate) resource: Result<Resource, String>,
    /// Where the metadata is, for the challenges.
    pub(crate) metadata_url: Option<String>,
    pub(crate) source: Source,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) required: Vec<String>,
    /// The scope hierarchy: each scope, with the narrower ones a caller granted it is granted.
    pub(crate) implied: Vec<(String, Vec<String>)>,
    pub(crate) scopes_supported: Option<Vec<String>>,
    pub(crate) name: Option<String>,
    pub(crate) documentation: Option<String>,
}

/// Where the caller of a request comes from.
#[derive(Clone)]
pub(crate) enum Source {
    /// Its bearer token, checked here.
    Tokens(Arc<dyn TokenVerifier>),
    /// A header a gateway in front of the server sets once it checked the token itself.
    Gateway(HeaderName),
}

impl Authorization {
    /// Accepts the tokens `verifier` accepts, issued for `resource`: the canonical URI of this
    /// server's MCP endpoint (`https://mcp.example.com/mcp`), as clients reach it and as the
    /// authorization server puts it in the tokens' audience.
    pub fn new(resource: &str, verifier: impl TokenVerifier) -> Authorization {
        let authorization_servers = vec![verifier.issuer().to_owned()];
        Authorization::with_source(
            resource,
            Source::Tokens(Arc::new(verifier)),
            authorization_servers,
        )
    }

    /// Trusts a gateway in front of the server that validates the tokens itself: it sends
    /// each request it let through with the token's claims in the header `header`, as a JSON
    /// object or the base64url of one (the form of Envoy's `forward_payload_header`). A
    /// request without that header is answered as one without a token; the `Authorization`
    /// header is not read.
    ///
    /// Use it only when nothing but the gateway can reach the server, and the gateway removes
    /// the header from what clients send: whoever can set the header is whoever they say.
    /// `authorization_server` is the issuer the gateway accepts tokens from, for the metadata.
    pub fn behind_gateway(
        resource: &str,
        authorization_server: &str,
        header: HeaderName,
    ) -> Authorization {
        let servers = vec![authorization_server.to_owned()];
        Authorization::with_source(resource, Source::Gateway(header), servers)
    }

    fn with_source(resource: &str, source: Source, servers: Vec<String>) -> Authorization {
        let resource = Resource::parse(resource);
        Authorization {
            inner: Arc::new(Settings {
                metadata_url: resource.as_ref().ok().map(Resource::metadata_url),
                resource,
                source,
                authorization_servers: servers,
                required: Vec::new(),
                implied: Vec::new(),
                scopes_supported: None,
                name: None,
                documentation: None,
            }),
        }
    }

    fn settings(&mut self) -> &mut Settings {
        Arc::make_mut(&mut self.inner)
    }

    /// Scopes every request needs, whatever it asks for (403 `insufficient_scope` without
    /// them). Items may need more: `#[mcp_tool(scopes("notes:write"))]`. They are also the
    /// `scopes_supported` of the metadata, unless [`Authorization::scopes_supported`] says
    /// otherwise, and the `scope` of the 401 challenge: what a client asks for first.
    pub fn require_scopes<I, S>(mut self, scopes: I) -> Authorization
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let required = &mut self.settings().required;
        for scope in scopes {
            let scope = scope.into();
            if !required.contains(&scope) {
                required.push(scope);
            }
        }
        self
    }

    /// A scope hierarchy: a caller granted `broad` is granted each of `narrower` too, and what
    /// they imply in turn (`notes:admin` implies `notes:write`, which implies `notes:read`).
    /// The specification has a server honour its hierarchy when it judges whether a token's
    /// scopes suffice (2026-07-28); the token carries what the authorization server granted,
    /// and this is how the server reads it, everywhere scopes are judged: the scopes every
    /// request needs, an item's `scopes(..)`, and the caller's [`Auth`](crate::Auth) that the
    /// visibility rule and the tools see. A 403 still names the scopes the request needs as
    /// they are declared, and the metadata lists what it listed.
    ///
    /// ```
    /// # use toolwright_runtime::oauth::Authorization;
    /// # let claims = http::HeaderName::from_static("x-claims");
    /// let auth = Authorization::behind_gateway("https://mcp.example.com/mcp", "https://auth.example.com", claims)
    ///     .require_scopes(["notes:read"])
    ///     .scope_implies("notes:admin", ["notes:write"])
    ///     .scope_implies("notes:write", ["notes:read"]);
    /// assert_eq!(auth.check(), Ok(()));
    /// ```
    pub fn scope_implies<I, S>(mut self, broad: impl Into<String>, narrower: I) -> Authorization
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let broad = broad.into();
        let narrower = narrower.into_iter().map(Into::into);
        let implied = &mut self.settings().implied;
        match implied.iter_mut().find(|(scope, _)| *scope == broad) {
            Some((_, known)) => known.extend(narrower),
            None => implied.push((broad, narrower.collect())),
        }
        self
    }

    /// The metadata's `scopes_supported`: the scopes a client should ask for to begin with.
    /// The specification advises the least that makes the server useful, not every scope.
    pub fn scopes_supported<I, S>(mut self, scopes: I) -> Authorization
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.settings().scopes_supported = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// The metadata's `authorization_servers`, in place of the verifier's issuer (during a
    /// migration, both).
    pub fn authorization_servers<I, S>(mut self, issuers: I) -> Authorization
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.settings().authorization_servers = issuers.into_iter().map(Into::into).collect();
        self
    }

    /// The metadata's `resource_name`, shown to people authorizing a client.
    pub fn resource_name(mut self, name: impl Into<String>) -> Authorization {
        self.settings().name = Some(name.into());
        self
    }

    /// The metadata's `resource_documentation`: a page about this server, for developers.
    pub fn resource_documentation(mut self, url: impl Into<String>) -> Authorization {
        self.settings().documentation = Some(url.into());
        self
    }

    /// The configuration's first mistake, if it has one: a resource that is not an absolute
    /// `https` (or `http`) URI without a query or fragment, no authorization server or one that
    /// is not `https` (plain `http` only on a loopback host, for tests), a required scope that
    /// is not one. [`Http::authorization`](crate::Http::authorization) reports it when the
    /// endpoint is made, and the layer panics on it; call this to report it your own way first.
    pub fn check(&self) -> Result<(), String> {
        let settings = &self.inner;
        settings.resource.as_ref().map_err(Clone::clone)?;
        if settings.authorization_servers.is_empty() {
            return Err("the authorization needs at least one authorization server".to_owned());
        }
        if let Some(bad) = settings
            .authorization_servers
            .iter()
            .find(|s| !is_secure(s))
        {
            return Err(format!(
                "the authorization server `{bad}` is not an `https` URL (`http` only on a loopback host)"
            ));
        }
        let hierarchy = settings.implied.iter();
        let mut scopes = settings
            .required
            .iter()
            .chain(hierarchy.flat_map(|(broad, narrower)| std::iter::once(broad).chain(narrower)));
        if let Some(bad) = scopes.find(|s| !is_scope(s)) {
            return Err(format!("`{bad}` is not a scope (RFC 6749 §3.3)"));
        }
        Ok(())
    }
}

impl Settings {
    /// `caller`, granted as well every scope its scopes imply under the hierarchy.
    pub(crate) fn widen(&self, caller: Auth) -> Auth {
        if self.implied.is_empty() {
            return caller;
        }
        let mut granted = caller.scopes().to_vec();
        // Each scope granted, the implied ones as they are added: a breadth-first closure,
        // which ends since only scopes not yet granted are added.
        let mut next = 0;
        while let Some(scope) = granted.get(next).cloned() {
            let narrower = self.implied.iter().filter(|(broad, _)| *broad == scope);
            for implied in narrower.flat_map(|(_, narrower)| narrower) {
                if !granted.contains(implied) {
                    granted.push(implied.clone());
                }
            }
            next += 1;
        }
        caller.with_scopes(granted)
    }
}

impl std::fmt::Debug for Authorization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let settings = &self.inner;
        f.debug_struct("Authorization")
            .field("resource", &settings.resource)
            .field("authorization_servers", &settings.authorization_servers)
            .field("required", &settings.required)
            .field("implied", &settings.implied)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Authorization {
    fn eq(&self, other: &Authorization) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Eq for Authorization {}

/// Whether `url` is `https://…`, or `http://` on a loopback host.
fn is_secure(url: &str) -> bool {
    let Ok(uri) = url.parse::<http::Uri>() else {
        return false;
    };
    match (uri.scheme_str(), uri.host()) {
        (Some("https"), Some(_)) => true,
        (Some("http"), Some(host)) => {
            matches!(host, "localhost" | "127.0.0.1" | "[::1]" | "::1")
        }
        _ => false,
    }
}

/// Whether `scope` is one scope token (RFC 6749 §3.3): not empty, printable ASCII but space,
/// `"` and `\`.
fn is_scope(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gateway() -> Authorization {
        let header = HeaderName::from_static("x-claims");
        Authorization::behind_gateway("https://mcp.test/mcp", "https://auth.test", header)
    }

    fn widened(authorization: &Authorization, scopes: &[&str]) -> Vec<String> {
        let caller = Auth::new("ada").with_scopes(scopes.iter().copied());
        authorization.inner.widen(caller).scopes().to_vec()
    }

    #[test]
    fn a_hierarchy_grants_what_each_granted_scope_implies_transitively() {
        let authorization = gateway()
            .scope_implies("admin", ["write"])
            .scope_implies("write", ["read", "list"])
            .scope_implies("admin", ["audit"])
            // A cycle ends: nothing is granted twice.
            .scope_implies("read", ["write"]);
        assert_eq!(
            widened(&authorization, &["admin"]),
            ["admin", "write", "audit", "read", "list"]
        );
        assert_eq!(
            widened(&authorization, &["read"]),
            ["read", "write", "list"]
        );
        assert_eq!(
            widened(&authorization, &["list", "other"]),
            ["list", "other"]
        );
        assert_eq!(widened(&gateway(), &["admin"]), ["admin"]);
        assert_eq!(authorization.check(), Ok(()));
    }
}
