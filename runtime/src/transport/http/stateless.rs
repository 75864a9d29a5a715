//! A 2026-07-28 POST: it stands alone (no session), and its headers must agree with its body.

use std::sync::Arc;

use http::{HeaderMap, Response, StatusCode};

use crate::call::outlet::Outlet;
use crate::protocol::Era;
use crate::protocol::jsonrpc::{HEADER_MISMATCH, INVALID_PARAMS, Message};
use crate::protocol::params::{CLIENT_CAPABILITIES, Meta, PROTOCOL_VERSION, Params};
use crate::server::session::Session;
use crate::transport::http::endpoint::Endpoint;
use crate::transport::http::headers;
use crate::transport::http::reply::{Accepts, PROTOCOL_HEADER, accepted, error, request_id};
use crate::transport::http::stream::{EventStream, RequestSink, ResponseBody};

impl Endpoint {
    /// A 2026-07-28 POST: it stands alone; its headers must agree with its body.
    pub(super) async fn modern(
        self: &Arc<Self>,
        headers: &HeaderMap,
        message: Message<'_>,
        extensions: http::Extensions,
        accepts: Accepts,
    ) -> Response<ResponseBody> {
        let (id, method, params) = match &message {
            Message::Request { id, method, params } => (Some(*id), method.as_ref(), params),
            // 2026-07-28 defines no notification a client sends over HTTP.
            Message::Notification { .. } => return accepted(),
            _ => unreachable!("only requests and notifications claim a revision"),
        };
        let meta = params.meta.and_then(Meta::parse).unwrap_or_default();
        if meta.client_capabilities.is_none() {
            let message = format!("Invalid params: `_meta` lacks `{CLIENT_CAPABILITIES}`");
            return error(StatusCode::BAD_REQUEST, id, INVALID_PARAMS, &message);
        }
        let Some(version) = meta
            .protocol_version
            .and_then(|v| serde_json::from_str::<String>(v.get()).ok())
        else {
            let message = format!("Invalid params: `{PROTOCOL_VERSION}` must be a string");
            return error(StatusCode::BAD_REQUEST, id, INVALID_PARAMS, &message);
        };
        if let Err(refused) = self.modern_headers(headers, &version, method, params) {
            return error(StatusCode::BAD_REQUEST, id, HEADER_MISMATCH, &refused.0);
        }
        let session = Session::new(Arc::clone(&self.service));
        let stream = EventStream::new(None);
        let outlet = Outlet::new(
            "http",
            RequestSink {
                stream: Arc::clone(&stream),
                extensions,
            },
        );
        let answer = session.message(message, &outlet, None);
        self.respond(answer, stream, accepts, Era::Modern, None)
            .await
    }

    fn modern_headers(
        &self,
        headers: &HeaderMap,
        version: &str,
        method: &str,
        params: &Params<'_>,
    ) -> Result<(), headers::Mismatch> {
        headers::expect(headers, PROTOCOL_HEADER, version)?;
        headers::expect(headers, "mcp-method", method)?;
        if method == "tools/call"
            && let Some(name) = params.name.as_deref()
        {
            headers::expect(headers, "mcp-name", name)?;
            if let Some(tool) = self.service.registry().find(name)
                && !tool.compiled.headers.is_empty()
            {
                let arguments = params
                    .arguments
                    .and_then(|a| serde_json::from_str(a.get()).ok())
                    .unwrap_or(serde_json::Value::Null);
                headers::params(headers, &tool.compiled.headers, &arguments)?;
            }
        }
        Ok(())
    }
}

/// Whether a request's `_meta` claims a revision (2026-07-28); a claim that is not a valid
/// envelope, or a modern `MCP-Protocol-Version` header without a claim, is refused later by
/// the stateless path or here.
pub(super) fn claim(params: &Params<'_>) -> Result<bool, Refusal> {
    let Some(meta) = params.meta else {
        return Ok(false);
    };
    let meta = Meta::parse(meta).ok_or_else(|| Refusal {
        code: INVALID_PARAMS,
        message: "Invalid params: `_meta` must be an object".into(),
    })?;
    Ok(meta.protocol_version.is_some())
}

/// A refusal before the message was served.
pub(super) struct Refusal {
    code: i32,
    message: String,
}

impl Refusal {
    pub(super) fn for_message(&self, message: &Message<'_>) -> Response<ResponseBody> {
        error(
            StatusCode::BAD_REQUEST,
            request_id(message),
            self.code,
            &self.message,
        )
    }
}
