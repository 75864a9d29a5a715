use toolwright::prelude::*;

/// Returns a number, which is no resource's contents.
#[mcp_resource("counts://{id}")]
async fn count(id: u32) -> u64 {
    u64::from(id)
}

fn main() {}
