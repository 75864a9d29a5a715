//! Two tools with one name stop the server at start, with both definition sites named.

mod common;

use toolwright::prelude::*;

/// One tool.
#[mcp_tool]
fn lookup() {}

mod other {
    use toolwright::prelude::*;

    /// Another tool, under the same name.
    #[mcp_tool(name = "lookup")]
    pub fn find() {}
}

#[test]
fn two_tools_with_one_name_fail_at_start_naming_both_sites() {
    for server in [
        Server::new("clash", "1").discover(),
        Server::new("clash", "1")
            .tool::<lookup>()
            .tool::<other::find>(),
    ] {
        assert_eq!(
            common::start_error(server),
            "two tools are named `lookup`: one defined at tests/clash.rs:9, one at \
             tests/clash.rs:16; give one of them another name with #[mcp_tool(name = \"...\")]"
        );
    }
}
