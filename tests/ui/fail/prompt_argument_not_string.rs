use toolwright::prelude::*;

/// Tags cannot come from one string.
#[mcp_prompt]
fn tagged(tags: Vec<String>, pair: (u8, u8)) -> String {
    format!("{tags:?} {pair:?}")
}

fn main() {}
