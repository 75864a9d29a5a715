//! [`Http`]: how the HTTP endpoint guards itself, and for how long it keeps sessions.

use std::time::Duration;

use crate::transport::http::oauth::Authorization;

/// The settings of the Streamable HTTP endpoint. The defaults are safe for a server on the
/// local machine: only loopback origins, bounded bodies, headers and waits, and the `Host`s
/// that fit where the server listens: a server that listens itself
/// ([`Server::serve_http_with`](crate::Server::serve_http_with), `serve --http`) accepts only
/// the loopback names on a loopback address and any `Host` on another, unless
/// [`allow_host`](Http::allow_host) or [`allow_any_host`](Http::allow_any_host) says otherwise;
/// an endpoint mounted in a router of your own accepts only the loopback names, unless they do.
///
/// ```
/// use std::time::Duration;
/// use toolwright_runtime::Http;
///
/// let http = Http::new()
///     .allow_host("mcp.example.com")
///     .allow_origin("https://app.example.com")
///     .session_idle(Duration::from_secs(15 * 60));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Http {
    /// `None` until the author chooses: then the address the endpoint listens on decides.
    pub(crate) hosts: Option<Allowed>,
    pub(crate) origins: Allowed,
    pub(crate) max_body: usize,
    pub(crate) max_header_size: usize,
    pub(crate) header_timeout: Duration,
    pub(crate) body_timeout: Duration,
    pub(crate) session_idle: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) keep_alive: Duration,
    pub(crate) authorization: Option<Authorization>,
}

/// Which values of a header are accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Allowed {
    /// Loopback names (`localhost`, `127.0.0.1`, `[::1]`, any port), and these.
    Loopback(Vec<String>),
    /// Anything.
    Any,
}

impl Default for Http {
    fn default() -> Self {
        Http {
            hosts: None,
            origins: Allowed::Loopback(Vec::new()),
            max_body: 4 << 20,
            max_header_size: 32 << 10,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            session_idle: Duration::from_secs(30 * 60),
            max_sessions: 16_384,
            keep_alive: Duration::from_secs(15),
            authorization: None,
        }
    }
}

impl Http {
    /// The defaults.
    pub fn new() -> Http {
        Http::default()
    }

    /// These settings for an endpoint listening on `addr`: unless the author chose its `Host`s,
    /// the loopback names on a loopback address; elsewhere any (the check defends a server on
    /// the local machine against DNS rebinding), origins still checked.
    pub(crate) fn listening_on(mut self, addr: std::net::SocketAddr) -> Http {
        self.hosts.get_or_insert(match addr.ip().is_loopback() {
            true => Allowed::Loopback(Vec::new()),
            false => Allowed::Any,
        });
        self
    }

    /// The `Host`s accepted: the loopback names when nothing chose them.
    pub(crate) fn hosts(&self) -> &Allowed {
        static LOOPBACK: Allowed = Allowed::Loopback(Vec::new());
        self.hosts.as_ref().unwrap_or(&LOOPBACK)
    }

    /// Accepts requests whose `Host` is `host` (a name, with or without a port), besides the
    /// loopback names, and no others, whatever the address. A server reached under a public
    /// name needs its name here: the `Host` check is what defeats DNS rebinding against a local
    /// server.
    pub fn allow_host(mut self, host: impl Into<String>) -> Http {
        let hosts = self.hosts.get_or_insert(Allowed::Loopback(Vec::new()));
        if let Allowed::Loopback(hosts) = hosts {
            hosts.push(host.into().to_ascii_lowercase());
        }
        self
    }

    /// Accepts any `Host`: for a server that is never reached on the local machine, behind a
    /// proxy that checks the name.
    pub fn allow_any_host(mut self) -> Http {
        self.hosts = Some(Allowed::Any);
        self
    }

    /// Accepts requests from web pages of `origin` (`https://app.example.com`), besides
    /// loopback origins. Requests without an `Origin` header (every client that is not a web
    /// page) are not affected.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Http {
        if let Allowed::Loopback(origins) = &mut self.origins {
            origins.push(origin.into().to_ascii_lowercase());
        }
        self
    }

    /// Accepts requests from any web page. Only behind an authentication layer.
    pub fn allow_any_origin(mut self) -> Http {
        self.origins = Allowed::Any;
        self
    }

    /// The largest request body, in bytes (413 beyond it). Defaults to 4 MiB. A larger body is
    /// still read, and dropped, up to 64 MiB, so that a client that sends everything before it
    /// reads (most do) gets the 413 rather than a reset connection; beyond that, and for a
    /// client that sent `Expect: 100-continue`, the 413 comes at once and the connection
    /// closes.
    pub fn max_body(mut self, bytes: usize) -> Http {
        self.max_body = bytes;
        self
    }

    /// The largest request head (request line and headers), in bytes. Defaults to 32 KiB.
    pub fn max_header_size(mut self, bytes: usize) -> Http {
        self.max_header_size = bytes;
        self
    }

    /// How long a connection may go without sending a request's head, idle between requests
    /// or part-way through one, before it is closed (a slow client holds a connection no
    /// longer): between once and one and a half times this, by a watchdog that looks twice
    /// per period. A connection waiting for an answer, or reading a stream, is not idle.
    /// Defaults to 10 seconds. (An endpoint mounted in a server of your own is bounded by
    /// that server's settings.)
    pub fn header_timeout(mut self, timeout: Duration) -> Http {
        self.header_timeout = timeout;
        self
    }

    /// How long a client may take to send a request's body (408 beyond it). Defaults to 30
    /// seconds. A request refused before anything vouched for its client (a foreign `Host` or
    /// `Origin`, no valid token) has its body read for at most 2 seconds and 1 MiB, then its
    /// connection closes: a client without a token cannot hold one for longer by sending slowly.
    pub fn body_timeout(mut self, timeout: Duration) -> Http {
        self.body_timeout = timeout;
        self
    }

    /// How long a handshake session lives without a request; then it ends, and its id gets
    /// 404. Defaults to 30 minutes.
    pub fn session_idle(mut self, idle: Duration) -> Http {
        self.session_idle = idle;
        self
    }

    /// The most handshake sessions open at once; an `initialize` beyond them gets 503.
    /// Defaults to 16 384.
    pub fn max_sessions(mut self, sessions: usize) -> Http {
        self.max_sessions = sessions.max(1);
        self
    }

    /// How often an idle event stream gets a comment, so that proxies keep it open. Defaults
    /// to 15 seconds.
    pub fn keep_alive(mut self, interval: Duration) -> Http {
        self.keep_alive = interval;
        self
    }
}

