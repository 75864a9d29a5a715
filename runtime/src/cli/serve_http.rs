//! [`ServeHttp`]: serving Streamable HTTP from the command line (`serve --http ADDR [OPTIONS]`)
//! or from code, with the endpoint's settings.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

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
/// // (and `--task-store redis://...`, `--task-lease 10s` for tasks replicas share)
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
    let parsed = match addr.parse::<u16>() {
        Ok(port) => Some(SocketAddr::from(([127, 0, 0, 1], port))),
        Err(_) => addr.to_socket_addrs().ok().and_then(|mut a| a.next()),
    };
    let addr = parsed
        .ok_or_else(|| format!("`{addr}` is not an address to listen on, like 127.0.0.1:8080"))?;
    let pairs = pairs(options)?;
    // Naming hosts means checking them, whatever the address (`Http::allow_host`).
    let mut http = Http::new();
    let mut serve = ServeHttp::new(addr);
    for (flag, value) in pairs {
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
    Ok(serve.http(http))
}

/// `--flag VALUE` and `--flag=VALUE`, in order.
fn pairs<'a>(options: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut pairs = Vec::new();
    let mut rest = options.iter();
    while let Some(option) = rest.next() {
        if !option.starts_with("--") {
            return Err(format!("unexpected argument `{option}`"));
        }
        match option.split_once('=') {
            Some((flag, value)) => pairs.push((flag, value)),
            None => match rest.next() {
                Some(value) => pairs.push((option, value)),
                None => return Err(format!("`{option}` needs a value")),
            },
        }
    }
    Ok(pairs)
}

fn count(flag: &str, value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("`{flag}` takes a number, not `{value}`"))
}

/// Bytes: `1048576`, `512KiB`, `4MiB`, `1GiB`.
fn size(flag: &str, value: &str) -> Result<usize, String> {
    let units = [
        ("", 1),
        ("b", 1),
        ("kib", 1 << 10),
        ("mib", 1 << 20),
        ("gib", 1 << 30),
    ];
    scaled(value, &units)
        .and_then(|bytes| usize::try_from(bytes).ok())
        .ok_or_else(|| {
            format!("`{flag}` takes a size in bytes above 0, like 4194304 or 4MiB, not `{value}`")
        })
}

/// A time: `30` (seconds), `500ms`, `30s`, `15m`, `2h`.
fn duration(flag: &str, value: &str) -> Result<Duration, String> {
    let units = [
        ("ms", 1),
        ("", 1_000),
        ("s", 1_000),
        ("m", 60_000),
        ("h", 3_600_000),
    ];
    scaled(value, &units)
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!("`{flag}` takes a time above 0, like 30s, 15m or 500ms, not `{value}`")
        })
}

/// A number above 0 followed by one of `units` (`512KiB`, in any case), in the units' common
/// measure. (None of the settings means anything at 0: a keep-alive every 0 s floods a stream.)
fn scaled(value: &str, units: &[(&str, u64)]) -> Option<u64> {
    let value = value.to_ascii_lowercase();
    let digits = value
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(digits);
    let (_, scale) = units.iter().find(|(name, _)| *name == unit)?;
    number
        .parse::<u64>()
        .ok()?
        .checked_mul(*scale)
        .filter(|&n| n > 0)
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
}
