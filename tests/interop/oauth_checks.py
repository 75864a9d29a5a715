"""The `oauth` stage: the `http_auth` example as an OAuth 2.1 resource server, against a real
authorization server (oidc-provider 9.x running `oauth/as.mjs`), both on free ports and both
started and stopped here.

- SDK clients: the official clients (TypeScript 1.x on 2025-11-25, TypeScript 2.x and Python on
  2026-07-28) each start with no token, get the 401, read the Protected Resource Metadata, get a
  token from oidc-provider (authorization_code + PKCE through its login and consent pages, or
  client_credentials), list and call `whoami`, and step up to `mcp:admin` on the 403 of
  `clear_audit_log`.
- Refusals: requests made by hand (no SDK) with missing, malformed, forged, expired,
  misaddressed or under-scoped tokens, in JWT and in introspection mode, each checked for its
  status and `WWW-Authenticate` challenge and followed by a request that must succeed. The table
  of them is written as Markdown to `.cache/interop/oauth-refusals.md`.
- `serve --http --auth-*`: the quickstart example, which has no authorization of its own,
  protected by its command line alone (JWTs; introspection with the client's secret in the
  environment): an oidc-provider token accepted, none and a forged one challenged.
- Key rotation: the AS restarted with a new signing key while the MCP server runs; tokens of
  the new key and of the old one are accepted, an expired one is not.

The rig makes the AS's private keys and writes them for it, so it can forge tokens the server
cannot tell from the AS's own but for what the rig changed (`oauth/forge.py`, run by the Python
SDK's venv: this module uses the standard library only).
"""

import base64
import hashlib
import http.client
import itertools
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from common import CACHE, EXAMPLES, HERE, NODE, NPM, PYTHON, SCRATCH, check, fails_as, serial, stop_process, wait_until
from scaleout import free_port

CLIENT, SECRET = "mcp-test", "mcp-test-secret"  # confidential: client_credentials and authorization_code
RS_CLIENT, RS_SECRET = "mcp-rs", "mcp-rs-secret"  # the resource server's own, for introspection
REDIRECT = "http://localhost:4300/callback"  # never served: the drivers stop at it
TOOLS, ADMIN = "mcp:tools", "mcp:tools mcp:admin"
MODERN, LEGACY = "2026-07-28", "2025-11-25"
REFUSALS_MD = CACHE / "oauth-refusals.md"
ids = itertools.count(1)


# ---------------------------------------------------------------------------------------------
# Keys and forged tokens


def new_keys(*names: str) -> dict[str, dict]:
    """Fresh RSA keys as private JWKs (kid = name)."""
    done = subprocess.run([str(PYTHON), str(HERE / "oauth" / "forge.py"), "keys", *names],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"forge.py keys: {done.stderr[-600:]}")
    return json.loads(done.stdout)


def forge(keys: dict[str, dict], specs: list[dict]) -> list[str]:
    """The tokens of `specs` (see forge.py), in order."""
    done = subprocess.run([str(PYTHON), str(HERE / "oauth" / "forge.py"), "tokens"], input=json.dumps(
        {"keys": keys, "tokens": specs}), capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"forge.py tokens: {done.stderr[-600:]}")
    return json.loads(done.stdout)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jose(token: str) -> tuple[dict, dict]:
    """A JWT's header and claims, unverified."""
    header, claims = token.split(".")[:2]
    return json.loads(unb64(header)), json.loads(unb64(claims))


def resigned(token: str) -> str:
    """The token with one bit of its signature flipped."""
    head, body, signature = token.split(".")
    raw = bytearray(unb64(signature))
    raw[len(raw) // 2] ^= 0x01
    return f"{head}.{body}.{b64(bytes(raw))}"


# ---------------------------------------------------------------------------------------------
# HTTP by hand


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]
    body: str

    def all(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]

    def first(self, name: str) -> str | None:
        found = self.all(name)
        return found[0] if found else None

    def json(self) -> dict:
        """The body as JSON; an event stream's last message when it is one."""
        events = [line[5:].strip() for line in self.body.splitlines() if line.startswith("data:") and line[5:].strip()]
        try:
            return json.loads(events[-1] if events else self.body)
        except json.JSONDecodeError:
            return {}


