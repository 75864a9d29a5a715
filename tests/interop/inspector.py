"""The `inspector` stage: the MCP Inspector's CLI lists each example's tools with `--strict` in both
protocol eras, over stdio, where it also makes each plan's item steps (prompts and resources),
and over Streamable HTTP makes each plan's calls and item steps."""

import json
import os
import subprocess

from common import NODE, NPM, SCRATCH, HttpServer, check, fails_as, server, shutdown_check
from plans import TOOL_COUNTS, answerable, counted, judge, named, plans

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


def method_args(call: dict) -> list[str]:
    """The Inspector's flags for one call of a plan: a tool call or an item step."""
    method = call.get("method", "tools/call")
    if method == "tools/call":
        return ["--method", method, "--tool-name", call["name"], "--tool-args-json", json.dumps(call.get("arguments", {}))]
    if method == "prompts/get":
        pairs = [f"{k}={v}" for k, v in call.get("arguments", {}).items()]
        return ["--method", method, "--prompt-name", call["name"], *(["--prompt-args", *pairs] if pairs else [])]
    if method == "resources/read":
        return ["--method", method, "--uri", call["uri"]]
    return ["--method", method]


def make(target: list[str], call: dict) -> list[str]:
    """The problems of one call the Inspector makes of `target` (given with `--format json`)."""
    done = inspector_run([*target, *method_args(call)])
    try:
        record = {"result": json.loads(done.stdout.splitlines()[0])["result"]}
    except (json.JSONDecodeError, KeyError, TypeError, IndexError):
        record = {"error": {"name": f"exit {done.returncode}", "message": (done.stdout + done.stderr)[-300:]}}
    problems = []
    # Exit code 5 is the Inspector's "the result has isError".
    if done.returncode not in ((5,) if call["expect"].get("isError") else (0,)):
        problems.append(f"{named(call)}: exit {done.returncode}")
    problem = judge(call, record, None)
    if problem:
        problems.append(f"{named(call)}: {problem}")
    return problems


def run() -> None:
    for era in ["legacy", "modern"]:
        for name in plans(""):
            done, listed = list_tools([*server(name), "--protocol-era", era], enveloped=False)
            ok = done.returncode == 0 and listed == TOOL_COUNTS[name]
            check(ok, f"inspector --strict {era} {name}", "" if ok else f"exit {done.returncode}, {listed} tools: {(done.stdout + done.stderr)[-400:]}")
            # One Inspector process, and so one server, per step.
            steps = [c for c in answerable(plans("inspector")[name], "inspector") if "method" in c]
            if steps:
                target = [*server(name), "--protocol-era", era, "--format", "json"]
                problems = [problem for step in steps for problem in make(target, step)]
                check(not problems, f"inspector stdio {era} {name} ({counted(steps)})", "; ".join(problems))
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
                    problems.extend(make(target, call))
                check(not problems, f"{label} (list + {counted(calls)})", "; ".join(problems))
    shutdown_check("inspector")
