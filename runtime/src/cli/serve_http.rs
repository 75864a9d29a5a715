//! [`ServeHttp`]: serving Streamable HTTP from the command line (`serve --http ADDR [OPTIONS]`)
//! or from code, with the endpoint's settings.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use crate::cli::flags::{count, duration, pairs, size};
use crate::cli::serve_auth::{AuthFlags, SWITCHES};
use crate::transport::http::Http;

/// Serving MCP over Streamable HTTP at `http://ADDR/mcp` until ctrl-c or SIGTERM: where, with
/// which endpoint settings, and with which key for 2026-07-28 request states.
///
/// ```
/// use std::time::Duration;
/// use toolwright_runtime::{Command, Http, ServeHttp};
///
/// let command: Command = ServeHttp::new("0.0.0.0:8080".parse().unwrap())
///     .http(Http::new().allow_any_host().max_body(16 << 20).session_idle(Duration::from_secs(600)))
///     .request_state_key_file("/run/secrets/state.key")
///     .into();
/// // the same as the command line
/// // `serve --http 0.0.0.0:8080 --max-body 16MiB --session-idle 10m --request-state-key-file ...`
/// // (and `--task-store redis://...`, `--task-lease 10s` for tasks replicas share, and the
/// // `--auth-*` flags for an `Authorization`: `--auth-issuer URL --auth-resource URI ...`)
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServeHttp {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The endpoint's settings.
    pub http: Http,
    /// A file holding the key that seals `requestState` (see
    /// [`Server::request_state_key`](crate::Server::request_state_key)); `None` for a random
    /// key.
    pub request_state_key_file: Option<PathBuf>,
    /// Where tasks are kept, as a URL (`redis://host:6379`, with feature `redis`); `None` for
    /// the server's own choice (in this process, unless its code says).
    pub task_store: Option<String>,
    /// How long a replica's word that it runs a task lasts (see
    /// [`Server::task_lease`](crate::Server::task_lease)).
    pub task_lease: Option<Duration>,
}

impl ServeHttp {
    /// Serving at `addr` with the settings [`Server::serve_http`](crate::Server::serve_http)
    /// uses there: on a loopback address only loopback hosts and origins; elsewhere any host.
    pub fn new(addr: SocketAddr) -> ServeHttp {
        ServeHttp {
            addr,
            http: Http::new(),
            request_state_key_file: None,
            task_store: None,
            task_lease: None,
        }
    }

    /// With these endpoint settings. The `Host`s accepted are still the address's unless
    /// `http` names them ([`Http::allow_host`], [`Http::allow_any_host`]).
    pub fn http(mut self, http: Http) -> ServeHttp {
        self.http = http;
        self
    }

    /// Sealing 2026-07-28 request states with the key in this file.
    pub fn request_state_key_file(mut self, path: impl Into<PathBuf>) -> ServeHttp {
        self.request_state_key_file = Some(path.into());
        self
    }

    /// Keeping tasks in the store at `url` (`redis://host:6379/0`, with feature `redis`), which
    /// replicas share.
    pub fn task_store(mut self, url: impl Into<String>) -> ServeHttp {
        self.task_store = Some(url.into());
        self
    }

    /// With this lease on the tasks a replica runs.
    pub fn task_lease(mut self, lease: Duration) -> ServeHttp {
        self.task_lease = Some(lease);
        self
    }
}

/// `ADDR [OPTIONS]` of `serve --http`, or what is wrong with them.
pub(crate) fn parse(addr: &str, options: &[&str]) -> Result<ServeHttp, String> {
    parse_with(addr, options, &|name| std::env::var(name).ok())
}

