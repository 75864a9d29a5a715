//! The MCP endpoint as a tower `Service`: one URL for both eras, routed by method and body.
//!
//! Every request passes the `Host`/`Origin` guard first (403). Then, by method and body:
//!
//! | request | served |
//! |---|---|
//! | POST whose `_meta` names a revision | statelessly, 2026-07-28: headers checked against the body; `-32020`, `-32021`, `-32022` and a malformed `_meta` are 400, `-32601` is 404, other errors in-band |
//! | POST, no such claim, `MCP-Protocol-Version` naming 2026-07-28 | 400, `-32602`: the request lacks its `_meta` |
//! | POST `initialize` | creates a session; its id in `Mcp-Session-Id` |
//! | any other POST | in its session: missing id 400, unknown or expired 404; errors in-band |
//! | GET | a session's stream of messages that belong to no request (409 for a second), or the resumption of a stream (`Last-Event-ID`); 405 without a session |
//! | DELETE | ends a session (200); 405 without one |
//!
//! How an answer becomes a JSON document or an event stream is `endpoint`'s.

use std::future::Future;
use std::mem::take;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::header::{HOST, ORIGIN};
use http::{HeaderValue, Method, Request, Response, StatusCode};

use crate::call::auth::Auth;
use crate::protocol::jsonrpc::{self, Message};
use crate::protocol::method::Method as McpMethod;
use crate::server::engine::Engine;
use crate::transport::http::body;
use crate::transport::http::body::declared_by;
use crate::transport::http::config::Http;
use crate::transport::http::endpoint::{Endpoint, Served};
use crate::transport::http::head::{Head, is_json};
use crate::transport::http::oauth::stream_deadline;
use crate::transport::http::reply::{error, not_allowed, refusal};
use crate::transport::http::sessioned::legacy_version_header;
use crate::transport::http::stateless::{claim, disagreement};
use crate::transport::http::stream::ResponseBody;

/// The path `serve_http` serves the endpoint at.
pub const PATH: &str = "/mcp";

/// The MCP endpoint as a tower `Service`: mount it on a route of your own server (axum's
/// `Router::route_service("/mcp", endpoint)`, or hyper directly), behind the layers you choose
/// (authentication, CORS, rate limits, tracing, TLS). Cloning it is cheap: clones share the
/// server and its sessions.
#[derive(Clone)]
pub struct HttpService {
    pub(crate) endpoint: Arc<Endpoint>,
}

impl HttpService {
    pub(crate) fn new(engine: Arc<Engine>, http: Http) -> HttpService {
        HttpService {
            endpoint: Arc::new(Endpoint::new(engine, http)),
        }
    }
}

impl<B> tower_service::Service<Request<B>> for HttpService
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<ResponseBody>;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<ResponseBody>, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let endpoint = Arc::clone(&self.endpoint);
        Box::pin(async move { Ok(endpoint.handle(request).await) })
    }
}

