// The authorization server of the `oauth` stage: oidc-provider 9.x (the npm set
// `npm/oidc-provider`), configured as in the authorization digest's §4.1 and driven by the
// environment:
//   AS_ISSUER          the issuer, e.g. http://localhost:4100 (no path, no trailing slash); it
//                      listens on the issuer's port
//   MCP_RESOURCE       the resource server's canonical URI: tokens for it carry it as `aud`
//   AS_OTHER_RESOURCE  a second resource indicator, whose tokens carry that audience instead
//   AS_JWKS_FILE       a JSON file {"keys": [private JWKs]}: the first key signs, all are
//                      published at jwks_uri (the rig holds the private keys and rotates them by
//                      restarting this server with another file)
//   AS_TOKEN_FORMAT    `jwt` (the default) or `opaque` (for RFC 7662 introspection)
//   AS_TOKEN_TTL       access token lifetime in seconds (default 300)
// Clients: `mcp-test` (confidential, client_secret_basic; client_credentials and
// authorization_code), `mcp-public` (public, PKCE) and `mcp-rs` (confidential, no grant: the
// resource server's credentials for introspection). Every login and password is accepted
// (devInteractions); the login name becomes the token's `sub`.
// It prints `oidc-provider ready at ISSUER` once listening, and one line per request:
// `request METHOD PATH STATUS` (so the rig can count the JWKS fetches).
//
// usage: node as.mjs   (a copy in the npm set's folder, as the rig runs it, so that
//        `oidc-provider` resolves)
import { readFileSync } from 'node:fs';
import Provider, { errors } from 'oidc-provider';

const need = (name) => {
  const value = process.env[name];
  if (!value) {
    console.error(`as.mjs: ${name} is required`);
    process.exit(2);
  }
  return value;
};
const ISSUER = need('AS_ISSUER');
const RESOURCE = need('MCP_RESOURCE');
const OTHER = need('AS_OTHER_RESOURCE');
const jwks = JSON.parse(readFileSync(need('AS_JWKS_FILE'), 'utf8'));
const FORMAT = process.env.AS_TOKEN_FORMAT ?? 'jwt';
const TTL = Number(process.env.AS_TOKEN_TTL ?? 300);
if (FORMAT !== 'jwt' && FORMAT !== 'opaque') {
  console.error(`as.mjs: AS_TOKEN_FORMAT must be jwt or opaque, not ${FORMAT}`);
  process.exit(2);
}
const SCOPES = 'mcp:tools mcp:admin';
const REDIRECT = 'http://localhost:4300/callback';

const provider = new Provider(ISSUER, {
  clients: [
    {
      client_id: 'mcp-test',
      client_secret: 'mcp-test-secret',
      grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: 'mcp-public',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [REDIRECT],
    },
    {
      client_id: 'mcp-rs',
      client_secret: 'mcp-rs-secret',
      grant_types: [],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks,
  scopes: ['openid', 'offline_access'],
  pkce: { required: () => true },
  findAccount: async (ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  ttl: {
    AccessToken: () => TTL,
    ClientCredentials: () => TTL,
  },
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => RESOURCE,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (ctx, indicator) => {
        // Exact string matches: a trailing `/` is another resource.
        if (indicator !== RESOURCE && indicator !== OTHER) throw new errors.InvalidTarget();
        return {
          scope: SCOPES,
          audience: indicator,
          accessTokenFormat: FORMAT,
          accessTokenTTL: TTL,
          ...(FORMAT === 'jwt' ? { jwt: { sign: { alg: 'RS256' } } } : {}),
        };
      },
    },
  },
});
provider.use(async (ctx, next) => {
  await next();
  console.log(`request ${ctx.method} ${ctx.path} ${ctx.status}`);
});
const server = provider.listen(Number(new URL(ISSUER).port), () => {
  console.log(`oidc-provider ready at ${ISSUER}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
