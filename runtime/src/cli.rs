//! Every server binary is also a command line tool: `list` and `call` go through the same
//! request path a client takes, over the in-memory transport. Exit codes are returned to
//! `main`, never taken by exiting the process here.

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::diagnostics;
use crate::protocol::ProtocolVersion;
use crate::server::Server;
use crate::transport::memory::Conversation;

const USAGE: &str = "\
usage: SERVER [COMMAND]

With no command, serves MCP over stdin and stdout (what an MCP client runs).

commands:
  serve             the same: serve MCP over stdin and stdout
  serve --http ADDR serve MCP over Streamable HTTP at http://ADDR/mcp until ctrl-c; ADDR is
                    HOST:PORT, or PORT alone for 127.0.0.1:PORT (needs the `http` feature)
      --request-state-key-file PATH
                    seal 2026-07-28 rounds with the key in PATH (at least 32 bytes), the
                    same in every replica, so that each accepts the rounds another began
  list              print the tools, with their schemas, as JSON
  call NAME [JSON]  call the tool NAME with the JSON object of arguments (default {})
                    and print its result; exits 1 when the result is an error
  help              print this message";

/// What a server program is asked to do: what [`Server::run`] reads from the command line, or
/// what a program with a command line of its own chooses and hands to [`Server::execute`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// Serve MCP over stdin and stdout, as an MCP client that starts the program expects.
    Serve,
    /// Serve MCP over Streamable HTTP at `http://ADDR/mcp` until ctrl-c or SIGTERM.
    #[cfg(feature = "http")]
    ServeHttp {
        /// Where to listen.
        addr: std::net::SocketAddr,
        /// A file holding the key that seals `requestState` (see
        /// [`Server::request_state_key`]); `None` for a random key.
        request_state_key_file: Option<std::path::PathBuf>,
    },
    /// Print every tool, with its schemas, as JSON.
    List,
    /// Call one tool and print its result.
    Call {
        /// The tool.
        name: String,
        /// Its arguments, a JSON object.
        arguments: Value,
    },
    /// Print the usage.
    Help,
}

/// Command-line arguments that name no [`Command`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

impl Command {
    /// The command named by `args` (without the program's name): nothing is [`Command::Serve`],
    /// `list`, `call NAME [JSON]`, `help`.
    pub fn parse<I, S>(args: I) -> Result<Command, UsageError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
        match args.as_slice() {
            [] | ["serve"] => Ok(Command::Serve),
            ["serve", "--http", addr] => serve_http(addr, None),
            ["serve", "--http", addr, "--request-state-key-file", path] => {
                serve_http(addr, Some(path))
            }
            ["help" | "--help" | "-h"] => Ok(Command::Help),
            ["list"] => Ok(Command::List),
            ["call", name] => Ok(call(name, "{}")?),
            ["call", name, json] => Ok(call(name, json)?),
            _ => Err(UsageError(format!(
                "unexpected arguments: {}",
                args.join(" ")
            ))),
        }
    }
}

#[cfg(feature = "http")]
fn serve_http(addr: &str, key_file: Option<&str>) -> Result<Command, UsageError> {
    use std::net::{SocketAddr, ToSocketAddrs};
    let parsed = match addr.parse::<u16>() {
        Ok(port) => Some(SocketAddr::from(([127, 0, 0, 1], port))),
        Err(_) => addr.to_socket_addrs().ok().and_then(|mut a| a.next()),
    };
    parsed
        .map(|addr| Command::ServeHttp {
            addr,
            request_state_key_file: key_file.map(Into::into),
        })
        .ok_or_else(|| {
            UsageError(format!(
                "`{addr}` is not an address to listen on, like 127.0.0.1:8080"
            ))
        })
}

