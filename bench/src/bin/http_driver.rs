//! A load driver for an MCP server over Streamable HTTP. Prints one JSON object.
//!
//! Load: for each count C of clients, C clients (each its own keep-alive HTTP/1 connection)
//! call `add` back to back; after a warm-up, the calls answered within the measured window
//! give calls per second, and those sent and answered within it p50 and p99 latency. With
//! `--era 2025-11-25` each client first does the handshake and keeps the session it gets.
//!
//!   http_driver [--era 2026-07-28|2025-11-25] [--clients 1,16,256] [--seconds 3]
//!               [--warmup 0.5] [--threads 1] [--accept-events-only]
//!               (--url http://ADDR/mcp | -- SERVER...)
//!
//! `--accept-events-only` sends `Accept: text/event-stream` for the calls (not what the
//! specification asks of a client, which must accept both), so that a server that honours it
//! answers each call as an event stream.
//!
//! Memory: opens N handshake sessions (`initialize` and `notifications/initialized` each) over
//! a few connections, reads the server's VmHWM and VmRSS with them open, waits until they
//! have been idle past the server's idle time (given to it as `SESSION_IDLE_MS`), sends one
//! more request, reads VmRSS again, checks that every old session id gets 404, and opens N
//! sessions again to read VmHWM (whether the memory of the first ones was reused).
//!
//!   http_driver --sessions 10000 [--idle-ms 5000] [--connections 32] [--threads 1] -- SERVER...
//!
//! SERVER is a command that serves HTTP and prints `... serving MCP at http://ADDR/PATH` on
//! stderr once bound, such as `toolwright_server serve --http 127.0.0.1:0`.
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::task::JoinSet;
use toolwright_bench::http::{Client, Era, Spawned};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (options, command) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let option = |name: &str, default: &str| -> String {
        options
            .iter()
            .position(|o| o == name)
            .map_or(default.to_owned(), |i| options[i + 1].clone())
    };
    let threads: usize = option("--threads", "1").parse().unwrap();
    let runtime = match threads {
        1 => tokio::runtime::Builder::new_current_thread(),
        _ => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(threads);
            builder
        }
    }
    .enable_all()
    .build()
    .unwrap();

    let sessions: usize = option("--sessions", "0").parse().unwrap();
    let result = if sessions > 0 {
        assert!(
            !command.is_empty(),
            "the memory mode starts the server: -- SERVER..."
        );
        let idle = Duration::from_millis(option("--idle-ms", "5000").parse().unwrap());
        let connections: usize = option("--connections", "32").parse().unwrap();
        let server = Spawned::start(
            command,
            &[("SESSION_IDLE_MS", idle.as_millis().to_string())],
        );
        runtime.block_on(memory(&server, sessions, connections, idle))
    } else {
        let era = Era::parse(&option("--era", "2026-07-28"));
        let counts: Vec<usize> = option("--clients", "1,16,256")
            .split(',')
            .map(|c| c.parse().unwrap())
            .collect();
        let seconds = Duration::from_secs_f64(option("--seconds", "3").parse().unwrap());
        let warmup = Duration::from_secs_f64(option("--warmup", "0.5").parse().unwrap());
        let accept = match options.iter().any(|o| o == "--accept-events-only") {
            true => "text/event-stream",
            false => toolwright_bench::http::ACCEPT_BOTH,
        };
        let url = option("--url", "");
        let spawned = url.is_empty().then(|| Spawned::start(command, &[]));
        let (addr, path) = match &spawned {
            Some(server) => (server.addr, server.path.clone()),
            None => {
                let rest = url.strip_prefix("http://").expect("an http:// URL");
                let (addr, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
                (addr.parse().expect("ADDR is IP:PORT"), path.to_owned())
            }
        };
        let mut cells = Vec::new();
        for clients in counts {
            let pid = spawned.as_ref().map(|server| server.child.id());
            let shape = Shape {
                era,
                accept,
                clients,
                warmup,
                seconds,
            };
            let cell = runtime.block_on(load(addr, &path, shape, pid));
            cells.push(cell);
        }
        json!({"era": era.name(), "accept": accept, "seconds": seconds.as_secs_f64(), "threads": threads, "cells": cells})
    };
    println!("{result}");
}

/// What one cell of the load table runs.
struct Shape {
    era: Era,
    accept: &'static str,
    clients: usize,
    warmup: Duration,
    seconds: Duration,
}

