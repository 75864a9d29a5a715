//! The HTTP floor: hyper 1's HTTP/1 server with one handler and no framework, no checks of
//! headers, no sessions. It parses the body with serde_json (strings borrowed) and writes the
//! result document toolwright writes for a 2026-07-28 call; `add` and `echo` only (anything
//! else gets an empty result).
//!
//! usage: hyper_floor serve --http ADDR (prints `floor: serving MCP at http://ADDR/mcp` on
//! stderr once bound).
use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde::Serialize;
use serde_json::value::RawValue;

#[derive(Serialize)]
struct Text<'a> {
    r#type: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult<'a> {
    content: [Text<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<i64>,
    result_type: &'static str,
}

#[derive(Serialize)]
struct Response_<'a, T> {
    jsonrpc: &'static str,
    id: &'a RawValue,
    result: T,
}

/// The response document for one request body; `None` for a body that is not a request.
fn answer(body: &[u8]) -> Option<Vec<u8>> {
    let call: toolwright_bench::Request = serde_json::from_slice(body).ok()?;
    let params = call.params.as_ref();
    let arguments = params.and_then(|p| p.arguments).map_or("{}", RawValue::get);
    let write = |result: &CallResult| {
        serde_json::to_vec(&Response_ {
            jsonrpc: "2.0",
            id: call.id?,
            result,
        })
        .ok()
    };
    match (call.method, params.and_then(|p| p.name)) {
        ("tools/call", Some("add")) => {
            let toolwright_bench::Add { a, b } = serde_json::from_str(arguments).ok()?;
            let sum = a.wrapping_add(b);
            let text = sum.to_string();
            write(&CallResult {
                content: [Text {
                    r#type: "text",
                    text: &text,
                }],
                structured_content: Some(sum),
                result_type: "complete",
            })
        }
        ("tools/call", Some("echo")) => {
            let toolwright_bench::Echo { text } = serde_json::from_str(arguments).ok()?;
            write(&CallResult {
                content: [Text {
                    r#type: "text",
                    text: &text,
                }],
                structured_content: None,
                result_type: "complete",
            })
        }
        _ => serde_json::to_vec(&Response_ {
            jsonrpc: "2.0",
            id: call.id?,
            result: serde_json::json!({}),
        })
        .ok(),
    }
}

async fn handle(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let body = match request.into_body().collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => return Ok(status(StatusCode::BAD_REQUEST)),
    };
    Ok(match answer(&body) {
        Some(document) => Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(document)))
            .unwrap(),
        None => status(StatusCode::BAD_REQUEST),
    })
}

fn status(code: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = code;
    response
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr = match args.as_slice() {
        [serve, http, addr] if serve == "serve" && http == "--http" => addr.clone(),
        _ => panic!("usage: hyper_floor serve --http ADDR"),
    };
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "floor: serving MCP at http://{}/mcp",
        listener.local_addr()?
    );
    loop {
        let (tcp, _) = listener.accept().await?;
        tokio::spawn(async move {
            let service = hyper::service::service_fn(handle);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(tcp), service)
                .await;
        });
    }
}
