//! The benchmark tools on toolwright. With `--many`, 197 more tools are registered, for the
//! cost of a call with 200 tools.
use toolwright::prelude::*;
use toolwright_bench::Item;

/// Echoes the text.
#[mcp_tool]
fn echo(text: String) -> String {
    text
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

mod filler {
    use toolwright::prelude::*;
    include!(concat!(env!("OUT_DIR"), "/filler_tools.rs"));
}

fn main() -> std::process::ExitCode {
    let server = Server::new("toolwright-bench", "0");
    let server = if std::env::args().any(|a| a == "--many") {
        server.discover()
    } else {
        server.tool::<echo>().tool::<add>().tool::<items>()
    };
    server.execute(toolwright::Command::Serve)
}
