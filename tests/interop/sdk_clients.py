"""The `clients` stage: the official SDK clients (TypeScript 1.x and 2.x, Python, Rust rmcp) run
each example's plan over stdio and over Streamable HTTP, in each protocol era they speak. Also
`run_client` and `run_plan`, which the scale-out stage uses to drive the same clients.

(Not `clients.py`: `clients/` next to it holds the client programs themselves.)
"""

import json
import shutil
import subprocess
from pathlib import Path

from common import HERE, NODE, NPM, PYTHON, RMCP, ROOT, SCRATCH, HttpServer, check, fails_as, serial, server, shutdown_check
from plans import TOOL_COUNTS, answerable, counted, judge, leftovers, named, plans

# Each client in each era it speaks: (client, mode, negotiated version).
STDIO_CLIENTS = [
    ("ts-sdk-1", "legacy", "2025-11-25"),
    ("ts-sdk-2", "legacy", "2025-11-25"),
    ("ts-sdk-2", "auto", "2026-07-28"),
    ("ts-sdk-2", "2026-07-28", "2026-07-28"),
    ("python-sdk", "legacy", "2025-11-25"),
    ("python-sdk", "auto", "2026-07-28"),
    ("python-sdk", "2026-07-28", "2026-07-28"),
]
HTTP_CLIENTS = STDIO_CLIENTS + [
    ("rmcp", "legacy", "2025-11-25"),
    ("rmcp", "auto", "2026-07-28"),
    ("rmcp", "2026-07-28", "2026-07-28"),
]


def ts_client(sdk: str) -> tuple[list[str], Path]:
    folder = NPM / ("ts-sdk-v2" if sdk == "v2" else "ts-sdk")
    # Node resolves the SDK from the script's own folder, so the script goes next to it.
    shutil.copy(HERE / "clients" / "ts_client.mjs", folder / "ts_client.mjs")
    return [str(NODE), "ts_client.mjs"], folder


def client_command(client: str) -> tuple[list[str], Path]:
    if client == "ts-sdk-1":
        return ts_client("v1")
    if client == "ts-sdk-2":
        return ts_client("v2")
    if client == "python-sdk":
        return [str(PYTHON), str(HERE / "clients" / "py_client.py")], ROOT
    return [str(RMCP)], ROOT