impl Http {
    /// Makes the endpoint an OAuth 2.1 resource server: it serves the Protected Resource
    /// Metadata, refuses requests without a valid token (401) or without the scopes they need
    /// (403), and hands each caller to the tools as an [`Auth`](crate::Auth). See
    /// [`Authorization`].
    ///
    /// `serve_http` routes the metadata's paths to the endpoint. An endpoint mounted in a
    /// router of your own answers them too, once they reach it: route
    /// `/.well-known/oauth-protected-resource` and the path `Authorization::metadata_path`
    /// gives to it as well (in axum, or make it the fallback service), or put the
    /// `Authorization` layer around the router instead, which answers them itself.
    pub fn authorization(mut self, authorization: Authorization) -> Http {
        self.authorization = Some(authorization);
        self
    }
}

impl Allowed {
    /// Whether a `Host` value (a name and perhaps a port) is accepted.
    pub(crate) fn host(&self, value: &str) -> bool {
        match self {
            Allowed::Any => true,
            Allowed::Loopback(extra) => {
                let value = lowercase(value);
                let name = strip_port(&value);
                is_loopback(name)
                    || extra
                        .iter()
                        .any(|h| *h == value || strip_port(h) == name && !h.contains(':'))
            }
        }
    }

    /// Whether an `Origin` value (`scheme://host[:port]`) is accepted.
    pub(crate) fn origin(&self, value: &str) -> bool {
        match self {
            Allowed::Any => true,
            Allowed::Loopback(extra) => {
                let value = value.to_ascii_lowercase();
                let host = value
                    .strip_prefix("http://")
                    .or_else(|| value.strip_prefix("https://"));
                host.is_some_and(|h| is_loopback(strip_port(h))) || extra.contains(&value)
            }
        }
    }
}

/// `value` in lowercase, copied only when it has capitals (checked on every request).
fn lowercase(value: &str) -> std::borrow::Cow<'_, str> {
    match value.bytes().any(|b| b.is_ascii_uppercase()) {
        true => value.to_ascii_lowercase().into(),
        false => value.into(),
    }
}

/// `name` of `name:port`, `[v6]` of `[v6]:port`.
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

fn is_loopback(name: &str) -> bool {
    matches!(name, "localhost" | "127.0.0.1" | "[::1]" | "::1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_by_default() {
        let http = Http::new();
        for host in ["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:9"] {
            assert!(http.hosts().host(host), "{host}");
        }
        assert!(!http.hosts().host("evil.example.com"));
        assert!(!http.hosts().host("localhost.evil.com:80"));
        assert!(http.origins.origin("http://localhost:5173"));
        assert!(!http.origins.origin("http://evil.example.com"));
        assert!(!http.origins.origin("null"));
        let http = http
            .allow_host("mcp.example.com")
            .allow_origin("https://app.example.com");
        assert!(http.hosts().host("mcp.example.com:443"));
        assert!(http.origins.origin("https://app.example.com"));
        assert!(!http.origins.origin("https://app.example.com.evil"));
    }

    #[test]
    fn the_address_decides_the_hosts_unless_the_author_did() {
        let public = "0.0.0.0:8080".parse().unwrap();
        let local = "127.0.0.1:8080".parse().unwrap();
        // Settings of one's own that say nothing of hosts keep the address's.
        let own = Http::new().max_body(1 << 20);
        assert!(
            own.clone()
                .listening_on(public)
                .hosts()
                .host("mcp.example.com")
        );
        assert!(!own.listening_on(local).hosts().host("mcp.example.com"));
        // Naming hosts means checking them, whatever the address.
        let named = Http::new()
            .allow_host("mcp.example.com")
            .listening_on(public);
        assert!(named.hosts().host("mcp.example.com"));
        assert!(!named.hosts().host("evil.example.com"));
        let any = Http::new().allow_any_host().listening_on(local);
        assert!(any.hosts().host("evil.example.com"));
    }
}
