"""Interop checks: the official conformance suite, the official SDK clients (TypeScript 1.x and
2.x, Python, Rust rmcp) and the Inspector against toolwright's example servers, over stdio and
over Streamable HTTP, and two HTTP instances behind nginx. One line per check, then
`N passed, M failed` (and `, K skipped` when a conformance scenario does not apply at all).

Run through `run.sh`, which installs the pinned clients and builds the examples (with the
`http` feature) first. `check.py STAGE...` runs some stages only: conformance, clients,
inspector, scale-out.
"""

import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("TOOLWRIGHT_INTEROP_CACHE", ROOT / ".cache" / "interop"))
NPM = CACHE / "npm"
NODE = NPM / "node22" / "node_modules" / ".bin" / "node"
PYTHON = CACHE / "py" / "bin" / "python"
RMCP = CACHE / "rmcp-target" / "debug" / "toolwright-interop-rmcp-client"
EXAMPLES = ROOT / "target" / "debug" / "examples"
SCRATCH = Path(tempfile.mkdtemp(prefix="toolwright-interop-"))
SHUTDOWN_TIMEOUT = 5.0

results: list[tuple[bool, str]] = []
skipped: list[str] = []


def check(ok: bool, name: str, detail: str = "") -> None:
    results.append((ok, name))
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


def skip(name: str, reason: str) -> None:
    skipped.append(name)
    print(f"SKIP {name}: {reason}", flush=True)


def server(name: str) -> list[str]:
    return [str(EXAMPLES / name)]


# ------------------------------------------------------------------------ the HTTP servers
serial = itertools.count(1)
shutdowns: list[tuple[str, str | None]] = []  # (server, problem) for every HTTP server stopped


class HttpServer:
    """An example server on Streamable HTTP: `EXAMPLE serve --http 127.0.0.1:0` (a free port),
    its URL read from the line it prints to stderr once bound. Leaving the block sends SIGTERM
    and expects exit code 0 within SHUTDOWN_TIMEOUT seconds (graceful shutdown); the outcome
    goes to `shutdowns`, reported by `shutdown_check`."""

    def __init__(self, name: str, label: str) -> None:
        self.name, self.label = name, label

    def __enter__(self) -> "HttpServer":
        self.log_path = SCRATCH / f"server-{next(serial)}-{self.name}.log"
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([*server(self.name), "serve", "--http", "127.0.0.1:0"],
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 10
        while True:
            found = re.search(r"serving MCP at (http://\S+/mcp)", self.log_path.read_text(errors="replace"))
            if found:
                self.url = found.group(1)
                self.address = self.url.removeprefix("http://").removesuffix("/mcp")
                return self
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                self.process.wait()
                self.log.close()
                raise RuntimeError(f"{self.name} did not start serving HTTP: {self.tail()}")
            time.sleep(0.02)

    def tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-400:]

    def __exit__(self, *_: object) -> None:
        shutdowns.append((f"{self.label} ({self.name})", self.stop()))
        self.log.close()

    def stop(self) -> str | None:
        """SIGTERM, then what is wrong with how the server went, or None."""
        if self.process.poll() is not None:
            return f"had exited (code {self.process.returncode}) before SIGTERM: {self.tail()}"
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=SHUTDOWN_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return f"still running {SHUTDOWN_TIMEOUT:g} s after SIGTERM (killed)"
        return None if code == 0 else f"exit code {code} after SIGTERM: {self.tail()}"


def shutdown_check(stage: str) -> None:
    """One check line for the graceful shutdown of every HTTP server the stage started."""
    mine = shutdowns[:]
    shutdowns.clear()
    if not mine:
        return
    bad = [f"{label}: {problem}" for label, problem in mine if problem]
    check(not bad, f"{stage}: {len(mine)} HTTP servers exited 0 within {SHUTDOWN_TIMEOUT:g} s of SIGTERM",
          "; ".join(bad)[:1500])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- what each server is asked
