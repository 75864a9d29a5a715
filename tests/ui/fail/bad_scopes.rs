use toolwright::prelude::*;

/// A scope has no spaces.
#[mcp_tool(scopes("notes write"))]
fn write() -> String {
    String::new()
}

/// Nor quotes.
#[mcp_prompt(scopes("say\"hi"))]
fn greet() -> String {
    String::new()
}

/// Each scope once.
#[mcp_resource("docs://readme", scopes("docs", "docs"))]
fn readme() -> String {
    String::new()
}

/// Not empty.
#[mcp_tool(scopes(""))]
fn nothing() -> String {
    String::new()
}

fn main() {}
