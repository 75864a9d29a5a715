//! Descriptions and titles from constants and `concat!`, so that shared text is written once.

use toolwright::prelude::*;

const SHARED: &str = "The repository to work on.";
const TITLE: &str = "Git status";

mod docs {
    pub const LOG: &str = "Shows the commit log.";
}

/// Shown by the doc comment, with a constant argument description.
#[mcp_tool(title = TITLE)]
fn status(#[arg(description = SHARED)] repo: String) -> String {
    repo
}

#[mcp_tool(description = docs::LOG, title = concat!("Git ", "log"))]
fn log(#[arg(description = concat!("At most this many commits. ", "Default: all."))] max: Option<u32>) -> String {
    format!("{max:?}")
}

fn main() {
    let _ = toolwright::server!().discover();
}
