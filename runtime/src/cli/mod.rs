//! Every server binary is also a command line tool: `list` and `call` go through the same
//! request path a client takes, over the in-memory transport. Exit codes are returned to
//! `main`, never taken by exiting the process here.

mod command;
#[cfg(feature = "http")]
mod flags;
#[cfg(feature = "http")]
mod serve_auth;
#[cfg(feature = "http")]
mod serve_http;

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};

pub use command::{Command, UsageError};
#[cfg(feature = "http")]
pub use serve_http::ServeHttp;

use crate::diagnostics;
use crate::protocol::ProtocolVersion;
use crate::server::Server;
use crate::transport::memory::Conversation;
use command::USAGE;

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
    /// its own (with clap, say) and serves MCP as one of its subcommands, or that takes
    /// arguments of its own before toolwright's:
    ///
    /// ```no_run
    /// use std::process::ExitCode;
    /// use toolwright_runtime::{Command, Server};
    ///
    /// struct Allowed(Vec<String>);
    ///
    /// // `files DIR... [serve | serve --http ADDR [OPTIONS] | list | call NAME JSON]`
    /// fn main() -> ExitCode {
    ///     let args: Vec<String> = std::env::args().skip(1).collect();
    ///     let commands = ["serve", "list", "call", "help"];
    ///     let split = args.iter().position(|a| commands.contains(&a.as_str()));
    ///     let (dirs, rest) = args.split_at(split.unwrap_or(args.len()));
    ///     let command = match Command::parse(rest) {
    ///         Ok(command) => command,
    ///         Err(usage) => {
    ///             eprintln!("error: {usage}\n\nusage: files DIR... [COMMAND]\n{}", Command::usage());
    ///             return ExitCode::from(2);
    ///         }
    ///     };
    ///     let server = Server::new("files", "1.0.0").state(Allowed(dirs.to_vec())).discover();
    ///     server.execute(command)
    /// }
    /// ```
    ///
    /// A command can also be built in code: `Command::serve_http(addr)`, or
    /// `ServeHttp::new(addr).http(Http::new().max_body(16 << 20)).into()` with settings.
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
        let requests = match command {
            Command::Serve => {
                return match self.serve_stdio() {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => fail(&e),
                };
            }
            #[cfg(feature = "http")]
            Command::ServeHttp(serve) => return self.serve_http_command(serve),
            Command::Help => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Command::List => vec![("tools/list", json!({}))],
            Command::Call { name, arguments } => {
                vec![("tools/call", json!({"name": name, "arguments": arguments}))]
            }
            Command::Prompts => vec![("prompts/list", json!({}))],
            Command::Get { name, arguments } => {
                vec![("prompts/get", json!({"name": name, "arguments": arguments}))]
            }
            // Both lists, as one object: `{"resources": [...], "resourceTemplates": [...]}`.
            Command::Resources => vec![
                ("resources/list", json!({})),
                ("resources/templates/list", json!({})),
            ],
            Command::Read { uri } => vec![("resources/read", json!({"uri": uri}))],
        };
        let client = json!({"name": "toolwright-cli", "version": env!("CARGO_PKG_VERSION")});
        let mut conversation =
            match Conversation::open(self, ProtocolVersion::LATEST_HANDSHAKE, client) {
                Ok(conversation) => conversation,
                Err(e) => return fail(&e),
            };
        let mut shown = serde_json::Map::new();
        let mut failed = false;
        for (method, params) in requests {
            let id = conversation.send_request(method, params);
            // A tool may take as long as it takes; the answer always comes.
            let answer = conversation
                .answer(id, None)
                .unwrap_or_else(|_| json!({"error": {"message": "no answer"}}));
            failed = answer.get("error").is_some()
                || answer.pointer("/result/isError") == Some(&Value::Bool(true));
            let part = answer.get("result").or_else(|| answer.get("error"));
            if let Some(Value::Object(part)) = part {
                shown.extend(part.clone());
            }
            if failed {
                break;
            }
        }
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

impl Server {
    #[cfg(feature = "http")]
    fn serve_http_command(self, serve: ServeHttp) -> ExitCode {
        let server = match serve.request_state_key_file {
            Some(path) => match std::fs::read(&path) {
                Ok(key) => self.request_state_key(key),
                Err(e) => {
                    let path = path.display();
                    return fail(&format_args!("cannot read the key file `{path}`: {e}"));
                }
            },
            None => self,
        };
        let server = match serve.task_lease {
            Some(lease) => server.task_lease(lease),
            None => server,
        };
        let server = match &serve.task_store {
            Some(url) => match task_store(url) {
                Ok(store) => server.task_store(store),
                Err(e) => return fail(&format_args!("cannot keep tasks in `{url}`: {e}")),
            },
            None => server,
        };
        let shutdown = crate::transport::http::shutdown_signal();
        let announce = |bound| {
            eprintln!(
                "toolwright: serving MCP at http://{bound}{}",
                crate::transport::http::PATH
            )
        };
        match server.serve_http_bound(serve.addr, serve.http, shutdown, announce) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        }
    }
}

/// The task store at `url`, connected now. Its connections live on a runtime of their own, for
/// as long as the program: the server's threads only start with the first call.
#[cfg(all(feature = "http", feature = "redis"))]
fn task_store(url: &str) -> Result<crate::tasks::redis::RedisTaskStore, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("toolwright-task-store")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the store's thread: {e}"))?;
    let runtime: &'static tokio::runtime::Runtime = Box::leak(Box::new(runtime));
    let store = runtime.block_on(crate::tasks::redis::RedisTaskStore::connect(url));
    store.map_err(|e| e.to_string())
}

/// The task store at `url`: none without a store that can live elsewhere.
#[cfg(all(feature = "http", not(feature = "redis")))]
fn task_store(_: &str) -> Result<crate::tasks::memory::MemoryTaskStore, String> {
    Err("this server was built without a shared task store (feature `redis`)".into())
}

fn fail(error: &dyn fmt::Display) -> ExitCode {
    diagnostics::error(format_args!("{error}"));
    ExitCode::FAILURE
}
