use toolwright::prelude::*;

/// A borrowed argument.
#[mcp_tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {
    // The function is still there: using it gives no second error.
    let _ = shout("a");
}
