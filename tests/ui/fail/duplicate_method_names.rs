use toolwright::prelude::*;

struct Api;

#[mcp_tool_type]
impl Api {
    /// One.
    #[mcp_tool(name = "get")]
    fn get_one(&self) {}

    /// Two.
    #[mcp_tool(name = "get")]
    fn get_two(&self) {}
}

fn main() {}
