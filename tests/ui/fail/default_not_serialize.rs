use schemars::JsonSchema;
use serde::Deserialize;
use toolwright::prelude::*;

#[derive(Deserialize, JsonSchema)]
enum SortBy {
    Name,
    Size,
}

/// Lists files in an order.
#[mcp_tool]
fn list(#[arg(default = SortBy::Name)] sort: SortBy) -> String {
    match sort {
        SortBy::Name => "by name".into(),
        SortBy::Size => "by size".into(),
    }
}

fn main() {}
