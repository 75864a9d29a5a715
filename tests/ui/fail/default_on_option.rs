use toolwright::prelude::*;

/// A default that can never apply.
#[mcp_tool]
fn page(#[arg(default = Some(3))] limit: Option<u32>) -> String {
    format!("{limit:?}")
}

fn main() {}
