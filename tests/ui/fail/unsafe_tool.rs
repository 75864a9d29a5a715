use toolwright::prelude::*;

/// Unsafe to call.
#[mcp_tool]
unsafe fn poke(address: u64) -> u64 {
    address
}

fn main() {}
