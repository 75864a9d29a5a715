use toolwright::prelude::*;

/// An expression never closed.
#[mcp_resource("notes://{id")]
fn unclosed(id: String) -> String {
    id
}

/// An operator RFC 6570 reserves.
#[mcp_resource("notes://{=id}")]
fn reserved(id: String) -> String {
    id
}

/// An explode where a value cannot span `/`.
#[mcp_resource("notes://{id*}")]
fn exploded(id: String) -> String {
    id
}

fn main() {}
