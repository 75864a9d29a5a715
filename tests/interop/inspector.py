"""The `inspector` stage: the MCP Inspector's CLI lists each example's tools with `--strict` in both
protocol eras, over stdio, and over Streamable HTTP also makes each plan's calls."""

import json
import os
import subprocess

from common import NODE, NPM, SCRATCH, HttpServer, check, fails_as, server, shutdown_check
from plans import TOOL_COUNTS, answerable, judge, plans

INSPECTOR = NPM / "inspector" / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"


def inspector_run(args: list[str]) -> subprocess.CompletedProcess:
    home = SCRATCH / "home"
    home.mkdir(exist_ok=True)
    return subprocess.run([str(NODE), str(INSPECTOR), "--cli", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "HOME": str(home)})


def list_tools(target: list[str], enveloped: bool) -> tuple[subprocess.CompletedProcess, int]:
    """`tools/list --strict`, and how many tools it printed (0 when it printed no list). With
    `--format json` (`enveloped`) the list is under `result`."""
    done = inspector_run([*target, "--method", "tools/list", "--strict"])
    try:
        body = json.loads(done.stdout)
        return done, len((body["result"] if enveloped else body)["tools"])
    except (json.JSONDecodeError, KeyError, TypeError):
        return done, 0


def run() -> None:
    for era in ["legacy", "modern"]:
        for name in plans(""):
            done, listed = list_tools([*server(name), "--protocol-era", era], enveloped=False)
            ok = done.returncode == 0 and listed == TOOL_COUNTS[name]
            check(ok, f"inspector --strict {era} {name}", "" if ok else f"exit {done.returncode}, {listed} tools: {(done.stdout + done.stderr)[-400:]}")
    # Over HTTP: one Inspector process per request, so the calls share the server's state
    # (the notes plan finds its note again); the Inspector cannot cancel a call, show progress
    # or answer a tool's asks.
    for era in ["legacy", "modern"]:
        for name, calls in plans("inspector").items():
            calls = [c for c in answerable(calls, "inspector") if "cancelAfterMs" not in c]
            label = f"inspector http {era} {name}"
            with fails_as(label), HttpServer(name, label) as http:
                target = [http.url, "--transport", "http", "--protocol-era", era, "--format", "json"]
                problems = []
                done, listed = list_tools(target, enveloped=True)
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
    shutdown_check("inspector")
