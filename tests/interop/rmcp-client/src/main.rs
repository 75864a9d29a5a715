//! Drives an MCP server over Streamable HTTP with the official Rust SDK client (`rmcp`) and
//! prints what happened as one JSON document, in the shape of `../clients/ts_client.mjs`.
//!
//! usage: toolwright-interop-rmcp-client PLAN_JSON -- URL   (PLAN_JSON may be @FILE)
//! PLAN: {"mode": "legacy" | "auto" | "2026-07-28", "logLevel": null | "info",
//!        "calls": [{"name", "arguments", "progress": bool, "cancelAfterMs": number | null}
//!                  | {"method": "prompts/list" | "prompts/get" | "resources/list" |
//!                     "resources/templates/list" | "resources/read" | "completion/complete",
//!                     "name", "arguments", "uri", "ref", "argument"}]}
//!
//! A call with a `method` is an item step, made through rmcp's own method for it (a list walks
//! every page), so rmcp parses its result into its own types; the others call a tool.
//!
//! `legacy` is the initialize handshake (rmcp offers 2025-11-25), `auto` probes
//! `server/discover` and falls back to it, `2026-07-28` is discover only. rmcp gives every
//! request a progress token of its own, so a call's progress is what arrived with that token.
//! A call with `cancelAfterMs` is cancelled that long after it was sent (rmcp posts
//! `notifications/cancelled` in a session, and drops the request's stream on 2026-07-28).

// Logging is deprecated (SEP-2577), yet servers still send it.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
    CompleteRequestParams, GetPromptRequestParams, Implementation, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams, RequestMetaObject,
    ServerResult, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, PeerRequestOptions};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(15);

/// Keeps every progress and log notification the server sends.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    logs: Arc<Mutex<Vec<Value>>>,
}

impl ClientHandler for Recorder {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("toolwright-interop", "1.0.0"),
        )
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let params = serde_json::to_value(params).unwrap_or(Value::Null);
        self.logs.lock().unwrap().push(params);
    }
}

fn error(name: &str, message: impl ToString) -> Value {
    json!({"name": name, "message": message.to_string()})
}

fn lifecycle(mode: &str) -> Result<ClientLifecycleMode, String> {
    let modern = vec![ProtocolVersion::V_2026_07_28];
    match mode {
        "legacy" => Ok(ClientLifecycleMode::Initialize),
        "auto" => Ok(ClientLifecycleMode::Auto {
            preferred_versions: modern,
            legacy_version: None,
        }),
        "2026-07-28" => Ok(ClientLifecycleMode::Discover {
            preferred_versions: modern,
        }),
        other => Err(format!("unknown mode {other:?}")),
    }
}

#[tokio::main]
async fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let (Some(plan), Some(url)) = (
        argv.first(),
        argv.iter()
            .position(|a| a == "--")
            .and_then(|i| argv.get(i + 1)),
    ) else {
        eprintln!("usage: toolwright-interop-rmcp-client PLAN_JSON -- URL");
        std::process::exit(2);
    };
    let plan = match plan.strip_prefix('@') {
        Some(file) => std::fs::read_to_string(file).expect("the plan file is readable"),
        None => plan.clone(),
    };
    let plan: Value = serde_json::from_str(&plan).expect("the plan is JSON");
    let out = run(&plan, url).await;
    println!("{out}");
}

async fn run(plan: &Value, url: &str) -> Value {
    let mut out = json!({"ok": true, "logs": [], "calls": []});
    let recorder = Recorder::default();
    let mode = plan["mode"].as_str().unwrap_or("legacy");
    let lifecycle = match lifecycle(mode) {
        Ok(lifecycle) => lifecycle,
        Err(e) => return json!({"ok": false, "error": error("Usage", e)}),
    };
    let transport = StreamableHttpClientTransport::from_uri(url.to_string());
    let connect = recorder.clone().serve_with_lifecycle(transport, lifecycle);
    let client = match tokio::time::timeout(TIMEOUT, connect).await {
        Ok(Ok(client)) => client,
        Ok(Err(e)) => return json!({"ok": false, "error": error("ClientInitializeError", e)}),
        Err(_) => return json!({"ok": false, "error": error("Timeout", "connect timed out")}),
    };
    let version = client
        .peer_info()
        .map(|info| info.protocol_version.to_string());
    out["protocolVersion"] = json!(version);
    let modern = version.as_deref() == Some("2026-07-28");
    let log_level = plan["logLevel"].as_str();

    // Log messages: `logging/setLevel` in a session, a `_meta` opt-in on each 2026-07-28 request.
    let mut meta = json!({});
    if let Some(level) = log_level {
        if modern {
            meta["io.modelcontextprotocol/logLevel"] = json!(level);
        } else {
            let params: SetLevelRequestParams =
                serde_json::from_value(json!({"level": level})).expect("a log level");
            #[allow(deprecated)]
            if let Err(e) = client.set_level(params).await {
                out["ok"] = json!(false);
                out["error"] = error("ServiceError", e);
            }
        }
    }
    let meta: RequestMetaObject = serde_json::from_value(meta).expect("request _meta");

    match client.list_all_tools().await {
        Ok(tools) => out["tools"] = serde_json::to_value(tools).unwrap_or(Value::Null),
        Err(e) => {
            out["ok"] = json!(false);
            out["error"] = error("ServiceError", e);
        }
    }
    if out["ok"] == json!(true) {
        let mut calls = vec![];
        for call in plan["calls"].as_array().into_iter().flatten() {
            calls.push(if call.get("method").is_some() {
                item_step(&client, call).await
            } else {
                call_tool(&client, &recorder, call, meta.clone()).await
            });
        }
        out["calls"] = json!(calls);
    }
    // Let notifications that trail a result arrive before the logs are read.
    tokio::time::sleep(Duration::from_millis(50)).await;
    out["logs"] = json!(*recorder.logs.lock().unwrap());
    let _ = client.cancel().await;
    out
}

