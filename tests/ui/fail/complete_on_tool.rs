use toolwright::prelude::*;

fn cities(_: Completing) -> Vec<String> {
    Vec::new()
}

/// A tool's arguments are not completed.
#[mcp_tool]
fn weather(#[arg(complete = cities)] city: String) -> String {
    city
}

fn main() {}
