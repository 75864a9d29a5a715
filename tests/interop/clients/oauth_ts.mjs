// Runs the OAuth flow of the official TypeScript SDK client, 1.x (`@modelcontextprotocol/sdk`)
// or 2.x (`@modelcontextprotocol/client`), against an MCP resource server, and prints what
// happened as one JSON document.
//
// usage: node oauth_ts.mjs CONFIG_JSON   (or @FILE: the config in a file)
// CONFIG: {"sdk": "v1" | "v2", "mode": "legacy" | "auto" | "2026-07-28" (2.x only),
//          "grant": "authorization_code" | "client_credentials", "url", "issuer",
//          "clientId", "clientSecret", "redirect", "login", "scope"}
// The client starts with no token. authorization_code: the provider is the pre-registered
// confidential client; its redirectToAuthorization follows the authorization URL through
// oidc-provider's devInteractions pages (signing in as `login`, consenting; one cookie jar for
// the whole run, so a second authorization only asks for consent), stopping at the redirect
// URI; the SDK call that needed it then fails with UnauthorizedError, the transport's finishAuth
// redeems the code, and the call is made again (connect: with a new transport, as the SDK asks).
// client_credentials: the SDK's ClientCredentialsProvider, asking for `scope` if given.
// Then: list the tools, call `whoami`, call `clear_audit_log` (the server answers 403
// insufficient_scope until the token has mcp:admin: the SDK steps up).
// OUTPUT: {"ok", "protocolVersion", "tools": [names], "whoami": text, "admin": text,
//          "trace": [{"method", "url", "status", "rpc"?, "grant"?, "scope"?}] (every HTTP
//          request the SDK made, auth included), "tokens": [{"scope"}] (each token it saved),
//          "prompts": ["login" | "consent", ...] (the AS pages answered), "error"}
const { readFileSync } = await import('node:fs');
const arg = process.argv[2];
const cfg = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);
const v2 = cfg.sdk === 'v2';
const sdk = v2 ? await import('@modelcontextprotocol/client') : {
  ...(await import('@modelcontextprotocol/sdk/client/index.js')),
  ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
  ...(await import('@modelcontextprotocol/sdk/client/auth.js')),
  ...(await import('@modelcontextprotocol/sdk/client/auth-extensions.js')),
};
const { Client, StreamableHTTPClientTransport, UnauthorizedError, ClientCredentialsProvider } = sdk;

const out = { ok: true, trace: [], tokens: [], prompts: [] };
const error = (e) => ({ name: e?.constructor?.name, code: e?.code, message: String(e?.message ?? e) });

// What a request was, for the trace: its JSON-RPC method (and tool), or its grant and scope.
const described = (body) => {
  if (typeof body === 'string') {
    try {
      const message = JSON.parse(body);
      return { rpc: [message.method, message.params?.name].filter(Boolean).join(' ') };
    } catch {
      body = new URLSearchParams(body);
    }
  }
  if (body instanceof URLSearchParams) {
    return { grant: body.get('grant_type') ?? undefined, scope: body.get('scope') ?? undefined };
  }
  return {};
};
const tracing = async (url, init) => {
  const response = await fetch(url, init);
  const where = new URL(String(url instanceof Request ? url.url : url));
  out.trace.push({
    method: init?.method ?? 'GET',
    url: where.origin + where.pathname,
    status: response.status,
    ...described(init?.body),
  });
  return response;
};

