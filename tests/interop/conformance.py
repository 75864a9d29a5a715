"""The `conformance` stage: the official conformance suite (stable for 2025-11-25, alpha for
2026-07-28) runs its server scenarios against the `conformance` example over Streamable HTTP.
One check line per scenario; checks that do not apply to these servers (`NOT_APPLICABLE`) are
left out only when they fail for that reason.

Over HTTP the fixtures are served through a mount (`CONFORMANCE_NAMESPACE`): without a
namespace for the scenarios that call the fixtures by name (all but a few), and under the
namespace `fixtures` for those that name none; over stdio they are served as they are."""

import json
import re
import signal
import socket
import subprocess
import urllib.request
from pathlib import Path

from common import NODE, NPM, SCRATCH, HttpServer, check, fails_as, server, shutdown_check, skip, stop_process, wait_until


def suite_runner(suite: str) -> Path:
    return NPM / suite / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


def listed_scenarios(suite: str, version: str | None, prefix: str) -> list[str]:
    """The suite's own list of server scenarios for a version (with none, every scenario,
    extensions' included), those whose name starts so."""
    pinned = ["--spec-version", version] if version else []
    done = subprocess.run([str(NODE), str(suite_runner(suite)), "list", "--server"] + pinned,
                          capture_output=True, text=True, timeout=60)
    return [m.group(1) for m in re.finditer(r"^\s*- (\S+) \[", done.stdout, re.M) if m.group(1).startswith(prefix)]


def scenario(suite: str, url: str, name: str, version: str | None, transport: str) -> list[dict]:
    """The checks of one scenario; with no version, the suite's own choice (extension
    scenarios run so: they are skipped when a version is named)."""
    out = SCRATCH / f"{suite}-{version or 'default'}-{name}-{transport}"
    pinned = ["--spec-version", version] if version else []
    subprocess.run([str(NODE), str(suite_runner(suite)), "server", "--url", url, "--scenario", name, "-o", str(out)]
                   + pinned, capture_output=True, text=True, timeout=300)
    checks = []
    for path in out.glob("*/checks.json"):
        checks.extend(json.loads(path.read_text()))
    return checks


class Bridge:
    """The conformance example over stdio, behind supergateway (a stdio-to-Streamable-HTTP
    bridge in a session per client): the suite speaks HTTP only. The bridge is handshake-era
    only, so it carries the scenarios that do not test HTTP itself."""

    def __init__(self, label: str) -> None:
        self.label = label

    def __enter__(self) -> "Bridge":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        gateway = NPM / "bridge" / "node_modules" / "supergateway" / "dist" / "index.js"
        self.log_path = SCRATCH / f"bridge-{port}.log"
        self.log = open(self.log_path, "wb")
        self.url = f"http://127.0.0.1:{port}/mcp"
        # The bridge exits when its stdin closes, and CI runs with no stdin: hold a pipe.
        self.process = subprocess.Popen(
            [str(NODE), str(gateway), "--stdio", " ".join(server("conformance")), "--outputTransport",
             "streamableHttp", "--stateful", "--port", str(port), "--healthEndpoint", "/healthz"],
            stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT)

        def healthy() -> bool:
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).status == 200
            except OSError:
                return False
        if not wait_until(healthy, self.process):
            self.__exit__()
            raise RuntimeError(f"the bridge did not start: {self.log_path.read_text(errors='replace')[-400:]}")
        return self

    def __exit__(self, *_: object) -> None:
        stop_process(self.process, signal.SIGTERM, 5)
        self.log.close()


# Checks (by id) that the suite runs but that do not apply to these servers: why, and the
# failure message that shows it is that and nothing else. Such a check is left out only when it
# fails with that message; a WARNING counts as a failure.
NOT_APPLICABLE: dict[str, tuple[str, str]] = {}


def failed(c: dict) -> bool:
    return c.get("status") not in ("SUCCESS", "INFO", "SKIPPED")


def not_applicable(c: dict) -> bool:
    reason = NOT_APPLICABLE.get(c.get("id", ""))
    return (reason is not None and failed(c)
            and reason[1] in (c.get("errorMessage") or json.dumps(c.get("details"))))


