//! Constraints on arguments in schemars' vocabulary, on `#[arg(...)]` or `#[schemars(...)]`.

use toolwright::prelude::*;

/// Takes constrained arguments.
#[mcp_tool]
fn constrained(
    #[arg(length(min = 1, max = 10), inner(length(min = 1)))] tags: Vec<String>,
    #[arg(pattern = "^[a-z]+$")] name: String,
    #[arg(regex(pattern = "^[A-Z]"))] title: String,
    #[arg(range(min = 1, max = 100), default = 10)] limit: u32,
    #[arg(email)] owner: Option<String>,
    #[arg(url)] home: Option<String>,
    #[arg(format = "date")] since: Option<String>,
    #[schemars(length(max = 80), example = &"hello")] note: Option<String>,
) -> String {
    format!("{tags:?}{name}{title}{limit}{owner:?}{home:?}{since:?}{note:?}")
}

fn main() {
    let _ = toolwright::server!().discover();
}
