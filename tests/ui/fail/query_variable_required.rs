use toolwright::prelude::*;

/// Searches.
#[mcp_resource("search://all{?q,limit}")]
fn search(q: String, limit: Option<u32>) -> String {
    format!("{q} {limit:?}")
}

struct Shelf;

#[mcp_tool_type]
impl Shelf {
    /// A book, with the attribute spelt by its path.
    #[toolwright::mcp_resource("shelf://{id}")]
    fn book(&self, id: u32) -> String {
        id.to_string()
    }
}

fn main() {}
