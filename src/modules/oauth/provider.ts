// The OAuth 2.0 authorization server: panva's oidc-provider (OpenID certified, built on Koa),
// configured for this API. Access tokens are short-lived JWTs (RFC 9068) for one resource,
// this API, carrying only scopes that were asked for, granted and allowed to the client;
// refresh tokens, codes and grants are stored through ./adapter.ts. Clients are confidential
// (a secret) or public (`none`: a browser app such as the dashboard, which names only its id);
// PKCE with S256 is required of both.
import { createHash, timingSafeEqual } from 'node:crypto';
import Provider, { errors, type Adapter } from 'oidc-provider';
import type { Logger } from 'pino';
import { SCOPES } from '../../shared/principal.ts';
import { holdToStandards, type IntrospectAccessToken } from './conformance.ts';

export const SIGNING_ALG = 'ES256';
export const INTERACTION_PATH = '/interaction';
/** The access-token claim naming the grant a token was issued under, so withdrawing it ends the token. */
export const GRANT_ID_CLAIM = 'grant_id';
/** Refresh tokens (and the grants behind them) last this long, in seconds. */
const REFRESH_TOKEN_TTL_S = 14 * 86_400;

export interface ProviderOptions {
  issuer: string;
  /** The resource indicator (RFC 8707) of this API, and the `aud` of its access tokens. */
  resource: string;
  accessTokenTtlSeconds: number;
  /** Private JWK (P-256) that signs access tokens. */
  /** Private JWKs; the first signs, all verify (rotation). */
  signingKeys: Record<string, unknown>[];
  /** The first signs cookies, all verify. */
  cookieKeys: string[];
  Adapter: new (model: string) => Adapter;
  trustProxy: boolean;
  logger: Logger;
  /** Introspection of our access tokens, JWTs the library does not store (conformance.ts). */
  introspect: IntrospectAccessToken;
}

/** The scopes a token request asks for, space-separated (RFC 6749 §3.3). */
const askedScopes = (scope: unknown) => (typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);

/**
 * Client credentials grant the asked scopes that the client is allowed, and say which in `scope` when they differ
 * (RFC 6749 §5.1); a request of which nothing is allowed, or that asks nothing, gets invalid_scope rather than a token
 * that can do nothing.
 */
function assertClientCredentialsScope(
  oidc: { route: string; params: Record<string, unknown> },
  allowed: readonly string[],
): void {
  if (oidc.route !== 'token' || oidc.params.grant_type !== 'client_credentials') return;
  const asked = askedScopes(oidc.params.scope);
  if (!asked.some((scope) => allowed.includes(scope)))
    throw new errors.InvalidScope(
      asked.length === 0
        ? `ask for one or more of the client's scopes: ${allowed.join(' ')}`
        : `none of the scopes asked is allowed to the client; it may ask for: ${allowed.join(' ')}`,
      asked.join(' '),
    );
}

/**
 * Which browser origins may call the token, revocation and introspection endpoints with a
 * client (the library refuses any request with an Origin header unless this says yes): pages
 * of this server's own origin (the dashboard; browsers send Origin on same-origin POSTs too),
 * and a public client's own pages, the origins of its redirect URIs. A confidential client's
 * secret has no business in a browser, so other origins stay refused for it.
 */
export function allowBrowserOrigin(
  ownOrigin: string,
  origin: string,
  client: { clientAuthMethod?: unknown; redirectUris?: unknown },
): boolean {
  if (origin === ownOrigin) return true;
  if (client.clientAuthMethod !== 'none' || !Array.isArray(client.redirectUris)) return false;
  return client.redirectUris.some((uri) => URL.canParse(String(uri)) && new URL(String(uri)).origin === origin);
}

/** Clients keep a SHA-256 of their secret (see createOAuthService); compare hashes, in constant time. */
function compareHashedSecret(this: { clientSecret?: string }, presented: string): boolean {
  const expected = Buffer.from(this.clientSecret ?? '', 'hex');
  const actual = createHash('sha256').update(presented, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function createProvider(options: ProviderOptions): Provider {
  const { resource, accessTokenTtlSeconds: ttl } = options;
  const ownOrigin = new URL(options.issuer).origin;
  const cookie = { signed: true, httpOnly: true, sameSite: 'lax' };
  const provider = new Provider(options.issuer, {
    adapter: options.Adapter,
    jwks: { keys: options.signingKeys },
    cookies: { keys: options.cookieKeys, long: cookie, short: cookie },
    // Accounts have no users or passwords; the consent page identifies the account by one of its keys.
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: SIGNING_ALG,
      token_endpoint_auth_method: 'client_secret_basic',
    },
    // Only what a client can register for (the authorization code grant); no implicit or hybrid flows.
    responseTypes: ['code'],
    // No client_secret_jwt: the stored "secret" is a hash and must never serve as an HMAC key.
    // `none` is for public clients only: a client registered with a secret must present it.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientBasedCORS: (_ctx: unknown, origin: string, client: { clientAuthMethod?: unknown; redirectUris?: unknown }) =>
      allowBrowserOrigin(ownOrigin, origin, client),
    // The scopes a client may ever get; our scopes are resource scopes, not OpenID ones.
    extraClientMetadata: { properties: ['allowed_scopes'] },
    scopes: ['offline_access'],
    // Every client, confidential or public (RFC 9700 §2.1.1); `plain` is refused.
    pkce: { methods: ['S256'], required: () => true },
    // Plain OAuth, not OpenID's offline_access dance: a client registered with the refresh_token
    // grant gets a refresh token with every code, valid 14 days whatever happens to the
    // consent page's short session (there is no login to log out of).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) =>
      token.grantId ? { [GRANT_ID_CLAIM]: token.grantId } : undefined,
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `${new URL(options.issuer).pathname.replace(/\/$/, '')}${INTERACTION_PATH}/${interaction.uid}`,
    },
    ttl: {
      AccessToken: ttl,
      ClientCredentials: ttl,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: REFRESH_TOKEN_TTL_S,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      IdToken: ttl,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // RFC 7662 and RFC 7009. The library knows its opaque tokens (refresh tokens); our JWT access
      // tokens are introspected by conformance.ts. A client sees only its own tokens.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        // The code and refresh token exchanges need not repeat `resource`: there is one API.
        useGrantedResource: () => true,
        getResourceServerInfo: (
          ctx: { oidc: { route: string; params: Record<string, unknown> } },
          indicator: string,
          client: { allowed_scopes?: string },
        ) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource is ${resource}`);
          const allowed = (client.allowed_scopes ?? '')
            .split(' ')
            .filter((s) => (SCOPES as readonly string[]).includes(s));
          assertClientCredentialsScope(ctx.oidc, allowed);
          return {
            scope: allowed.join(' '),
            audience: resource,
            accessTokenTTL: ttl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
  });
  provider.proxy = options.trustProxy;
  provider.Client.prototype.compareClientSecret = compareHashedSecret;
  holdToStandards(provider, options.introspect);
  provider.on('server_error', (_ctx: unknown, err: Error) => options.logger.error({ err }, 'OAuth server error'));
  return provider;
}
