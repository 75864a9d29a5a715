use toolwright::prelude::*;

/// Every note has its own size.
#[mcp_resource("notes://{id}", size = 1024)]
fn note(id: u32) -> String {
    id.to_string()
}

fn main() {}
