use toolwright::prelude::*;

/// A type of the user's that happens to be called `Context`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Context {
    locale: String,
}

/// Takes it, but it is meant as an argument.
#[mcp_tool]
fn localize(ctx: Context) -> String {
    ctx.locale
}

fn main() {}
