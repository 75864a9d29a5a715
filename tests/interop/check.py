"""Interop checks: the official conformance suite, the official SDK clients (TypeScript 1.x and
2.x, Python, Rust rmcp) and the Inspector against toolwright's example servers, over stdio and
over Streamable HTTP, two HTTP instances behind nginx, the Redis task store against a
redis-server, tasks across replicas sharing it and under load, and the `http_auth` example as
an OAuth resource server against a real authorization server (oidc-provider). One line per check, then `N passed, M failed` (and `, K skipped` when a
conformance scenario does not apply at all).

Run through `run.sh`, which installs the pinned clients and builds the examples (with the
`http`, `redis` and `oauth` features, and `http_auth` of the tests package) first. `check.py STAGE...` runs some stages only: conformance,
clients, inspector, scale-out, redis, tasks, oauth. Each stage is a module here; this file only runs them and sums up.
"""

import shutil
import sys
import time
from pathlib import Path

import conformance
import inspector
import oauth_checks
import redis_store
import scaleout
import sdk_clients
import tasks_scaleout
from common import SCRATCH, results, server, skipped
from plans import plans

STAGES = {"conformance": conformance.run, "clients": sdk_clients.run, "inspector": inspector.run,
          "scale-out": scaleout.run, "redis": redis_store.run, "tasks": tasks_scaleout.run,
          "oauth": oauth_checks.run}


def main() -> int:
    for name in plans(""):
        if not Path(server(name)[0]).exists():
            print(f"interop: {server(name)[0]} is missing; build the examples first", file=sys.stderr)
            return 1
    for stage in sys.argv[1:] or list(STAGES):
        started = time.monotonic()
        STAGES[stage]()
        print(f"  ({stage}: {time.monotonic() - started:.0f} s)", flush=True)
    passed = sum(ok for ok, _ in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed" + (f", {len(skipped)} skipped" if skipped else ""))
    shutil.rmtree(SCRATCH, ignore_errors=True)
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
