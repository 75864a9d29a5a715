//! Hints that agree with `read_only` compile, as the official servers send them: all four.

use toolwright::prelude::*;

/// Reads the log.
#[mcp_tool(read_only, destructive = false, idempotent, open_world = false)]
fn read_log() -> String {
    String::new()
}

/// Reads the status; says explicitly that it is not idempotent in what it returns.
#[mcp_tool(read_only = true, idempotent = false)]
fn status() -> String {
    String::new()
}

/// Writes nothing, though not read-only by its hints.
#[mcp_tool(read_only = false, destructive)]
fn wipe() {}

fn main() {
    let _ = toolwright::server!().discover();
}
