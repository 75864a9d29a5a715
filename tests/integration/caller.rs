//! The caller an authentication layer verified ([`Auth`]): what a tool, the visibility rule and
//! tasks see of it, in every revision; over stdio (or past no layer) there is none.

use serde_json::json;
use toolwright::prelude::*;
use toolwright::testing::Client;

use crate::common::listed_names;
use toolwright::ProtocolVersion;
use toolwright::context::Auth;

/// Says who called.
#[mcp_tool(read_only)]
fn whoami(auth: Auth) -> String {
    format!("{} ({})", auth.subject(), auth.scopes().join(" "))
}

/// Greets whoever called, known or not.
#[mcp_tool(read_only)]
fn hello(ctx: &Context) -> String {
    let name = ctx.auth().map_or("stranger", Auth::subject);
    format!("hello {name}")
}

/// Writes a note.
#[mcp_tool(tags("write"))]
fn write_note(text: String) -> String {
    format!("wrote {text}")
}

fn server() -> Server {
    Server::new("callers", "1")
        .tool::<whoami>()
        .tool::<hello>()
        .tool::<write_note>()
        .visibility(|item, caller| {
            !item.has_tag("write") || caller.auth().is_some_and(|a| a.has_scope("notes:write"))
        })
}

#[test]
fn a_tool_sees_the_verified_caller_and_refuses_none_when_it_needs_one() {
    for revision in ProtocolVersion::ALL {
        let mut nobody = Client::connect(server(), revision).unwrap();
        assert_eq!(
            nobody.call("hello", json!({})).unwrap().text(),
            "hello stranger"
        );
        let refused = nobody.call("whoami", json!({})).unwrap();
        assert!(refused.is_error(), "{revision}");
        assert_eq!(
            refused.text(),
            "this tool needs an authenticated caller, and none reached it"
        );

        let ada = Auth::new("ada").with_scopes(["notes:read"]);
        let mut ada = Client::connect(server(), revision).unwrap().caller(ada);
        assert_eq!(ada.call("hello", json!({})).unwrap().text(), "hello ada");
        assert_eq!(
            ada.call("whoami", json!({})).unwrap().text(),
            "ada (notes:read)"
        );
    }
}

#[test]
fn the_visibility_rule_sees_the_callers_scopes() {
    for revision in ProtocolVersion::ALL {
        let reader = Auth::new("ada").with_scopes(["notes:read"]);
        let mut reader = Client::connect(server(), revision).unwrap().caller(reader);
        assert_eq!(listed_names(&mut reader), ["hello", "whoami"], "{revision}");
        let unknown = reader.call("write_note", json!({"text": "x"})).unwrap_err();
        assert_eq!(unknown.code, -32602, "a hidden tool is unknown");

        let writer = Auth::new("grace").with_scopes(["notes:read", "notes:write"]);
        let mut writer = Client::connect(server(), revision).unwrap().caller(writer);
        assert_eq!(listed_names(&mut writer), ["hello", "whoami", "write_note"]);
        assert_eq!(
            writer
                .call("write_note", json!({"text": "x"}))
                .unwrap()
                .text(),
            "wrote x"
        );
    }
}

/// Deletes every note. Only for callers granted `notes:admin`.
#[mcp_tool(destructive, scopes("notes:admin"))]
fn purge() -> String {
    "purged".into()
}

/// The audit trail, for auditors.
#[mcp_prompt(scopes("audit"))]
fn audit() -> String {
    "Review the audit trail.".into()
}

/// The audit log, for auditors.
#[mcp_resource("audit://log", scopes("audit"))]
fn audit_log() -> String {
    "nothing happened".into()
}

fn scoped() -> Server {
    Server::new("scoped", "1")
        .tool::<hello>()
        .tool::<purge>()
        .prompt::<audit>()
        .resource::<audit_log>()
}

#[test]
fn an_item_with_scopes_is_served_only_to_callers_granted_them() {
    for revision in ProtocolVersion::ALL {
        // No caller (stdio, or past no authentication layer): nothing that needs a scope.
        let mut nobody = Client::connect(scoped(), revision).unwrap();
        assert_eq!(listed_names(&mut nobody), ["hello"], "{revision}");
        assert_eq!(nobody.call("purge", json!({})).unwrap_err().code, -32602);
        assert!(nobody.list_prompts().unwrap().is_empty());
        assert!(nobody.list_resources().unwrap().is_empty());
        assert!(nobody.read_resource("audit://log").is_err());

        let auditor = Auth::new("ada").with_scopes(["audit"]);
        let mut auditor = Client::connect(scoped(), revision).unwrap().caller(auditor);
        assert_eq!(
            listed_names(&mut auditor),
            ["hello"],
            "{revision}: not an admin"
        );
        assert_eq!(auditor.list_prompts().unwrap().len(), 1);
        let read = auditor.read_resource("audit://log").unwrap();
        assert_eq!(read["contents"][0]["text"], "nothing happened");

        let admin = Auth::new("grace").with_scopes(["notes:admin", "audit"]);
        let mut admin = Client::connect(scoped(), revision).unwrap().caller(admin);
        assert_eq!(listed_names(&mut admin), ["hello", "purge"]);
        assert_eq!(admin.call("purge", json!({})).unwrap().text(), "purged");
    }
}

#[test]
fn lists_that_depend_on_scopes_are_cached_per_caller() {
    let mut client = Client::new(scoped()).unwrap();
    let listed = client.request("tools/list", json!({})).unwrap();
    assert_eq!(listed["cacheScope"], "private");
}