def send(url: str, method: str = "GET", headers: list[tuple[str, str]] = (), body: bytes | None = None) -> Reply:
    """One request, headers exactly as given (a name may repeat), redirects not followed. A
    connection that fails (a server gone) is status 0, what went wrong in the body."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest(method, parts.path + (f"?{parts.query}" if parts.query else ""),
                              skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return Reply(response.status, response.getheaders(), response.read().decode(errors="replace"))
    except (OSError, http.client.HTTPException) as e:
        return Reply(0, [], f"{type(e).__name__}: {e}")
    finally:
        connection.close()


def form(url: str, fields: dict, basic: tuple[str, str] | None = None) -> Reply:
    headers = [("Content-Type", "application/x-www-form-urlencoded")]
    if basic:
        headers.append(("Authorization", "Basic " + base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()))
    return send(url, "POST", headers, urllib.parse.urlencode(fields).encode())


def bearer(token: str) -> list[tuple[str, str]]:
    return [("Authorization", f"Bearer {token}")]


def modern(method: str, params: dict, name: str | None = None) -> tuple[list[tuple[str, str]], bytes]:
    """A 2026-07-28 request (stateless): its MCP headers and body."""
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "toolwright-interop", "version": "1"}}
    body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": {**params, "_meta": meta}}
    headers = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream"),
               ("MCP-Protocol-Version", MODERN), ("Mcp-Method", method)]
    if name is not None:
        headers.append(("Mcp-Name", name))
    return headers, json.dumps(body).encode()


def legacy(method: str, params: dict, session: str | None) -> tuple[list[tuple[str, str]], bytes]:
    """A 2025-11-25 request (in `session`, once there is one): its headers and body."""
    body = {"jsonrpc": "2.0", "method": method, "params": params}
    if not method.startswith("notifications/"):
        body["id"] = next(ids)
    headers = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
    if session:
        headers += [("Mcp-Session-Id", session), ("MCP-Protocol-Version", LEGACY)]
    return headers, json.dumps(body).encode()


def tool_call(name: str) -> tuple[list[tuple[str, str]], bytes]:
    return modern("tools/call", {"name": name, "arguments": {}}, name)


def text_of(reply: Reply) -> str | None:
    """The text of a tools/call result, or None when the reply is no successful result."""
    if reply.status != 200:
        return None
    result = reply.json().get("result") or {}
    if result.get("isError"):
        return None
    return ((result.get("content") or [{}])[0]).get("text")


# ---------------------------------------------------------------------------------------------
# The servers


class AuthServer:
    """oidc-provider (`oauth/as.mjs`) on `port`, signing with the first of `keys` (private JWKs)
    and publishing all of them; stopped when the block ends."""

    def __init__(self, port: int, resource: str, other: str, keys: list[dict], fmt: str = "jwt",
                 ttl: int = 300) -> None:
        self.port, self.resource, self.other, self.keys, self.fmt, self.ttl = port, resource, other, keys, fmt, ttl
        self.issuer = f"http://localhost:{port}"

    def __enter__(self) -> "AuthServer":
        n = next(serial)
        jwks = SCRATCH / f"as-{n}-jwks.json"
        jwks.write_text(json.dumps({"keys": self.keys}))
        folder = NPM / "oidc-provider"
        # Node resolves oidc-provider from the script's own folder, so the script goes there.
        shutil.copy(HERE / "oauth" / "as.mjs", folder / "as.mjs")
        env = {**os.environ, "AS_ISSUER": self.issuer, "MCP_RESOURCE": self.resource, "AS_OTHER_RESOURCE": self.other,
               "AS_JWKS_FILE": str(jwks), "AS_TOKEN_FORMAT": self.fmt, "AS_TOKEN_TTL": str(self.ttl)}
        self.log_path = SCRATCH / f"as-{n}.log"
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([str(NODE), "as.mjs"], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        if not wait_until(lambda: "oidc-provider ready at" in self.text(), self.process, timeout=30):
            self.__exit__()
            raise RuntimeError(f"oidc-provider did not start: {self.text()[-600:]}")
        return self

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def jwks_fetches(self) -> int:
        return len(re.findall(r"^request GET /jwks 200$", self.text(), re.M))

    def __exit__(self, *_: object) -> None:
        if not self.log.closed:
            stop_process(self.process, signal.SIGTERM, 5)
            self.log.close()

    def token(self, scope: str | None = TOOLS, resource: str | None = None) -> dict:
        """A client_credentials token response for `mcp-test` (no `scope` asked when None)."""
        fields = {"grant_type": "client_credentials", "resource": resource or self.resource}
        if scope is not None:
            fields["scope"] = scope
        reply = form(f"{self.issuer}/token", fields, (CLIENT, SECRET))
        if reply.status != 200:
            raise RuntimeError(f"client_credentials at the AS: {reply.status} {reply.body[:300]}")
        return reply.json()

    def revoke(self, token: str) -> Reply:
        return form(f"{self.issuer}/token/revocation", {"token": token, "token_type_hint": "access_token"},
                    (CLIENT, SECRET))

    def authorize(self, login: str, scope: str) -> dict:
        """An authorization_code + PKCE token response for `mcp-test`, `login` signing in and
        consenting on oidc-provider's own pages (the stdlib twin of the clients' drivers)."""
        verifier = secrets.token_urlsafe(48)
        state = secrets.token_urlsafe(16)
        query = urllib.parse.urlencode({
            "response_type": "code", "client_id": CLIENT, "redirect_uri": REDIRECT, "scope": scope, "state": state,
            "code_challenge": b64(hashlib.sha256(verifier.encode()).digest()), "code_challenge_method": "S256",
            "resource": self.resource})
        callback = urllib.parse.urlsplit(drive(f"{self.issuer}/auth?{query}", login))
        got = dict(urllib.parse.parse_qsl(callback.query))
        if got.get("state") != state or "code" not in got:
            raise RuntimeError(f"authorization response: {callback.query[:300]}")
        reply = form(f"{self.issuer}/token", {"grant_type": "authorization_code", "code": got["code"],
                                              "code_verifier": verifier, "redirect_uri": REDIRECT,
                                              "resource": self.resource}, (CLIENT, SECRET))
        if reply.status != 200:
            raise RuntimeError(f"authorization_code at the AS: {reply.status} {reply.body[:300]}")
        return reply.json()


def drive(url: str, login: str) -> str:
    """Follows an authorization request through oidc-provider's devInteractions: GET, answer a
    login page (`login`, any password) or a consent page by POSTing its form, follow each
    Location, until one points at the redirect URI; returns that URL. Cookies by name."""
    jar: dict[str, str] = {}
    for _ in range(20):
        if url.startswith(REDIRECT):
            return url
        cookie = [("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))] if jar else []
        reply = send(url, "GET", cookie)
        if reply.status == 200:
            prompt = re.search(r'name="prompt" value="(\w+)"', reply.body)
            action = re.search(r'<form[^>]*action="([^"]+)"', reply.body)
            if not prompt or not action:
                raise RuntimeError(f"an interaction page without a form: {reply.body[:300]}")
            fields = {"prompt": prompt.group(1)}
            if prompt.group(1) == "login":
                fields.update(login=login, password="any")
            posted = urllib.parse.urljoin(url, action.group(1))
            reply = send(posted, "POST", [("Content-Type", "application/x-www-form-urlencoded"), *cookie],
                         urllib.parse.urlencode(fields).encode())
            url = posted
        for header in reply.all("Set-Cookie"):
            name, _, value = header.split(";")[0].partition("=")
            jar[name.strip()] = value.strip()
        location = reply.first("Location")
        if reply.status not in (302, 303) or not location:
            raise RuntimeError(f"{url}: {reply.status} {reply.body[:300]}")
        url = urllib.parse.urljoin(url, location)
    raise RuntimeError("no redirect to the client after 20 steps")


class ResourceServer:
    """The `http_auth` example on a free port, as the resource server `http://localhost:PORT/mcp`
    of `issuer`; with `introspection`, validating opaque tokens by introspection as `mcp-rs`.
    Stopped (SIGINT, as Ctrl-C) when the block ends."""

    def __init__(self, issuer: str, port: int, introspection: bool = False) -> None:
        self.issuer, self.port, self.introspection = issuer, port, introspection
        self.origin = f"http://localhost:{port}"
        self.url = f"{self.origin}/mcp"
        self.prm = f"{self.origin}/.well-known/oauth-protected-resource/mcp"

    def command(self) -> tuple[list[str], dict[str, str]]:
        """What runs the server, and its environment."""
        env = {**os.environ, "MCP_ISSUER": self.issuer, "MCP_RESOURCE": self.url, "MCP_JWKS_REFETCH_FLOOR": "1s",
               "MCP_JWT_LEEWAY": "1s"}
        if self.introspection:
            env.update(MCP_INTROSPECTION=f"{RS_CLIENT}:{RS_SECRET}", MCP_INTROSPECTION_CACHE="1s")
        return [str(EXAMPLES / "http_auth"), f"127.0.0.1:{self.port}"], env

    def __enter__(self) -> "ResourceServer":
        command, env = self.command()
        self.log_path = SCRATCH / f"{Path(command[0]).name}-{next(serial)}.log"
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        if not wait_until(lambda: "serving MCP at" in self.text(), self.process):
            self.__exit__()
            raise RuntimeError(f"{command[0]} did not start: {self.text()[-600:]}")
        return self

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __exit__(self, *_: object) -> None:
        if not self.log.closed:
            stop_process(self.process, signal.SIGINT, 5)
            self.log.close()

    def post(self, token: str | None, request: tuple[list[tuple[str, str]], bytes], extra=()) -> Reply:
        headers, body = request
        return send(self.url, "POST", [*headers, *(bearer(token) if token else []), *extra], body)

    def whoami(self, token: str) -> str | None:
        return text_of(self.post(token, tool_call("whoami")))

    def session(self, token: str) -> str:
        """A 2025-11-25 session, initialized with `token`: its id."""
        init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "toolwright-interop", "version": "1"}}
        reply = self.post(token, legacy("initialize", init, None))
        session = reply.first("Mcp-Session-Id")
        if reply.status != 200 or not session:
            raise RuntimeError(f"initialize: {reply.status} {reply.body[:300]}")
        done = self.post(token, legacy("notifications/initialized", {}, session))
        if done.status != 202:
            raise RuntimeError(f"notifications/initialized: {done.status} {done.body[:300]}")
        return session


class FlagsServer(ResourceServer):
    """The quickstart example, which has no authorization of its own, made a resource server by
    `serve --http`'s flags alone; with `introspection`, the client's secret in the environment."""

    def command(self) -> tuple[list[str], dict[str, str]]:
        command = [str(EXAMPLES / "quickstart"), "serve", "--http", f"127.0.0.1:{self.port}", "--auth-issuer",
                   self.issuer, "--auth-resource", self.url, "--auth-scope", TOOLS]
        env = dict(os.environ)
        if self.introspection:
            command += ["--auth-tokens", "introspection", "--auth-client-id", RS_CLIENT]
            env["TOOLWRIGHT_AUTH_CLIENT_SECRET"] = RS_SECRET
        else:
            command += ["--auth-jwt-leeway", "1s"]
        return command, env


def flags_server(keys: dict[str, dict], fmt: str) -> None:
    """`serve --http --auth-*` against oidc-provider: its token is accepted, none and a forged one
    are refused with their challenges."""
    rs_port, as_port = free_port(), free_port()
    resource, other = f"http://localhost:{rs_port}/mcp", f"http://localhost:{rs_port}/other"
    how = "introspection, the secret from the environment" if fmt == "opaque" else "JWT"
    with fails_as(f"oauth serve --http --auth-* ({how}): the servers"), \
            AuthServer(as_port, resource, other, [keys["k1"]], fmt=fmt) as a, \
            FlagsServer(a.issuer, rs_port, introspection=fmt == "opaque") as rs:
        token = a.token(TOOLS)["access_token"]
        reply = rs.post(token, modern("tools/call", {"name": "add", "arguments": {"a": 2, "b": 40}}, "add"))
        said = text_of(reply)
        problems = [] if said == "42" else [f"a token from oidc-provider: {reply.status} {reply.body[:200]}"]
        problems += [f"no token: {p}" for p in refusal_problems(rs, rs.post(None, tool_call("add")), 401, None,
                                                                 TOOLS, ())]
        forged = resigned(token) if fmt == "jwt" else secrets.token_urlsafe(32)
        problems += [f"a forged token: {p}" for p in refusal_problems(
            rs, rs.post(forged, tool_call("add")), 401, "invalid_token", TOOLS, (forged,))]
        if token in rs.text():
            problems.append("the server's log holds the token")
        check(not problems, f"oauth serve --http --auth-* ({how}): the quickstart accepts an oidc-provider "
              "token and challenges none and a forged one", "; ".join(problems))


# ---------------------------------------------------------------------------------------------
# SDK clients doing OAuth on their own

# (client, protocol mode, the version it must negotiate, grant, login, scope asked up front).
# The TypeScript 1.x client_credentials provider asks only for its configured scope and cannot
# step up (it ignores the challenge's scope), so it is given mcp:admin from the start.
SDK_RUNS = [
    ("ts-sdk-1", "legacy", LEGACY, "authorization_code", "alice", None),
    ("ts-sdk-1", "legacy", LEGACY, "client_credentials", CLIENT, ADMIN),
    ("ts-sdk-2", "auto", MODERN, "authorization_code", "bob", None),
    ("ts-sdk-2", "auto", MODERN, "client_credentials", CLIENT, None),
    ("python-sdk", "auto", MODERN, "authorization_code", "carol", None),
    ("python-sdk", "auto", MODERN, "client_credentials", CLIENT, None),
]


def oauth_client(client: str, config: dict) -> dict:
    """One run of clients/oauth_ts.mjs or clients/oauth_py.py: the JSON it printed last."""
    config_file = SCRATCH / f"oauth-client-{next(serial)}.json"
    config_file.write_text(json.dumps(config))
    if client == "python-sdk":
        command, cwd = [str(PYTHON), str(HERE / "clients" / "oauth_py.py")], HERE
    else:
        # Node resolves the SDK from the script's own folder, so the script goes next to it.
        cwd = NPM / ("ts-sdk-v2" if client == "ts-sdk-2" else "ts-sdk")
        shutil.copy(HERE / "clients" / "oauth_ts.mjs", cwd / "oauth_ts.mjs")
        command = [str(NODE), "oauth_ts.mjs"]
    try:
        done = subprocess.run([*command, f"@{config_file}"], cwd=cwd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": {"message": "timed out after 120 s"}}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"ok": False, "error": {"message": f"exit {done.returncode}: {done.stderr[-600:]}"}}


def sdk_problems(out: dict, a: AuthServer, rs: ResourceServer, version: str, grant: str, login: str,
                 up_front: str | None) -> list[str]:
    """What is wrong with a client's OAuth run: it must have started with no token (401), read
    the PRM, got its token from the AS with its grant, seen its login in `whoami`, and called
    clear_audit_log: after a 403 and a new token with mcp:admin, unless it asked for it up front."""
    if not out.get("ok"):
        return [json.dumps(out.get("error"))[:400] + f" (trace: {json.dumps(out.get('trace', []))[-600:]})"]
    problems = []
    if out.get("protocolVersion") != version:
        problems.append(f"negotiated {out.get('protocolVersion')}, expected {version}")
    trace = out.get("trace", [])
    token_url = f"{a.issuer}/token"
    at = lambda i, url, status=None, method=None: [j for j, t in enumerate(trace) if j >= i and t["url"] == url and (
        status is None or t["status"] == status) and (method is None or t["method"] == method)]
    mcp = at(0, rs.url)
    if not mcp or trace[mcp[0]]["status"] != 401:
        problems.append(f"the first MCP request got {trace[mcp[0]]['status'] if mcp else 'nothing'}, expected 401")
    prm = at(mcp[0] if mcp else 0, rs.prm, 200, "GET")
    tokens = at(prm[0] if prm else 0, token_url, 200, "POST")
    if not prm:
        problems.append("no GET of the Protected Resource Metadata after the 401")
    if not tokens:
        problems.append("no token from the AS after reading the PRM")
    grants = {trace[j].get("grant") for j in tokens}
    if grants != {grant}:
        problems.append(f"token requests with grants {sorted(g or '?' for g in grants)}, expected {grant}")
    if out.get("whoami") != f"you are {login}":
        problems.append(f"whoami said {out.get('whoami')!r}, expected 'you are {login}'")
    expected_tools = ["clear_audit_log", "whoami"] if up_front else ["whoami"]
    if out.get("tools") != expected_tools:
        problems.append(f"tools listed {out.get('tools')}, expected {expected_tools}")
    # The example's clear_audit_log names who called it.
    if login not in (out.get("admin") or ""):
        problems.append(f"clear_audit_log said {out.get('admin')!r}, naming no {login}")
    scopes = [set((t.get("scope") or "").split()) for t in out.get("tokens", [])]
    calls = [j for j in at(0, rs.url) if trace[j].get("rpc") == "tools/call clear_audit_log"]
    refused = [j for j in calls if trace[j]["status"] == 403]
    if up_front:
        if refused:
            problems.append("clear_audit_log was refused with the scopes asked up front")
        if scopes != [set(ADMIN.split())]:
            problems.append(f"tokens saved with scopes {scopes}, expected one with {ADMIN}")
    else:
        later = at(refused[0], token_url, 200, "POST") if refused else []
        if not refused:
            problems.append("clear_audit_log was never refused with 403 (no step-up seen)")
        elif not later or not any(trace[j]["status"] == 200 for j in calls if j > later[0]):
            problems.append("after the 403, no new token and successful clear_audit_log")
        if not scopes or scopes[0] != {TOOLS} or not set(ADMIN.split()) <= scopes[-1]:
            problems.append(f"tokens saved with scopes {scopes}, expected mcp:tools, then mcp:tools mcp:admin")
    expected_prompts = ([] if grant == "client_credentials" else
                        ["login", "consent"] + ([] if up_front else ["consent"]))
    if out.get("prompts") != expected_prompts:
        problems.append(f"AS pages answered {out.get('prompts')}, expected {expected_prompts}")
    return problems


def sdk_clients(a: AuthServer, rs: ResourceServer) -> None:
    for client, mode, version, grant, login, up_front in SDK_RUNS:
        config = {"sdk": "v2" if client == "ts-sdk-2" else "v1", "mode": mode, "grant": grant, "url": rs.url,
                  "issuer": a.issuer, "clientId": CLIENT, "clientSecret": SECRET, "redirect": REDIRECT,
                  "login": login, "scope": up_front}
        out = oauth_client(client, config)
        problems = sdk_problems(out, a, rs, version, grant, login, up_front)
        how = f"{up_front} up front" if up_front else "step-up to mcp:admin on the 403"
        check(not problems, f"oauth {client} {version} {grant}: 401, PRM, token from oidc-provider, "
              f"whoami = {login}, clear_audit_log ({how})", "; ".join(problems))


# ---------------------------------------------------------------------------------------------
# Refusals


CHALLENGE_PARAM = re.compile(r'([A-Za-z_]+)="([^"\\]*)"')


def refusal_problems(rs: ResourceServer, reply: Reply, status: int, error: str | None, scope: str | None,
                     hidden: tuple[str, ...]) -> list[str]:
    """What is wrong with a refusal: its status, its one `Bearer` challenge (`error` and `scope`
    as given, None for absent; `resource_metadata` the PRM URL; an `error_description` exactly
    when there is an `error`), its JSON body, and any of `hidden` (the credentials sent) in it."""
    problems = [] if reply.status == status else [f"status {reply.status}, expected {status}"]
    found = reply.all("WWW-Authenticate")
    if len(found) != 1:
        return problems + [f"{len(found)} WWW-Authenticate headers: {found}"]
    www = found[0]
    if not www.startswith("Bearer "):
        problems.append(f"the challenge does not start with 'Bearer ': {www!r}")
    params = CHALLENGE_PARAM.findall(www.removeprefix("Bearer "))
    rest = CHALLENGE_PARAM.sub("", www.removeprefix("Bearer ")).replace(",", "").strip()
    if rest:
        problems.append(f"unparsable challenge text {rest!r}")
    names = [name for name, _ in params]
    if len(set(names)) != len(names):
        problems.append(f"a parameter repeats: {names}")
    got = dict(params)
    for name, want in (("error", error), ("scope", scope), ("resource_metadata", rs.prm)):
        if got.get(name) != want:
            problems.append(f"{name}={got.get(name)!r}, expected {want!r}")
    if ("error_description" in got) != (error is not None):
        problems.append(f"error_description {'missing' if error else 'present without an error'}")
    try:
        body = json.loads(reply.body)
    except json.JSONDecodeError:
        body = None
    if not isinstance(body, dict):
        problems.append(f"the body is no JSON object: {reply.body[:200]!r}")
    elif body.get("error") != error or (error is not None and "error_description" not in body):
        problems.append(f"body {reply.body[:200]}")
    for secret in hidden:
        if secret and (secret in www or secret in reply.body):
            problems.append("the refusal repeats the credentials sent")
    return problems


@dataclass
class Refusals:
    """The refusal checks against one resource server; `good` is a token (of `sub`) that must
    work right after each refusal. Each refusal is a row of `rows` (for the Markdown table)."""
    rs: ResourceServer
    good: str
    sub: str
    rows: list[tuple[str, int, str]]

    def refused(self, label: str, reply: Reply, status: int, error: str | None, scope: str | None = TOOLS,
                hidden: tuple[str, ...] = (), problems: tuple[str, ...] = ()) -> None:
        found = [*problems, *refusal_problems(self.rs, reply, status, error, scope, hidden)]
        said = self.rs.whoami(self.good)
        if said != f"you are {self.sub}":
            found.append(f"the next request, with a good token: {said!r}")
        www = " | ".join(reply.all("WWW-Authenticate")).replace(self.rs.origin, "http://localhost:PORT")
        self.rows.append((label, reply.status, www))
        check(not found, f"oauth refusal: {label} -> {status}{' ' + error if error else ''}", "; ".join(found))

    def token(self, label: str, token: str, status: int = 401, error: str | None = "invalid_token",
              scope: str | None = TOOLS, request=None) -> None:
        """A tools/call whoami (or `request`) with `Authorization: Bearer TOKEN`, refused."""
        reply = self.rs.post(token, request or tool_call("whoami"))
        self.refused(label, reply, status, error, scope, hidden=(token,))


def answers(said: str | None, expected: str, name: str) -> None:
    """The check `name`: whoami said `expected`."""
    check(said == expected, name, "" if said == expected else f"whoami said {said!r}, expected {expected!r}")


def claims(issuer: str, audience: str, **changed: object) -> dict:
    """The claims oidc-provider puts in an access token (`sub` mallory), with `changed` (a None
    value drops the claim)."""
    now = int(time.time())
    base = {"jti": secrets.token_urlsafe(16), "sub": "mallory", "iat": now, "exp": now + 300, "scope": TOOLS,
            "client_id": CLIENT, "iss": issuer, "aud": audience}
    base.update(changed)
    return {k: v for k, v in base.items() if v is not None}


def prm_and_origin(rs: ResourceServer, good: str) -> None:
    reply = send(rs.prm, "GET", [("MCP-Protocol-Version", LEGACY)])
    problems = [] if reply.status == 200 else [f"status {reply.status}"]
    if "application/json" not in (reply.first("Content-Type") or ""):
        problems.append(f"Content-Type {reply.first('Content-Type')!r}")
    doc = reply.json()
    want = {"resource": rs.url, "authorization_servers": [rs.issuer], "scopes_supported": [TOOLS],
            "bearer_methods_supported": ["header"]}
    problems += [f"{k}: {doc.get(k)!r}, expected {v!r}" for k, v in want.items() if doc.get(k) != v]
    check(not problems, "oauth: the Protected Resource Metadata (no token) names the resource, the issuer, "
          "mcp:tools and header bearers", "; ".join(problems) or "")
    for label, token in (("no token", None), ("a good token", good)):
        reply = rs.post(token, tool_call("whoami"), [("Origin", "http://evil.example")])
        ok = reply.status == 403 and not reply.all("WWW-Authenticate")
        check(ok, f"oauth: a foreign Origin is refused with 403 before auth ({label})",
              "" if ok else f"{reply.status} {reply.all('WWW-Authenticate')} {reply.body[:200]}")


def jwt_refusals(a: AuthServer, rs: ResourceServer, keys: dict[str, dict], rows: list) -> None:
    """The refusals of a JWT-validating server, and the tokens it must accept."""
    alice = a.authorize("alice", TOOLS)["access_token"]
    r = Refusals(rs, alice, "alice", rows)
    def k1(c: dict, **header: str) -> dict:
        return {"key": "k1", "alg": "RS256", "header": {"typ": "at+jwt", "kid": "k1", **header}, "claims": c}

    now = int(time.time())
    (good, two_audiences, admin_only, typ_jwt, no_exp, expired, early, slash_iss, other_iss, rogue, unknown, none,
     hs256) = forge(keys, [
        k1(claims(a.issuer, rs.url)),
        k1(claims(a.issuer, [rs.url, a.other])),
        k1(claims(a.issuer, rs.url, scope="mcp:admin")),
        k1(claims(a.issuer, rs.url), typ="JWT"),
        k1(claims(a.issuer, rs.url, exp=None)),
        k1(claims(a.issuer, rs.url, iat=now - 900, exp=now - 600)),
        k1(claims(a.issuer, rs.url, nbf=now + 600)),
        k1(claims(a.issuer + "/", rs.url)),
        k1(claims("http://localhost:1", rs.url)),
        {"key": "rogue", "alg": "RS256", "header": {"typ": "at+jwt", "kid": "k1"}, "claims": claims(a.issuer, rs.url)},
        {"key": "k9", "alg": "RS256", "header": {"typ": "at+jwt", "kid": "k9"}, "claims": claims(a.issuer, rs.url)},
        {"alg": "none", "header": {"typ": "at+jwt", "kid": "k1"}, "claims": claims(a.issuer, rs.url)},
        {"key": "k1", "alg": "HS256-public-pem", "header": {"typ": "at+jwt", "kid": "k1"},
         "claims": claims(a.issuer, rs.url)},
    ])
    # The tokens that must work: without them, the forged refusals below would prove nothing.
    answers(rs.whoami(alice), "you are alice",
            "oauth: a token from oidc-provider (authorization_code, alice) is accepted")
    answers(rs.whoami(good), "you are mallory",
            "oauth: a token the rig signs with the AS's key, claims as the AS makes them, is accepted")
    answers(rs.whoami(two_audiences), "you are mallory",
            "oauth: a token whose aud is an array holding the resource is accepted")
    admin = a.token(ADMIN)["access_token"]
    said = text_of(rs.post(admin, tool_call("clear_audit_log")))
    check(bool(said), "oauth: a token with mcp:tools mcp:admin calls clear_audit_log", "" if said else "it was refused")

    r.refused("no Authorization header", rs.post(None, tool_call("whoami")), 401, None)
    r.refused("a token with no scheme (`Authorization: TOKEN`)",
              rs.post(None, tool_call("whoami"), [("Authorization", alice)]), 401, None, hidden=(alice,))
    basic = base64.b64encode(f"{CLIENT}:{SECRET}".encode()).decode()
    r.refused("the Basic scheme", rs.post(None, tool_call("whoami"), [("Authorization", f"Basic {basic}")]),
              401, None, hidden=(basic,))
    r.refused("`Bearer` with no token", rs.post(None, tool_call("whoami"), [("Authorization", "Bearer")]),
              400, "invalid_request", None)
    r.refused("`Bearer ` and blanks", rs.post(None, tool_call("whoami"), [("Authorization", "Bearer    ")]),
              400, "invalid_request", None)
    half = len(alice) // 2
    r.refused("a token with a space inside",
              rs.post(None, tool_call("whoami"), [("Authorization", f"Bearer {alice[:half]} {alice[half:]}")]),
              400, "invalid_request", None, hidden=(alice[:half], alice[half:]))
    r.refused("two Authorization headers (both good)",
              rs.post(alice, tool_call("whoami"), bearer(alice)), 400, "invalid_request", None, hidden=(alice,))
    headers, body = tool_call("whoami")
    query = "?access_token=" + urllib.parse.quote(alice)
    r.refused("the token in the query string (`?access_token=`), no header: no credential",
              send(rs.url + query, "POST", headers, body), 401, None, hidden=(alice,))
    r.refused("the token in the query string and in the header",
              send(rs.url + query, "POST", [*headers, *bearer(alice)], body), 400, "invalid_request", None,
              hidden=(alice,))
    r.token("not a JWT (an opaque string)", secrets.token_urlsafe(32))
    r.token("an oidc-provider token with one bit of its signature flipped", resigned(alice))
    r.token("signed by a key the AS does not publish, with the AS key's kid", rogue)
    r.token("`alg: none`, no signature", none)
    r.token("HS256 keyed with the AS's public key PEM (algorithm confusion)", hs256)
    # An unknown kid: the server fetches the JWKS again (the floor is 1 s), finds no such key and
    # refuses; a second one at once finds the floor closed and fetches nothing.
    time.sleep(1.2)
    before = a.jwks_fetches()
    first = rs.post(unknown, tool_call("whoami"))
    after_first = a.jwks_fetches()
    second = rs.post(unknown, tool_call("whoami"))
    after_second = a.jwks_fetches()
    fetched = [] if after_first - before == 1 else [f"{after_first - before} JWKS fetches for the unknown kid, expected 1"]
    if after_second != after_first:
        fetched.append(f"{after_second - after_first} more JWKS fetches for the same kid within the 1 s floor")
    fetched += [f"the second request: {p}" for p in refusal_problems(rs, second, 401, "invalid_token", TOOLS, (unknown,))]
    r.refused("an unknown kid (the JWKS fetched once more, not twice)", first, 401, "invalid_token",
              hidden=(unknown,), problems=tuple(fetched))
    r.token("expired 10 minutes ago", expired)
    r.token("`nbf` 10 minutes ahead", early)
    r.token("the issuer with a trailing `/`", slash_iss)
    r.token("another issuer", other_iss)
    r.token("an oidc-provider token for another resource (wrong aud)", a.token(TOOLS, a.other)["access_token"])
    r.token("`typ: JWT` instead of `at+jwt`", typ_jwt)
    r.token("an oidc-provider ID token (aud = the client, no typ)", a.authorize("alice", f"openid {TOOLS}")["id_token"])
    r.token("no `exp`", no_exp)
    r.token("an oidc-provider token granted no scope", a.token(None)["access_token"], 403, "insufficient_scope")
    r.token("a token with `mcp:admin` only", admin_only, 403, "insufficient_scope")
    r.token("clear_audit_log with `mcp:tools` only (2026-07-28)", alice, 403, "insufficient_scope", ADMIN,
            tool_call("clear_audit_log"))
    session = rs.session(alice)
    call = legacy("tools/call", {"name": "clear_audit_log", "arguments": {}}, session)
    reply = rs.post(alice, call)
    still = text_of(rs.post(alice, legacy("tools/call", {"name": "whoami", "arguments": {}}, session)))
    r.refused("clear_audit_log with `mcp:tools` only (2025-11-25 session)", reply, 403, "insufficient_scope", ADMIN,
              hidden=(alice,), problems=() if still == "you are alice" else (f"whoami in the session then: {still!r}",))
    leaked = [label for label, token in (("alice's", alice), ("the admin", admin)) if token in rs.text()]
    check(not leaked, "oauth: the resource server's log holds none of the tokens it was sent",
          f"{' and '.join(leaked)} token is in it" if leaked else "")


def introspection_refusals(a: AuthServer, rs: ResourceServer, keys: dict[str, dict], rows: list) -> None:
    """The refusals of a server that introspects opaque tokens at oidc-provider."""
    # A JWT a JWT-validating server would take (the AS publishes k1), which is no token here.
    jwt, = forge(keys, [{"key": "k1", "alg": "RS256", "header": {"typ": "at+jwt", "kid": "k1"},
                         "claims": claims(a.issuer, rs.url)}])
    alice = a.authorize("alice", TOOLS)["access_token"]
    r = Refusals(rs, alice, "alice", rows)
    answers(rs.whoami(alice), "you are alice",
            "oauth introspection: an opaque token from oidc-provider (alice) is accepted")
    r.token("introspection: an opaque token the AS never issued", secrets.token_urlsafe(32))
    doomed = a.token(TOOLS)["access_token"]
    accepted = rs.post(doomed, tool_call("whoami"))
    revoked = a.revoke(doomed)
    time.sleep(1.5)  # past MCP_INTROSPECTION_CACHE (1 s)
    problems = [] if accepted.status == 200 else [f"before revocation: {accepted.status} {accepted.body[:200]}"]
    if revoked.status != 200:
        problems.append(f"revocation at the AS: {revoked.status} {revoked.body[:200]}")
    r.refused("introspection: a token revoked at the AS, once the cache lapsed", rs.post(doomed, tool_call("whoami")),
              401, "invalid_token", hidden=(doomed,), problems=tuple(problems))
    r.token("introspection: a JWT signed with the AS's key (the AS answers unsupported_token_type)", jwt)
    r.token("introspection: an opaque token for another resource", a.token(TOOLS, a.other)["access_token"])
    r.token("introspection: an opaque token granted no scope", a.token(None)["access_token"], 403, "insufficient_scope")
    r.token("introspection: clear_audit_log with `mcp:tools` only", alice, 403, "insufficient_scope", ADMIN,
            tool_call("clear_audit_log"))


def connections(a: AuthServer, rs: ResourceServer) -> None:
    """A refused request leaves its kept-alive connection usable for the next one, as a 200
    does, unless the refusal says `Connection: close`. Clients reuse connections: the Python
    SDK sends its metadata GET on the connection that got the 401. Each POST sends its headers,
    then (50 ms later, as a client writing in two steps may) its body, padded to 4 KiB."""
    good = a.token(TOOLS)["access_token"]
    cases = [("a 200", bearer(good), tool_call("whoami")), ("a 401 (no token)", [], tool_call("whoami")),
             ("a 401 (invalid_token)", bearer(resigned(good)), tool_call("whoami")),
             ("a 400 (two Authorization headers)", bearer(good) * 2, tool_call("whoami")),
             ("a 403 (insufficient_scope)", bearer(good), tool_call("clear_audit_log"))]
    problems = []
    for label, auth, (headers, body) in cases:
        message = json.loads(body)
        message["params"]["arguments"] = {"pad": "x" * 4096} if label == "a 200" else {}
        message["params"]["_meta"]["pad"] = "x" * 4096
        body = json.dumps(message).encode()
        connection = http.client.HTTPConnection("localhost", rs.port, timeout=30)
        closing = False
        try:
            connection.putrequest("POST", "/mcp", skip_accept_encoding=True)
            for name, value in [*headers, *auth, ("Content-Length", str(len(body)))]:
                connection.putheader(name, value)
            connection.endheaders()
            time.sleep(0.05)
            connection.send(body)
            first = connection.getresponse()
            first.read()
            closing = (first.getheader("Connection") or "").lower() == "close"
            time.sleep(0.2)  # long enough for a server that closes to have closed
            connection.request("GET", "/.well-known/oauth-protected-resource/mcp")
            second = connection.getresponse()
            second.read()
            if second.status != 200:
                problems.append(f"after {label}: the next request got {second.status}")
        except (OSError, http.client.HTTPException) as e:
            if not closing:
                problems.append(f"after {label} (no Connection: close) the connection failed: {type(e).__name__}")
        finally:
            connection.close()
    check(not problems, "oauth: a refused request (401, 400, 403) leaves its connection usable, as a 200 does, "
          "or says Connection: close", "; ".join(problems))


def write_table(rows: list[tuple[str, int, str]]) -> None:
    lines = ["# Refused requests: the `http_auth` example against oidc-provider", "",
             "Made by `tests/interop/oauth_checks.py` (the `oauth` interop stage): a tools/call unless said",
             "otherwise; PORT is the resource server's port.", "",
             "| request | status | WWW-Authenticate |", "|---|---|---|"]
    # Double backticks: the descriptions quote with single ones.
    lines += [f"| {label} | {status} | {f'`` {www} ``' if www else '–'} |" for label, status, www in rows]
    REFUSALS_MD.write_text("\n".join(lines) + "\n")
    print(f"  (the refusal table: {REFUSALS_MD})", flush=True)


# ---------------------------------------------------------------------------------------------
# Key rotation


# Long enough for the k1 token to outlive a restart of oidc-provider on a loaded machine (its
# first start, when the stage begins, is the slowest); the other checks run while it lapses.
ROTATION_TTL = 15
# How long the server still takes a token after its `exp`: the leeway its environment sets
# (`MCP_JWT_LEEWAY`; a minute by default).
SERVER_LEEWAY = 1


class Rotation:
    """The AS signs with k1; restarted with [k2, k1], it signs with k2. The MCP server, never
    restarted, takes the k2 token (fetching the JWKS again), still takes the k1 token, and
    refuses it once it expired (past the server's leeway). `start` does all but the last,
    `finish` waits for that and checks it, so the other checks run in between."""

    def __init__(self, keys: dict[str, dict]) -> None:
        self.keys = keys
        self.servers: list = []
        self.t1: str | None = None

    def start(self) -> None:
        rs_port, as_port = free_port(), free_port()
        resource, other = f"http://localhost:{rs_port}/mcp", f"http://localhost:{rs_port}/other"
        first = self.up(AuthServer(as_port, resource, other, [self.keys["k1"]], ttl=ROTATION_TTL))
        self.rs = rs = self.up(ResourceServer(first.issuer, rs_port))
        t1 = first.token()["access_token"]
        said, kid = rs.whoami(t1), jose(t1)[0].get("kid")
        fetched_at = time.monotonic()
        ok = said == "you are mcp-test" and kid == "k1"
        check(ok, "oauth rotation: the AS signs with k1; its token is accepted",
              "" if ok else f"whoami said {said!r}; kid {kid!r}")
        first.__exit__()
        second = self.up(AuthServer(as_port, resource, other, [self.keys["k2"], self.keys["k1"]], ttl=ROTATION_TTL))
        t2 = second.token()["access_token"]
        # The server fetches the JWKS again for an unknown kid at most once a second
        # (MCP_JWKS_REFETCH_FLOOR), counted from its first fetch.
        time.sleep(max(0.0, 1.2 - (time.monotonic() - fetched_at)))
        said, kid = rs.whoami(t2), jose(t2)[0].get("kid")
        fetched = second.jwks_fetches()
        ok = said == "you are mcp-test" and kid == "k2" and fetched == 1
        check(ok, "oauth rotation: restarted with [k2, k1], the AS signs with k2; the running MCP server fetches "
              "the JWKS again and accepts the token",
              "" if ok else f"whoami said {said!r}; kid {kid!r}; {fetched} JWKS fetches from the new AS")
        said = rs.whoami(t1)
        in_time = time.time() < jose(t1)[1]["exp"]
        ok = said == "you are mcp-test" and in_time
        check(ok, "oauth rotation: the k1 token is still accepted",
              "" if ok else f"whoami said {said!r}" + ("" if in_time else " (after it expired: too slow)"))
        self.t1 = t1

    def up(self, server):
        self.servers.append(server)
        return server.__enter__()

    def finish(self) -> None:
        if self.t1 is None:
            return
        exp = jose(self.t1)[1]["exp"]
        time.sleep(max(0.0, exp + SERVER_LEEWAY - time.time()) + 1.5)
        problems = refusal_problems(self.rs, self.rs.post(self.t1, tool_call("whoami")), 401, "invalid_token", TOOLS,
                                    (self.t1,))
        check(not problems, f"oauth rotation: the k1 token is refused (401 invalid_token) once expired "
              f"(+{SERVER_LEEWAY} s leeway)", "; ".join(problems))

    def stop(self) -> None:
        for server in reversed(self.servers):
            server.__exit__()


# ---------------------------------------------------------------------------------------------
# The stage


def run() -> None:
    if not (EXAMPLES / "http_auth").exists():
        check(False, "oauth: the http_auth example", f"{EXAMPLES / 'http_auth'} is missing; build the examples")
        return
    keys = new_keys("k1", "k2", "k9", "rogue")
    rows: list[tuple[str, int, str]] = []
    # The rotation's expired token is refused only after the server's leeway: its servers run
    # (on ports of their own) while the other checks do.
    rotation = Rotation(keys)
    try:
        with fails_as("oauth rotation: the servers"):
            rotation.start()
        rs_port, as_port = free_port(), free_port()
        resource, other = f"http://localhost:{rs_port}/mcp", f"http://localhost:{rs_port}/other"
        with fails_as("oauth: oidc-provider and http_auth (JWT)"), \
                AuthServer(as_port, resource, other, [keys["k1"]]) as a, ResourceServer(a.issuer, rs_port) as rs:
            prm_and_origin(rs, a.token(TOOLS)["access_token"])
            sdk_clients(a, rs)
            jwt_refusals(a, rs, keys, rows)
            connections(a, rs)
        rs_port, as_port = free_port(), free_port()
        resource, other = f"http://localhost:{rs_port}/mcp", f"http://localhost:{rs_port}/other"
        with fails_as("oauth: oidc-provider and http_auth (introspection)"), \
                AuthServer(as_port, resource, other, [keys["k1"]], fmt="opaque") as a, \
                ResourceServer(a.issuer, rs_port, introspection=True) as rs:
            introspection_refusals(a, rs, keys, rows)
        for fmt in ("jwt", "opaque"):
            flags_server(keys, fmt)
        write_table(rows)
        rotation.finish()
    finally:
        rotation.stop()
