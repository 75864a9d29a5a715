"""Interop checks: the official conformance suite, the official SDK clients and the Inspector
against toolwright's example servers. One line per check, then `N passed, M failed`.

Run through `run.sh`, which installs the pinned clients first.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("TOOLWRIGHT_INTEROP_CACHE", ROOT / ".cache" / "interop"))
NPM = CACHE / "npm"
NODE = NPM / "node22" / "node_modules" / ".bin" / "node"
PYTHON = CACHE / "py" / "bin" / "python"
EXAMPLES = ROOT / "target" / "debug" / "examples"
SCRATCH = Path(tempfile.mkdtemp(prefix="toolwright-interop-"))

results: list[tuple[bool, str]] = []


def check(ok: bool, name: str, detail: str = "") -> None:
    results.append((ok, name))
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


def server(name: str) -> list[str]:
    return [str(EXAMPLES / name)]


# ---------------------------------------------------------------- what each server is asked
def plans() -> dict[str, list[dict]]:
    export = str(SCRATCH / "notes.md")
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
            {"name": "export_notes", "arguments": {"path": export, "pause_ms": 10000}, "cancelAfterMs": 400, "expect": {"cancelled": True}},
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
            {"name": "json_schema_2020_12_tool", "arguments": {"email": "a@example.com"}, "expect": {}},
        ],
    }


TOOL_COUNTS = {"quickstart": 4, "notes": 4, "conformance": 10}


def judge(call: dict, record: dict, logs: list | None) -> str | None:
    """What is wrong with one call's record, or None."""
    expect = call["expect"]
    if expect.get("cancelled"):
        return None if "error" in record else f"expected the call to be cancelled, got {record}"
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
    if expect.get("progress"):
        values = [p["progress"] for p in record.get("progress", [])]
        if not values or values != sorted(set(values)):
            return f"progress {values}: expected a strictly increasing series"
    if "logs" in expect and logs is not None and len([l for l in logs if l.get("logger") == call["name"]]) < expect["logs"]:
        return f"expected {expect['logs']} log messages, got {logs}"
    return None


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


def clients() -> None:
    configs = [
        ("ts-sdk-1", "v1", "legacy", "2025-11-25"),
        ("ts-sdk-2", "v2", "legacy", "2025-11-25"),
        ("ts-sdk-2", "v2", "auto", "2026-07-28"),
        ("ts-sdk-2", "v2", "2026-07-28", "2026-07-28"),
        ("python-sdk", None, "legacy", "2025-11-25"),
        ("python-sdk", None, "auto", "2026-07-28"),
        ("python-sdk", None, "2026-07-28", "2026-07-28"),
    ]
    for client, sdk, mode, version in configs:
        for name, calls in plans().items():
            if sdk is None:
                # The Python client cannot cancel a call; it is checked without one.
                calls = [c for c in calls if "cancelAfterMs" not in c]
                command, cwd = [str(PYTHON), str(HERE / "clients" / "py_client.py")], ROOT
            else:
                command, cwd = ts_client(sdk)
            plan = {"sdk": sdk, "mode": mode, "logLevel": "info", "calls": calls}
            out = run_json([*command, json.dumps(plan), "--", *server(name)], cwd)
            label = f"{client} {mode} {name}"
            if not out.get("ok"):
                check(False, label, json.dumps(out.get("error"))[:400])
                continue
            problems = []
            if out.get("protocolVersion") != version:
                problems.append(f"negotiated {out.get('protocolVersion')}, expected {version}")
            if len(out.get("tools", [])) != TOOL_COUNTS[name]:
                problems.append(f"{len(out.get('tools', []))} tools listed")
            # The TypeScript 2.x client has no way to ask for log messages on 2026-07-28.
            logs = None if sdk == "v2" and mode != "legacy" else out.get("logs", [])
            for call, record in zip(calls, out["calls"]):
                problem = judge(call, record, logs)
                if problem:
                    problems.append(f"{call['name']}: {problem}")
            check(not problems, f"{label} ({len(calls)} calls)", "; ".join(problems))


