//! [`Command`]: what a server program is asked to do, from its command line or from code.

use std::fmt;

use serde_json::Value;

#[cfg(feature = "http")]
use crate::cli::serve_http::{self, ServeHttp};

pub(crate) const USAGE: &str = "\
usage: SERVER [COMMAND]

With no command, serves MCP over stdin and stdout (what an MCP client runs).

commands:
  serve             the same: serve MCP over stdin and stdout
  serve --http ADDR [OPTIONS]
                    serve MCP over Streamable HTTP at http://ADDR/mcp until ctrl-c or
                    SIGTERM; ADDR is HOST:PORT, or PORT alone for 127.0.0.1:PORT (needs the
                    `http` feature)
  list              print the tools, with their schemas, as JSON
  call NAME [JSON]  call the tool NAME with the JSON object of arguments (default {})
                    and print its result; exits 1 when the result is an error
  prompts           print the prompts, with their arguments, as JSON
  get NAME [JSON]   get the prompt NAME with the JSON object of string arguments
                    (default {}) and print its messages
  resources         print the resources and resource templates as JSON
  read URI          read the resource at URI and print its contents
  help              print this message

options of serve --http (sizes in bytes, or with KiB, MiB, GiB; times in seconds, or
with ms, s, m, h):
  --request-state-key-file PATH
                    seal 2026-07-28 rounds with the key in PATH (at least 32 bytes), the
                    same in every replica, so that each accepts the rounds another began
  --allow-host NAME accept requests for this Host besides the loopback names (repeatable;
                    on a non-loopback ADDR, checks the Host, which is otherwise not checked)
  --allow-origin ORIGIN
                    accept requests from web pages of ORIGIN (repeatable)
  --max-body SIZE   the largest request body (default 4MiB; 413 beyond it)
  --max-header-size SIZE
                    the largest request head (default 32KiB)
  --header-timeout TIME
                    how long a connection may wait to send a request's head (default 10s)
  --body-timeout TIME
                    how long a request's body may take to arrive (default 30s; 408)
  --session-idle TIME
                    how long a session lives without a request (default 30m)
  --max-sessions N  the most sessions open at once (default 16384; 503 beyond it)
  --keep-alive TIME how often an idle event stream gets a comment (default 15s)

authorization, as an OAuth 2.1 resource server (a token checked on every request):
  --auth-issuer URL the authorization server whose access tokens are accepted
  --auth-resource URI
                    this server's URI, as clients reach it and tokens name it in `aud`
  --auth-scope SCOPE
                    a scope every request needs (repeatable)
  --auth-tokens jwt|introspection|jwt-or-introspection
                    how tokens are checked: JWTs against the issuer's keys (the default),
                    opaque tokens by introspection, or both (the default with a client id)
  --auth-jwks-uri URL
                    read the keys here rather than where the issuer's metadata says
  --auth-jwt-leeway TIME
                    how far clocks may disagree on a JWT's exp and nbf (default 60s)
  --auth-jwks-refetch-floor TIME
                    the least time between two fetches of the keys (default 30s)
  --auth-any-token-type
                    accept JWTs whatever their typ (some servers write JWT, not at+jwt)
  --auth-client-id ID
                    the client the server introspects as; its secret is read from the
                    environment variable TOOLWRIGHT_AUTH_CLIENT_SECRET, or from the file
                    --auth-client-secret-file PATH names, never from the command line
  --auth-introspection-endpoint URL
                    ask here rather than where the issuer's metadata says
  --auth-introspection-cache TIME
                    how long an introspection's answer is kept (default 1m)
  --auth-resource-name NAME
                    this server's name in its metadata
  --auth-gateway-header NAME
                    trust the claims a gateway in front forwards in this header instead of
                    checking tokens (only when nothing but the gateway reaches the server)";

/// What a server program is asked to do: what [`Server::run`](crate::Server::run) reads from
/// the command line, or what a program with a command line of its own chooses and hands to
/// [`Server::execute`](crate::Server::execute).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// Serve MCP over stdin and stdout, as an MCP client that starts the program expects.
    Serve,
    /// Serve MCP over Streamable HTTP until ctrl-c or SIGTERM.
    #[cfg(feature = "http")]
    ServeHttp(ServeHttp),
    /// Print every tool, with its schemas, as JSON.
    List,
    /// Call one tool and print its result.
    Call {
        /// The tool.
        name: String,
        /// Its arguments, a JSON object.
        arguments: Value,
    },
    /// Print every prompt, with its arguments, as JSON.
    Prompts,
    /// Get one prompt and print its messages.
    Get {
        /// The prompt.
        name: String,
        /// Its arguments, a JSON object of strings.
        arguments: Value,
    },
    /// Print every resource and resource template as JSON.
    Resources,
    /// Read one resource and print its contents.
    Read {
        /// Its URI.
        uri: String,
    },
    /// Print the usage.
    Help,
}

/// Command-line arguments that name no [`Command`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub(crate) String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

