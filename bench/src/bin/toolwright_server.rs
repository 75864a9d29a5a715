//! The benchmark tools on toolwright. With `--mounted` or `--mounted-twice`, they are served
//! through one mount or two. With `--many`, 197 more tools are registered, for the
//! cost of a call with 200 tools. With `--async-echo`, `--defined-echo` or `--typed-echo`,
//! `echo` is an `async fn`, a `ToolDef` made at run time with the same schema, or one whose
//! arguments bind to a type, for what each way costs.
//!
//! `serve --http ADDR` serves them over Streamable HTTP as every toolwright binary does
//! (`toolwright::cli::Command::ServeHttp`). With `SESSION_IDLE_MS` set, the endpoint gets that idle
//! time and room for 20 000 sessions instead (the HTTP bench's memory mode), through
//! `Server::http_service` on a listener of its own, so that port 0 can be announced.
use toolwright::prelude::*;
use toolwright_bench::Item;

/// Echoes the text.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// `echo` as an `async fn` (`--async-echo`), in a module of its own: a name is claimed once
/// per module.
mod async_echo {
    use toolwright::prelude::*;

    /// Echoes the text.
    #[mcp_tool(name = "echo")]
    pub async fn echo_async(text: String) -> String {
        text
    }
}

/// `echo` as an `async fn` taking its arguments as one `Args<EchoArgs>` (`--args-echo`): the
/// generated tool a `ToolDef::typed` is.
mod args_echo {
    use toolwright::prelude::*;

    /// Echoes the text.
    #[mcp_tool(name = "echo")]
    pub async fn echo_args(arguments: Args<super::EchoArgs>) -> String {
        arguments.0.text
    }
}

/// `echo` made at run time (`--defined-echo`): the schema the generated one lists, the
/// arguments read from the JSON value.
fn echo_defined() -> toolwright::tools::ToolDef {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
        "additionalProperties": false
    });
    toolwright::tools::ToolDef::new(
        "echo",
        |arguments: serde_json::Value, _: toolwright::Context| async move {
            match arguments {
                serde_json::Value::Object(mut map) => match map.remove("text") {
                    Some(serde_json::Value::String(text)) => Ok(text),
                    _ => Err("`text` must be a string"),
                },
                _ => Err("the arguments must be an object"),
            }
        },
    )
    .description("Echoes the text.")
    .input_schema(schema)
}

/// The arguments of `echo` as a type (`--typed-echo`, `--args-echo`), refusing unknown
/// fields itself as the struct `#[mcp_tool]` derives for `echo(text: String)` does.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EchoArgs {
    text: String,
}

/// `echo` made at run time with typed arguments (`--typed-echo`): what a run-time tool whose
/// arguments have a Rust type costs.
fn echo_typed() -> toolwright::tools::ToolDef {
    toolwright::tools::ToolDef::typed(
        "echo",
        |arguments: EchoArgs, _: toolwright::Context| async move {
            Ok::<_, ToolError>(arguments.text)
        },
    )
    .description("Echoes the text.")
}

/// Adds two integers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Returns 100 items.
#[mcp_tool]
fn items() -> Vec<Item> {
    toolwright_bench::items()
}

/// Whether a path is inside one of the client's roots (toolwright only, with `--roots`: the
/// tool a server confined to its client's roots runs on every call).
#[mcp_tool(tags("roots"))]
async fn in_roots(path: String, roots: Roots) -> Result<bool, ToolError> {
    Ok(roots
        .list()
        .await?
        .iter()
        .any(|root| path.starts_with(&root.uri)))
}

mod filler {
    use toolwright::prelude::*;
    include!(concat!(env!("OUT_DIR"), "/filler_tools.rs"));
}

fn main() -> std::process::ExitCode {
    let server = Server::new("toolwright-bench", "0");
    let has = |flag: &str| std::env::args().any(|a| a == flag);
    let server = if has("--async-echo") {
        server.tool::<async_echo::echo_async>()
    } else if has("--args-echo") {
        server.tool::<args_echo::echo_args>()
    } else if has("--defined-echo") {
        server.tool_def(echo_defined())
    } else if has("--typed-echo") {
        server.tool_def(echo_typed())
    } else {
        server.tool::<echo>()
    };
    let server = server.tool::<add>().tool::<items>().tool::<in_roots>();
    let server = match has("--many") {
        true => server.discover_in(concat!(module_path!(), "::filler")),
        false => server,
    };
    // The roots bench's tool only with `--roots`: the other benchmarks serve the same tools
    // as they always have.
    let server = match std::env::args().any(|a| a == "--roots") {
        true => server,
        false => server.without_tags(["roots"]),
    };
    // A middleware that does nothing, to measure what the mechanism costs.
    let server = match std::env::args().any(|a| a == "--noop-middleware") {
        true => server.layer(toolwright::middleware::from_fn(|call, next| next.run(call))),
        false => server,
    };
    // The same tools through one mount or two (without a namespace, so that the requests name
    // them as they always have), to measure what a mount costs a call.
    let server = match (has("--mounted"), has("--mounted-twice")) {
        (true, _) => Server::new("toolwright-bench", "0").mount("", server),
        (_, true) => {
            let middle = Server::new("middle", "0").mount("", server);
            Server::new("toolwright-bench", "0").mount("", middle)
        }
        _ => server,
    };
    let flags = [
        "--many",
        "--noop-middleware",
        "--roots",
        "--async-echo",
        "--defined-echo",
        "--typed-echo",
        "--args-echo",
        "--mounted",
        "--mounted-twice",
    ];
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !flags.contains(&a.as_str()))
        .collect();
    if args.first().map(String::as_str) != Some("serve") || args.len() != 3 {
        return server.execute(toolwright::cli::Command::Serve);
    }
    match std::env::var("SESSION_IDLE_MS") {
        Ok(idle) => short_sessions(server, &args[2], idle.parse().expect("milliseconds")),
        Err(_) => match toolwright::cli::Command::parse(&args) {
            Ok(command) => server.execute(command),
            Err(usage) => panic!("{usage}"),
        },
    }
}

/// What `serve_http_with(addr, Http::new().session_idle(..).max_sessions(20_000), ..)` does,
/// on the same kind of runtime, with the bound address announced as `serve --http` does.
fn short_sessions(server: Server, addr: &str, idle_ms: u64) -> std::process::ExitCode {
    let http = toolwright::http::Http::new()
        .session_idle(std::time::Duration::from_millis(idle_ms))
        .max_sessions(20_000);
    let endpoint = server.http_service(http).expect("the server builds");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let bound = listener.local_addr().unwrap();
        eprintln!(
            "toolwright: serving MCP at http://{bound}{}",
            toolwright::http::PATH
        );
        endpoint
            .serve(listener, std::future::pending())
            .await
            .unwrap();
    });
    std::process::ExitCode::SUCCESS
}