# ----------------------------------------------------------------------------- Inspector
def inspector() -> None:
    launcher = NPM / "inspector" / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"
    home = SCRATCH / "home"
    home.mkdir(exist_ok=True)
    for era in ["legacy", "modern"]:
        for name in plans():
            command = [str(NODE), str(launcher), "--cli", *server(name), "--protocol-era", era, "--method", "tools/list", "--strict"]
            done = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(home)})
            listed = 0
            try:
                listed = len(json.loads(done.stdout)["tools"])
            except (json.JSONDecodeError, KeyError, TypeError):
                pass
            ok = done.returncode == 0 and listed == TOOL_COUNTS[name]
            check(ok, f"inspector --strict {era} {name}", "" if ok else f"exit {done.returncode}, {listed} tools: {(done.stdout + done.stderr)[-400:]}")


# -------------------------------------------------------------------- conformance suite
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Bridge:
    """supergateway: the suite speaks Streamable HTTP only; the bridge spawns our stdio server."""

    def __enter__(self) -> str:
        self.port = free_port()
        gateway = NPM / "bridge" / "node_modules" / "supergateway" / "dist" / "index.js"
        self.log = open(SCRATCH / f"bridge-{self.port}.log", "w")
        self.process = subprocess.Popen(
            [str(NODE), str(gateway), "--stdio", str(EXAMPLES / "conformance"), "--outputTransport", "streamableHttp",
             "--stateful", "--port", str(self.port), "--healthEndpoint", "/healthz", "--logLevel", "info"],
            # The bridge exits when its stdin closes, and CI runs with no stdin: hold a pipe.
            stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT,
        )
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}/mcp"

    def __exit__(self, *_: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


def scenario(suite: str, url: str, name: str, extra: list[str]) -> list[dict]:
    runner = NPM / suite / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    out = SCRATCH / f"{suite}-{name}"
    subprocess.run([str(NODE), str(runner), "server", "--url", url, "--scenario", name, "-o", str(out), *extra],
                   capture_output=True, text=True, timeout=300)
    checks = []
    for path in out.glob("*/checks.json"):
        checks.extend(json.loads(path.read_text()))
    return checks


# Checks that concern the HTTP transport (the bridge answers those, not the server: their ids
# start with `sep-2575-http-`) or features a tools-only server does not have.
NOT_APPLICABLE = {
    "sep-2549-prompts-list-caching-hints": "the server has no prompts (it does not declare them)",
    "sep-2549-resources-list-caching-hints": "the server has no resources (it does not declare them)",
    "sep-2549-resources-templates-list-caching-hints": "the server has no resources (it does not declare them)",
    "sep-2575-missing-capability-http-400": "no tool needs a client capability; HTTP status",
    "sep-2575-server-rejects-undeclared-capability": "no tool needs a client capability (sampling)",
}


def conformance() -> None:
    tool_scenarios = ["tools-list", "tools-call-simple-text", "tools-call-image", "tools-call-audio",
                      "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-error",
                      "tools-call-with-logging", "tools-call-with-progress", "json-schema-2020-12"]
    runs = [("conformance", "2025-11-25", tool_scenarios, []),
            ("conformance-alpha", "2026-07-28",
             [s for s in tool_scenarios if s != "tools-call-with-logging"] + ["caching", "server-stateless"],
             ["--spec-version", "2026-07-28"])]
    for suite, version, names, extra in runs:
        with Bridge() as url:
            for name in names:
                checks = scenario(suite, url, name, extra)
                relevant = [c for c in checks if c.get("id") not in NOT_APPLICABLE
                            and not c.get("id", "").startswith("sep-2575-http-")]
                failed = [c for c in relevant if c.get("status") not in ("SUCCESS", "INFO", "SKIPPED")]
                ok = bool(relevant) and not failed
                detail = "; ".join(f"{c.get('id')}: {c.get('status')} {json.dumps(c.get('errorMessage') or c.get('details'))[:200]}" for c in failed)
                check(ok, f"conformance {version} {name} ({len(relevant)} checks)", detail if checks else "no checks ran")


def main() -> int:
    for name in plans():
        if not (EXAMPLES / name).exists():
            print(f"interop: {EXAMPLES / name} is missing; build the examples first", file=sys.stderr)
            return 1
    stages = {"conformance": conformance, "clients": clients, "inspector": inspector}
    wanted = sys.argv[1:] or list(stages)
    for stage in wanted:
        stages[stage]()
    passed = sum(ok for ok, _ in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