def run_client(client: str, mode: str, calls: list[dict], target: list[str], timeout: float = 120) -> dict:
    """One client's run of `calls` against `target` (a server command, or a URL): the JSON it
    prints last, or {"ok": False, "error": ...} when it printed none."""
    command, cwd = client_command(client)
    plan = {"sdk": "v2" if client == "ts-sdk-2" else "v1", "mode": mode, "logLevel": "info", "calls": calls}
    # In a file: a plan may be larger than a command line may be (an oversized request).
    plan_file = SCRATCH / f"plan-{next(serial)}.json"
    plan_file.write_text(json.dumps(plan))
    try:
        done = subprocess.run([*command, f"@{plan_file}", "--", *target], cwd=cwd, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": {"message": f"timed out after {timeout}s"}}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"ok": False, "error": {"message": f"exit {done.returncode}: {done.stderr[-600:]}"}}


def run_plan(client: str, mode: str, version: str, name: str, target: list[str], label: str,
             calls: list[dict]) -> dict:
    """Runs one client over one plan and checks the outcome (one check line)."""
    calls = answerable(calls, client)
    out = run_client(client, mode, calls, target)
    if not out.get("ok"):
        check(False, label, json.dumps(out.get("error"))[:400])
        return out
    problems = []
    if out.get("protocolVersion") != version:
        problems.append(f"negotiated {out.get('protocolVersion')}, expected {version}")
    if len(out.get("tools", [])) != TOOL_COUNTS[name]:
        problems.append(f"{len(out.get('tools', []))} tools listed")
    # The TypeScript 2.x client has no way to ask for log messages on 2026-07-28.
    logs = None if client == "ts-sdk-2" and mode != "legacy" else out.get("logs", [])
    if len(out.get("calls", [])) != len(calls):
        problems.append(f"{len(out.get('calls', []))} of {len(calls)} calls made")
    for call, record in zip(calls, out.get("calls", [])):
        problem = judge(call, record, logs)
        if problem:
            problems.append(f"{named(call)}: {problem}")
    problems.extend(leftovers(calls))
    check(not problems, f"{label} ({counted(calls)})", "; ".join(problems))
    return out


def oversized() -> None:
    """The Python SDK client, which sends a whole request before it reads the response, sends
    one over the server's body limit: it gets the 413's JSON-RPC error (not a reset connection),
    and its session, or the next stateless request, goes on."""
    calls = [
        {"name": "text_stats", "arguments": {"text": "word " * (1 << 20)},
         "expect": {"error": "Payload Too Large: the body exceeds the 4194304-byte limit"}},
        {"name": "add", "arguments": {"a": 2, "b": 40}, "expect": {"text": "42"}},
    ]
    for mode, version in (("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")):
        label = f"python-sdk http {mode} oversized request"
        with fails_as(label), HttpServer("quickstart", label) as http:
            run_plan("python-sdk", mode, version, "quickstart", [http.url], label, calls)


def tasks() -> None:
    """The TypeScript SDK 1.x's experimental tasks client (2025-11-25; the only SDK client with
    one) runs notes' export as a task over stdio and HTTP: to its result, its progress seen as
    the task's status messages, and once cancelled, which removes the partial file."""
    for transport in ("stdio", "http"):
        export, cancelled = str(SCRATCH / f"task-{transport}.md"), str(SCRATCH / f"task-{transport}-cancelled.md")
        calls = [
            {"name": "add_note", "arguments": {"text": "milk"}, "expect": {"structured": True}},
            {"name": "export_notes", "task": True, "progress": True, "arguments": {"path": export, "pause_ms": 300},
             "expect": {"structured": True, "statuses": ["working", "completed"], "statusMessage": "note 1"}},
            {"name": "export_notes", "task": True, "cancel": True, "arguments": {"path": cancelled, "pause_ms": 10000},
             "expect": {"cancelled": True, "removed": cancelled}},
        ]
        label = f"ts-sdk-1 {transport} 2025-11-25 tasks (notes' export)"
        with fails_as(label):
            if transport == "stdio":
                out = run_client("ts-sdk-1", "legacy", calls, server("notes"))
            else:
                with HttpServer("notes", label) as http:
                    out = run_client("ts-sdk-1", "legacy", calls, [http.url])
            problems = [] if out.get("ok") else [json.dumps(out.get("error"))[:400]]
            for call, record in zip(calls, out.get("calls", [])):
                problem = judge(call, record, None) or task_problem(call, record)
                if problem:
                    problems.append(f"{named(call)}: {problem}")
            problems.extend(leftovers(calls))
            check(not problems, f"{label} ({len(calls)} calls)", "; ".join(problems))


def task_problem(call: dict, record: dict) -> str | None:
    """What is wrong with the task of a call made as one, or None."""
    if not call.get("task"):
        return None
    if not record.get("taskId"):
        return f"no task was created: {json.dumps(record)[:300]}"
    statuses = [s["status"] for s in record.get("statuses", [])]
    expect = call["expect"]
    if "statuses" in expect and not set(expect["statuses"]) <= set(statuses):
        return f"statuses {statuses}, expected {expect['statuses']}"
    if "statusMessage" in expect and not any(s.get("statusMessage") == expect["statusMessage"]
                                             for s in record.get("statuses", [])):
        return f"no status said {expect['statusMessage']!r}: {json.dumps(record.get('statuses'))[:300]}"
    if call.get("cancel") and "cancelled" not in record:
        return "the task was never cancelled"
    return None


def run() -> None:
    tasks()
    for client, mode, version in STDIO_CLIENTS:
        for name in plans(""):
            tag = f"{client}-stdio-{mode}-{name}"
            run_plan(client, mode, version, name, server(name), f"{client} stdio {mode} {name}", plans(tag)[name])
    for client, mode, version in HTTP_CLIENTS:
        for name in plans(""):
            tag = f"{client}-http-{mode}-{name}"
            label = f"{client} http {mode} {name}"
            with fails_as(label), HttpServer(name, label) as http:
                run_plan(client, mode, version, name, [http.url], label, plans(tag)[name])
    oversized()
    shutdown_check("clients")
