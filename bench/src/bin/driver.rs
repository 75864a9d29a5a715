//! A load driver for any MCP stdio server: spawns it, does the handshake, and measures
//! start-up, sequential calls (rate, p50, p99), pipelined calls (rate, with a window),
//! `tools/list` rate, peak resident memory, thread count, and the server's CPU time per call.
//!
//! Start-up is the median of 21 starts.
//!
//! usage: driver [--calls N] [--window W] [--tool add|echo|items|in_roots] [--roots]
//!               [--roots-changed] -- SERVER_CMD [ARGS...]
//! Prints one JSON object.
//!
//! `--roots` declares the `roots` capability and answers the server's `roots/list` requests as
//! they come (counted in `roots_asked`); `--roots-changed` also announces a change of roots
//! (`notifications/roots/list_changed`) before every call, which makes a server that keeps the
//! roots of a session ask for them on every call.
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use toolwright_bench::{INITIALIZE, INITIALIZE_WITH_ROOTS, request};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args
        .iter()
        .position(|a| a == "--")
        .expect("usage: driver [options] -- SERVER...");
    let (options, command) = (&args[..split], &args[split + 1..]);
    let option = |name: &str, default: &str| -> String {
        options
            .iter()
            .position(|o| o == name)
            .map_or(default.to_owned(), |i| options[i + 1].clone())
    };
    let calls: u64 = option("--calls", "20000").parse().unwrap();
    let window: u64 = option("--window", "64").parse().unwrap();
    let tool = option("--tool", "add");
    let roots = options.iter().any(|o| o == "--roots");
    let roots_changed = options.iter().any(|o| o == "--roots-changed");

    let startup = median_startup(command, 21);
    let mut child = spawn(command);
    let pid = child.id();
    let mut input = child.stdin.take().unwrap();
    let output = child.stdout.take().unwrap();
    let (lines, answers) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        input.write_all(line.as_bytes()).unwrap();
        input.write_all(b"\n").unwrap();
        input.flush().unwrap();
    };
    let read = || {
        answers
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer")
    };
    send(match roots {
        true => INITIALIZE_WITH_ROOTS,
        false => INITIALIZE,
    });
    read();
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let mut roots_asked = 0u64;
    // The next answer; the server's `roots/list` requests on the way are answered.
    let mut recv = |send: &mut dyn FnMut(&str)| loop {
        let line = read();
        if !line.contains(r#""method":"roots/list""#) {
            return line;
        }
        roots_asked += 1;
        let id = serde_json::from_str::<serde_json::Value>(&line).unwrap()["id"].clone();
        send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"roots":[{{"uri":"file:///work/project","name":"project"}}]}}}}"#
        ));
    };
    let changed = r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#;

    let cpu_before = cpu_ticks(pid);
    let mut latencies = Vec::with_capacity(calls as usize);
    let sequential = Instant::now();
    for id in 1..=calls {
        let t = Instant::now();
        if roots_changed {
            send(changed);
        }
        send(&request(&tool, id));
        recv(&mut send);
        latencies.push(t.elapsed());
    }
    let sequential = sequential.elapsed();

    let pipelined = Instant::now();
    let (mut sent, mut received) = (0u64, 0u64);
    while received < calls {
        while sent < calls && sent - received < window {
            sent += 1;
            if roots_changed {
                send(changed);
            }
            send(&request(&tool, calls + sent));
        }
        recv(&mut send);
        received += 1;
    }
    let pipelined = pipelined.elapsed();
    let cpu_after = cpu_ticks(pid);

    let lists = (calls / 10).max(1);
    let listing = Instant::now();
    for id in 0..lists {
        send(&request("list", 3 * calls + id));
        recv(&mut send);
    }
    let listing = listing.elapsed();
    let peak_rss_kib = status_field(pid, "VmHWM:");
    let threads = status_field(pid, "Threads:");
    drop(input); // EOF: the server exits
    let _ = child.wait();

    latencies.sort_unstable();
    let percentile =
        |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    let ticks_per_second = 100.0; // USER_HZ on Linux
    let result = serde_json::json!({
        "tool": tool,
        "calls": calls,
        "startup_ms": startup.as_secs_f64() * 1e3,
        "sequential_calls_per_s": calls as f64 / sequential.as_secs_f64(),
        "p50_us": percentile(0.50).as_secs_f64() * 1e6,
        "p99_us": percentile(0.99).as_secs_f64() * 1e6,
        "pipelined_calls_per_s": calls as f64 / pipelined.as_secs_f64(),
        "window": window,
        "lists_per_s": lists as f64 / listing.as_secs_f64(),
        "peak_rss_kib": peak_rss_kib,
        "threads": threads,
        "cpu_us_per_call": (cpu_after - cpu_before) as f64 / ticks_per_second * 1e6 / (2 * calls) as f64,
        "roots_asked": roots_asked,
    });
    println!("{result}");
}

/// Starts the server with pipes for stdin and stdout.
fn spawn(command: &[String]) -> Child {
    Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts")
}

/// The median time from spawning the server to its answer to `initialize`, over `runs` starts
/// (a single start varies by a millisecond on a busy machine).
fn median_startup(command: &[String], runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let mut child = spawn(command);
            let mut input = child.stdin.take().unwrap();
            writeln!(input, "{INITIALIZE}").unwrap();
            let mut answer = String::new();
            BufReader::new(child.stdout.take().unwrap())
                .read_line(&mut answer)
                .unwrap();
            let elapsed = started.elapsed();
            assert!(
                answer.contains("\"result\""),
                "no answer to initialize: {answer}"
            );
            drop(input);
            let _ = child.wait();
            elapsed
        })
        .collect();
    times.sort_unstable();
    times[runs / 2]
}

/// The server's user and system CPU time, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12) // utime, stime (fields 14 and 15 of the whole line)
}

/// A number from the server's /proc status: `VmHWM:` is the peak resident set size in KiB,
/// `Threads:` the number of threads now (idle pool threads linger, so it is near the peak).
fn status_field(pid: u32, name: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0)
}