def plans(tag: str) -> dict[str, list[dict]]:
    """The calls made of each example. `tag` keeps one run's files apart from another's."""
    export, cancelled = str(SCRATCH / f"{tag}-notes.md"), str(SCRATCH / f"{tag}-cancelled.md")
    return {
        "quickstart": [
            {"name": "add", "arguments": {"a": 2, "b": 40}, "expect": {"text": "42", "structured": True}},
            {"name": "text_stats", "arguments": {"text": "one two\nthree"}, "expect": {"structured": True}},
            {"name": "convert_length", "arguments": {"value": 5, "from": "km", "to": "mi"}, "expect": {"structured": True}},
            {"name": "convert_length", "arguments": {"value": 5, "from": "km", "to": "league"}, "expect": {"isError": True}},
            {"name": "head", "arguments": {"path": str(ROOT / "Cargo.toml"), "lines": 1}, "expect": {"text": "[workspace]"}},
        ],
        "notes": [
            {"name": "add_note", "arguments": {"text": "milk", "tags": ["shop"]}, "expect": {"structured": True}},
            {"name": "list_notes", "arguments": {"tag": "shop"}, "expect": {"structured": True}},
            {"name": "export_notes", "arguments": {"path": export}, "progress": True, "expect": {"structured": True, "progress": True}},
            # Cancelled mid-export: the server removes the partial file when it honours the
            # cancellation, and the next call shows it is still healthy.
            {"name": "export_notes", "arguments": {"path": cancelled, "pause_ms": 10000}, "cancelAfterMs": 400,
             "expect": {"cancelled": True, "removed": cancelled}},
            {"name": "delete_note", "arguments": {"id": 1}, "expect": {"text": "deleted note 1"}},
        ],
        "conformance": [
            {"name": "test_simple_text", "expect": {"text": "This is a simple text response for testing."}},
            {"name": "test_image_content", "expect": {"types": ["image"]}},
            {"name": "test_audio_content", "expect": {"types": ["audio"]}},
            {"name": "test_embedded_resource", "expect": {"types": ["resource"]}},
            {"name": "test_multiple_content_types", "expect": {"types": ["text", "image", "resource"]}},
            {"name": "test_error_handling", "expect": {"isError": True}},
            {"name": "test_tool_with_progress", "progress": True, "expect": {"progress": True}},
            {"name": "test_tool_with_logging", "expect": {"logs": 3}},
            {"name": "test_logging_tool", "expect": {"text": "logged"}},
            {"name": "json_schema_2020_12_tool", "arguments": {"email": "a@example.com"}, "expect": {}},
            # Over 2026-07-28 HTTP the client must also send the region as `Mcp-Param-Region`.
            {"name": "execute_sql", "arguments": {"region": "eu-west-1", "query": "select 1"},
             "expect": {"text": "ran `select 1` in eu-west-1"}},
            # Over HTTP in a 2025-11-25 session the server drops the stream mid-call and the
            # client resumes it (GET with Last-Event-ID) to get the result.
            {"name": "test_reconnection", "expect": {"text": "Reconnection test completed"}},
            {"name": "test_streaming_elicitation", "progress": True, "expect": {"text": "Streaming completed", "progress": True}},
        ],
    }


TOOL_COUNTS = {"quickstart": 4, "notes": 4, "conformance": 13}


def judge(call: dict, record: dict, logs: list | None) -> str | None:
    """What is wrong with one call's record, or None."""
    expect = call["expect"]
    if expect.get("cancelled"):
        if "error" not in record:
            return f"expected the call to be cancelled, got {json.dumps(record)[:300]}"
        said = json.dumps(record["error"]).lower()
        return None if "cancel" in said or "abort" in said else f"failed, but not as cancelled: {said[:300]}"
    if "error" in record:
        return f"{record['error'].get('name')}: {record['error'].get('message')}"[:300]
    result = record["result"]
    if bool(result.get("isError")) != bool(expect.get("isError")):
        return f"isError is {result.get('isError')}: {json.dumps(result)[:300]}"
    content = result.get("content", [])
    if "text" in expect and not any(b.get("text") == expect["text"] for b in content):
        return f"no text block {expect['text']!r}: {json.dumps(content)[:300]}"
    if "types" in expect and [b.get("type") for b in content] != expect["types"]:
        return f"content types {[b.get('type') for b in content]}, expected {expect['types']}"
    if expect.get("structured") and result.get("structuredContent") is None:
        return "no structuredContent"
    if expect.get("progress") and "progress" in record:
        values = [p["progress"] for p in record.get("progress", [])]
        if not values or values != sorted(set(values)):
            return f"progress {values}: expected a strictly increasing series"
    if "logs" in expect and logs is not None and len([l for l in logs if l.get("logger") == call["name"]]) < expect["logs"]:
        return f"expected {expect['logs']} log messages, got {logs}"
    return None