#[cfg(not(feature = "http"))]
fn serve_http(_: &str, _: Option<&str>) -> Result<Command, UsageError> {
    Err(UsageError(
        "this server was built without HTTP: build it with toolwright's `http` feature".into(),
    ))
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

impl Server {
    /// Runs the program as its command line asks: with no arguments it serves MCP over stdio;
    /// `list` prints the tools, `call NAME [JSON]` calls one, `help` explains. Returns the exit
    /// code for `main`: 0, 1 when a call's result is an error or the server cannot start, 2 for
    /// arguments it does not understand.
    ///
    /// ```no_run
    /// fn main() -> std::process::ExitCode {
    ///     toolwright_runtime::Server::new("weather", "1.0.0").discover().run()
    /// }
    /// ```
    pub fn run(self) -> ExitCode {
        match Command::parse(std::env::args().skip(1)) {
            Ok(command) => self.execute(command),
            Err(usage) => {
                eprintln!("error: {usage}\n\n{USAGE}");
                ExitCode::from(2)
            }
        }
    }

    /// Does what `command` says, without reading the command line: for a program that parses
    /// its own (with clap, say) and serves MCP as one of its subcommands.
    ///
    /// ```no_run
    /// use toolwright_runtime::{Command, Server};
    ///
    /// fn main() -> std::process::ExitCode {
    ///     let server = Server::new("weather", "1.0.0").discover();
    ///     match std::env::args().nth(1).as_deref() {
    ///         Some("mcp") => server.execute(Command::Serve),
    ///         Some("tools") => server.execute(Command::List),
    ///         _ => {
    ///             eprintln!("usage: weather mcp | weather tools");
    ///             std::process::ExitCode::from(2)
    ///         }
    ///     }
    /// }
    /// ```
    pub fn execute(self, command: Command) -> ExitCode {
        let request = match command {
            Command::Serve => {
                return match self.serve_stdio() {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => fail(&e),
                };
            }
            #[cfg(feature = "http")]
            Command::ServeHttp {
                addr,
                request_state_key_file,
            } => {
                let server = match request_state_key_file {
                    Some(path) => match std::fs::read(&path) {
                        Ok(key) => self.request_state_key(key),
                        Err(e) => {
                            let path = path.display();
                            return fail(&format_args!("cannot read the key file `{path}`: {e}"));
                        }
                    },
                    None => self,
                };
                let http = crate::transport::http::Http::for_address(addr);
                let shutdown = crate::transport::http::shutdown_signal();
                let announce = |bound| {
                    eprintln!(
                        "toolwright: serving MCP at http://{bound}{}",
                        crate::transport::http::PATH
                    )
                };
                return match server.serve_http_bound(addr, http, shutdown, announce) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => fail(&e),
                };
            }
            Command::Help => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Command::List => ("tools/list", json!({})),
            Command::Call { name, arguments } => {
                ("tools/call", json!({"name": name, "arguments": arguments}))
            }
        };
        let client = json!({"name": "toolwright-cli", "version": env!("CARGO_PKG_VERSION")});
        let mut conversation =
            match Conversation::open(self, ProtocolVersion::LATEST_HANDSHAKE, client) {
                Ok(conversation) => conversation,
                Err(e) => return fail(&e),
            };
        let id = conversation.send_request(request.0, request.1);
        // A tool may take as long as it takes; the answer always comes.
        let answer = conversation
            .answer(id, None)
            .unwrap_or_else(|_| json!({"error": {"message": "no answer"}}));
        let failed = answer.get("error").is_some()
            || answer.pointer("/result/isError") == Some(&Value::Bool(true));
        let shown = answer.get("result").or_else(|| answer.get("error"));
        let mut out = std::io::stdout().lock();
        let printed = serde_json::to_writer_pretty(&mut out, &shown)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush());
        match printed {
            // The reader of our output (`| head`) has what it wanted.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => return fail(&e),
            Ok(()) => {}
        }
        if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

fn fail(error: &dyn fmt::Display) -> ExitCode {
    diagnostics::error(format_args!("{error}"));
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(Command::parse(["frobnicate"]).is_err());
        #[cfg(feature = "http")]
        assert_eq!(
            Command::parse(["serve", "--http", "8080", "--request-state-key-file", "k"]),
            Ok(Command::ServeHttp {
                addr: ([127, 0, 0, 1], 8080).into(),
                request_state_key_file: Some("k".into()),
            })
        );
    }
}
