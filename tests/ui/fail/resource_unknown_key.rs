use toolwright::prelude::*;

/// A typo in a key.
#[mcp_resource("notes://readme", mime_typ = "text/markdown")]
fn readme() -> String {
    String::new()
}

/// A key of another attribute.
#[mcp_prompt(read_only)]
fn review() -> String {
    String::new()
}

fn main() {}
