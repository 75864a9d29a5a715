use toolwright::prelude::*;

struct Notes;

#[mcp_tool_type]
impl Notes {
    /// Drafts.
    #[mcp_prompt(name = "draft")]
    fn first(&self) -> String {
        String::new()
    }

    /// Drafts again.
    #[mcp_prompt(name = "draft")]
    fn second(&self) -> String {
        String::new()
    }

    /// A note.
    #[mcp_resource("notes://{id}")]
    fn note(&self, id: u32) -> String {
        id.to_string()
    }

    /// The same note.
    #[mcp_resource("notes://{id}")]
    fn again(&self, id: u32) -> String {
        id.to_string()
    }

    /// Two kinds at once.
    #[mcp_tool]
    #[mcp_prompt]
    fn both(&self, #[arg(description = "A topic")] topic: String) -> String {
        topic
    }

    /// Not a list.
    #[mcp_resource = "notes://x"]
    fn listless(&self) -> String {
        String::new()
    }
}

fn main() {}
