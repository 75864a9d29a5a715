"""The `tasks` stage: tasks that outlive their replica. Two instances of the `conformance`
example share one Redis (`--task-store`, a short `--task-lease`) behind nginx, round-robin:
a task created through one instance is read, answered and cancelled through the other and
finishes; an instance killed with SIGKILL leaves its task failed once the lease lapses; an
instance started again serves the results of tasks that finished before. Then a load of 1000
tasks started at once, each polled to its end, on the in-process store (one instance) and on
Redis (two behind nginx): none lost, none duplicated, each with its own result."""

import itertools
import json
import os
import signal
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from common import HttpServer, check, fails_as, shutdown_check
from redis_store import RedisServer, redis_binary
from scaleout import Nginx, nginx_binary

EXTENSION = "io.modelcontextprotocol/tasks"
CAPABILITIES = {"extensions": {EXTENSION: {}}, "elicitation": {}}
LEASE_S = 2.0
LEASE = f"{LEASE_S:g}s"
LOAD = 1000
ids = itertools.count(1)


def request(url: str, method: str, params: dict, name: str | None = None) -> dict:
    """One 2026-07-28 request that declares the tasks extension: its JSON-RPC response (an
    event stream's last message, when the server streams)."""
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
            "io.modelcontextprotocol/clientInfo": {"name": "toolwright-interop", "version": "1"}}
    body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": {**params, "_meta": meta}}
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    sent = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(sent, timeout=60) as response:
            text = response.read().decode()
    except urllib.error.HTTPError as error:
        text = error.read().decode()
    events = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
    return json.loads(events[-1] if events else text)


def call(url: str, tool: str, arguments: dict) -> dict:
    return request(url, "tools/call", {"name": tool, "arguments": arguments}, tool)


def task(url: str, method: str, task_id: str, **params: object) -> dict:
    return request(url, method, {"taskId": task_id, **params}, task_id)


def created(response: dict) -> str:
    result = response.get("result", {})
    if result.get("resultType") != "task":
        raise RuntimeError(f"no task: {json.dumps(response)[:300]}")
    return result["taskId"]


def until(urls: list[str], task_id: str, done, timeout: float = 30) -> dict:
    """Polls the task through `urls` in turn until `done(task)` holds; the last task read."""
    deadline = time.monotonic() + timeout
    for url in itertools.cycle(urls):
        got = task(url, "tasks/get", task_id).get("result", {})
        if done(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.05)
    raise AssertionError("unreachable")


def ended(got: dict) -> bool:
    return got.get("status") in ("completed", "failed", "cancelled")


def text_of(got: dict) -> str:
    return (got.get("result", {}).get("content") or [{}])[0].get("text", "")


def across(a: HttpServer, b: HttpServer) -> list[str]:
    """A task created on A, answered, read and cancelled on B. What went wrong, if anything."""
    problems = []
    task_id = created(call(a.url, "confirm_delete", {"filename": "shared.txt"}))
    waiting = until([b.url], task_id, lambda t: t.get("status") == "input_required" or ended(t))
    keys = list(waiting.get("inputRequests", {}))
    if waiting.get("status") != "input_required" or not keys:
        return [f"B never saw A's task wait for input: {json.dumps(waiting)[:300]}"]
    answer = {keys[0]: {"action": "accept", "content": {"confirm": True}}}
    ack = task(b.url, "tasks/update", task_id, inputResponses=answer)
    if ack.get("result", {}).get("resultType") != "complete":
        problems.append(f"tasks/update on B: {json.dumps(ack)[:300]}")
    done = until([a.url, b.url], task_id, ended)
    if done.get("status") != "completed" or text_of(done) != "Deleted shared.txt":
        problems.append(f"A's task after B's answer: {json.dumps(done)[:300]}")
    slow = created(call(a.url, "slow_compute", {"seconds": 60, "label": "cancelled on B"}))
    task(b.url, "tasks/cancel", slow)
    gone = until([a.url], slow, ended, timeout=10)
    if gone.get("status") != "cancelled":
        problems.append(f"A's task after B cancelled it: {json.dumps(gone)[:300]}")
    # The cancellation reached the tool on A (which says so on its stderr), not only the store.
    deadline = time.monotonic() + 5
    while "cancelled on B was cancelled" not in a.tail_all() and time.monotonic() < deadline:
        time.sleep(0.05)
    if "cancelled on B was cancelled" not in a.tail_all():
        problems.append("the tool on A never saw the cancellation made on B")
    return problems


