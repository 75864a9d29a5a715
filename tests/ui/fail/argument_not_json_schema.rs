use toolwright::prelude::*;

#[derive(serde::Deserialize)]
struct Query {
    text: String,
}

/// Takes an argument with no schema.
#[mcp_tool]
fn search(query: Query) -> String {
    query.text
}

fn main() {}
