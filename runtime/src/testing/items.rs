//! What [`Client`] asks of prompts, resources and completion, with each result checked
//! against the shape its revision defines: a server that answers what a client of that
//! revision would reject fails the test, with what is wrong.

use serde_json::{Value, json};

use crate::protocol::{Era, ProtocolVersion};
use crate::testing::client::{Client, RpcError};

type Answer<T> = std::result::Result<T, RpcError>;

impl Client {
    /// Every prompt, as this revision lists them (all pages).
    pub fn list_prompts(&mut self) -> Answer<Vec<Value>> {
        self.list_all("prompts/list", "prompts")
    }

    /// Every direct resource, as this revision lists them (all pages).
    pub fn list_resources(&mut self) -> Answer<Vec<Value>> {
        self.list_all("resources/list", "resources")
    }

    /// Every resource template, as this revision lists them (all pages).
    pub fn list_resource_templates(&mut self) -> Answer<Vec<Value>> {
        self.list_all("resources/templates/list", "resourceTemplates")
    }

    /// Gets a prompt with string arguments (`{"code": "…"}`); the result's messages are
    /// checked against the revision's shapes.
    pub fn get_prompt(&mut self, name: &str, arguments: Value) -> Answer<Value> {
        let result = self.request("prompts/get", json!({"name": name, "arguments": arguments}))?;
        let revision = self.revision();
        let messages = result["messages"]
            .as_array()
            .unwrap_or_else(|| panic!("prompts/get `{name}`: no `messages` array: {result}"));
        for message in messages {
            let role = &message["role"];
            assert!(
                role == "user" || role == "assistant",
                "prompts/get `{name}`: a message's role is {role}, not user or assistant"
            );
            check_block(
                &message["content"],
                revision,
                &format!("prompts/get `{name}`"),
            );
        }
        check_complete(&result, revision, false, "prompts/get");
        Ok(result)
    }

    /// Reads a resource; its contents are checked against the revision's shapes (each text or
    /// a base64 blob, the cache hints on 2026-07-28).
    pub fn read_resource(&mut self, uri: &str) -> Answer<Value> {
        let result = self.request("resources/read", json!({"uri": uri}))?;
        let contents = result["contents"]
            .as_array()
            .unwrap_or_else(|| panic!("resources/read `{uri}`: no `contents` array: {result}"));
        for entry in contents {
            assert!(
                entry["uri"].is_string(),
                "resources/read `{uri}`: an entry without a `uri`: {entry}"
            );
            assert!(
                entry["text"].is_string() != entry["blob"].is_string(),
                "resources/read `{uri}`: an entry needs `text` or `blob`, not both: {entry}"
            );
        }
        check_complete(&result, self.revision(), true, "resources/read");
        Ok(result)
    }

    /// Completes a prompt's argument from a partial `value`, given the arguments already
    /// chosen (`{}` for none): the suggestions, at most 100, best first.
    pub fn complete_prompt_argument(
        &mut self,
        prompt: &str,
        argument: &str,
        value: &str,
        chosen: Value,
    ) -> Answer<Value> {
        let reference = json!({"type": "ref/prompt", "name": prompt});
        self.complete(reference, argument, value, chosen)
    }

    /// Completes a variable of a resource template from a partial `value`, given the
    /// variables already chosen (`{}` for none).
    pub fn complete_template_variable(
        &mut self,
        template: &str,
        variable: &str,
        value: &str,
        chosen: Value,
    ) -> Answer<Value> {
        let reference = json!({"type": "ref/resource", "uri": template});
        self.complete(reference, variable, value, chosen)
    }

    fn complete(
        &mut self,
        reference: Value,
        argument: &str,
        value: &str,
        chosen: Value,
    ) -> Answer<Value> {
        let mut params = json!({"ref": reference, "argument": {"name": argument, "value": value}});
        if self.revision().has_structured_output() {
            params["context"] = json!({"arguments": chosen});
        }
        let result = self.request("completion/complete", params)?;
        let completion = &result["completion"];
        let values = completion["values"]
            .as_array()
            .unwrap_or_else(|| panic!("completion/complete: no `values` array: {result}"));
        assert!(
            values.len() <= 100,
            "completion/complete: {} values, more than 100",
            values.len()
        );
        check_complete(&result, self.revision(), false, "completion/complete");
        Ok(completion.clone())
    }

    /// Asks to hear when the resource at `uri` changes: `resources/subscribe` in a handshake
    /// session; on 2026-07-28 a `subscriptions/listen` stream whose `resourceSubscriptions`
    /// name it, acknowledged before this returns. Read the notifications with
    /// [`Client::next_line`].
    pub fn subscribe(&mut self, uri: &str) -> Answer<()> {
        match self.revision().era() {
            Era::Legacy => {
                self.request("resources/subscribe", json!({"uri": uri}))?;
            }
            Era::Modern => {
                self.listen(json!({"resourceSubscriptions": [uri]}))?;
            }
        }
        Ok(())
    }

    /// Stops hearing of the resource at `uri` (`resources/unsubscribe`; handshake revisions
    /// only: on 2026-07-28 a client closes its listen stream).
    pub fn unsubscribe(&mut self, uri: &str) -> Answer<()> {
        self.request("resources/unsubscribe", json!({"uri": uri}))?;
        Ok(())
    }

    /// Every entry of a paginated list (all pages).
    fn list_all(&mut self, method: &str, key: &str) -> Answer<Vec<Value>> {
        let mut entries = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match cursor.take() {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let mut page = self.request(method, params)?;
            check_complete(&page, self.revision(), true, method);
            if let Some(Value::Array(listed)) = page.get_mut(key).map(Value::take) {
                entries.extend(listed);
            }
            match page.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => return Ok(entries),
            }
        }
    }
}

/// A 2026-07-28 result carries `resultType: "complete"`, and a cacheable one `ttlMs` (an
/// integer ≥ 0) and `cacheScope` (`public` or `private`); earlier revisions carry none.
fn check_complete(result: &Value, revision: ProtocolVersion, cacheable: bool, what: &str) {
    if !revision.has_result_type() {
        return;
    }
    assert_eq!(result["resultType"], "complete", "{what}: {result}");
    if cacheable {
        assert!(
            result["ttlMs"].as_u64().is_some(),
            "{what}: no integer `ttlMs` ≥ 0: {result}"
        );
        let scope = &result["cacheScope"];
        assert!(
            scope == "public" || scope == "private",
            "{what}: `cacheScope` is {scope}, not public or private"
        );
    }
}

/// A content block is one the revision defines, with the fields its type needs.
fn check_block(block: &Value, revision: ProtocolVersion, what: &str) {
    let kind = block["type"].as_str().unwrap_or_default();
    let allowed = match kind {
        "text" => block["text"].is_string(),
        "image" => block["data"].is_string() && block["mimeType"].is_string(),
        "audio" => {
            revision.has_audio() && block["data"].is_string() && block["mimeType"].is_string()
        }
        "resource" => {
            let resource = &block["resource"];
            resource["uri"].is_string()
                && (resource["text"].is_string() != resource["blob"].is_string())
        }
        "resource_link" => {
            revision.has_resource_links() && block["uri"].is_string() && block["name"].is_string()
        }
        _ => false,
    };
    assert!(
        allowed,
        "{what}: a block {revision} does not define: {block}"
    );
}
