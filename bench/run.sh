#!/usr/bin/env bash
# Builds the benchmark servers and the load driver (release) and prints the comparison table.
# Needs valgrind. Not part of CI: it takes minutes, and timings need a quiet machine.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
exec python3 compare.py