/// One cell of the load table: `clients` clients calling `add` back to back. With the server's
/// `pid`, also the server's CPU time per call (user and system, over warm-up and measurement):
/// on a machine the driver shares, the rate is partly the driver's, the CPU time the server's
/// own.
async fn load(addr: SocketAddr, path: &str, shape: Shape, pid: Option<u32>) -> Value {
    let Shape {
        era,
        accept,
        clients,
        warmup,
        seconds,
    } = shape;
    let mut opening = JoinSet::new();
    for i in 0..clients {
        let path = path.to_owned();
        opening.spawn(async move {
            let mut client = Client::open(addr, &path, era).await;
            client.accept = accept;
            let answer = client.add(0, i as i64).await;
            check_sum(&answer.json(), i as i64 + 2);
            client
        });
    }
    let opened = opening.join_all().await;
    let cpu_before = pid.map(cpu_ticks);
    let measured = Instant::now() + warmup;
    let end = measured + seconds;
    let mut calling = JoinSet::new();
    for (i, mut client) in opened.into_iter().enumerate() {
        calling.spawn(async move {
            let (mut latencies, mut answered, mut errors) = (Vec::new(), 0u64, 0u64);
            let mut all = 0u64;
            let mut sample = None;
            for id in 1.. {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let answer = client.add(id, i as i64).await;
                let received = Instant::now();
                all += 1;
                if !answer.is_result() {
                    errors += 1;
                    sample.get_or_insert_with(|| {
                        format!(
                            "{} {}",
                            answer.status,
                            String::from_utf8_lossy(&answer.body)
                        )
                    });
                }
                if received >= measured && received <= end {
                    answered += 1;
                }
                if sent >= measured && received <= end {
                    latencies.push((received - sent).as_nanos() as u64);
                }
            }
            (latencies, answered, all, errors, sample)
        });
    }
    let (mut latencies, mut answered, mut all, mut errors, mut sample) =
        (Vec::new(), 0, 0, 0, None);
    for (l, a, n, e, s) in calling.join_all().await {
        latencies.extend(l);
        answered += a;
        all += n;
        errors += e;
        sample = sample.or(s);
    }
    let cpu_us_per_call = pid.zip(cpu_before).map(|(pid, before)| {
        let ticks = cpu_ticks(pid).saturating_sub(before) as f64;
        ticks / clock_ticks_per_second() * 1e6 / all.max(1) as f64
    });
    latencies.sort_unstable();
    let percentile = |p: f64| {
        let i = ((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1));
        latencies.get(i).map_or(0.0, |&ns| ns as f64 / 1e3)
    };
    json!({
        "clients": clients,
        "calls": answered,
        "calls_per_s": answered as f64 / seconds.as_secs_f64(),
        "p50_us": percentile(0.50),
        "p99_us": percentile(0.99),
        "errors": errors,
        "error_sample": sample,
        "server_cpu_us_per_call": cpu_us_per_call,
    })
}

/// A process's user and system CPU time, in clock ticks (fields 14 and 15 of its stat line,
/// counted after the command name, which is in parentheses and may hold spaces).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0)
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux).
fn clock_ticks_per_second() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// The memory mode: `n` sessions open, then expired.
async fn memory(server: &Spawned, n: usize, connections: usize, idle: Duration) -> Value {
    let (addr, path) = (server.addr, server.path.clone());
    let mut probe = Client::open(addr, &path, Era::Handshake).await;
    assert!(probe.add(1, 1).await.is_result(), "a call in a session");
    let rss_before = server.status("VmRSS:");

    let started = Instant::now();
    let ids = open_sessions(addr, &path, n, connections).await;
    let opened = started.elapsed();
    let last_opened = Instant::now();
    // The first session opened is still there (so all are, as RSS is read).
    let mut check = Client::connect(addr, &path, Era::Handshake).await;
    check.session = Some(ids[0][0].clone());
    let oldest_alive = check.add(2, 1).await.is_result();
    let peak_open = server.status("VmHWM:");
    let rss_open = server.status("VmRSS:");

    // toolwright sweeps every quarter of the idle time (at least a second); rmcp ends each
    // session on its own timer.
    let sweep = (idle / 4).max(Duration::from_secs(1));
    tokio::time::sleep_until((last_opened + idle + sweep + Duration::from_secs(1)).into()).await;
    let mut late = Client::open(addr, &path, Era::Handshake).await;
    assert!(late.add(3, 1).await.is_result(), "a call after expiry");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let rss_expired = server.status("VmRSS:");
    let peak_expired = server.status("VmHWM:");

    let mut checking = JoinSet::new();
    for chunk in ids {
        let path = path.clone();
        checking.spawn(async move {
            let mut client = Client::connect(addr, &path, Era::Handshake).await;
            let mut not_found = 0usize;
            for id in chunk {
                client.session = Some(id);
                not_found += usize::from(client.add(4, 1).await.status == 404);
            }
            not_found
        });
    }
    let not_found: usize = checking.join_all().await.into_iter().sum();
    // As many sessions again: a peak that hardly grows says the memory of the first ones was
    // freed and reused, though not given back to the system.
    open_sessions(addr, &path, n, connections).await;
    let peak_reopened = server.status("VmHWM:");
    json!({
        "sessions": n,
        "connections": connections,
        "idle_ms": idle.as_millis() as u64,
        "open_s": opened.as_secs_f64(),
        "oldest_alive_when_measured": oldest_alive,
        "rss_before_kib": rss_before,
        "peak_rss_open_kib": peak_open,
        "rss_open_kib": rss_open,
        "kib_per_session": (rss_open as f64 - rss_before as f64) / n as f64,
        "rss_expired_kib": rss_expired,
        "peak_rss_end_kib": peak_expired,
        "old_ids_404": not_found,
        "peak_rss_reopened_kib": peak_reopened,
    })
}

/// `n` new sessions, opened over `connections` connections: their ids, by connection.
async fn open_sessions(
    addr: SocketAddr,
    path: &str,
    n: usize,
    connections: usize,
) -> Vec<Vec<String>> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut opening = JoinSet::new();
    for _ in 0..connections {
        let (next, path) = (Arc::clone(&next), path.to_owned());
        opening.spawn(async move {
            let mut client = Client::connect(addr, &path, Era::Handshake).await;
            let mut ids = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < n {
                client.handshake().await;
                ids.push(
                    client
                        .session
                        .take()
                        .expect("the server gives a session id"),
                );
            }
            ids
        });
    }
    opening.join_all().await
}

/// The first answer of each client must carry the right sum, as text (every server) or as
/// structured content.
fn check_sum(message: &Value, sum: i64) {
    let text = &message["result"]["content"][0]["text"];
    assert_eq!(
        text.as_str(),
        Some(sum.to_string().as_str()),
        "wrong answer: {message}"
    );
}
