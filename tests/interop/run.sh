#!/usr/bin/env bash
# The interop stage: installs the pinned clients (install.sh), builds the example servers, and
# runs every check (check.py). Prints one line per check and `N passed, M failed`; exits
# non-zero on any failure. `run.sh clients` (or `conformance`, `inspector`, `scale-out`,
# `redis`, `tasks`, `oauth`) runs one stage.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/install.sh"
# `oauth`: the oauth stage protects the quickstart with `serve --http --auth-*`.
(cd "$here/../.." && cargo build --quiet --examples --features http,redis,oauth)
# The composed example, a package of the workspace (two libraries mounted beside its own tools).
(cd "$here/../.." && cargo build --quiet -p toolwright-composed --features http)
# The oauth stage's resource server, an example of the toolwright-tests package (it needs axum):
# built with all that package's features, as `cargo test --workspace --all-features` builds it.
(cd "$here/../.." && cargo build --quiet -p toolwright-tests --all-features --example http_auth)
exec python3 "$here/check.py" "$@"
