use toolwright::prelude::*;

/// Two progress reporters.
#[mcp_tool]
fn work(first: Progress, second: Progress) {
    let _ = (first, second);
}

fn main() {}
