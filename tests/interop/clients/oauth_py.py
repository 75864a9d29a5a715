"""Runs the OAuth flow of the official Python SDK client (`mcp`) against an MCP resource server,
and prints what happened as one JSON document.

usage: python oauth_py.py CONFIG_JSON   (or @FILE: the config in a file)
CONFIG: {"mode": "legacy" | "auto" | "2026-07-28", "grant": "authorization_code" | "client_credentials",
         "url", "issuer", "clientId", "clientSecret", "redirect", "login", "scope"}
The client starts with no token; the SDK's OAuth provider (an httpx2 auth flow) does the rest
inline. authorization_code: `OAuthClientProvider` with the pre-registered confidential client in
its storage; its redirect handler follows the authorization URL through oidc-provider's
devInteractions pages (signing in as `login`, consenting; one cookie jar for the whole run, so
a second authorization only asks for consent) and its callback handler hands back the code,
state and iss of the redirect. client_credentials: `ClientCredentialsOAuthProvider`, asking for
`scope` if given. Then: list the tools, call `whoami`, call `clear_audit_log` (the server answers
403 insufficient_scope until the token has mcp:admin: the SDK steps up).
OUTPUT: {"ok", "protocolVersion", "tools": [names], "whoami": text, "admin": text,
         "trace": [{"method", "url", "status", "rpc"?, "grant"?, "scope"?}] (every HTTP request
         the SDK made, auth included), "tokens": [{"scope"}] (each token it stored),
         "prompts": ["login" | "consent", ...] (the AS pages answered), "error"}
"""

import json
import re
import sys
import urllib.parse
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

out: dict[str, Any] = {"ok": True, "trace": [], "tokens": [], "prompts": []}


class Memory(TokenStorage):
    def __init__(self, client: OAuthClientInformationFull | None = None) -> None:
        self.tokens: OAuthToken | None = None
        self.client = client

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        out["tokens"].append({"scope": tokens.scope})
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def described(request: httpx2.Request) -> dict:
    """What a request was, for the trace: its JSON-RPC method (and tool), or its grant and scope."""
    try:
        body = request.content.decode()
    except (httpx2.RequestNotRead, UnicodeDecodeError):
        return {}
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        fields = dict(urllib.parse.parse_qsl(body))
        return {k: v for k, v in (("grant", fields.get("grant_type")), ("scope", fields.get("scope"))) if v}
    try:
        message = json.loads(body)
    except json.JSONDecodeError:
        return {}
    if not isinstance(message, dict):
        return {}
    return {"rpc": " ".join(p for p in (message.get("method"), (message.get("params") or {}).get("name")) if p)}


async def trace(response: httpx2.Response) -> None:
    request = response.request
    out["trace"].append({"method": request.method, "url": str(request.url.copy_with(query=None)),
                         "status": response.status_code, **described(request)})


async def main() -> None:
    cfg = json.loads(open(sys.argv[1][1:]).read() if sys.argv[1].startswith("@") else sys.argv[1])
    # oidc-provider's devInteractions, answered as a person would (cookies kept by httpx2).
    driver = httpx2.AsyncClient(follow_redirects=False, timeout=30)
    callback: dict[str, str] = {}

    async def redirect_handler(url: str) -> None:
        for _ in range(20):
            if url.startswith(cfg["redirect"]):
                callback.clear()
                callback.update(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
                return
            response = await driver.get(url)
            if response.status_code == 200:
                prompt = re.search(r'name="prompt" value="(\w+)"', response.text)
                action = re.search(r'<form[^>]*action="([^"]+)"', response.text)
                if not prompt or not action:
                    raise RuntimeError(f"an interaction page without a form: {response.text[:300]}")
                out["prompts"].append(prompt.group(1))
                fields = {"prompt": prompt.group(1)}
                if prompt.group(1) == "login":
                    fields.update(login=cfg["login"], password="any")
                url = urllib.parse.urljoin(url, action.group(1))
                response = await driver.post(url, data=fields)
            location = response.headers.get("location")
            if response.status_code not in (302, 303) or not location:
                raise RuntimeError(f"{url}: {response.status_code} {response.text[:300]}")
            url = urllib.parse.urljoin(url, location)
        raise RuntimeError("no redirect to the client after 20 steps")

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=callback["code"], state=callback.get("state"), iss=callback.get("iss"))

    if cfg["grant"] == "client_credentials":
        provider: httpx2.Auth = ClientCredentialsOAuthProvider(
            server_url=cfg["url"], storage=Memory(), client_id=cfg["clientId"], client_secret=cfg["clientSecret"],
            scope=cfg.get("scope"), issuer=cfg["issuer"])
    else:
        metadata = dict(redirect_uris=[cfg["redirect"]], grant_types=["authorization_code"], response_types=["code"],
                        token_endpoint_auth_method="client_secret_basic", client_name="toolwright-interop")
        registered = OAuthClientInformationFull(client_id=cfg["clientId"], client_secret=cfg["clientSecret"], **metadata)
        provider = OAuthClientProvider(server_url=cfg["url"], client_metadata=OAuthClientMetadata(**metadata),
                                       storage=Memory(registered), redirect_handler=redirect_handler,
                                       callback_handler=callback_handler)
    try:
        async with driver, httpx2.AsyncClient(auth=provider, timeout=httpx2.Timeout(30, read=60),
                                              event_hooks={"response": [trace]}) as http:
            transport = streamable_http_client(cfg["url"], http_client=http)
            async with Client(transport, mode=cfg.get("mode", "auto"), read_timeout_seconds=15) as client:
                out["protocolVersion"] = client.protocol_version
                out["tools"] = sorted(tool.name for tool in (await client.list_tools()).tools)
                for key, name in (("whoami", "whoami"), ("admin", "clear_audit_log")):
                    result = await client.call_tool(name, {})
                    if result.is_error:
                        raise RuntimeError(f"{name}: tool error {result.model_dump_json()[:300]}")
                    out[key] = result.content[0].text
    except BaseException as e:  # noqa: BLE001 - reported to the runner
        if isinstance(e, KeyboardInterrupt):
            raise
        while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
            e = e.exceptions[0]  # what failed inside the SDK's task groups
        out["ok"] = False
        out["error"] = {"name": type(e).__name__, "message": str(e)}
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    anyio.run(main)
