"""toolwright's stateless HTTP path against the hyper floor, measured by wrk (an independent
HTTP/1 keep-alive load tool): the 2026-07-28 `tools/call` of `add` that stands alone (`_meta`
naming the revision, `Mcp-Method` and `Mcp-Name`), every answer checked by `http_floor.lua`.

Servers: the floor (`hyper_floor`), toolwright's benchmark server built from a revision (the
"before", in a worktree under target/versions, as versions.py builds it) and from the working
tree (the "after"), each `serve --http 127.0.0.1:0` pinned alone to core 1; wrk runs one thread
pinned to core 0. Each round starts the three servers and drives every (clients, server) cell
once, in an order that rotates from round to round, after a short warm-up of its own; the
table gives each cell's median over the rounds, and the median of its rounds' ratios to the
floor's rate in the same round.
The ratios are the figures to compare: the machine is shared, so absolute rates move from run
to run.

usage: python3 http_floor.py [--before REV] [--rounds 5] [--seconds 3] [--clients 16,256]
       [--no-build]

`wrk` must be installed (`apt-get install wrk` on Debian and Ubuntu).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RELEASE = HERE / "target" / "release"
LUA = HERE / "http_floor.lua"
SERVE = ["serve", "--http", "127.0.0.1:0"]
DRIVER_CORE = ["taskset", "-c", "0"]
SERVER_CORE = ["taskset", "-c", "1"]
TICKS = os.sysconf("SC_CLK_TCK")


def build(revision: str | None, skip: bool) -> Path:
    """toolwright's benchmark server of `revision` (None: the working tree), in release."""
    if revision is None:
        bench = HERE
    else:
        tree = HERE / "target" / "versions" / revision
        if not tree.exists():
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision],
                           check=True)
        bench = tree / "bench"
    binaries = ["toolwright_server"] + (["hyper_floor"] if revision is None else [])
    if not skip:
        flags = [f for b in binaries for f in ("--bin", b)]
        subprocess.run(["cargo", "build", "--release", "--quiet", *flags], cwd=bench, check=True)
    return bench / "target" / "release" / "toolwright_server"


class Server:
    """A server started on core 1; its address read from its stderr."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen([*SERVER_CORE, *command, *SERVE], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        found = threading.Event()
        self.url = None

        def read():
            # Read to the end, so that the server never blocks on a full pipe.
            for line in self.process.stderr:
                if self.url is None and "serving MCP at http://" in line:
                    self.url = "http://" + line.split("serving MCP at http://", 1)[1].strip()
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(30):
            self.process.kill()
            raise RuntimeError(f"{command[0]} announced no address")

    def cpu_seconds(self) -> float:
        """User and system time of every thread of the server (taskset execs it in place)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def stop(self):
        self.process.kill()
        self.process.wait()


def wrk(url: str, clients: int, seconds: float) -> dict:
    done = subprocess.run([*DRIVER_CORE, "wrk", "-t1", f"-c{clients}", f"-d{seconds}s", "--timeout", "5s",
                           "-s", str(LUA), url], capture_output=True, text=True, timeout=seconds + 60)
    lines = [line for line in done.stdout.splitlines() if line.startswith('{"requests"')]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"wrk failed: {done.stdout[-1000:]} {done.stderr[-1000:]}")
    return json.loads(lines[-1])


def cell(server: Server, clients: int, seconds: float, warmup: float) -> dict:
    wrk(server.url, clients, warmup)
    cpu = server.cpu_seconds()
    result = wrk(server.url, clients, seconds)
    cpu = server.cpu_seconds() - cpu
    result["calls_per_s"] = result["requests"] / (result["duration_us"] / 1e6)
    result["cpu_us_per_call"] = cpu * 1e6 / max(result["requests"], 1)
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="ce1a2b0")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--clients", default="16,256")
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 1
    if (os.cpu_count() or 1) < 2 or shutil.which("taskset") is None:
        print("needs two cores and taskset", file=sys.stderr)
        return 1
    clients = [int(c) for c in args.clients.split(",")]
    servers = {
        "hyper floor": [str(RELEASE / "hyper_floor")],
        f"toolwright {args.before}": [str(build(args.before, args.no_build))],
        "toolwright working tree": [str(build(None, args.no_build))],
    }
    names = list(servers)
    cells = [(c, name) for c in clients for name in names]
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {args.rounds} rounds of "
          f"{args.seconds:g} s cells (after {args.warmup:g} s of warm-up each); wrk one thread on "
          f"core 0, each server alone on core 1.\n", flush=True)
    results = {key: [] for key in cells}
    failures = []
    for round_ in range(args.rounds):
        running = {name: Server(command) for name, command in servers.items()}
        try:
            shift = round_ % len(cells)
            for c, name in cells[shift:] + cells[:shift]:
                r = cell(running[name], c, args.seconds, args.warmup)
                results[(c, name)].append(r)
                if r["failed"] or r["socket_errors"] or r["checked"] != r["requests"]:
                    failures.append(f"{name} at {c}: {r['failed']} failed of {r['checked']} checked "
                                    f"({r['requests']} answered), {r['socket_errors']} socket errors; "
                                    f"{r['sample']}")
                print(f"round {round_ + 1}: {name} at {c}: {r['calls_per_s']:,.0f} calls/s, "
                      f"p50 {r['p50_us']} µs, p99 {r['p99_us']} µs, {r['cpu_us_per_call']:.1f} µs CPU "
                      f"per call, {r['failed']} failed", file=sys.stderr, flush=True)
        finally:
            for server in running.values():
                server.stop()

    def median(c, name, key):
        return statistics.median(r[key] for r in results[(c, name)])

    print(f"`add`, 2026-07-28, stateless: medians of {args.rounds} rounds; ratio: median of each round's calls/s "
          "over the floor's")
    print("| server | clients | calls/s | ratio | p50 µs | p99 µs | server CPU µs per call | answers checked | failed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in clients:
        floors = [r["calls_per_s"] for r in results[(c, names[0])]]
        for name in names:
            rate = median(c, name, "calls_per_s")
            # Each round's own ratio, so that a round slowed by the machine's other work counts
            # as one round, not as a shift of every median.
            ratio = statistics.median(r["calls_per_s"] / f for r, f in zip(results[(c, name)], floors))
            checked = sum(r["checked"] for r in results[(c, name)])
            failed = sum(r["failed"] + r["socket_errors"] for r in results[(c, name)])
            print(f"| {name} | {c} | {rate:,.0f} | {ratio:.2f}x | {median(c, name, 'p50_us'):,.0f} | "
                  f"{median(c, name, 'p99_us'):,.0f} | {median(c, name, 'cpu_us_per_call'):.1f} | "
                  f"{checked:,} | {failed} |")
    for failure in failures:
        print(f"\n{failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
