use toolwright::prelude::*;

/// Named twice.
#[mcp_tool(name = "first", name = "second", title = 5)]
fn twice() {}

fn main() {}
