"""The HTTP bench: builds in release, drives every HTTP server with `http_driver` in one run,
and prints two markdown tables: calls per second and p50/p99 latency at 1, 16 and 256
concurrent clients (ratios to the hyper floor), and the servers' resident memory with 10 000
handshake sessions open and after they expired.

usage: python3 http.py [--seconds 3] [--sessions 10000] [--idle-ms 5000]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RELEASE = HERE / "target" / "release"
SERVE = ["serve", "--http", "127.0.0.1:0"]
TOOLWRIGHT = [str(RELEASE / "toolwright_server")]
RMCP_STATELESS = [str(RELEASE / "rmcp_http"), "--stateless"]
RMCP_SESSIONS = [str(RELEASE / "rmcp_http"), "--sessions"]
FLOOR = [str(RELEASE / "hyper_floor")]
# (server, how it is driven, era, command[, driver options]). The floor answers any request
# alike.
LOAD = [
    ("hyper floor", "stateless", "2026-07-28", FLOOR),
    ("toolwright", "stateless", "2026-07-28", TOOLWRIGHT),
    ("toolwright", "stateless, answers as event streams", "2026-07-28", TOOLWRIGHT, ["--accept-events-only"]),
    ("toolwright", "sessions", "2025-11-25", TOOLWRIGHT),
    ("rmcp 3.11 stateless", "stateless (JSON)", "2026-07-28", RMCP_STATELESS),
    ("rmcp 3.11 stateless", "no session (JSON)", "2025-11-25", RMCP_STATELESS),
    ("rmcp 3.11 sessions", "stateless (SSE)", "2026-07-28", RMCP_SESSIONS),
    ("rmcp 3.11 sessions", "sessions (SSE)", "2025-11-25", RMCP_SESSIONS),
]
MEMORY = [("toolwright", TOOLWRIGHT), ("rmcp 3.11 sessions", RMCP_SESSIONS)]
CLIENTS = [1, 16, 256]


# The driver on one core and the server on another, when the machine has two and `taskset`:
# sharing cores, a server's rate would be as much the driver's as its own (the driver takes
# what the server leaves), which squeezes every ratio toward one. Each server gets one core.
PIN = shutil.which("taskset") is not None and (os.cpu_count() or 1) >= 2
DRIVER_CORE = ["taskset", "-c", "0"] if PIN else []
SERVER_CORE = ["taskset", "-c", "1"] if PIN else []


def drive(options: list[str], command: list[str]) -> dict:
    done = subprocess.run([*DRIVER_CORE, str(RELEASE / "http_driver"), *options, "--",
                           *SERVER_CORE, *command, *SERVE],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"driver failed on {command}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", default="3")
    parser.add_argument("--sessions", default="10000")
    parser.add_argument("--idle-ms", default="5000")
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=HERE, check=True)
    placement = ("the driver on core 0 (one thread), each server on core 1" if PIN
                 else "driver and server sharing the cores (no taskset)")
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start; "
          f"{args.seconds} s per cell after 0.5 s of warm-up; {placement}.\n")

    rows = []
    for name, mode, era, command, *extra in LOAD:
        result = drive(["--era", era, "--clients", ",".join(map(str, CLIENTS)),
                        "--seconds", args.seconds, *(extra[0] if extra else [])], command)
        rows.append((name, mode, era, {c["clients"]: c for c in result["cells"]}))
    floor = rows[0][3]
    print("`add` over Streamable HTTP: calls/s (ratio to the floor), p50 / p99 in µs")
    print("| server | mode | era | " + " | ".join(f"{c} client{'s' * (c > 1)}" for c in CLIENTS)
          + " | " + " | ".join(f"p50 / p99 at {c}" for c in CLIENTS)
          + f" | server CPU µs per call at {CLIENTS[-1]} |")
    print("|---|---|---|" + "---:|" * (2 * len(CLIENTS) + 1))
    errors = []
    for name, mode, era, cells in rows:
        rates = []
        for c in CLIENTS:
            cell = cells[c]
            ratio = cell["calls_per_s"] / floor[c]["calls_per_s"]
            rates.append(f"{cell['calls_per_s']:,.0f}" + ("" if name == "hyper floor" else f" ({ratio:.2f}x)"))
            if cell["errors"]:
                errors.append(f"{name} {era} at {c}: {cell['errors']} errors, e.g. {cell['error_sample'][:200]}")
        latencies = [f"{cells[c]['p50_us']:,.0f} / {cells[c]['p99_us']:,.0f}" for c in CLIENTS]
        cpu = cells[CLIENTS[-1]].get("server_cpu_us_per_call")
        cpu = "" if cpu is None else f"{cpu:.1f}"
        print(f"| {name} | {mode} | {era} | " + " | ".join(rates + latencies + [cpu]) + " |")
    for error in errors:
        print(f"\n{error}")

    print(f"\nmemory: {int(args.sessions):,} handshake sessions (`initialize` + `initialized`), "
          f"idle time {args.idle_ms} ms; KiB")
    print("| server | opened in | VmRSS before | VmHWM open | VmRSS open | per session | "
          "VmRSS after expiry | old ids 404 | VmHWM after as many again |")
    print("|---|" + "---:|" * 8)
    for name, command in MEMORY:
        m = drive(["--sessions", args.sessions, "--idle-ms", args.idle_ms], command)
        alive = "" if m["oldest_alive_when_measured"] else " (oldest had expired!)"
        print(f"| {name} | {m['open_s']:.2f} s{alive} | {m['rss_before_kib']:,} | "
              f"{m['peak_rss_open_kib']:,} | {m['rss_open_kib']:,} | {m['kib_per_session']:.1f} | "
              f"{m['rss_expired_kib']:,} | {m['old_ids_404']:,} / {m['sessions']:,} | "
              f"{m['peak_rss_reopened_kib']:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
