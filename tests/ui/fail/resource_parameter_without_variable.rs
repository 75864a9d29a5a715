use toolwright::prelude::*;

struct Db;

/// A note, with a parameter the URI never gives.
#[mcp_resource("notes://{id}")]
fn note(id: u32, db: State<Db>, lang: String) -> String {
    let _ = db;
    format!("{id} {lang}")
}

/// A resource without variables, with a parameter.
#[mcp_resource("notes://all")]
fn all(limit: u32) -> String {
    limit.to_string()
}

fn main() {}
