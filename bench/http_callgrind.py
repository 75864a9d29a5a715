"""User-space instructions per call of a server over HTTP, driven by wrk: the server runs under
callgrind on core 1, wrk (one thread, core 0) sends `http_floor.lua`'s 2026-07-28 `tools/call`
of `add` for a second of warm-up, the counters are zeroed, wrk runs again, and the counters
are dumped. Prints the instructions and allocations per call of what ran between (every
thread of the server), and the functions that cost the most by themselves.

usage: python3 http_callgrind.py [--server target/release/toolwright_server] [--clients 16]
       [--seconds 4] [--top 25]

Needs valgrind and wrk. Build the servers first (`cargo build --release --bin
toolwright_server --bin hyper_floor`). One number moves by a few hundred instructions from
run to run (the allocator's state differs); compare runs of one sitting.
"""

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LUA = HERE / "http_floor.lua"
ALLOCATORS = re.compile(r"^__rustc::__rust_(alloc|alloc_zeroed|realloc)$")


def costs(path: Path):
    """Self cost per function, and calls to the allocator, from a callgrind dump."""
    names, own, allocations = {}, collections.Counter(), 0
    current = callee = None
    after_call = False

    def name(field: str) -> str:
        match = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not match:
            return field
        number, text = match.groups()
        if text:
            names[number] = text
        return names.get(number, number)

    for line in path.open():
        if line.startswith("fn="):
            current = name(line[3:].strip())
        elif line.startswith("cfn="):
            callee = name(line[4:].strip())
        elif line.startswith("calls="):
            after_call = True
            if callee and ALLOCATORS.match(callee):
                allocations += int(line[6:].split()[0])
        elif line[:1].isdigit() or line[:1] in "+-*":
            # The cost line after `calls=` is the callee's, not the caller's own.
            if after_call:
                after_call = False
            elif current:
                fields = line.split()
                if len(fields) >= 2:
                    own[current] += int(fields[1])
    return own, allocations


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=str(HERE / "target" / "release" / "toolwright_server"))
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        server = subprocess.Popen(
            ["taskset", "-c", "1", "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             args.server, "serve", "--http", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        found, url = threading.Event(), []

        def read():
            for line in server.stderr:
                if not url and "serving MCP at http://" in line:
                    url.append("http://" + line.split("serving MCP at http://", 1)[1].strip())
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        try:
            if not found.wait(60):
                print("the server announced no address", file=sys.stderr)
                return 1

            def wrk(seconds):
                done = subprocess.run(["taskset", "-c", "0", "wrk", "-t1", f"-c{args.clients}",
                                       f"-d{seconds}s", "-s", str(LUA), url[0]],
                                      capture_output=True, text=True, check=True)
                line = [l for l in done.stdout.splitlines() if l.startswith('{"requests"')][-1]
                return json.loads(line)

            wrk(1)
            subprocess.run(["callgrind_control", "-z", str(server.pid)], capture_output=True, check=True)
            result = wrk(args.seconds)
            subprocess.run(["callgrind_control", "-d", str(server.pid)], capture_output=True, check=True)
            time.sleep(1)
        finally:
            server.kill()
            server.wait()
        if result["failed"] or result["checked"] != result["requests"]:
            print(f"answers failed: {result}", file=sys.stderr)
            return 1
        dumps = sorted(Path(scratch).glob("callgrind.out*"), key=lambda p: p.stat().st_mtime)
        own, allocations = costs(dumps[-1])
        calls = result["requests"]
        print(f"{args.server}: {calls} calls at {args.clients} connections, "
              f"{sum(own.values()) / calls / 1000:.1f} k instructions and "
              f"{allocations / calls:.1f} allocations per call")
        for function, cost in own.most_common(args.top):
            print(f"{cost / calls:8.0f}  {function[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