/// [`parse`], reading the environment (a secret of the `--auth-*` flags) through `env`.
fn parse_with(
    addr: &str,
    options: &[&str],
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<ServeHttp, String> {
    let parsed = match addr.parse::<u16>() {
        Ok(port) => Some(SocketAddr::from(([127, 0, 0, 1], port))),
        Err(_) => addr.to_socket_addrs().ok().and_then(|mut a| a.next()),
    };
    let addr = parsed
        .ok_or_else(|| format!("`{addr}` is not an address to listen on, like 127.0.0.1:8080"))?;
    let pairs = pairs(options, SWITCHES)?;
    // Naming hosts means checking them, whatever the address (`Http::allow_host`).
    let mut http = Http::new();
    let mut serve = ServeHttp::new(addr);
    let mut auth = AuthFlags::default();
    for (flag, value) in pairs {
        if auth.take(flag, value)? {
            continue;
        }
        http = match flag {
            "--request-state-key-file" => {
                serve.request_state_key_file = Some(PathBuf::from(value));
                http
            }
            "--task-store" => {
                serve.task_store = Some(value.to_owned());
                http
            }
            "--task-lease" => {
                serve.task_lease = Some(duration(flag, value)?);
                http
            }
            "--allow-host" => http.allow_host(value),
            "--allow-origin" => http.allow_origin(value),
            "--max-body" => http.max_body(size(flag, value)?),
            "--max-header-size" => http.max_header_size(size(flag, value)?),
            "--header-timeout" => http.header_timeout(duration(flag, value)?),
            "--body-timeout" => http.body_timeout(duration(flag, value)?),
            "--session-idle" => http.session_idle(duration(flag, value)?),
            "--max-sessions" => http.max_sessions(count(flag, value)?),
            "--keep-alive" => http.keep_alive(duration(flag, value)?),
            _ => return Err(format!("unknown option `{flag}` of `serve --http`")),
        };
    }
    if let Some(authorization) = auth.build(env)? {
        http = http.authorization(authorization);
    }
    Ok(serve.http(http))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `serve --http ADDR OPTIONS...`
    fn parsed(args: &[&str]) -> Result<ServeHttp, String> {
        match args {
            ["serve", "--http", addr, options @ ..] => parse(addr, options),
            _ => panic!("{args:?}"),
        }
    }

    #[test]
    fn the_address_and_the_key() {
        assert_eq!(
            parsed(&["serve", "--http", "8080", "--request-state-key-file", "k"]),
            Ok(ServeHttp::new(([127, 0, 0, 1], 8080).into()).request_state_key_file("k"))
        );
        assert_eq!(
            parsed(&["serve", "--http", "0.0.0.0:80"]),
            Ok(ServeHttp::new(([0, 0, 0, 0], 80).into()))
        );
        assert!(parsed(&["serve", "--http", "nowhere:x"]).is_err());
    }

    #[test]
    fn every_setting_has_a_flag() {
        let serve = parsed(&[
            "serve",
            "--http",
            "0.0.0.0:9000",
            "--max-body=16MiB",
            "--max-header-size",
            "64KiB",
            "--header-timeout",
            "5s",
            "--body-timeout",
            "1m",
            "--session-idle",
            "2h",
            "--max-sessions",
            "100",
            "--keep-alive",
            "500ms",
            "--allow-host",
            "mcp.example.com",
            "--allow-origin",
            "https://app.example.com",
            "--task-store",
            "redis://127.0.0.1:6379",
            "--task-lease=10s",
        ])
        .unwrap();
        assert_eq!(serve.task_store.as_deref(), Some("redis://127.0.0.1:6379"));
        assert_eq!(serve.task_lease, Some(Duration::from_secs(10)));
        let expected = Http::new()
            .max_body(16 << 20)
            .max_header_size(64 << 10)
            .header_timeout(Duration::from_secs(5))
            .body_timeout(Duration::from_secs(60))
            .session_idle(Duration::from_secs(7200))
            .max_sessions(100)
            .keep_alive(Duration::from_millis(500))
            .allow_host("mcp.example.com")
            .allow_origin("https://app.example.com");
        assert_eq!(serve.http, expected);
    }

    #[test]
    fn mistakes_are_named() {
        let cases = [
            (
                &["serve", "--http", "80", "--max-body", "4MB"][..],
                "`--max-body` takes a size in bytes above 0, like 4194304 or 4MiB, not `4MB`",
            ),
            (
                &["serve", "--http", "80", "--body-timeout", "soon"],
                "`--body-timeout` takes a time above 0, like 30s, 15m or 500ms, not `soon`",
            ),
            (
                &["serve", "--http", "80", "--keep-alive", "0s"],
                "`--keep-alive` takes a time above 0, like 30s, 15m or 500ms, not `0s`",
            ),
            (
                &["serve", "--http", "80", "--max-sessions"],
                "`--max-sessions` needs a value",
            ),
            (
                &["serve", "--http", "80", "--max-bodies", "1"],
                "unknown option `--max-bodies` of `serve --http`",
            ),
            (
                &["serve", "--http", "80", "extra"],
                "unexpected argument `extra`",
            ),
        ];
        for (args, message) in cases {
            assert_eq!(parsed(args).unwrap_err(), message);
        }
    }

    /// `serve --http 80 OPTIONS...` with `env` for the environment: its authorization.
    fn authorized(
        options: &[&str],
        env: &[(&str, &str)],
    ) -> Result<Option<crate::transport::http::oauth::Authorization>, String> {
        let env = |name: &str| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        };
        parse_with("80", options, &env).map(|serve| serve.http.authorization)
    }

    const BASE: [&str; 4] = [
        "--auth-issuer",
        "https://auth.example.com",
        "--auth-resource",
        "https://mcp.example.com/mcp",
    ];

    fn with<'a>(more: &[&'a str]) -> Vec<&'a str> {
        BASE.iter().copied().chain(more.iter().copied()).collect()
    }

    #[test]
    fn authorization_flags_make_an_authorization() {
        assert_eq!(authorized(&[], &[]), Ok(None));
        let options = with(&[
            "--auth-scope",
            "mcp:tools",
            "--auth-scope=mcp:read mcp:list",
        ]);
        let authorization = authorized(&options, &[])
            .unwrap()
            .expect("an authorization");
        let settings = &authorization.inner;
        assert_eq!(settings.required, ["mcp:tools", "mcp:read", "mcp:list"]);
        assert_eq!(settings.authorization_servers, ["https://auth.example.com"]);
        let jwt = [
            "--auth-jwks-uri",
            "https://auth.example.com/keys",
            "--auth-any-token-type",
        ];
        let jwt = [
            &jwt[..],
            &["--auth-jwt-leeway", "5s", "--auth-jwks-refetch-floor", "1m"],
        ]
        .concat();
        assert!(authorized(&with(&jwt), &[]).unwrap().is_some());
        // The introspection client's secret from the environment, or from a file.
        let client = [
            "--auth-client-id",
            "mcp-server",
            "--auth-introspection-cache",
            "30s",
        ];
        let secret = [("TOOLWRIGHT_AUTH_CLIENT_SECRET", "s3cret")];
        for kind in ["introspection", "jwt-or-introspection"] {
            let options = with(&[&client[..], &["--auth-tokens", kind]].concat());
            assert!(authorized(&options, &secret).unwrap().is_some(), "{kind}");
        }
        let file = std::env::temp_dir().join(format!("toolwright-secret-{}", std::process::id()));
        std::fs::write(&file, "s3cret\n").unwrap();
        let path = file.to_str().unwrap();
        let options = with(&[
            "--auth-client-id",
            "mcp-server",
            "--auth-client-secret-file",
            path,
        ]);
        assert!(authorized(&options, &[]).unwrap().is_some());
        std::fs::remove_file(&file).unwrap();
        let gateway = with(&["--auth-gateway-header", "x-jwt-payload"]);
        assert!(authorized(&gateway, &[]).unwrap().is_some());
    }

    #[test]
    fn authorization_mistakes_are_named() {
        let error = |options: &[&str]| authorized(options, &[]).unwrap_err();
        assert_eq!(
            error(&["--auth-scope", "mcp:tools"]),
            "`--auth-scope` needs `--auth-issuer`, the authorization server whose tokens are accepted"
        );
        assert!(error(&BASE[..2]).starts_with("`--auth-issuer` needs `--auth-resource`"));
        let secretless = error(&with(&["--auth-client-id", "mcp-server"]));
        assert!(
            secretless.contains("TOOLWRIGHT_AUTH_CLIENT_SECRET"),
            "{secretless}"
        );
        assert_eq!(
            error(&with(&["--auth-tokens", "introspection"])),
            "`--auth-tokens introspection` needs `--auth-client-id`, the client the server \
             introspects as"
        );
        let secret = [("TOOLWRIGHT_AUTH_CLIENT_SECRET", "s3cret")];
        let mixed = with(&[
            "--auth-tokens",
            "introspection",
            "--auth-client-id",
            "c",
            "--auth-jwks-uri",
            "x",
        ]);
        assert_eq!(
            authorized(&mixed, &secret).unwrap_err(),
            "`--auth-jwks-uri` does not go with `--auth-tokens introspection`"
        );
        assert_eq!(
            error(&with(&[
                "--auth-tokens",
                "jwt",
                "--auth-introspection-endpoint",
                "x"
            ])),
            "`--auth-introspection-endpoint` does not go with `--auth-tokens jwt`"
        );
        assert!(error(&with(&["--auth-tokens", "saml"])).contains("not `saml`"));
        let behind = with(&["--auth-gateway-header", "x-claims", "--auth-jwks-uri", "x"]);
        assert!(error(&behind).contains("the gateway does"));
        assert!(error(&with(&["--auth-gateway-header", "two words"])).contains("header name"));
        assert!(error(&with(&["--auth-jwt-leeway", "soon"])).contains("takes a time"));
        let plain = [
            "--auth-issuer",
            "http://auth.example.com",
            "--auth-resource",
            "https://m/mcp",
        ];
        assert!(error(&plain).contains("is not an `https` URL"));
        assert_eq!(
            error(&with(&["--auth-secret", "s3cret"])),
            "unknown option `--auth-secret` of `serve --http`"
        );
    }
}
