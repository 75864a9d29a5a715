use toolwright::prelude::*;

/// Searches.
#[mcp_tool(name = "search")]
fn find() -> String {
    String::new()
}

/// Searches too, under the same name.
#[mcp_tool(name = "search")]
fn look() -> String {
    String::new()
}

/// Drafts.
#[mcp_prompt]
fn draft() -> String {
    String::new()
}

/// Drafts again, under the same name.
#[mcp_prompt(name = "draft")]
fn redraft() -> String {
    String::new()
}

/// A tool and a prompt may share a name.
#[mcp_tool(name = "draft")]
fn write() -> String {
    String::new()
}

fn main() {}
