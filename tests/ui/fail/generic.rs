use toolwright::prelude::*;

/// Generic over its input.
#[mcp_tool]
fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {
    let _ = echo(1);
}