async fn call_tool(
    client: &rmcp::service::RunningService<RoleClient, Recorder>,
    recorder: &Recorder,
    call: &Value,
    meta: RequestMetaObject,
) -> Value {
    let name = call["name"].as_str().unwrap_or_default().to_string();
    let mut record = json!({"name": name, "progress": []});
    let arguments = call["arguments"].as_object().cloned().unwrap_or_default();
    let params = CallToolRequestParams::new(name).with_arguments(arguments);
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let mut options = PeerRequestOptions::with_timeout(TIMEOUT);
    options.meta = Some(meta);
    let mut handle = match client.send_cancellable_request(request, options).await {
        Ok(handle) => handle,
        Err(e) => {
            record["error"] = error("ServiceError", e);
            return record;
        }
    };
    let token = handle.progress_token.clone();
    let response = match call["cancelAfterMs"].as_u64() {
        Some(ms) => {
            tokio::select! {
                response = &mut handle.rx => response.unwrap_or(Err(rmcp::ServiceError::TransportClosed)),
                () = tokio::time::sleep(Duration::from_millis(ms)) => {
                    record["error"] = match handle.cancel(Some("cancelled by the client".into())).await {
                        Ok(()) => error("Cancelled", format!("cancelled after {ms} ms")),
                        Err(e) => error("ServiceError", format!("could not cancel: {e}")),
                    };
                    return record;
                }
            }
        }
        None => handle.await_response().await,
    };
    match response {
        Ok(ServerResult::CallToolResult(result)) => {
            record["result"] = serde_json::to_value(result).unwrap_or(Value::Null)
        }
        Ok(other) => record["error"] = error("UnexpectedResponse", format!("{other:?}")),
        Err(e) => record["error"] = error("ServiceError", e),
    }
    if call["progress"] == json!(true) {
        let progress: Vec<Value> = recorder
            .progress
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.progress_token == token)
            .map(|p| json!({"progress": p.progress, "total": p.total}))
            .collect();
        record["progress"] = json!(progress);
    }
    record
}

/// An item step through rmcp's own method for it: its result, or its error.
async fn item_step(
    client: &rmcp::service::RunningService<RoleClient, Recorder>,
    step: &Value,
) -> Value {
    let text = |key: &str| step[key].as_str().unwrap_or_default().to_string();
    let result = match step["method"].as_str().unwrap_or_default() {
        "prompts/list" => client
            .list_all_prompts()
            .await
            .map(|prompts| json!({"prompts": prompts})),
        "prompts/get" => {
            let mut params = GetPromptRequestParams::new(text("name"));
            params.arguments = step["arguments"].as_object().cloned();
            client.get_prompt(params).await.map(|result| json!(result))
        }
        "resources/list" => client
            .list_all_resources()
            .await
            .map(|resources| json!({"resources": resources})),
        "resources/templates/list" => client
            .list_all_resource_templates()
            .await
            .map(|templates| json!({"resourceTemplates": templates})),
        "resources/read" => client
            .read_resource(ReadResourceRequestParams::new(text("uri")))
            .await
            .map(|result| json!(result)),
        "completion/complete" => {
            let (Ok(reference), Ok(argument)) = (
                serde_json::from_value(step["ref"].clone()),
                serde_json::from_value(step["argument"].clone()),
            ) else {
                return json!({"error": error("Usage", "a completion needs a ref and an argument")});
            };
            let params = CompleteRequestParams::new(reference, argument);
            client.complete(params).await.map(|result| json!(result))
        }
        other => return json!({"error": error("Usage", format!("no item step {other:?}"))}),
    };
    match result {
        Ok(result) => json!({"result": result}),
        Err(e) => json!({"error": error("ServiceError", e)}),
    }
}
