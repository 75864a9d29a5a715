use toolwright::prelude::*;

/// Both a tool and a prompt.
#[mcp_tool]
#[mcp_prompt]
fn greet() -> String {
    "hello".into()
}

fn main() {}