def run() -> None:
    common = ["json-schema-2020-12", "server-sse-multiple-streams", "dns-rebinding-protection"]
    tools = {version: listed_scenarios(suite, version, "tools-")
             for suite, version in [("conformance", "2025-11-25"), ("conformance-alpha", "2026-07-28")]}
    for version, names in tools.items():
        # Every tools-* scenario the suite lists for the version (tools-call-with-logging is not
        # one of them for 2026-07-28): a broken list command must not shrink the run unseen.
        if len(names) < 8:
            check(False, f"conformance {version}: the suite lists the tools scenarios", f"found only {names}")
    # Prompts, resources and completion: every such scenario the suite lists for the version.
    items = {version: [name for prefix in ("resources-", "prompts-", "completion-")
                       for name in listed_scenarios(suite, version, prefix)]
             for suite, version in [("conformance", "2025-11-25"), ("conformance-alpha", "2026-07-28")]}
    for version, names in items.items():
        if len(names) < 10:
            check(False, f"conformance {version}: the suite lists the prompts and resources scenarios",
                  f"found only {names}")
    asking = ["elicitation-sep1034-defaults", "elicitation-sep1330-enums"]
    # Every multi-round-trip scenario, the prompt that asks among them.
    rounds = listed_scenarios("conformance-alpha", "2026-07-28", "input-required-result-")
    if len(rounds) < 14 or "input-required-result-non-tool-request" not in rounds:
        check(False, "conformance 2026-07-28: the suite lists the input-required-result scenarios", f"found only {rounds}")
    # The tasks extension's scenarios (SEP-2663), every one the suite lists.
    tasks = listed_scenarios("conformance-alpha", None, "tasks-")
    if len(tasks) < 10:
        check(False, "conformance: the suite lists the tasks extension's scenarios", f"found only {tasks}")
    runs = [
        ("conformance", "2025-11-25",
         ["server-initialize", "ping", "logging-set-level"] + tools["2025-11-25"] + items["2025-11-25"]
         + common + asking + ["server-sse-polling"]),
        ("conformance", "2025-06-18", ["tools-call-elicitation", "tools-call-sampling"]),
        # 0.1.16 has no session-lifecycle scenario; the alpha has it for the handshake era.
        ("conformance-alpha", "2025-11-25", ["server-session-lifecycle"]),
        ("conformance-alpha", "2026-07-28",
         tools["2026-07-28"] + items["2026-07-28"] + common + rounds
         + ["server-stateless", "caching", "sep-2164-resource-not-found", "http-header-validation",
            "http-custom-header-server-validation"]),
        # The skills and tasks extensions' scenarios run at the suite's own revision (2026-07-28).
        ("conformance-alpha", None,
         ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"] + tasks),
    ]
    # Over stdio, through the bridge: everything of the handshake era that is not about HTTP.
    stdio = ["server-initialize", "ping", "logging-set-level"] + tools["2025-11-25"] + items["2025-11-25"] + asking
    # The scenarios that call no fixture by name, under a namespace of their own (every other
    # one, server-stateless among them, calls the fixtures by their names).
    unnamed = ["server-initialize", "ping", "logging-set-level", "dns-rebinding-protection"]
    runs = [(suite, version, names, "http", "") for suite, version, names in runs] + [
        ("conformance", "2025-11-25", unnamed, "http", "fixtures"),
        ("conformance-alpha", "2026-07-28", ["dns-rebinding-protection"], "http", "fixtures"),
        ("conformance", "2025-11-25", stdio, "stdio", None),
        ("conformance", "2025-06-18", ["tools-call-elicitation", "tools-call-sampling"], "stdio", None),
    ]
    excluded: set[str] = set()
    for suite, version, names, transport, namespace in runs:
        mounted = f" (mounted as `{namespace}`)" if namespace else " (mounted)"
        served = HttpServer("conformance", f"conformance {suite} {version}{mounted}",
                            env={"CONFORMANCE_NAMESPACE": namespace}) if transport == "http" \
            else Bridge(f"conformance stdio {version}")
        with fails_as(f"conformance {version} ({suite}, {transport})"), served as http:
            for name in names:
                label = f"conformance {version or 'extension'} {name}" + (
                    " over stdio" if transport == "stdio" else mounted)
                checks = scenario(suite, http.url, name, version, transport)
                relevant = [c for c in checks if not not_applicable(c)]
                excluded.update(c["id"] for c in checks if not_applicable(c))
                if checks and not relevant:
                    skip(label, "not applicable: " + "; ".join(sorted({NOT_APPLICABLE[c['id']][0] for c in checks})))
                    continue
                if relevant and all(c.get("status") == "SKIPPED" for c in relevant):
                    # A placeholder the suite itself skips (tasks-status-notifications): no pass.
                    skip(label, "the suite skips it: " + (relevant[0].get("errorMessage") or "")[:160])
                    continue
                failures = [c for c in relevant if failed(c)]
                ok = bool(relevant) and not failures
                detail = "; ".join(f"{c.get('id')}: {c.get('status')} {json.dumps(c.get('errorMessage') or c.get('details'))[:300]}" for c in failures)
                n_excluded = len(checks) - len(relevant)
                count = f"{len(relevant)} checks" + (f", {n_excluded} not applicable" if n_excluded else "")
                check(ok, f"{label} ({count})", detail if checks else "no checks ran")
    for check_id in sorted(excluded):
        print(f"  not applicable: {check_id}: {NOT_APPLICABLE[check_id][0]}")
    shutdown_check("conformance")
