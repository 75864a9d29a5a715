use toolwright::prelude::*;

/// Both attributes on one parameter.
#[mcp_tool]
fn search(
    #[arg(description = "q")]
    #[inject]
    query: String,
) -> String {
    query
}

fn main() {}
