use toolwright::prelude::*;

fn languages(prefix: &str) -> Vec<String> {
    vec![prefix.to_owned()]
}

fn counted(_: Completing) -> usize {
    0
}

/// Reviews code.
#[mcp_prompt]
fn review(
    #[arg(complete = languages)] language: String,
    #[arg(complete = counted)] style: String,
) -> String {
    format!("{language} {style}")
}

fn main() {}
