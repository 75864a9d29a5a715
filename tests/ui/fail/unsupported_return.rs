use toolwright::prelude::*;

struct Opaque;

/// Returns a type with no serialization.
#[mcp_tool]
fn opaque() -> Opaque {
    Opaque
}

fn main() {}
