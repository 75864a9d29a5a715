use toolwright::prelude::*;

/// A note, whose `id` no parameter takes.
#[mcp_resource("notes://{folder}/{id}")]
fn note(folder: String) -> String {
    folder
}

fn main() {}
