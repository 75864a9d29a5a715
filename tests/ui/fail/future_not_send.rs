use std::rc::Rc;

use toolwright::prelude::*;

async fn pause() {}

/// Holds an `Rc` across an await.
#[mcp_tool]
async fn count() -> usize {
    let shared = Rc::new(1);
    pause().await;
    *shared
}

fn main() {}
