use toolwright::prelude::*;

const LIMIT: u32 = 5;

/// A literal of the wrong kind.
#[mcp_tool(title = 5)]
fn numbered() {}

#[mcp_tool(description = LIMIT)]
fn limited() {}

fn main() {}
