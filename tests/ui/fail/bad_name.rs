use toolwright::prelude::*;

/// A name with a space.
#[mcp_tool(name = "get weather")]
fn weather() {}

fn main() {}
