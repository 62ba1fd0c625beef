// A standard OAuth client, openid-client, against the running service as a default install
// configures it (no PUBLIC_BASE_URL: the address it listens on): discovery (OpenID's and RFC
// 8414's), the authorization code grant with PKCE (the consent given over HTTP, as a browser
// does), the API called with the token, refresh, introspection, revocation, and client
// credentials. openid-client checks what a hand-written client would not: the issuer the
// metadata names, the `iss` of the authorization response, the token responses' shapes.
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { consent, cookieJar } from '../support/oauth.ts';

let app: TestApp;
let developer: string;
let issuer: URL;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
/** Plain http is for loopback only; openid-client needs to be told. */
const insecure = { execute: [oidc.allowInsecureRequests] };

beforeAll(async () => {
  app = await getTestApp({}, { defaultBaseUrl: true });
  developer = await app.newAccountKey('standard-client-developer');
  issuer = new URL(`${app.url}/oauth`);
});
afterAll(() => app.close());

async function register(body: Record<string, unknown>): Promise<{ client_id: string; client_secret: string }> {
  const res = await app.request('POST', '/v1/oauth-clients', { key: developer, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The client's configuration from discovery, presenting its secret with `auth`. */
const discover = (client: { client_id: string; client_secret: string }, auth: typeof oidc.ClientSecretBasic) =>
  oidc.discovery(issuer, client.client_id, client.client_secret, auth(client.client_secret), insecure);

/** The consent a browser gives: the authorization URL, the consent form posted, back at the redirect URI. */
async function consentInBrowser(authorizationUrl: URL, userKey: string, scopes: string[]): Promise<URL> {
  const jar = cookieJar();
  const start = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(start.status).toBe(303);
  jar.take(start.headers);
  const consentUrl = new URL(start.headers.get('location')!, app.url);
  const { final } = await consent(app.url, jar, consentUrl, [
    ['api_key', userKey],
    ...scopes.map((scope): [string, string] => ['scope', scope]),
    ['decision', 'approve'],
  ]);
  return final!;
}

describe('openid-client against the service on its default address', () => {
  it('the default configuration names the address the service listens on', () => {
    expect(app.config.publicBaseUrl).toBe(app.url);
    expect(app.config.oauthIssuer).toBe(issuer.href);
  });

  it('discovers with either algorithm: OpenID discovery and RFC 8414 metadata', async () => {
    const client = await register({ name: 'discover', scopes: ['codes:read'], grant_types: ['client_credentials'] });
    for (const algorithm of ['oidc', 'oauth2'] as const) {
      const config = await oidc.discovery(issuer, client.client_id, client.client_secret, undefined, {
        ...insecure,
        algorithm,
      });
      const metadata = config.serverMetadata();
      expect(metadata.issuer).toBe(issuer.href);
      expect(metadata.token_endpoint).toBe(`${issuer.href}/token`);
      expect(metadata.scopes_supported).toContain('analytics:read');
    }
  });

  it('authorization code with PKCE, the API, refresh, introspection and revocation', async () => {
    const client = await register({
      name: 'Standard App',
      scopes: ['codes:read', 'codes:write'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [REDIRECT_URI],
    });
    const userKey = await app.newAccountKey('standard-client-user');
    const config = await discover(client, oidc.ClientSecretBasic);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'codes:read codes:write',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await consentInBrowser(authorizationUrl, userKey, ['codes:read']);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('codes:read');
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const listed = await oidc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${app.url}/v1/codes`),
      'GET',
    );
    expect(listed.status).toBe(200);

    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspected).toMatchObject({ active: true, scope: 'codes:read', client_id: client.client_id });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.scope).toBe('codes:read');
    const refreshToken = refreshed.refresh_token ?? tokens.refresh_token!;
    expect((await oidc.tokenIntrospection(config, refreshToken)).active).toBe(true);

    await oidc.tokenRevocation(config, refreshToken);
    expect((await oidc.tokenIntrospection(config, refreshToken)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('client credentials with client_secret_post as registered; a scope it lacks is invalid_scope', async () => {
    const client = await register({
      name: 'job',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const config = await discover(client, oidc.ClientSecretPost);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'codes:read' });
    expect(tokens.scope).toBe('codes:read');
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toMatchObject({
      active: true,
      sub: client.client_id,
    });
    await expect(oidc.clientCredentialsGrant(config, { scope: 'analytics:read' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
    // Basic was not what it registered: a 401 whose challenge (WWW-Authenticate) says invalid_client.
    const basic = await discover(client, oidc.ClientSecretBasic);
    await expect(oidc.clientCredentialsGrant(basic, { scope: 'codes:read' })).rejects.toMatchObject({
      response: { status: 401 },
      cause: [{ parameters: { error: 'invalid_client' } }],
    });
  });
});
