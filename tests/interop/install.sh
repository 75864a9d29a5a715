#!/usr/bin/env bash
# Installs the pinned interop clients into .cache/interop (ignored by git): Node 22 from npm,
# the official conformance suite (stable and alpha), the supergateway stdio->HTTP bridge (the
# suite speaks only HTTP), the TypeScript SDK clients 1.x and 2.x,
# the Inspector CLI, oidc-provider (the authorization server of the oauth checks), the Python
# SDK in a venv, and the rmcp (Rust SDK) client built from rmcp-client/ with cargo; and nginx
# and redis-server from Debian (for the scale-out and redis checks) when they are missing.
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

# Installs Debian packages for a service the checks run themselves: `service PROGRAM PATH
# PACKAGE...` installs the first PACKAGE that installs (the others are fallbacks) unless PROGRAM
# is on PATH or at PATH. Debian's packages start the stock service when they can (nginx on port
# 80, redis-server on 6379); a policy-rc.d that says no (only while installing, and only if
# there is none already) keeps them from doing so: the checks run their own, with their own
# settings, on free ports.
service() {
  local program="$1" path="$2"
  shift 2
  if command -v "$program" >/dev/null 2>&1 || [ -x "$path" ]; then
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 || fail "$program is missing and apt-get is not available to install it"
  echo "interop: installing $program" >&2
  local policy=/usr/sbin/policy-rc.d own_policy= status=1 package
  if ! [ -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq >"$cache/apt-$program.log" 2>&1; then
    for package in "$@"; do
      apt-get install -y -qq --no-install-recommends "$package" >>"$cache/apt-$program.log" 2>&1 \
        && { status=0; break; }
    done
  fi
  if [ -n "$own_policy" ]; then rm -f "$policy"; fi
  [ "$status" = 0 ] || { tail -20 "$cache/apt-$program.log" >&2; fail "apt-get install $program failed (see above)"; }
}
# nginx, the load balancer of the scale-out and tasks checks.
service nginx /usr/sbin/nginx nginx-light nginx
# redis-server, the shared task store of the redis and tasks checks.
service redis-server /usr/bin/redis-server redis-server
echo "interop: clients installed in $cache" >&2
