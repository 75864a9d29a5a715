use toolwright::prelude::*;

struct Store;

#[mcp_tool_type]
impl Store {
    /// Needs exclusive access.
    #[mcp_tool]
    fn reset(&mut self) {}

    /// Consumes the store.
    #[mcp_tool]
    fn close(self) {}
}

impl Store {
    /// Outside a tool type.
    #[mcp_tool]
    fn size(&self) -> u32 {
        0
    }
}

fn main() {}
