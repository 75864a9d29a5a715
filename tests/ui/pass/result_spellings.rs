//! A `Result` is recognised by its type, however it is written: aliases of it, paths to it, and
//! a type of one's own that happens to be called `Result` (which is a value, not a result).

use std::io;

use toolwright::prelude::*;

type Fallible<T> = Result<T, String>;
type Again<T> = Fallible<T>;
type Checked<T> = Result<T, ToolError>;

mod own {
    /// Not `std`'s `Result`: a struct that is returned as structured output.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    pub struct Result {
        pub ok: bool,
    }
}

/// An alias with a `String` error.
#[mcp_tool]
fn alias() -> Fallible<u32> {
    Err("boom".into())
}

/// An alias of an alias.
#[mcp_tool]
fn alias_of_alias() -> Again<u32> {
    Ok(1)
}

/// An alias with a `ToolError`.
#[mcp_tool]
fn checked() -> Checked<String> {
    Ok("fine".into())
}

/// The full path.
#[mcp_tool]
fn full_path() -> std::result::Result<u8, String> {
    Ok(1)
}

/// anyhow's alias.
#[mcp_tool]
fn with_anyhow() -> anyhow::Result<u8> {
    anyhow::bail!("no")
}

/// std's i/o alias.
#[mcp_tool]
fn with_io() -> io::Result<String> {
    Err(io::Error::other("disk"))
}

/// A struct named `Result`.
#[mcp_tool]
fn own_result() -> own::Result {
    own::Result { ok: true }
}

fn main() {
    let _ = toolwright::server!().discover();
}
