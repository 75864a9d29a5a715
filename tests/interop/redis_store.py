"""The `redis` stage: the `redis_store` tests of the `toolwright-tests` package (ignored by a
plain `cargo test`) against a redis-server of their own, on a free port, that keeps nothing on
disk and is stopped when they are done. One check line per test."""

import os
import re
import shutil
import signal
import subprocess

from common import ROOT, SCRATCH, check, fails_as, serial, stop_process, wait_until
from scaleout import free_port, listening

# All features, `redis` among them: the feature set of `cargo test --workspace --all-features`,
# so that after it (as in CI) nothing is built again.
CARGO_TEST = ["cargo", "test", "-p", "toolwright-tests", "--all-features", "--test", "redis_store"]


def redis_binary() -> str | None:
    # Debian installs it in /usr/bin; a local build may be elsewhere on PATH.
    return shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin")


class RedisServer:
    """A redis-server of its own, on a free port, keeping nothing on disk; stopped (and checked
    to stop) when the block ends."""

    def __enter__(self) -> "RedisServer":
        self.dir = SCRATCH / f"redis-{next(serial)}"
        self.dir.mkdir(exist_ok=True)
        port = free_port()
        self.url = f"redis://127.0.0.1:{port}/"
        self.log = open(self.dir / "redis.log", "wb")
        self.process = subprocess.Popen(
            [redis_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--dir", str(self.dir)],
            cwd=self.dir, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        if not wait_until(lambda: listening(port), self.process):
            self.__exit__()
            raise RuntimeError(f"redis-server did not start: {(self.dir / 'redis.log').read_text(errors='replace')[-600:]}")
        return self

    def __exit__(self, *_: object) -> None:
        if stop_process(self.process, signal.SIGTERM, 10) is None:
            check(False, "redis: redis-server stopped", "still running 10 s after SIGTERM (killed)")
        self.log.close()


def failures(output: str) -> dict[str, str]:
    """What libtest printed for each failed test (its `---- NAME stdout ----` section, the panic
    first), without the summary after the last one."""
    sections = re.split(r"^---- (\S+) stdout ----$", output, flags=re.M)
    return {name: text.split("\nfailures:\n")[0].strip() for name, text in zip(sections[1::2], sections[2::2])}


def run() -> None:
    binary = redis_binary()
    if not binary:
        check(False, "redis: redis-server", "redis-server is not installed (install.sh installs it with apt-get)")
        return
    built = subprocess.run([*CARGO_TEST, "--quiet", "--no-run"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if built.returncode != 0:
        check(False, "redis: the redis_store tests build", built.stderr[-1500:])
        return
    with fails_as("redis: redis-server"), RedisServer() as redis:
        env = {**os.environ, "TOOLWRIGHT_REDIS_URL": redis.url, "RUST_BACKTRACE": "0"}
        try:
            done = subprocess.run([*CARGO_TEST, "--", "--ignored"], cwd=ROOT, capture_output=True, text=True,
                                  timeout=600, env=env)
        except subprocess.TimeoutExpired:
            check(False, "redis: the redis_store tests", "still running after 600 s")
            return
        outcomes = re.findall(r"^test (\S+) \.\.\. (ok|FAILED|ignored)$", done.stdout, flags=re.M)
        failed = failures(done.stdout)
        for name, outcome in outcomes:
            detail = "" if outcome == "ok" else failed.get(name, outcome)[:1500]
            check(outcome == "ok", f"redis: {name.replace('_', ' ')}", detail)
        if (done.returncode != 0 and not failed) or not outcomes:
            check(False, "redis: the redis_store tests", f"exit {done.returncode}: {(done.stdout + done.stderr)[-1500:]}")

