use toolwright::prelude::*;

/// A note, whose `id` no parameter takes.
#[mcp_resource("notes://{folder}/{id}")]
fn note(folder: String) -> String {
    folder
}

/// A variable no identifier can name.
#[mcp_resource("notes://{note.id}")]
fn dotted() -> String {
    String::new()
}

fn main() {}