impl Endpoint {
    /// The response to one request.
    ///
    /// Its future is what hyper keeps for a connection's request in flight, allocated once a
    /// request: the parts of the request are kept once (an `async fn`'s arguments would be
    /// kept twice), and what only a refusal awaits is boxed, so that a request that is served
    /// holds a few hundred bytes.
    pub(crate) fn handle<B>(
        self: Arc<Self>,
        request: Request<B>,
    ) -> impl Future<Output = Response<ResponseBody>> + Send + 'static
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let (mut parts, body) = request.into_parts();
        async move {
            // Tools run on the runtime that serves HTTP.
            self.engine.workers.adopt_current();
            self.start_sweeping();
            // A POST reads `Host` and `Origin` with the rest of its head.
            if parts.method == Method::POST {
                return self.post(&mut parts, body).await;
            }
            let headers = &parts.headers;
            let (host, origin) = (headers.get(HOST), headers.get(ORIGIN));
            let (method, uri) = (&parts.method, &parts.uri);
            let vouched = self.vouch(host, origin, method, uri, headers, &mut parts.extensions);
            if let Some(refused) = vouched.await {
                return refused.response(&self, &parts.headers, body).await;
            }
            match parts.method {
                Method::GET => self.get(&parts.headers, &parts.extensions),
                Method::DELETE => self.delete(&parts.headers, parts.extensions.get::<Auth>()),
                _ => not_allowed(),
            }
        }
    }

    /// Whether the request goes on: refused by the DNS-rebinding guard (its `Host`, and its
    /// `Origin` unless it asks for the metadata, which is for any web page to read) or for
    /// its credentials, or answered with the metadata document; `None` lets it through.
    async fn vouch(
        &self,
        host: Option<&HeaderValue>,
        origin: Option<&HeaderValue>,
        method: &Method,
        uri: &http::Uri,
        headers: &http::HeaderMap,
        extensions: &mut http::Extensions,
    ) -> Option<Stopped> {
        let authorization = self.http.authorization.as_ref();
        let metadata = authorization.is_some_and(|a| a.is_metadata_path(uri.path()));
        if let Some(refused) = self.guard(host, origin.filter(|_| !metadata)) {
            return Some(Stopped::Refused(refused));
        }
        let authorization = authorization?;
        if let Some(metadata) = authorization.metadata(method, uri) {
            return Some(Stopped::Answered(metadata));
        }
        let admitted = authorization.admit(uri, headers, extensions).await;
        admitted.map(Stopped::Refused)
    }

    /// `refused`, once the body it did not need was read and dropped (see `body`).
    async fn refuse_unread<B: http_body::Body>(
        &self,
        headers: &http::HeaderMap,
        body: B,
        refused: Response<ResponseBody>,
    ) -> Response<ResponseBody> {
        let (limit, time) = (self.http.max_body, self.http.body_timeout);
        body::refuse_unread(headers, body, limit, time, refused).await
    }

    /// `refused`, a request nothing vouched for (see [`body::REFUSED_BOUND`]): its body is read
    /// within that bound, or the endpoint's own limits if they are smaller.
    async fn refuse_unvouched<B: http_body::Body>(
        &self,
        headers: &http::HeaderMap,
        body: B,
        refused: Response<ResponseBody>,
    ) -> Response<ResponseBody> {
        let (bytes, time) = body::REFUSED_BOUND;
        let (limit, time) = (
            self.http.max_body.min(bytes),
            self.http.body_timeout.min(time),
        );
        body::refuse_unread(headers, body, limit, time, refused).await
    }

    /// Whether a request for `path` is the endpoint's (when it serves on its own): the MCP
    /// endpoint's path, or its metadata's.
    pub(crate) fn serves(&self, path: &str) -> bool {
        path == PATH || (self.http.authorization.as_ref()).is_some_and(|a| a.is_metadata_path(path))
    }

    async fn post<B>(
        self: &Arc<Self>,
        parts: &mut http::request::Parts,
        body: B,
    ) -> Response<ResponseBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let head = Head::read(&parts.headers);
        let (method, uri, headers) = (&parts.method, &parts.uri, &parts.headers);
        let vouched = self.vouch(
            head.host,
            head.origin,
            method,
            uri,
            headers,
            &mut parts.extensions,
        );
        if let Some(refused) = vouched.await {
            return refused.response(self, &parts.headers, body).await;
        }
        #[cfg(feature = "opentelemetry")]
        if let Some(context) = trace_headers(&parts.headers) {
            parts.extensions.insert(context);
        }
        let headers = &parts.headers;
        if !is_json(head.content_type) {
            let message = "send the message as `Content-Type: application/json`";
            let refused = refusal(StatusCode::UNSUPPORTED_MEDIA_TYPE, None, message);
            return Box::pin(self.refuse_unread(headers, body, refused)).await;
        }
        let accepts = head.accepts();
        if !accepts.json && !accepts.events {
            let message = "accept `application/json` or `text/event-stream`";
            let refused = refusal(StatusCode::NOT_ACCEPTABLE, None, message);
            return Box::pin(self.refuse_unread(headers, body, refused)).await;
        }
        let declared = declared_by(head.content_length, head.expect);
        // In a block of its own: what it borrowed is not kept while the answer is waited for.
        let pending = {
            let body = match self.read(declared, body).await {
                Ok(body) => body,
                Err(refused) => return refused,
            };
            let message = jsonrpc::classify(&body);
            // A stream that outlives its request ends when its token expires: none for a token
            // that has already.
            let until = match &message {
                Message::Request {
                    method: McpMethod::SubscriptionsListen,
                    ..
                } => match stream_deadline(&parts.extensions) {
                    Ok(until) => until,
                    Err(refused) => return *refused,
                },
                _ => None,
            };
            let modern = match &message {
                Message::Request { params, .. } | Message::Notification { params, .. } => {
                    match claim(params) {
                        Ok(claimed) => claimed,
                        Err(refused) => return refused.for_message(&message),
                    }
                }
                // A body that is not JSON, or not a message.
                Message::Invalid { id, error: e } => {
                    return error(StatusCode::BAD_REQUEST, *id, e);
                }
                _ => false,
            };
            let served = match modern {
                true => {
                    if let Some(refused) = disagreement(&head, &message) {
                        return refused;
                    }
                    let headers = take(&mut parts.headers);
                    let extensions = take(&mut parts.extensions);
                    self.modern(headers, message, extensions, accepts, until)
                }
                false => {
                    if let Some(refused) = legacy_version_header(headers, &message) {
                        return refused;
                    }
                    let extensions = take(&mut parts.extensions);
                    self.legacy(&parts.headers, &body, message, extensions, accepts)
                }
            };
            match served {
                Served::Now(response) => return response,
                Served::Later(pending) => pending,
            }
        };
        self.wait(pending).await
    }
}

/// A request that goes no further than `vouch`.
enum Stopped {
    /// Refused before anything vouched for its client: its body is read within a short bound.
    Refused(Response<ResponseBody>),
    /// The metadata document.
    Answered(Response<ResponseBody>),
}

impl Stopped {
    async fn response<B: http_body::Body>(
        self,
        endpoint: &Endpoint,
        headers: &http::HeaderMap,
        body: B,
    ) -> Response<ResponseBody> {
        match self {
            Stopped::Refused(refused) => {
                Box::pin(endpoint.refuse_unvouched(headers, body, refused)).await
            }
            Stopped::Answered(document) => document,
        }
    }
}

/// The W3C trace context of the request's headers, if it has a `traceparent`.
#[cfg(feature = "opentelemetry")]
fn trace_headers(headers: &http::HeaderMap) -> Option<crate::call::trace_context::TraceContext> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    Some(crate::call::trace_context::TraceContext {
        traceparent: Some(header("traceparent")?),
        tracestate: header("tracestate"),
        baggage: header("baggage"),
    })
}
