//! Load with faults: thousands of calls in flight over time, a random mix of fast, slow,
//! failing, panicking and cancelled ones. Every request that was not cancelled gets exactly one
//! answer; a call cancelled before it could finish gets none; memory stays bounded.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::InProcess;
use serde_json::{Value, json};
use toolwright::prelude::*;

/// Answers at once.
#[mcp_tool]
fn fast(n: u64) -> u64 {
    n
}

/// Answers after a while.
#[mcp_tool]
async fn slow(n: u64, millis: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    n
}

/// Fails.
#[mcp_tool]
fn failing(n: u64) -> Result<u64, ToolError> {
    Err(ToolError::new(format!("failed {n}")))
}

/// Panics.
#[mcp_tool]
fn panicking(n: u64) -> u64 {
    panic!("load-test panic {n}")
}

/// Runs until the client cancels it.
#[mcp_tool]
async fn until_cancelled(n: u64, cancel: Cancellation) -> u64 {
    cancel.cancelled().await;
    n
}

/// A small deterministic generator, so a failure can be replayed.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0)
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Fate {
    /// Exactly one answer, with this kind.
    Answer(&'static str),
    /// Cancelled while it could not have finished: no answer.
    Never,
    /// Cancelled in a race with its answer: at most one.
    Maybe,
}

#[test]
fn thousands_of_calls_with_faults_are_each_answered_once() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.to_string().contains("load-test panic") {
            default_hook(info);
        }
    }));
    const CALLS: u64 = 4000;
    const WINDOW: usize = 300;
    let mut server = InProcess::start(Server::new("load", "1").discover());
    server.client.initialize("2025-11-25");
    let before = resident_kib();
    let mut random = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut fates: HashMap<u64, Fate> = HashMap::new();
    let mut answers: HashMap<u64, Vec<Value>> = HashMap::new();
    let mut outstanding = 0usize;
    let receive = |server: &mut InProcess, answers: &mut HashMap<u64, Vec<Value>>| {
        let answer = server.client.recv();
        let id = answer["id"].as_u64().expect("an answer to a call");
        answers.entry(id).or_default().push(answer);
    };
    for id in 0..CALLS {
        let (tool, arguments, fate) = match random.below(100) {
            0..40 => ("fast", json!({"n": id}), Fate::Answer("ok")),
            40..65 => (
                "slow",
                json!({"n": id, "millis": random.below(50)}),
                Fate::Answer("ok"),
            ),
            65..80 => ("failing", json!({"n": id}), Fate::Answer("error")),
            80..85 => ("panicking", json!({"n": id}), Fate::Answer("error")),
            _ => ("until_cancelled", json!({"n": id}), Fate::Never),
        };
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
        let mut fate = fate;
        // Cancel every waiting call, and one in twenty of the others (a race with the answer).
        if fate == Fate::Never || random.below(20) == 0 {
            server.client.send(
                &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "load test"}}),
            );
            if fate != Fate::Never {
                fate = Fate::Maybe;
            }
        } else {
            outstanding += 1;
        }
        fates.insert(id, fate);
        while outstanding >= WINDOW {
            receive(&mut server, &mut answers);
            outstanding = fates
                .iter()
                .filter(|(id, f)| matches!(f, Fate::Answer(_)) && !answers.contains_key(id))
                .count();
        }
    }
    let expected = fates
        .values()
        .filter(|f| matches!(f, Fate::Answer(_)))
        .count();
    while fates
        .iter()
        .any(|(id, f)| matches!(f, Fate::Answer(_)) && !answers.contains_key(id))
    {
        receive(&mut server, &mut answers);
    }
    // Anything late (a second answer, an answer to a call cancelled while it waited) would
    // arrive now.
    server.client.expect_silence(Duration::from_millis(300));
    for (id, fate) in &fates {
        let got = answers.get(id).map_or(0, Vec::len);
        match fate {
            Fate::Answer(kind) => {
                assert_eq!(got, 1, "call {id} ({kind}) got {got} answers");
                let answer = &answers[id][0];
                assert_eq!(
                    answer["result"]["isError"] == true,
                    *kind == "error",
                    "{answer}"
                );
            }
            Fate::Never => assert_eq!(got, 0, "cancelled call {id} was answered"),
            Fate::Maybe => assert!(got <= 1, "call {id} got {got} answers"),
        }
    }
    let growth = resident_kib().saturating_sub(before);
    eprintln!("{CALLS} calls, {expected} answered, resident memory grew {growth} KiB");
    assert!(growth < 64 * 1024, "memory grew by {growth} KiB");
    server.finish().unwrap();
}
