use toolwright::prelude::*;

struct Opaque;

/// Returns what no prompt is made of.
#[mcp_prompt]
fn opaque() -> Opaque {
    Opaque
}

/// Returns nothing.
#[mcp_prompt]
async fn nothing() {}

fn main() {}
