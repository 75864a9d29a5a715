use schemars::JsonSchema;
use serde::Deserialize;
use toolwright::prelude::*;

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Asks from a sync tool.
#[mcp_tool]
fn delete_all(ask: Elicit<Confirm>) -> String {
    let _ = ask;
    "deleted".into()
}

/// Reads the roots from a sync tool.
#[mcp_tool]
fn count_roots(roots: &Roots) -> usize {
    let _ = roots;
    0
}

fn main() {}
