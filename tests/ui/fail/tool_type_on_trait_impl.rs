use toolwright::prelude::*;

struct Api;

#[mcp_tool_type]
impl Default for Api {
    fn default() -> Self {
        Api
    }
}

fn main() {}
