use toolwright::prelude::*;

/// A borrowed argument.
#[mcp_prompt]
fn greet(name: &str) -> String {
    format!("Hello, {name}")
}

fn main() {}
