//! Every kind of return value, and the opt-out from descriptions.

use toolwright::prelude::*;
use toolwright::content::ResourceLink;

/// Blocks.
#[mcp_tool]
fn blocks() -> Vec<Content> {
    vec![
        Content::text("t"),
        Content::image(b"png", "image/png"),
        Content::audio(b"wav", "audio/wav"),
        Content::resource_link(ResourceLink::new("file:///x", "x")),
        Content::text_resource("file:///y", "text/plain", "y"),
        Content::blob_resource("file:///z", "application/octet-stream", b"z"),
    ]
}

/// One block.
#[mcp_tool]
fn block() -> Content {
    Content::text("one")
}

/// Display as text.
#[mcp_tool]
fn shown() -> Text<f64> {
    Text(1.5)
}

/// A result built by hand.
#[mcp_tool]
async fn built() -> ToolOutput {
    ToolOutput::error("built by hand")
}

/// Any JSON.
#[mcp_tool]
fn any() -> serde_json::Value {
    serde_json::json!(null)
}

/// An optional struct, through anyhow-style aliases.
#[mcp_tool]
fn maybe() -> std::io::Result<Option<Vec<(u8, String)>>> {
    Ok(None)
}

#[mcp_tool(undocumented)]
fn quiet() {}

fn main() {
    let _ = toolwright::server!().discover();
}
