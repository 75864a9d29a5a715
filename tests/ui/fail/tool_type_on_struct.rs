use toolwright::prelude::*;

#[mcp_tool_type]
struct Api;

fn main() {
    let _ = Api;
}