def leftovers(calls: list[dict]) -> list[str]:
    """Files a cancelled call should have removed and that are still there (after a grace)."""
    paths = [c["expect"]["removed"] for c in calls if "removed" in c["expect"]]
    deadline = time.monotonic() + 2
    while any(os.path.exists(p) for p in paths) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [f"{Path(p).name} is still there: the server did not stop the cancelled export" for p in paths if os.path.exists(p)]


# ----------------------------------------------------------------------------- SDK clients
def run_json(command: list[str], cwd: Path, timeout: float = 120) -> dict:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": {"message": f"timed out after {timeout}s"}}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"ok": False, "error": {"message": f"exit {done.returncode}: {done.stderr[-600:]}"}}


def ts_client(sdk: str) -> tuple[list[str], Path]:
    folder = NPM / ("ts-sdk-v2" if sdk == "v2" else "ts-sdk")
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


def run_plan(client: str, mode: str, version: str, name: str, target: list[str], label: str,
             calls: list[dict]) -> dict:
    """Runs one client over one plan and checks the outcome (one check line)."""
    command, cwd = client_command(client)
    plan = {"sdk": "v2" if client == "ts-sdk-2" else "v1", "mode": mode, "logLevel": "info", "calls": calls}
    out = run_json([*command, json.dumps(plan), "--", *target], cwd)
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
            problems.append(f"{call['name']}: {problem}")
    problems.extend(leftovers(calls))
    check(not problems, f"{label} ({len(calls)} calls)", "; ".join(problems))
    return out


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

def contents(out: dict) -> list:
    """What each call of a run returned (its content, or its error), to compare runs."""
    return [record.get("result", {}).get("content") or record.get("error") for record in out.get("calls", [])]


def clients() -> None:
    for client, mode, version in STDIO_CLIENTS:
        for name in plans(""):
            tag = f"{client}-stdio-{mode}-{name}"
            run_plan(client, mode, version, name, server(name), f"{client} stdio {mode} {name}", plans(tag)[name])
    for client, mode, version in HTTP_CLIENTS:
        for name in plans(""):
            tag = f"{client}-http-{mode}-{name}"
            label = f"{client} http {mode} {name}"
            try:
                with HttpServer(name, label) as http:
                    run_plan(client, mode, version, name, [http.url], label, plans(tag)[name])
            except RuntimeError as e:
                check(False, label, str(e))
    shutdown_check("clients")


# ----------------------------------------------------------------------------- Inspector
INSPECTOR = NPM / "inspector" / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"


def inspector_run(args: list[str]) -> subprocess.CompletedProcess:
    home = SCRATCH / "home"
    home.mkdir(exist_ok=True)
    return subprocess.run([str(NODE), str(INSPECTOR), "--cli", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "HOME": str(home)})


