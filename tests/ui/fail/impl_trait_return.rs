use toolwright::prelude::*;

/// Returns `impl Trait`.
#[mcp_tool]
fn show() -> impl serde::Serialize {
    1
}

fn main() {}
