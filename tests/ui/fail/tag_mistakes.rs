use toolwright::prelude::*;

/// Tags are strings.
#[mcp_tool(tags(admin))]
fn unquoted() {}

/// A tag once.
#[mcp_tool(tags("admin", "billing", "admin"))]
fn repeated() {}

/// A tag has a name.
#[mcp_tool(tags(""))]
fn empty() {}

fn main() {}
