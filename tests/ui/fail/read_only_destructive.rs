use toolwright::prelude::*;

/// Contradictory hints.
#[mcp_tool(read_only, destructive)]
fn delete_nothing() {}

fn main() {}
