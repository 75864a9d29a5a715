use toolwright::prelude::*;

#[mcp_tool(read_only)]
fn mystery(x: i32) -> i32 {
    x
}

fn main() {
    // The function is still there: using it gives no second error.
    let _ = mystery(1);
}
