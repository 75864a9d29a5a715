use toolwright::prelude::*;

/// A misspelt key.
#[mcp_tool]
fn misspelt(#[arg(patern = "^a")] name: String) -> String {
    name
}

/// A schemars key with a wrong item.
#[mcp_tool]
fn wrong_item(#[arg(length(minimum = 1))] name: String) -> String {
    name
}

/// Schema attributes on an injected parameter.
#[mcp_tool]
fn injected(#[schemars(length(min = 1))] _progress: Progress) {}

fn main() {}
