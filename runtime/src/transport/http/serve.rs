//! Serving the endpoint at `/mcp` with hyper's HTTP/1 server: a bounded wait for each request's
//! head (no slowloris: see `quiet`), a bound on its size, and a graceful shutdown.
//!
//! Shutting down (ctrl-c, SIGTERM, or a future of the caller's): stop accepting, and close
//! every connection that is idle (the others close once their answer is sent); give calls in
//! flight the server's grace period to finish and their responses to go out; then end every
//! session (their calls see their `Cancellation` fire), answer open `subscriptions/listen`
//! streams, and return once the connections have closed (or after two seconds more).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use crate::server::{Error, Result, Server};
use crate::transport::http::config::Http;
use crate::transport::http::quiet::{self, Activity, Stopping};
use crate::transport::http::reply::refusal;
use crate::transport::http::service::{HttpService, PATH};
use crate::transport::http::stream::ResponseBody;

/// How long connections may take to close once the server has stopped serving.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

impl Server {
    /// The MCP endpoint as a tower `Service`, to mount in an HTTP server of your own (axum,
    /// hyper) behind your own layers. It serves whatever path you route to it. It does not know
    /// where it is reached: unless `http` names hosts, it accepts the loopback names only.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use toolwright_runtime::{Http, Server};
    ///
    /// let endpoint = Server::new("notes", "1.0.0")
    ///     .discover()
    ///     .http_service(Http::new().allow_host("mcp.example.com"))?;
    /// // axum: `Router::new().route_service("/mcp", endpoint)`; or serve it as it is:
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// endpoint.serve(listener, std::future::pending()).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn http_service(self, http: Http) -> Result<HttpService> {
        if let Some(authorization) = &http.authorization {
            authorization.check().map_err(Error::Authorization)?;
        }
        Ok(HttpService::new(self.build()?, http))
    }

    /// Serves MCP over Streamable HTTP at `http://ADDR/mcp` until the process gets ctrl-c or
    /// SIGTERM; then shuts down gracefully and returns.
    ///
    /// On a loopback address (`127.0.0.1:8080`, the safe choice) only loopback hosts and
    /// origins are accepted. On any other address the `Host` check is off (it defends a
    /// server on the local machine against DNS rebinding) and the `Origin` check stays on.
    /// [`Server::serve_http_with`] takes other settings.
    pub fn serve_http(self, addr: SocketAddr) -> Result<()> {
        self.serve_http_with(addr, Http::new(), shutdown_signal())
    }

    /// [`Server::serve_http`] with these settings, until `shutdown` completes. The `Host`s
    /// accepted are still the address's (as `serve_http` has them) unless `http` names them
    /// ([`Http::allow_host`], [`Http::allow_any_host`]).
    pub fn serve_http_with(
        self,
        addr: SocketAddr,
        http: Http,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<()> {
        self.serve_http_bound(addr, http, shutdown, |_| {})
    }

    /// Serves as [`Server::serve_http_with`] does, telling `bound` the address once it listens
    /// (port 0 picks a free one).
    pub(crate) fn serve_http_bound(
        self,
        addr: SocketAddr,
        http: Http,
        shutdown: impl Future<Output = ()> + Send,
        bound: impl FnOnce(SocketAddr),
    ) -> Result<()> {
        let endpoint = self.http_service(http.listening_on(addr))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("toolwright-http")
            .build()?;
        runtime.block_on(async {
            let listener = TcpListener::bind(addr).await?;
            bound(listener.local_addr()?);
            endpoint.serve(listener, shutdown).await
        })?;
        runtime.shutdown_background();
        Ok(())
    }
}

impl HttpService {
    /// Serves the endpoint at `/mcp` on `listener` until `shutdown` completes (and, with an
    /// [`Authorization`](crate::oauth::Authorization), its metadata; every other path is 404).
    /// The `Host`s accepted are the service's (loopback names only, unless its `Http` named
    /// others), whatever the listener's address: [`Server::serve_http_with`] derives them from
    /// the address.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let http = &self.endpoint.http;
        let resource_path = http.authorization.as_ref().and_then(|a| a.resource_path());
        if let Some(path) = resource_path.filter(|path| *path != PATH) {
            // Not refused: a proxy in front may map the public path to this one.
            tracing::warn!(
                resource_path = path,
                "the resource URI's path is not {PATH}, where this endpoint is served: clients \
                 send their requests to the resource URI, so they reach the endpoint only \
                 through a proxy that maps one path to the other"
            );
        }
        let mut builder = hyper::server::conn::http1::Builder::new();
        // The wait for a head is bounded by each connection's watchdog (`quiet`), not by
        // hyper's timer per request.
        builder
            .header_read_timeout(None)
            .max_buf_size(http.max_header_size.max(8192));
        let bound = http.header_timeout;
        let stopping = Stopping::new();
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (tcp, _) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    // Out of descriptors, a connection reset before it was accepted: the next
                    // one may do.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            // Events go out as they are written: a stream's last small write must not wait
            // for the client's delayed acknowledgement (about 40 ms).
            let _ = tcp.set_nodelay(true);
            let endpoint = Arc::clone(&self.endpoint);
            let activity = Arc::new(Activity::default());
            let watched = Arc::clone(&activity);
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let endpoint = Arc::clone(&endpoint);
                let activity = Arc::clone(&watched);
                let open = activity.started();
                async move {
                    let response = match endpoint.serves(request.uri().path()) {
                        // Its connection is being closed (quiet, or the server stopping) as
                        // the head came.
                        _ if !open => closing(),
                        false => not_found(),
                        // Boxed, as the tower `Service` boxes it: hyper keeps a connection's
                        // request future inline and moves it into place for every request,
                        // and this one is about 3 KiB (measured: 5% more calls per second
                        // boxed).
                        true => Box::pin(endpoint.handle(request)).await,
                    };
                    Ok::<_, std::convert::Infallible>(response.map(|body| activity.watching(body)))
                }
            });
            let connection = builder.serve_connection(TokioIo::new(tcp), service);
            quiet::run(connection, activity, bound, &stopping);
        }
        drop(listener);
        stopping.signal();
        let engine = Arc::clone(&self.endpoint.engine);
        let grace = engine.limits.shutdown_grace;
        let in_flight = Arc::clone(&engine.in_flight);
        // Tasks have no connection whose end would stop them: they are told here.
        engine.running.signal(None);
        let _ = tokio::task::spawn_blocking(move || in_flight.wait_idle(grace)).await;
        self.endpoint.close();
        stopping.closed(CLOSE_GRACE).await;
        Ok(())
    }
}

fn closing() -> Response<ResponseBody> {
    let mut response = refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        None,
        "the connection is closing; send the request again",
    );
    response.headers_mut().insert(
        http::header::CONNECTION,
        http::HeaderValue::from_static("close"),
    );
    response
}

fn not_found() -> Response<ResponseBody> {
    refusal(
        StatusCode::NOT_FOUND,
        None,
        format_args!("the MCP endpoint is {PATH}"),
    )
}

/// Ctrl-c, or SIGTERM on Unix.
pub(crate) async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
