#!/usr/bin/env bash
# Builds the benchmark servers and the load drivers (release), prints the comparison table, the
# HTTP tables, then the compile-time table. Needs valgrind. Not part of CI: it takes about half
# an hour, and timings need a quiet machine.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
python3 compare.py
python3 http.py
python3 compile_time.py
