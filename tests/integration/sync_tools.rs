//! Sync tools that never return hold threads of the server's own, at most
//! `Server::max_sync_threads` of them: pings, async tools and `tokio::fs` go on meanwhile,
//! calls beyond the cap wait for a thread, and every one runs once the stuck ones end.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::{ProtocolVersion, Server};

/// Where the stuck tools wait, and what they did.
#[derive(Clone, Default)]
struct Stuck(Arc<StuckInner>);

#[derive(Default)]
struct StuckInner {
    released: Mutex<bool>,
    release: Condvar,
    running: AtomicUsize,
    most: AtomicUsize,
    finished: AtomicUsize,
}

impl Stuck {
    fn release(&self) {
        *self.0.released.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.0.release.notify_all();
    }
}

/// Lets every stuck tool go when the test ends, passed or failed.
struct ReleaseOnDrop(Stuck);

impl Drop for ReleaseOnDrop {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// Waits until the test lets it go.
#[mcp_tool]
fn wait_for_release(stuck: State<Stuck>) -> &'static str {
    let inner = &stuck.0;
    let now = inner.running.fetch_add(1, Ordering::SeqCst) + 1;
    inner.most.fetch_max(now, Ordering::SeqCst);
    let mut released = inner.released.lock().unwrap_or_else(|e| e.into_inner());
    while !*released {
        released = inner
            .release
            .wait(released)
            .unwrap_or_else(|e| e.into_inner());
    }
    drop(released);
    inner.running.fetch_sub(1, Ordering::SeqCst);
    inner.finished.fetch_add(1, Ordering::SeqCst);
    "released"
}

/// Reads a file with `tokio::fs` and counts its bytes on a blocking thread.
#[mcp_tool]
async fn read_with_tokio(path: String) -> Result<String, String> {
    let text = tokio::fs::read_to_string(&path)
        .await
        .map_err(|e| e.to_string())?;
    let length = tokio::task::spawn_blocking(move || text.len())
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("{length} bytes"))
}

fn server(stuck: &Stuck) -> Server {
    Server::new("stuck", "1")
        .state(stuck.clone())
        .tool::<wait_for_release>()
        .tool::<read_with_tokio>()
}

/// Starts `calls` stuck calls, then waits until no more of them start.
fn start_stuck(client: &mut Client, stuck: &Stuck, calls: usize) -> usize {
    for id in 0..calls {
        let call = json!({"jsonrpc": "2.0", "id": format!("stuck-{id}"), "method": "tools/call",
            "params": {"name": "wait_for_release", "arguments": {}}});
        client.send_line(&call.to_string());
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = 0;
    let mut since = Instant::now();
    while Instant::now() < deadline && since.elapsed() < Duration::from_millis(500) {
        std::thread::sleep(Duration::from_millis(20));
        let now = stuck.0.running.load(Ordering::SeqCst);
        if now != seen {
            (seen, since) = (now, Instant::now());
        }
    }
    seen
}

fn wait_finished(stuck: &Stuck, calls: usize) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while stuck.0.finished.load(Ordering::SeqCst) < calls && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(stuck.0.finished.load(Ordering::SeqCst), calls);
}

/// More stuck sync tools than tokio has blocking threads (512): the server's own threads stop
/// at the default cap, and a ping, an async tool and its `tokio::fs` read are answered at once.
#[test]
fn stuck_sync_tools_leave_pings_async_tools_and_tokio_fs_alone() {
    let stuck = Stuck::default();
    let _release = ReleaseOnDrop(stuck.clone());
    let mut client = Client::connect(server(&stuck), ProtocolVersion::V2025_11_25)
        .unwrap()
        .timeout(Duration::from_secs(10));
    let calls = 600;
    let running = start_stuck(&mut client, &stuck, calls);
    assert!(running >= 256, "{running} stuck");
    client.request("ping", json!({})).unwrap();
    let read = client
        .call(
            "read_with_tokio",
            json!({"path": concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")}),
        )
        .unwrap();
    assert!(read.text().ends_with(" bytes"), "{}", read.text());
    assert_eq!(running, 256, "the default cap");
    stuck.release();
    wait_finished(&stuck, calls);
    assert_eq!(stuck.0.most.load(Ordering::SeqCst), 256);
}

/// With a cap of its own, a server runs that many sync tools at once; the calls beyond it wait
/// for a thread and run when one comes free.
#[test]
fn calls_beyond_the_cap_wait_for_a_thread() {
    let stuck = Stuck::default();
    let _release = ReleaseOnDrop(stuck.clone());
    let mut client = Client::connect(
        server(&stuck).max_sync_threads(3),
        ProtocolVersion::V2025_06_18,
    )
    .unwrap()
    .timeout(Duration::from_secs(10));
    assert_eq!(start_stuck(&mut client, &stuck, 8), 3);
    client.request("ping", json!({})).unwrap();
    let read = client
        .call(
            "read_with_tokio",
            json!({"path": concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")}),
        )
        .unwrap();
    assert!(read.text().ends_with(" bytes"), "{}", read.text());
    stuck.release();
    wait_finished(&stuck, 8);
    assert_eq!(stuck.0.most.load(Ordering::SeqCst), 3);
}
