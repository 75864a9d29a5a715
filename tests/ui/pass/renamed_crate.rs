//! `crate = ...` for programs that reach toolwright under another path.

mod reexport {
    pub use toolwright as toolkit;
}

/// Found through a re-export.
#[toolwright::mcp_tool(crate = crate::reexport::toolkit)]
fn renamed(x: u8) -> u8 {
    x
}

fn main() {
    let _server = toolwright::Server::new("renamed", "1").tool::<renamed>();
}