impl Command {
    /// The command named by `args` (without the program's name): nothing is [`Command::Serve`],
    /// `serve --http ADDR [OPTIONS]`, `list`, `call NAME [JSON]`, `prompts`, `get NAME [JSON]`,
    /// `resources`, `read URI`, `help` (see [`Command::usage`]).
    ///
    /// A program with arguments of its own takes them off first and hands the rest here:
    ///
    /// ```
    /// use toolwright_runtime::Command;
    ///
    /// // `fileserver /srv/a /srv/b call read_file '{"path": "/srv/a/x"}'`: directories first.
    /// let args = ["/srv/a", "/srv/b", "call", "read_file", r#"{"path": "/srv/a/x"}"#];
    /// let (dirs, command) = args.split_at(args.iter().take_while(|a| a.starts_with('/')).count());
    /// assert_eq!(dirs, ["/srv/a", "/srv/b"]);
    /// let command = Command::parse(command)?;
    /// assert!(matches!(command, Command::Call { name, .. } if name == "read_file"));
    /// # Ok::<(), toolwright_runtime::UsageError>(())
    /// ```
    pub fn parse<I, S>(args: I) -> Result<Command, UsageError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
        match args.as_slice() {
            [] | ["serve"] => Ok(Command::Serve),
            ["serve", "--http", addr, options @ ..] => serve_http(addr, options),
            ["help" | "--help" | "-h"] => Ok(Command::Help),
            ["list"] => Ok(Command::List),
            ["call", name] => call(name, "{}"),
            ["call", name, json] => call(name, json),
            ["prompts"] => Ok(Command::Prompts),
            ["get", name] => get(name, "{}"),
            ["get", name, json] => get(name, json),
            ["resources"] => Ok(Command::Resources),
            ["read", uri] => Ok(Command::Read {
                uri: (*uri).to_owned(),
            }),
            _ => Err(UsageError(format!(
                "unexpected arguments: {}",
                args.join(" ")
            ))),
        }
    }

    /// Serving Streamable HTTP at `http://ADDR/mcp`, with the settings
    /// [`Server::serve_http`](crate::Server::serve_http) uses for `addr`; [`ServeHttp`] takes
    /// others.
    ///
    /// ```no_run
    /// use toolwright_runtime::{Command, Http, Server, ServeHttp};
    ///
    /// let addr = "0.0.0.0:8080".parse().unwrap();
    /// let server = Server::new("files", "1.0.0").discover();
    /// server.execute(Command::serve_http(addr));
    /// // or, with settings of its own:
    /// let http = Http::new().allow_host("mcp.example.com").max_body(16 << 20);
    /// # let server = Server::new("files", "1.0.0");
    /// server.execute(ServeHttp::new(addr).http(http).into());
    /// ```
    #[cfg(feature = "http")]
    pub fn serve_http(addr: std::net::SocketAddr) -> Command {
        Command::ServeHttp(ServeHttp::new(addr))
    }

    /// The usage text [`Server::run`](crate::Server::run) prints, for a program that wraps it
    /// in its own.
    pub fn usage() -> &'static str {
        USAGE
    }
}

#[cfg(feature = "http")]
impl From<ServeHttp> for Command {
    fn from(serve: ServeHttp) -> Command {
        Command::ServeHttp(serve)
    }
}

#[cfg(feature = "http")]
fn serve_http(addr: &str, options: &[&str]) -> Result<Command, UsageError> {
    serve_http::parse(addr, options)
        .map(Command::ServeHttp)
        .map_err(UsageError)
}

#[cfg(not(feature = "http"))]
fn serve_http(_: &str, _: &[&str]) -> Result<Command, UsageError> {
    Err(UsageError(
        "this server was built without HTTP: build it with toolwright's `http` feature".into(),
    ))
}

fn get(name: &str, json: &str) -> Result<Command, UsageError> {
    match call(name, json)? {
        Command::Call { name, arguments } => Ok(Command::Get { name, arguments }),
        other => Ok(other),
    }
}

fn call(name: &str, json: &str) -> Result<Command, UsageError> {
    match serde_json::from_str(json) {
        Ok(arguments @ Value::Object(_)) => Ok(Command::Call {
            name: name.to_owned(),
            arguments,
        }),
        Ok(_) => Err(UsageError(
            "the arguments must be a JSON object, like '{\"a\": 1}'".into(),
        )),
        Err(e) => Err(UsageError(format!("the arguments are not valid JSON: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn commands_from_arguments() {
        assert_eq!(Command::parse(Vec::<String>::new()), Ok(Command::Serve));
        assert_eq!(Command::parse(["list"]), Ok(Command::List));
        assert_eq!(
            Command::parse(["call", "add", r#"{"a":1}"#]),
            Ok(Command::Call {
                name: "add".into(),
                arguments: json!({"a": 1})
            })
        );
        assert!(Command::parse(["call", "add", "[1]"]).is_err());
        assert_eq!(Command::parse(["prompts"]), Ok(Command::Prompts));
        assert_eq!(
            Command::parse(["get", "review", r#"{"code":"x"}"#]),
            Ok(Command::Get {
                name: "review".into(),
                arguments: json!({"code": "x"})
            })
        );
        assert_eq!(Command::parse(["resources"]), Ok(Command::Resources));
        assert_eq!(
            Command::parse(["read", "notes://1"]),
            Ok(Command::Read {
                uri: "notes://1".into()
            })
        );
        assert!(Command::parse(["get", "review", "[1]"]).is_err());
        assert!(Command::parse(["frobnicate"]).is_err());
    }
}
