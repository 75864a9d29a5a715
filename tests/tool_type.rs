//! `#[mcp_tool_type]` registration: instances, ordinary methods beside tools, mistakes.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use common::InProcess;
use serde_json::json;
use toolwright::prelude::*;

#[derive(Default)]
struct Counter {
    count: AtomicU32,
}

#[mcp_tool_type]
impl Counter {
    /// Adds one and returns the count.
    #[mcp_tool]
    fn increment(&self) -> u32 {
        self.bump()
    }

    /// An ordinary method beside the tools.
    fn bump(&self) -> u32 {
        self.count.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// A renamed async tool returning `Self`-relative types.
    #[mcp_tool(name = "count.read")]
    async fn read(&self) -> Result<u32, ToolError> {
        Ok(self.count.load(Ordering::SeqCst))
    }
}

/// A type with no tools.
struct Empty;

#[test]
fn a_shared_instance_is_the_one_the_program_keeps() {
    let counter = Arc::new(Counter::default());
    let mut server = InProcess::start(Server::new("t", "1").shared_tools(Arc::clone(&counter)));
    server.client.initialize("2025-11-25");
    for expected in 1..=3 {
        let answer = server.client.call("increment", json!({}));
        assert_eq!(answer["result"]["content"][0]["text"], expected.to_string());
    }
    assert_eq!(counter.count.load(Ordering::SeqCst), 3);
    assert_eq!(counter.bump(), 4);
    let answer = server.client.call("count.read", json!({}));
    assert_eq!(answer["result"]["content"][0]["text"], "4");
    server.finish().unwrap();
}

#[test]
fn registration_mistakes_are_reported_at_start() {
    assert_eq!(
        common::start_error(
            Server::new("t", "1")
                .tools(Counter::default())
                .tools(Counter::default())
        ),
        "`tool_type::Counter` was given to `tools` twice; each tool can be served from one instance"
    );
    assert_eq!(
        common::start_error(Server::new("t", "1").tools(Empty)),
        "`tool_type::Empty` has no tools: mark an impl block of it `#[mcp_tool_type]` and its tool methods `#[mcp_tool]`"
    );
}

#[test]
fn method_tools_are_not_discovered_without_an_instance() {
    let mut server = InProcess::start(Server::new("t", "1").discover());
    server.client.initialize("2025-11-25");
    let list = server.client.request("tools/list", json!({}));
    assert_eq!(list["result"]["tools"], json!([]));
    server.finish().unwrap();
}
