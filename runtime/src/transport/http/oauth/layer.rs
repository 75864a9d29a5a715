//! [`Authorization`] as a tower `Layer`, for a service of your own: the metadata served at its
//! paths, every other request checked, its caller put into its extensions.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use http::{Request, Response};
use http_body_util::Either;

use crate::transport::http::body::{REFUSED_BOUND, refuse_unread};
use crate::transport::http::oauth::authorization::Authorization;
use crate::transport::http::stream::ResponseBody;

/// # Panics
///
/// When the authorization cannot be used ([`Authorization::check`] says why), as routers panic
/// on routes that cannot be: a mistake in the program, found when it starts.
impl<S> tower_layer::Layer<S> for Authorization {
    type Service = Authorized<S>;

    fn layer(&self, inner: S) -> Authorized<S> {
        if let Err(problem) = self.check() {
            panic!("the authorization cannot be used: {problem}");
        }
        Authorized {
            authorization: self.clone(),
            inner,
        }
    }
}

/// A service behind an [`Authorization`]: it sees only requests whose caller was verified,
/// with that caller (an [`Auth`](crate::Auth)) in their extensions. The refusals and the
/// metadata are the layer's own responses (the right side of the body).
///
/// The layer checks tokens before the service behind it checks anything: an endpoint behind
/// it answers a foreign `Origin` (DNS rebinding) only once the token passed. To keep the
/// endpoint's order (`Host` and `Origin` first), give it the `Authorization` through
/// [`Http::authorization`](crate::Http::authorization) instead, or put a check of your own
/// outside the layer.
#[derive(Clone)]
pub struct Authorized<S> {
    authorization: Authorization,
    inner: S,
}

impl<S, B, R> tower_service::Service<Request<B>> for Authorized<S>
where
    S: tower_service::Service<Request<B>, Response = Response<R>> + Clone + Send + 'static,
    S::Future: Send,
    B: http_body::Body + Send + 'static,
{
    type Response = Response<Either<R, ResponseBody>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone that was made ready is the one called (tower's usual dance).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let authorization = self.authorization.clone();
        Box::pin(async move {
            let (mut parts, body) = request.into_parts();
            let ours = |response: Response<ResponseBody>| Ok(response.map(Either::Right));
            if let Some(metadata) = authorization.metadata(&parts.method, &parts.uri) {
                return ours(metadata);
            }
            let admitted = authorization.admit(&parts.uri, &parts.headers, &mut parts.extensions);
            if let Some(refused) = admitted.await {
                // The body is read (to keep the connection) within a short bound, as the
                // endpoint reads the body of a request it refuses before it knows its caller.
                let (limit, time) = REFUSED_BOUND;
                return ours(refuse_unread(&parts.headers, body, limit, time, refused).await);
            }
            let response = inner.call(Request::from_parts(parts, body)).await?;
            Ok(response.map(Either::Left))
        })
    }
}
