#!/usr/bin/env bash
# Installs the pinned interop clients into .cache/interop (ignored by git): Node 22 from npm,
# the official conformance suite (stable and alpha), the supergateway stdio->HTTP bridge (the
# suite speaks only HTTP), the TypeScript SDK clients 1.x and 2.x,
# the Inspector CLI, the Python SDK in a venv, and the rmcp (Rust SDK) client built from
# rmcp-client/ with cargo; and nginx and redis-server from Debian (for the scale-out and redis
# checks) when they are missing.
# Each npm package set installs from its committed lockfile, the rmcp client from its
# Cargo.lock, so versions are exact. Re-running is cheap: a set is reinstalled only when its
# lockfile changed, and cargo rebuilds nothing that has not changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${TOOLWRIGHT_INTEROP_CACHE:-$root/.cache/interop}"
mkdir -p "$cache"

fail() {
  echo "interop: $1" >&2
  echo "interop: the interop stage needs the npm registry, PyPI, crates.io and Debian's packages; it does not pass without them" >&2
  exit 1
}

# A set no longer in npm/ is removed from the cache.
for cached in "$cache"/npm/*/; do
  if [ -d "$cached" ] && ! [ -d "$here/npm/$(basename "$cached")" ]; then
    rm -rf "$cached"
  fi
done

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
echo "interop: building the rmcp client" >&2
cargo build --quiet --locked --manifest-path "$here/rmcp-client/Cargo.toml" --target-dir "$cache/rmcp-target" \
  || fail "cargo build of the rmcp client failed (see above)"

# nginx, the load balancer of the scale-out checks. Debian's package starts the stock server on
# port 80 when it can; a policy-rc.d that says no (only while installing, and only if there is
# none already) keeps it from doing so: the checks run their own nginx with their own config.
if ! command -v nginx >/dev/null 2>&1 && ! [ -x /usr/sbin/nginx ]; then
  command -v apt-get >/dev/null 2>&1 || fail "nginx is missing and apt-get is not available to install it"
  echo "interop: installing nginx" >&2
  policy=/usr/sbin/policy-rc.d
  own_policy=
  if ! [ -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  status=0
  { apt-get update -qq && { apt-get install -y -qq --no-install-recommends nginx-light \
      || apt-get install -y -qq --no-install-recommends nginx; }; } >"$cache/apt.log" 2>&1 || status=$?
  if [ -n "$own_policy" ]; then rm -f "$policy"; fi
  [ "$status" = 0 ] || { tail -20 "$cache/apt.log" >&2; fail "apt-get install nginx failed (see above)"; }
fi
# redis-server, the shared task store of the redis checks. Like nginx, Debian's package would
# start the stock server (on port 6379) when it can; the same policy-rc.d keeps it from doing
# so: the checks run their own redis-server on a free port.
if ! command -v redis-server >/dev/null 2>&1 && ! [ -x /usr/bin/redis-server ]; then
  command -v apt-get >/dev/null 2>&1 || fail "redis-server is missing and apt-get is not available to install it"
  echo "interop: installing redis-server" >&2
  policy=/usr/sbin/policy-rc.d
  own_policy=
  if ! [ -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  status=0
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server; } \
    >"$cache/apt-redis.log" 2>&1 || status=$?
  if [ -n "$own_policy" ]; then rm -f "$policy"; fi
  [ "$status" = 0 ] || { tail -20 "$cache/apt-redis.log" >&2; fail "apt-get install redis-server failed (see above)"; }
fi
echo "interop: clients installed in $cache" >&2
