"""The `scale-out` stage: two instances of the `conformance` example behind nginx. 2026-07-28
clients go round-robin and must get the same results as from one instance; a 2025-11-25
session goes through a side with affinity and must stay on one instance."""

import itertools
import os
import shutil
import signal
import socket
import subprocess

from common import SCRATCH, HttpServer, check, fails_as, shutdown_check, stop_process, wait_until
from plans import named, plans
from sdk_clients import run_client, run_plan


def nginx_binary() -> str | None:
    # Debian installs it in /usr/sbin, which is not on every user's PATH.
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


class Nginx:
    """nginx in front of two instances, on two ports. `url("stateless")` balances round-robin:
    2026-07-28 requests stand alone, so any instance can serve any of them. `url("sticky")` keeps
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
        self.log = open(self.dir / "stderr.log", "wb")
        self.process = subprocess.Popen([nginx_binary(), "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                                         "-c", str(self.dir / "nginx.conf")],
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        if not wait_until(lambda: all(listening(port) for port in self.ports.values()), self.process):
            self.stop()
            raise RuntimeError(f"nginx did not start: {self.errors()}")
        return self

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
            stop_process(self.process, signal.SIGQUIT, 10)  # graceful: finish the open requests
        self.log.close()

    def __exit__(self, *_: object) -> None:
        self.stop()


def contents(out: dict) -> list:
    """What each call of a run returned (a tool's content, an item step's whole result, or its
    error), to compare runs."""
    return [record.get("error") or record["result"].get("content", record["result"]) for record in out.get("calls", [])]


def run() -> None:
    if not nginx_binary():
        check(False, "scale-out: nginx", "nginx is not installed (install.sh installs it with apt-get)")
        return
    calls = plans("scale-out")["conformance"]
    # One key seals the multi-round-trip state of both instances: a round one began, the
    # other finishes.
    key = SCRATCH / "request-state.key"
    key.write_bytes(os.urandom(32))
    shared = ("--request-state-key-file", str(key))
    with fails_as("scale-out"), HttpServer("conformance", "scale-out instance A", shared) as a, \
            HttpServer("conformance", "scale-out instance B", shared) as b, Nginx([a, b]) as lb:
        # 2026-07-28: round-robin over both instances; each request stands alone.
        for client in ["ts-sdk-2", "python-sdk"]:
            out = run_plan(client, "2026-07-28", "2026-07-28", "conformance", [lb.url("stateless")],
                           f"scale-out {client} 2026-07-28 via nginx round-robin", calls)
            # The same client straight to one instance, for comparison (not through nginx).
            alone = run_client(client, "2026-07-28", calls, [a.url])
            differ = [named(c) for c, x, y in itertools.zip_longest(calls, contents(out), contents(alone), fillvalue={"name": "?"}) if x != y]
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
    shutdown_check("scale-out")