def inspector() -> None:
    for era in ["legacy", "modern"]:
        for name in plans(""):
            done = inspector_run([*server(name), "--protocol-era", era, "--method", "tools/list", "--strict"])
            listed = 0
            try:
                listed = len(json.loads(done.stdout)["tools"])
            except (json.JSONDecodeError, KeyError, TypeError):
                pass
            ok = done.returncode == 0 and listed == TOOL_COUNTS[name]
            check(ok, f"inspector --strict {era} {name}", "" if ok else f"exit {done.returncode}, {listed} tools: {(done.stdout + done.stderr)[-400:]}")
    # Over HTTP: one Inspector process per request, so the calls share the server's state
    # (the notes plan finds its note again); the Inspector cannot cancel a call or show progress.
    for era in ["legacy", "modern"]:
        for name, calls in plans("inspector").items():
            calls = [c for c in calls if "cancelAfterMs" not in c]
            label = f"inspector http {era} {name}"
            try:
                with HttpServer(name, label) as http:
                    target = [http.url, "--transport", "http", "--protocol-era", era, "--format", "json"]
                    problems = []
                    done = inspector_run([*target, "--method", "tools/list", "--strict"])
                    try:
                        listed = len(json.loads(done.stdout)["result"]["tools"])
                    except (json.JSONDecodeError, KeyError, TypeError):
                        listed = 0
                    if done.returncode != 0 or listed != TOOL_COUNTS[name]:
                        problems.append(f"tools/list --strict: exit {done.returncode}, {listed} tools: {(done.stdout + done.stderr)[-300:]}")
                    for call in calls:
                        done = inspector_run([*target, "--method", "tools/call", "--tool-name", call["name"],
                                              "--tool-args-json", json.dumps(call.get("arguments", {}))])
                        try:
                            record = {"result": json.loads(done.stdout.splitlines()[0])["result"]}
                        except (json.JSONDecodeError, KeyError, TypeError, IndexError):
                            record = {"error": {"name": f"exit {done.returncode}", "message": (done.stdout + done.stderr)[-300:]}}
                        # Exit code 5 is the Inspector's "the result has isError".
                        if done.returncode not in ((5,) if call["expect"].get("isError") else (0,)):
                            problems.append(f"{call['name']}: exit {done.returncode}")
                        problem = judge(call, record, None)
                        if problem:
                            problems.append(f"{call['name']}: {problem}")
                    check(not problems, f"{label} (list + {len(calls)} calls)", "; ".join(problems))
            except RuntimeError as e:
                check(False, label, str(e))
    shutdown_check("inspector")


# -------------------------------------------------------------------- conformance suite
def suite_runner(suite: str) -> Path:
    return NPM / suite / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


def listed_scenarios(suite: str, version: str, prefix: str) -> list[str]:
    """The suite's own list of server scenarios for a version, those whose name starts so."""
    done = subprocess.run([str(NODE), str(suite_runner(suite)), "list", "--server", "--spec-version", version],
                          capture_output=True, text=True, timeout=60)
    return [m.group(1) for m in re.finditer(r"^\s*- (\S+) \[", done.stdout, re.M) if m.group(1).startswith(prefix)]


def scenario(suite: str, url: str, name: str, version: str) -> list[dict]:
    out = SCRATCH / f"{suite}-{version}-{name}"
    subprocess.run([str(NODE), str(suite_runner(suite)), "server", "--url", url, "--scenario", name, "-o", str(out),
                    "--spec-version", version], capture_output=True, text=True, timeout=300)
    checks = []
    for path in out.glob("*/checks.json"):
        checks.extend(json.loads(path.read_text()))
    return checks


# Checks (by id) that the suite runs but that do not apply to these servers: why, and the
# failure message that shows it is that and nothing else. Such a check is left out only when it
# fails with that message; a WARNING counts as a failure.
NOT_APPLICABLE = {
    "sep-2549-prompts-list-caching-hints":
        ("the server has no prompts (it does not declare them)", "-32601"),
    "sep-2549-resources-list-caching-hints":
        ("the server has no resources (it does not declare them)", "-32601"),
    "sep-2549-resources-templates-list-caching-hints":
        ("the server has no resources (it does not declare them)", "-32601"),
    "sep-2575-server-rejects-undeclared-capability":
        ("no tool needs a client capability yet, so the example has no `test_missing_capability` fixture",
         "test_missing_capability"),
    "sep-2575-missing-capability-http-400":
        ("no tool needs a client capability yet, so the example has no `test_missing_capability` fixture",
         "test_missing_capability"),
    "tools-call-sampling":
        ("toolwright tools cannot send requests to the client (sampling) yet: no `test_sampling` fixture",
         "Unknown tool: test_sampling"),
    "tools-call-elicitation":
        ("toolwright tools cannot send requests to the client (elicitation) yet: no `test_elicitation` fixture",
         "Unknown tool: test_elicitation"),
}


def not_applicable(c: dict) -> bool:
    reason = NOT_APPLICABLE.get(c.get("id", ""))
    return (reason is not None and c.get("status") not in ("SUCCESS", "INFO", "SKIPPED")
            and reason[1] in (c.get("errorMessage") or json.dumps(c.get("details"))))


