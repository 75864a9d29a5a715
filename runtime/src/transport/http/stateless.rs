//! A 2026-07-28 POST: it stands alone (no session), and its headers must agree with its body.

use std::sync::Arc;

use http::header::HeaderName;
use http::{HeaderMap, Response, StatusCode};

use crate::call::outlet::Outlet;
use crate::protocol::Era;
use crate::protocol::jsonrpc::{Message, ProtocolError};
use crate::protocol::meta::Meta;
use crate::protocol::method::{Method, Target};
use crate::protocol::params::Params;
use crate::server::session::Session;
use crate::transport::http::endpoint::{Answering, Endpoint, Served};
use crate::transport::http::head::{Accepts, Head};
use crate::transport::http::reply::{PROTOCOL_HEADER, accepted, error, request_id};
use crate::transport::http::stream::{EventStream, RequestSink, ResponseBody};

// The headers every 2026-07-28 request is checked for, as names made once (a name given as a
// string is parsed and validated again at each lookup).
static PROTOCOL_VERSION: HeaderName = HeaderName::from_static(PROTOCOL_HEADER);
static MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
static MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// The refusal of a 2026-07-28 request whose envelope is not valid or whose headers do not
/// agree with its body (its revision, its method and what it names); `None` when they agree.
/// Refused with 400: the version must be known before
/// the headers can be compared with it, so the envelope is checked here as the server checks
/// it. (The arguments a tool mirrors in headers are checked once the tool is found.)
pub(super) fn disagreement(
    head: &Head<'_>,
    message: &Message<'_>,
) -> Option<Response<ResponseBody>> {
    let Message::Request { id, method, params } = message else {
        return None;
    };
    // `_meta` was read with the params, and the server reads it from what they kept.
    let none = Meta::default();
    let meta = params.read_meta().flatten().unwrap_or(&none);
    let version = match meta.stateless_version() {
        Ok(Some(version)) => version,
        Ok(None) => unreachable!("only a request naming its revision is served statelessly"),
        Err(why) => {
            let refused = ProtocolError::invalid_params(why);
            return Some(error(StatusCode::BAD_REQUEST, Some(*id), &refused));
        }
    };
    let agrees = || {
        (head.protocol_version).expect(&PROTOCOL_VERSION, &version)?;
        head.method.expect(&MCP_METHOD, method.name())?;
        match routed_name(method, params) {
            Some(name) => head.name.expect(&MCP_NAME, name),
            None => Ok(()),
        }
    };
    let refused = ProtocolError::header_mismatch(agrees().err()?.0);
    Some(error(StatusCode::BAD_REQUEST, Some(*id), &refused))
}

impl Endpoint {
    /// A 2026-07-28 POST, once its headers agree with it (see [`disagreement`]): it stands
    /// alone.
    pub(super) fn modern(
        self: &Arc<Self>,
        headers: HeaderMap,
        message: Message<'_>,
        extensions: http::Extensions,
        accepts: Accepts,
        until: Option<tokio::time::Instant>,
    ) -> Served {
        let id = match &message {
            Message::Request { id, .. } => Some(*id),
            // 2026-07-28 defines no notification a client sends over HTTP.
            Message::Notification { .. } => return Served::Now(accepted()),
            _ => unreachable!("only requests and notifications claim a revision"),
        };
        let session = Session::single(Arc::clone(&self.engine));
        let stream = EventStream::new(None);
        let outlet = Outlet::new(
            "http",
            RequestSink {
                stream: Arc::clone(&stream),
                extensions: extensions.into(),
                headers: Some(headers),
            },
        );
        let answer = session.message(message, &outlet, None);
        let answering = Answering {
            era: Era::Modern,
            session: None,
            until,
        };
        self.respond(id, answer, stream, &outlet, accepts, answering)
    }
}

/// The value a request's `Mcp-Name` header must carry (SEP-2663): what a gateway routes by
/// without reading the body.
fn routed_name<'p>(method: &Method<'_>, params: &'p Params<'_>) -> Option<&'p str> {
    match (method, method.target(params)) {
        (Method::ToolsCall, Target::Tool(name)) | (Method::PromptsGet, Target::Prompt(name)) => {
            Some(name)
        }
        (Method::ResourcesRead, Target::Uri(uri)) => Some(uri),
        (Method::TasksGet | Method::TasksUpdate | Method::TasksCancel, Target::Task(id)) => {
            Some(id)
        }
        _ => None,
    }
}

/// Whether a request's `_meta` claims a revision (2026-07-28); a claim that is not a valid
/// envelope, or a modern `MCP-Protocol-Version` header without a claim, is refused later by
/// the stateless path or here.
pub(super) fn claim(params: &Params<'_>) -> Result<bool, Refusal> {
    match params.read_meta() {
        None => Ok(false),
        Some(None) => Err(Refusal(ProtocolError::invalid_params(
            "`_meta` must be an object",
        ))),
        Some(Some(meta)) => Ok(meta.protocol_version.is_some()),
    }
}

/// A refusal before the message was served.
pub(super) struct Refusal(ProtocolError);

impl Refusal {
    pub(super) fn for_message(&self, message: &Message<'_>) -> Response<ResponseBody> {
        error(StatusCode::BAD_REQUEST, request_id(message), &self.0)
    }
}