// oidc-provider's devInteractions, answered as a person would: GET, POST the page's form
// (`login` and any password on the login page), follow each Location until the redirect URI.
const jar = new Map();
const drive = async (start) => {
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = String(start);
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(cfg.redirect)) return url;
    let response = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    if (response.status === 200) {
      const page = await response.text();
      const prompt = page.match(/name="prompt" value="(\w+)"/)?.[1];
      const action = page.match(/<form[^>]*action="([^"]+)"/)?.[1];
      if (!prompt || !action) throw new Error(`an interaction page without a form: ${page.slice(0, 300)}`);
      out.prompts.push(prompt);
      const fields = { prompt, ...(prompt === 'login' ? { login: cfg.login, password: 'any' } : {}) };
      url = new URL(action, url).href;
      response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    }
    for (const set of response.headers.getSetCookie()) {
      const pair = set.split(';')[0];
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = response.headers.get('location');
    if (![302, 303].includes(response.status) || !location) {
      throw new Error(`${url}: ${response.status} ${(await response.text()).slice(0, 300)}`);
    }
    url = new URL(location, url).href;
  }
  throw new Error('no redirect to the client after 20 steps');
};

// The pre-registered confidential client, for authorization_code.
class PreRegistered {
  constructor() {
    this.callback = null;
  }
  get redirectUrl() { return cfg.redirect; }
  get clientMetadata() {
    return {
      client_name: 'toolwright-interop',
      redirect_uris: [cfg.redirect],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }
  clientInformation() { return { client_id: cfg.clientId, client_secret: cfg.clientSecret }; }
  tokens() { return this._tokens; }
  saveTokens(tokens) { this._tokens = tokens; }
  async redirectToAuthorization(url) { this.callback = await drive(url); }
  saveCodeVerifier(verifier) { this._verifier = verifier; }
  codeVerifier() { return this._verifier; }
  saveDiscoveryState(state) { this._discovery = state; }
  discoveryState() { return this._discovery; }
}

const provider = cfg.grant === 'client_credentials'
  ? new ClientCredentialsProvider({
    clientId: cfg.clientId,
    clientSecret: cfg.clientSecret,
    expectedIssuer: cfg.issuer,
    ...(cfg.scope ? { scope: cfg.scope } : {}),
  })
  : new PreRegistered();
const save = provider.saveTokens.bind(provider);
provider.saveTokens = (tokens, ...rest) => {
  out.tokens.push({ scope: tokens.scope });
  return save(tokens, ...rest);
};

let client;
let transport;
const connect = async () => {
  const options = {};
  if (v2) {
    const mode = cfg.mode ?? 'legacy';
    options.versionNegotiation = { mode: mode === 'legacy' || mode === 'auto' ? mode : { pin: mode } };
  }
  client = new Client({ name: 'toolwright-interop', version: '1.0.0' }, options);
  transport = new StreamableHTTPClientTransport(new URL(cfg.url), { authProvider: provider, fetch: tracing });
  await client.connect(transport, { timeout: 15000 });
};
// Runs `step`; when it fails for want of an authorization the driver has just given, redeems
// the code and runs it again (at most twice).
const authorized = async (step, before = async () => {}) => {
  for (let round = 0; ; round++) {
    try {
      return await step();
    } catch (e) {
      if (!(e instanceof UnauthorizedError) || !provider.callback || round >= 2) throw e;
      const callback = new URL(provider.callback);
      provider.callback = null;
      await (v2 ? transport.finishAuth(callback.searchParams) : transport.finishAuth(callback.searchParams.get('code')));
      await before();
    }
  }
};
const text = (result) => {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.content?.[0]?.text;
};
const call = async (name) => {
  const params = { name, arguments: {} };
  return text(await (v2 ? client.callTool(params, { timeout: 15000 }) : client.callTool(params, undefined, { timeout: 15000 })));
};
try {
  // A failed connect leaves its transport started: the next try takes a new one.
  await authorized(connect, async () => { try { await client.close(); } catch {} });
  out.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion;
  const listed = await authorized(() => client.listTools(undefined, { timeout: 15000 }));
  out.tools = listed.tools.map((t) => t.name).sort();
  out.whoami = await authorized(() => call('whoami'));
  out.admin = await authorized(() => call('clear_audit_log'));
} catch (e) {
  out.ok = false;
  out.error = error(e);
} finally {
  try { await client?.close(); } catch {}
}
console.log(JSON.stringify(out));
