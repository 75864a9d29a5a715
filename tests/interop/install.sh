#!/usr/bin/env bash
# Installs the pinned interop clients into .cache/interop (ignored by git): Node 22 from npm,
# the official conformance suite (stable and alpha), the supergateway stdio->HTTP bridge, the
# TypeScript SDK clients 1.x and 2.x, the Inspector CLI, and the Python SDK in a venv.
# Each npm package set installs from its committed lockfile, so versions are exact.
# Re-running is cheap: a set is reinstalled only when its lockfile changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${TOOLWRIGHT_INTEROP_CACHE:-$root/.cache/interop}"
mkdir -p "$cache"

fail() {
  echo "interop: $1" >&2
  echo "interop: the interop stage needs the npm registry and PyPI; it does not pass without them" >&2
  exit 1
}

for set_dir in "$here"/npm/*/; do
  name="$(basename "$set_dir")"
  target="$cache/npm/$name"
  stamp="$target/.installed"
  sum="$(sha256sum "$set_dir/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    continue
  fi
  echo "interop: installing $name" >&2
  rm -rf "$target" && mkdir -p "$target"
  cp "$set_dir/package.json" "$set_dir/package-lock.json" "$target/"
  (cd "$target" && npm install --no-audit --no-fund --loglevel=error >"$target/npm.log" 2>&1) \
    || { tail -20 "$target/npm.log" >&2; fail "npm install failed for $name (see above)"; }
  echo "$sum" >"$stamp"
done

venv="$cache/py"
stamp="$venv/.installed"
sum="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if ! [ -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
  echo "interop: installing the Python SDK" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" || fail "python3 -m venv failed"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" \
    || fail "pip install failed"
  echo "$sum" >"$stamp"
fi
echo "interop: clients installed in $cache" >&2
