#!/usr/bin/env bash
# The interop stage: installs the pinned clients (install.sh), builds the example servers, and
# runs every check (check.py). Prints one line per check and `N passed, M failed`; exits
# non-zero on any failure. `run.sh clients` (or `conformance`, `inspector`, `scale-out`,
# `redis`, `tasks`, `oauth`) runs one stage.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/install.sh"
(cd "$here/../.." && cargo build --quiet --examples --features http,redis)
exec python3 "$here/check.py" "$@"