def conformance() -> None:
    common = ["json-schema-2020-12", "server-sse-multiple-streams", "dns-rebinding-protection"]
    tools = {version: listed_scenarios(suite, version, "tools-")
             for suite, version in [("conformance", "2025-11-25"), ("conformance-alpha", "2026-07-28")]}
    for version, names in tools.items():
        # Every tools-* scenario the suite lists for the version (tools-call-with-logging is not
        # one of them for 2026-07-28): a broken list command must not shrink the run unseen.
        if len(names) < 8:
            check(False, f"conformance {version}: the suite lists the tools scenarios", f"found only {names}")
    runs = [
        ("conformance", "2025-11-25",
         ["server-initialize", "ping", "logging-set-level"] + tools["2025-11-25"] + common + ["server-sse-polling"]),
        # 0.1.16 has no session-lifecycle scenario; the alpha has it for the handshake era.
        ("conformance-alpha", "2025-11-25", ["server-session-lifecycle"]),
        ("conformance-alpha", "2026-07-28",
         tools["2026-07-28"] + common
         + ["server-stateless", "caching", "http-header-validation", "http-custom-header-server-validation"]),
    ]
    excluded: set[str] = set()
    for suite, version, names in runs:
        try:
            with HttpServer("conformance", f"conformance {suite} {version}") as http:
                for name in names:
                    label = f"conformance {version} {name}"
                    checks = scenario(suite, http.url, name, version)
                    relevant = [c for c in checks if not not_applicable(c)]
                    excluded.update(c["id"] for c in checks if not_applicable(c))
                    if checks and not relevant:
                        skip(label, "not applicable: " + "; ".join(sorted({NOT_APPLICABLE[c['id']][0] for c in checks})))
                        continue
                    failed = [c for c in relevant if c.get("status") not in ("SUCCESS", "INFO", "SKIPPED")]
                    ok = bool(relevant) and not failed
                    detail = "; ".join(f"{c.get('id')}: {c.get('status')} {json.dumps(c.get('errorMessage') or c.get('details'))[:300]}" for c in failed)
                    n_excluded = len(checks) - len(relevant)
                    count = f"{len(relevant)} checks" + (f", {n_excluded} not applicable" if n_excluded else "")
                    check(ok, f"{label} ({count})", detail if checks else "no checks ran")
        except RuntimeError as e:
            check(False, f"conformance {version} ({suite})", str(e))
    for check_id in sorted(excluded):
        print(f"  not applicable: {check_id}: {NOT_APPLICABLE[check_id][0]}")
    shutdown_check("conformance")


