use std::collections::HashMap;

use toolwright::prelude::*;

/// A map cannot come from one segment of a URI.
#[mcp_resource("notes://{filter}")]
fn notes(filter: HashMap<String, String>) -> String {
    format!("{filter:?}")
}

fn main() {}
