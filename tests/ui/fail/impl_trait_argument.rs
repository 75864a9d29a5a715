use toolwright::prelude::*;

/// Takes `impl Trait`.
#[mcp_tool]
fn show(value: impl std::fmt::Display) -> String {
    value.to_string()
}

fn main() {}
