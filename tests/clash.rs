//! Two tools with one name stop the server at start, with both definition sites named.

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
        let (input, _keep_open) = std::io::pipe().unwrap();
        let error = server
            .serve(std::io::BufReader::new(input), std::io::sink())
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "two tools are named `lookup`: one defined at tests/clash.rs:7, one at \
             tests/clash.rs:14; give one of them another name with #[mcp_tool(name = \"...\")]"
        );
    }
}
