use schemars::JsonSchema;
use serde::Deserialize;
use toolwright::prelude::*;

#[derive(Deserialize, JsonSchema)]
struct Query {
    text: String,
}

/// The whole arguments object.
#[mcp_prompt]
fn whole(query: Args<Query>) -> String {
    query.into_inner().text
}

/// A header and a constraint.
#[mcp_prompt]
fn headed(#[arg(header = "Region")] region: String, #[arg(length(min = 1))] code: String) -> String {
    format!("{region} {code}")
}

/// No URI.
#[mcp_resource(name = "readme")]
fn readme() -> String {
    String::new()
}

/// No scheme.
#[mcp_resource("notes/{id}")]
fn relative(id: String) -> String {
    id
}

/// A priority out of range.
#[mcp_resource("notes://urgent", priority = 2)]
fn urgent() -> String {
    String::new()
}

/// A `#[schemars]` attribute on a variable.
#[mcp_resource("notes://{id}")]
fn shaped(#[schemars(length(max = 3))] id: String) -> String {
    id
}

fn main() {}
