"""What every interop stage shares: where the clients and example servers are, the record of
checks (`check`, `skip`, `fails_as`), and an example server on Streamable HTTP (`HttpServer`)
with the check that it shut down gracefully (`shutdown_check`)."""

import itertools
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@contextmanager
def fails_as(name: str) -> Iterator[None]:
    """A RuntimeError in the block (a server that did not start) becomes the failed check `name`,
    so the stage goes on with its next server."""
    try:
        yield
    except RuntimeError as e:
        check(False, name, str(e))


# Arguments an example takes before its command: the directories the file server may read.
SERVER_ARGS = {"files": [str(ROOT), str(SCRATCH)]}


# Example servers that are packages of the workspace rather than examples of the facade.
PACKAGES = {"composed": ROOT / "target" / "debug" / "toolwright-composed"}


def server(name: str) -> list[str]:
    return [str(PACKAGES.get(name, EXAMPLES / name)), *SERVER_ARGS.get(name, [])]


def wait_until(ready: Callable[[], bool], process: subprocess.Popen, timeout: float = 10) -> bool:
    """Polls `ready` until it holds (True), or until `process` exits or `timeout` s pass (False)."""
    deadline = time.monotonic() + timeout
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def stop_process(process: subprocess.Popen, sig: int, timeout: float) -> int | None:
    """Sends `sig` and waits: the exit code, or None when it was still running after `timeout` s
    (then it is killed)."""
    process.send_signal(sig)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


serial = itertools.count(1)
shutdowns: list[tuple[str, str | None]] = []  # (server, problem) for every HTTP server stopped


class HttpServer:
    """An example server on Streamable HTTP: `EXAMPLE serve --http 127.0.0.1:0` (a free port),
    its URL read from the line it prints to stderr once bound. Leaving the block sends SIGTERM
    and expects exit code 0 within SHUTDOWN_TIMEOUT seconds (graceful shutdown); the outcome
    goes to `shutdowns`, reported by `shutdown_check`."""

    def __init__(self, name: str, label: str, extra: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.name, self.label, self.extra, self.env = name, label, extra, env

    def __enter__(self) -> "HttpServer":
        self.log_path = SCRATCH / f"server-{next(serial)}-{self.name}.log"
        self.log = open(self.log_path, "wb")
        env = {**os.environ, **self.env} if self.env is not None else None
        self.process = subprocess.Popen([*server(self.name), "serve", "--http", "127.0.0.1:0", *self.extra],
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=env)
        if not wait_until(self.bound, self.process):
            self.process.kill()
            self.process.wait()
            self.log.close()
            raise RuntimeError(f"{self.name} did not start serving HTTP: {self.tail()}")
        return self

    def bound(self) -> bool:
        """Whether the server has printed its URL; then `url` and `address` are set."""
        found = re.search(r"serving MCP at (http://\S+/mcp)", self.log_path.read_text(errors="replace"))
        if found:
            self.url = found.group(1)
            self.address = self.url.removeprefix("http://").removesuffix("/mcp")
        return found is not None

    def tail(self) -> str:
        return self.tail_all()[-400:]

    def tail_all(self) -> str:
        """Everything the server wrote to stderr so far."""
        return self.log_path.read_text(errors="replace")

    def __exit__(self, *_: object) -> None:
        shutdowns.append((f"{self.label} ({self.name})", self.stop()))
        self.log.close()

    def stop(self) -> str | None:
        """SIGTERM, then what is wrong with how the server went, or None."""
        if self.process.poll() is not None:
            return f"had exited (code {self.process.returncode}) before SIGTERM: {self.tail()}"
        code = stop_process(self.process, signal.SIGTERM, SHUTDOWN_TIMEOUT)
        if code is None:
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
