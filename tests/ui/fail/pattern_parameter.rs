use toolwright::prelude::*;

/// Destructures a parameter.
#[mcp_tool]
fn sum((a, b): (i32, i32)) -> i32 {
    a + b
}

fn main() {}
