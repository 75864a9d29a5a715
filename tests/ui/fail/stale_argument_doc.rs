use toolwright::prelude::*;

/// Greets someone.
///
/// # Arguments
/// * `name` - Who to greet.
#[mcp_tool]
fn greet(who: String) -> String {
    who
}

fn main() {}