# --------------------------------------------------------------- scale-out behind nginx
class Nginx:
    """nginx in front of two instances, on two ports. `stateless_url` balances round-robin:
    2026-07-28 requests stand alone, so any instance can serve any of them. `sticky_url` keeps
    each client on one instance (`hash $remote_addr`): a 2025-11-25 session, its SSE streams and
    the events kept for resuming them live in the instance that issued the session id, and the
    other one answers 404 to it. (Hashing the session id instead cannot work: the `initialize`
    that creates a session carries none.) All interop clients come from 127.0.0.1, so the
    sticky side sends them all to one instance, which is what affinity means here."""

    def __init__(self, instances: list[HttpServer]) -> None:
        self.instances = instances

    def __enter__(self) -> "Nginx":
        self.dir = SCRATCH / "nginx"
        self.dir.mkdir(exist_ok=True)
        self.ports = {"stateless": free_port(), "sticky": free_port()}
        upstream = "".join(f"        server {i.address} max_fails=0;\n" for i in self.instances)
        proxy = """
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_cache off;
            proxy_request_buffering off;
            proxy_read_timeout 300s;
            proxy_next_upstream off;
"""
        conf = f"""daemon off;
worker_processes 1;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstream '$upstream_addr $status "$request" "$http_mcp_method" "$http_mcp_session_id"';
    client_body_temp_path {self.dir}/client_body;
    proxy_temp_path {self.dir}/proxy;
    fastcgi_temp_path {self.dir}/fastcgi;
    uwsgi_temp_path {self.dir}/uwsgi;
    scgi_temp_path {self.dir}/scgi;
    upstream stateless {{
{upstream}    }}
    upstream sticky {{
        hash $remote_addr consistent;
{upstream}    }}
    server {{
        listen 127.0.0.1:{self.ports['stateless']};
        access_log {self.dir}/stateless.log upstream;
        location /mcp {{ proxy_pass http://stateless; {proxy} }}
    }}
    server {{
        listen 127.0.0.1:{self.ports['sticky']};
        access_log {self.dir}/sticky.log upstream;
        location /mcp {{ proxy_pass http://sticky; {proxy} }}
    }}
}}
"""
        (self.dir / "nginx.conf").write_text(conf)
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.log = open(self.dir / "stderr.log", "wb")
        self.process = subprocess.Popen([binary, "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                                         "-c", str(self.dir / "nginx.conf")],
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 10
        while not all(self.listening(port) for port in self.ports.values()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"nginx did not start: {self.errors()}")
            time.sleep(0.05)
        return self

    @staticmethod
    def listening(port: int) -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def url(self, side: str) -> str:
        return f"http://127.0.0.1:{self.ports[side]}/mcp"

    def upstreams(self, side: str) -> list[str]:
        """The instance that served each request, from the access log."""
        path = self.dir / f"{side}.log"
        return [line.split(" ", 1)[0] for line in path.read_text().splitlines()] if path.exists() else []

    def errors(self) -> str:
        return "".join((self.dir / n).read_text(errors="replace") for n in ["stderr.log", "error.log"]
                       if (self.dir / n).exists())[-600:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finish the open requests
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def __exit__(self, *_: object) -> None:
        self.stop()


def scale_out() -> None:
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        check(False, "scale-out: nginx", "nginx is not installed (install.sh installs it with apt-get)")
        return
    calls = plans("scale-out")["conformance"]
    try:
        with HttpServer("conformance", "scale-out instance A") as a, \
                HttpServer("conformance", "scale-out instance B") as b, Nginx([a, b]) as lb:
            # 2026-07-28: round-robin over both instances; each request stands alone.
            for client in ["ts-sdk-2", "python-sdk"]:
                out = run_plan(client, "2026-07-28", "2026-07-28", "conformance", [lb.url("stateless")],
                               f"scale-out {client} 2026-07-28 via nginx round-robin", calls)
                # The same client straight to one instance, for comparison (not through nginx).
                command, cwd = client_command(client)
                plan = {"sdk": "v2", "mode": "2026-07-28", "logLevel": "info", "calls": calls}
                alone = run_json([*command, json.dumps(plan), "--", a.url], cwd)
                differ = [c["name"] for c, x, y in itertools.zip_longest(calls, contents(out), contents(alone), fillvalue={"name": "?"}) if x != y]
                check(bool(out.get("ok") and alone.get("ok")) and not differ,
                      f"scale-out {client} 2026-07-28: every result as with one instance",
                      f"different: {differ}" if differ else "")
            served = lb.upstreams("stateless")
            counts = {i.address: served.count(i.address) for i in (a, b)}
            strays = [u for u in served if u not in counts]
            check(all(counts.values()) and not strays,
                  f"scale-out: both instances served 2026-07-28 requests ({len(served)} requests: {counts})",
                  f"other upstream entries: {strays[:5]}" if strays else ("" if all(counts.values()) else lb.errors()))
            # 2025-11-25: sessions need affinity (see Nginx).
            run_plan("ts-sdk-1", "legacy", "2025-11-25", "conformance", [lb.url("sticky")],
                     "scale-out ts-sdk-1 legacy via nginx with affinity", calls)
            served = lb.upstreams("sticky")
            check(len(set(served)) == 1 and served[0] in counts,  # one instance, and one of ours
                  f"scale-out: the legacy session stayed on one instance ({len(served)} requests)",
                  "" if len(set(served)) == 1 else f"served by {sorted(set(served))}")
    except RuntimeError as e:
        check(False, "scale-out", str(e))
    shutdown_check("scale-out")


def main() -> int:
    for name in plans(""):
        if not (EXAMPLES / name).exists():
            print(f"interop: {EXAMPLES / name} is missing; build the examples first", file=sys.stderr)
            return 1
    stages = {"conformance": conformance, "clients": clients, "inspector": inspector, "scale-out": scale_out}
    wanted = sys.argv[1:] or list(stages)
    for stage in wanted:
        started = time.monotonic()
        stages[stage]()
        print(f"  ({stage}: {time.monotonic() - started:.0f} s)", flush=True)
    passed = sum(ok for ok, _ in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed" + (f", {len(skipped)} skipped" if skipped else ""))
    shutil.rmtree(SCRATCH, ignore_errors=True)
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
