//! Bodies the endpoint does not want: read and dropped, within bounds, so that a client that
//! sends everything before it reads (most do) gets the answer rather than a reset connection,
//! and the connection stays usable for its next request.

use std::time::Duration;

use bytes::Buf;
use http::header::{CONNECTION, CONTENT_LENGTH, EXPECT};
use http::{HeaderMap, HeaderValue, Response};
use http_body_util::BodyExt;

/// How much of a body over the limit is still read (and dropped) so that the client, once it
/// has sent it, reads the 413; beyond this the connection is closed.
pub(crate) const DRAIN: usize = 64 << 20;

/// The most of a body read, and the longest waited for it, when its request is refused before
/// anything vouched for its client (a foreign `Host` or `Origin`, no valid token): enough for
/// any request a client sends before it knows it needs a token, and short, so that a client
/// with no token cannot hold a connection for the whole body timeout by sending slowly.
pub(crate) const REFUSED_BOUND: (usize, Duration) = (1 << 20, Duration::from_secs(2));

/// Reads and drops the rest of a body, at most `bound` bytes of it; whether it reached its end.
pub(crate) async fn drain<B: http_body::Body>(
    mut body: std::pin::Pin<&mut B>,
    bound: usize,
) -> bool {
    let mut seen = 0;
    while let Some(frame) = body.frame().await {
        match frame.map(http_body::Frame::into_data) {
            Ok(Ok(data)) => seen += data.remaining(),
            Ok(Err(_)) => {}
            Err(_) => return false,
        }
        if seen > bound {
            return false;
        }
    }
    true
}

/// What a request's head says of its body: its length, if it declares one, and whether the
/// client waits for `100 Continue` before it sends it.
pub(crate) fn declared(headers: &HeaderMap) -> (Option<usize>, bool) {
    declared_by(headers.get(CONTENT_LENGTH), headers.get(EXPECT))
}

/// What `Content-Length` and `Expect` say, as [`declared`].
pub(crate) fn declared_by(
    length: Option<&HeaderValue>,
    expect: Option<&HeaderValue>,
) -> (Option<usize>, bool) {
    let length = length
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    let waits_to_continue =
        expect.is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
    (length, waits_to_continue)
}

/// `response`, a refusal decided before the request's body was read: the body is read and
/// dropped first, at most `limit` bytes within `time`; one that cannot be (too large, too slow,
/// or a client waiting for `100 Continue`, which need not send it) closes the connection, and
/// the response says so.
pub(crate) async fn refuse_unread<B, R>(
    headers: &HeaderMap,
    body: B,
    limit: usize,
    time: Duration,
    mut response: Response<R>,
) -> Response<R>
where
    B: http_body::Body,
{
    let (declared, waits_to_continue) = declared(headers);
    let whole = match waits_to_continue || declared.is_some_and(|length| length > limit) {
        true => declared == Some(0),
        false => {
            let body = std::pin::pin!(body);
            tokio::time::timeout(time, drain(body, limit))
                .await
                .unwrap_or(false)
        }
    };
    if !whole {
        let close = HeaderValue::from_static("close");
        response.headers_mut().insert(CONNECTION, close);
    }
    response
}
