//! Every accepted shape of a free-function tool.

use std::borrow::Cow;

use toolwright::prelude::*;

/// Sync, with arguments and a number.
#[mcp_tool(read_only)]
fn sync_number(a: i64, b: Option<i64>) -> i64 {
    a + b.unwrap_or(0)
}

/// Async, returning text.
#[mcp_tool(destructive = false, idempotent = true, open_world)]
async fn async_text(name: String) -> String {
    name
}

/// A static string.
#[mcp_tool(name = "static-str.v2", title = "Static")]
fn static_str() -> &'static str {
    "ok"
}

/// No return value.
#[mcp_tool]
fn unit() {}

/// Borrowed-or-owned text.
#[mcp_tool]
fn cow() -> Cow<'static, str> {
    Cow::Borrowed("cow")
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Report {
    ok: bool,
}

/// A struct, from a `Result` with a `ToolError`.
#[mcp_tool(description = "Explicit description.")]
fn report(flag: bool) -> Result<Report, ToolError> {
    Ok(Report { ok: flag })
}

/// An `io::Result`, an alias with one parameter.
#[mcp_tool]
async fn io_alias() -> std::io::Result<Vec<String>> {
    Ok(vec![])
}

/// A boxed error.
#[mcp_tool]
fn boxed() -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    Ok("boxed".into())
}

/// Explicit wrappers.
#[mcp_tool]
fn wrappers(json: bool) -> Result<ToolOutput, String> {
    Ok(if json {
        Json(1).into_tool_output()
    } else {
        Text(2.5).into_tool_output()
    })
}

/// A raw identifier as a parameter.
///
/// # Arguments
/// * `type` - The kind.
#[mcp_tool]
fn raw_ident(r#type: String) -> String {
    r#type
}

/// Visible outside its module.
pub mod nested {
    use toolwright::prelude::*;

    /// A public tool.
    #[mcp_tool]
    pub fn public_tool() {}
}

fn main() {
    // The functions stay ordinary functions.
    assert_eq!(sync_number(1, Some(2)), 3);
    assert_eq!(static_str(), "ok");
    let _server = toolwright::server!()
        .discover()
        .tool::<sync_number>()
        .tool::<nested::public_tool>();
}
