//! What checking a bearer token costs a call: `tools/call` through the HTTP endpoint as a tower
//! service (no sockets, so that only the endpoint's work is measured), unauthenticated, against
//! the same call with a JWT access token (its keys fetched by the first call), and with an
//! opaque token whose introspection answer is cached.
//!
//! Each case is measured twice: in wall-clock time (`oauth`), and in the CPU time of the whole
//! process, every thread of it (`oauth-cpu`), which is what a call costs the machine and what
//! other work on a shared machine disturbs least.
//!
//! `cargo bench -p toolwright-tests --all-features --bench oauth`

use std::hint::black_box;
use std::path::Path;

use axum::body::Body;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use toolwright::http::{Http, HttpService};
use toolwright::oauth::{Authorization, Introspection, Jwt};
use toolwright::prelude::*;
use tower::{Service, ServiceExt};

#[path = "../tests/common/oauth.rs"]
#[allow(dead_code)]
mod oauth;

use oauth::{FakeAs, INTROSPECTOR, RESOURCE};

/// Where the fixture keys are.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// Echoes its text.
#[mcp_tool(read_only)]
fn echo(text: String) -> String {
    text
}

fn endpoint(authorization: Option<Authorization>) -> HttpService {
    let http = match authorization {
        Some(authorization) => {
            Http::new().authorization(authorization.require_scopes(["mcp:tools"]))
        }
        None => Http::new(),
    };
    Server::new("bench", "0")
        .tool::<echo>()
        .http_service(http)
        .unwrap()
}

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

async fn call(service: &mut HttpService, token: Option<&str>) -> Value {
    let mut request = axum::http::Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "echo");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request.body(Body::from(CALL)).unwrap();
    let ready = ServiceExt::<axum::http::Request<Body>>::ready(service)
        .await
        .unwrap();
    let response = ready.call(request).await.unwrap();
    let body = axum::body::to_bytes(Body::new(response.into_body()), 1 << 20)
        .await
        .unwrap();
    serde_json::from_slice(&body).unwrap()
}

fn validation<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let authority = FakeAs::start();
    let token = authority.token("ada", "mcp:tools");
    authority.describe(
        "opaque-ada",
        json!({"active": true, "sub": "ada", "scope": "mcp:tools", "aud": RESOURCE,
               "iss": authority.issuer, "exp": oauth::now() + 3600}),
    );
    let (id, secret) = INTROSPECTOR;
    let cases = [
        ("unauthenticated", endpoint(None), None),
        (
            "JWT, key cached",
            endpoint(Some(Authorization::new(
                RESOURCE,
                Jwt::new(&authority.issuer),
            ))),
            Some(token.as_str()),
        ),
        (
            "introspection, answer cached",
            endpoint(Some(Authorization::new(
                RESOURCE,
                Introspection::new(&authority.issuer, id, secret),
            ))),
            Some("opaque-ada"),
        ),
    ];
    let mut group = c.benchmark_group(group);
    for (name, mut service, token) in cases {
        // The first call fetches the keys (or the introspection answer) and checks the answer.
        let answer = runtime.block_on(call(&mut service, token));
        assert_eq!(
            answer["result"]["content"][0]["text"], "hi",
            "{name}: {answer}"
        );
        group.bench_function(name, |b| {
            b.iter(|| runtime.block_on(call(&mut service, black_box(token))))
        });
    }
    group.finish();
}

fn wall_clock(c: &mut Criterion) {
    validation(c, "oauth");
}

fn process_cpu(c: &mut Criterion<ProcessCpu>) {
    validation(c, "oauth-cpu");
}

/// The CPU time the process used, on all its threads: the endpoint's work is done on the
/// runtime's workers, not on the thread that waits for it.
struct ProcessCpu(WallTime);

fn cpu_now() -> std::time::Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

impl Measurement for ProcessCpu {
    type Intermediate = std::time::Duration;
    type Value = std::time::Duration;

    fn start(&self) -> Self::Intermediate {
        cpu_now()
    }

    fn end(&self, start: Self::Intermediate) -> Self::Value {
        cpu_now().saturating_sub(start)
    }

    fn add(&self, a: &Self::Value, b: &Self::Value) -> Self::Value {
        *a + *b
    }

    fn zero(&self) -> Self::Value {
        std::time::Duration::ZERO
    }

    fn to_f64(&self, value: &Self::Value) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, as wall-clock time is counted.
        self.0.formatter()
    }
}

criterion_group!(benches, wall_clock);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ProcessCpu(WallTime));
    targets = process_cpu
}
criterion_main!(benches, cpu);
