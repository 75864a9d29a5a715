use toolwright::prelude::*;

type Fallible<T> = Result<T, String>;

/// Returns a result of a result.
#[mcp_tool]
fn nested() -> Fallible<Result<u8, String>> {
    Ok(Ok(1))
}

fn main() {}
