use toolwright::prelude::*;

struct Opaque;

type Fallible<T> = Result<T, ToolError>;

/// Returns a type with no serialization, through an alias of `Result`.
#[mcp_tool]
fn opaque() -> Fallible<Opaque> {
    Ok(Opaque)
}

fn main() {}
