use toolwright::prelude::*;

/// A typo in a key.
#[mcp_tool(nmae = "x", read_only = "yes")]
fn typo() {}

fn main() {}