def load(url: str, label: str) -> None:
    """`LOAD` tasks started at once (64 requests in flight), each polled to its end."""
    started = time.monotonic()

    def one(n: int) -> tuple[int, str, dict]:
        task_id = created(call(url, "slow_compute", {"seconds": 0.5, "label": f"load {n}"}))
        return n, task_id, {}

    with ThreadPoolExecutor(max_workers=64) as pool:
        made = list(pool.map(one, range(LOAD)))
        finished = list(pool.map(lambda m: (m[0], m[1], until([url], m[1], ended, timeout=120)), made))
    took = time.monotonic() - started
    task_ids = {task_id for _, task_id, _ in made}
    wrong = [(n, got.get("status"), text_of(got)) for n, _, got in finished
             if got.get("status") != "completed" or text_of(got) != f"Computed for 0.5s (load {n})"]
    ok = len(task_ids) == LOAD and not wrong
    check(ok, f"tasks: {LOAD} tasks at once on {label}, each to its own result ({took:.1f} s)",
          "" if ok else f"{len(task_ids)} distinct ids; wrong: {wrong[:5]}")


def killed_mid_task(shared: tuple[str, ...], others: list[str]) -> tuple[dict, float]:
    """A replica that runs a task, killed with SIGKILL (no shutdown: its exit is not checked):
    the task as the other replicas read it once it ended, and how long after the kill."""
    c = HttpServer("conformance", "tasks replica C", shared).__enter__()
    try:
        doomed = created(call(c.url, "slow_compute", {"seconds": 600, "label": "doomed"}))
        c.process.send_signal(signal.SIGKILL)
        c.process.wait()
        killed_at = time.monotonic()
        failed = until(others, doomed, ended, timeout=15)
        return failed, time.monotonic() - killed_at
    finally:
        if c.process.poll() is None:
            c.process.kill()
            c.process.wait()
        c.log.close()


def run() -> None:
    if not redis_binary() or not nginx_binary():
        check(False, "tasks: redis-server and nginx", "install.sh installs them with apt-get")
        return
    with fails_as("tasks: on the in-process store"), HttpServer("conformance", "tasks alone") as alone:
        load(alone.url, "the in-process store")
    with fails_as("tasks: replicas sharing Redis"), RedisServer() as redis:
        shared = ("--task-store", redis.url, "--task-lease", LEASE)
        with HttpServer("conformance", "tasks replica A", shared) as a, \
                HttpServer("conformance", "tasks replica B", shared) as b, Nginx([a, b]) as lb:
            problems = across(a, b)
            check(not problems, "tasks: a task created on one replica is answered, read and cancelled on the other, "
                  "and its tool there stops",
                  "; ".join(problems))
            done = created(call(lb.url("stateless"), "slow_compute", {"seconds": 0.2, "label": "kept"}))
            kept = until([lb.url("stateless")], done, ended)
            # A replica killed mid-task: its task fails once the lease lapses.
            failed, after = killed_mid_task(shared, [a.url, b.url])
            ok = failed.get("status") == "failed" and "lease" in json.dumps(failed.get("error")) \
                and after <= LEASE_S + 1.5
            check(ok, f"tasks: the task of a replica killed with SIGKILL failed {after:.1f} s later "
                      f"(lease {LEASE_S:g} s)", "" if ok else json.dumps(failed)[:300])
            load(lb.url("stateless"), "two replicas sharing Redis")
        # Both replicas gone; a new one still serves the result of a task that finished before.
        with HttpServer("conformance", "tasks replica A, again", shared) as again:
            read = task(again.url, "tasks/get", done).get("result", {})
        ok = kept.get("status") == "completed" and read.get("status") == "completed" \
            and text_of(read) == text_of(kept)
        check(ok, "tasks: a replica started again serves the results of finished tasks",
              "" if ok else json.dumps(read)[:300])
    shutdown_check("tasks")
