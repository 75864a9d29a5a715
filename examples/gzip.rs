//! Resources a call produces: `gzip` compresses a text and serves the result as a resource from
//! then on, `files:///{name}.gz`, made with `ResourceDef` and added through the server's
//! handle; the call answers with a link to it, and clients that listen hear that the list of
//! resources changed. `forget` removes one again. Run it under an MCP client, or from the shell:
//!
//! ```sh
//! cargo run --example gzip -- call gzip '{"name": "notes", "text": "hello hello hello"}'
//! ```
//!
//! The files live as long as the server runs, and are shared by every client.

use std::io::Write as _;

use flate2::Compression;
use flate2::write::GzEncoder;
use toolwright::content::{Content, ResourceLink};
use toolwright::prelude::*;
use toolwright::resources::ResourceDef;
use toolwright::{Context, ServerHandle};

/// What the server holds: the handle that adds and removes its resources.
struct Files {
    handle: ServerHandle,
}

/// Says what this server does, so that it serves a resource from the start (and so offers
/// resources to the clients that connect).
#[mcp_resource("files:///README", mime_type = "text/plain")]
fn readme() -> &'static str {
    "Call `gzip` to compress a text into files:///{name}.gz."
}

/// Compresses `text` with gzip and serves it as `files:///{name}.gz`, answering with a link.
///
/// # Arguments
///
/// * `name` - The file's name, without `.gz`: letters, digits, `-` and `_`.
/// * `text` - What to compress.
#[mcp_tool(idempotent = false)]
fn gzip(files: State<Files>, name: String, text: String) -> Result<Content, ToolError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
    {
        return Err(ToolError::new(format!("`{name}` is not a file name")));
    }
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(text.as_bytes())
        .and_then(|()| encoder.try_finish())
        .map_err(|e| ToolError::new(format!("cannot compress: {e}")))?;
    let bytes = encoder.get_ref().clone();
    let (uri, file) = (format!("files:///{name}.gz"), format!("{name}.gz"));
    let size = bytes.len() as u64;
    let resource = ResourceDef::new(file.clone(), uri.clone(), move |_, _: Context| {
        let bytes = bytes.clone();
        async move { bytes }
    })
    .description(format!("`{name}`, compressed with gzip"))
    .mime_type("application/gzip")
    .size(size);
    // A second call for one name is the handle's clash: the first file stays.
    (files.handle)
        .add_resource_def(resource)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let link = ResourceLink::new(uri, file)
        .mime_type("application/gzip")
        .size(size);
    Ok(Content::resource_link(link))
}

/// Stops serving `files:///{name}.gz`.
///
/// # Arguments
///
/// * `name` - The name `gzip` was given.
#[mcp_tool(destructive)]
fn forget(files: State<Files>, name: String) -> Result<String, ToolError> {
    let uri = format!("files:///{name}.gz");
    (files.handle)
        .remove_resource(&uri)
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(format!("{uri} is gone"))
}

fn server() -> Server {
    let mut server = Server::new("gzip", env!("CARGO_PKG_VERSION")).discover();
    let handle = server.handle();
    server.state(Files { handle })
}

fn main() -> std::process::ExitCode {
    server().run()
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    use std::io::Read as _;

    use base64::Engine as _;
    use serde_json::json;
    use toolwright::ProtocolVersion;
    use toolwright::testing::{Client, Manifest};

    use super::*;

    #[test]
    fn a_call_serves_what_it_compressed_in_every_revision() {
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(), revision).unwrap();
            let text = "hello hello hello";
            let made = client
                .call("gzip", json!({"name": "notes", "text": text}))
                .unwrap();
            // A link from 2025-06-18 on, its URI in a text before.
            let link = made.json()["content"][0].to_string();
            assert!(link.contains("files:///notes.gz"), "{revision}: {link}");
            let listed = client.list_resources().unwrap();
            assert!(listed.iter().any(|r| r["uri"] == "files:///notes.gz"));
            let read = client.read_resource("files:///notes.gz").unwrap();
            let contents = &read["contents"][0];
            assert_eq!(contents["mimeType"], "application/gzip");
            let blob = (base64::engine::general_purpose::STANDARD)
                .decode(contents["blob"].as_str().unwrap())
                .unwrap();
            let mut unzipped = String::new();
            flate2::read::GzDecoder::new(&blob[..])
                .read_to_string(&mut unzipped)
                .unwrap();
            assert_eq!(unzipped, text);

            let again = client
                .call("gzip", json!({"name": "notes", "text": "other"}))
                .unwrap();
            assert!(again.is_error(), "{revision}: one file per name");
            client.call("forget", json!({"name": "notes"})).unwrap();
            let gone = client.read_resource("files:///notes.gz").unwrap_err();
            assert!(
                gone.message.contains("Resource not found"),
                "{revision}: {gone:?}"
            );
            let bad = client.call("gzip", json!({"name": "../x", "text": ""}));
            assert!(bad.unwrap().is_error());
        }
    }

    #[test]
    fn manifest() {
        Manifest::of(server())
            .unwrap()
            .assert_matches("examples/manifests/gzip.json");
    }
}
