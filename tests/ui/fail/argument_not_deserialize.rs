use toolwright::prelude::*;

#[derive(schemars::JsonSchema)]
struct Query {
    text: String,
}

/// Takes an argument serde cannot read.
#[mcp_tool]
fn search(query: Query) -> String {
    query.text
}

fn main() {}
