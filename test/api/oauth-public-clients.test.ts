// Public OAuth clients (token_endpoint_auth_method "none", RFC 7591): apps in a browser, such as
// the dashboard, which cannot keep a secret. Registered without one, they may use only the
// authorization code grant (and refresh tokens), always with PKCE S256, naming only their
// client_id at the token endpoint. The whole flow runs over HTTP against the real server.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { loadContract } from '../support/contract.ts';
import { basic, consent, cookieJar, pkce, postForm } from '../support/oauth.ts';

let app: TestApp;
/** The developer's account, which registers the clients. */
let developer: string;
/** Another account, whose owner approves the consent page with one of its keys. */
let userKey: string;

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const SPA_ORIGIN = 'https://spa.example';

beforeAll(async () => {
  app = await getTestApp();
  developer = await app.newAccountKey('public-client-developer');
  userKey = await app.newAccountKey('public-client-user');
});
afterAll(() => app.close());

interface Registered {
  id: string;
  client_id: string;
  client_secret?: string;
  [field: string]: unknown;
}

async function register(body: Record<string, unknown>, key = developer): Promise<Registered> {
  const res = await app.request('POST', '/v1/oauth-clients', { key, body });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return res.body;
}

const publicClient = (fields: Record<string, unknown> = {}) =>
  register({
    name: 'Browser app',
    scopes: ['codes:read', 'codes:write', 'analytics:read'],
    grant_types: ['authorization_code', 'refresh_token'],
    redirect_uris: [REDIRECT_URI, `${SPA_ORIGIN}/callback`],
    token_endpoint_auth_method: 'none',
    ...fields,
  });

/** A form POST to the OAuth server, as a browser app sends it: no Authorization header unless given. */
const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(app.url + path, fields, headers);

/**
 * Authorization request, consent by the user's account, and the redirect back: the code. Without
 * `challenge`, no PKCE is sent, and the answer is where the server sent the browser instead.
 */
async function authorize(clientId: string, scope: string, challenge: string | null, approve: [string, string][] = []) {
  const jar = cookieJar();
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope,
    state: 'st-public',
  });
  if (challenge !== null) {
    query.set('code_challenge', challenge);
    query.set('code_challenge_method', 'S256');
  }
  const start = await fetch(`${app.url}/oauth/auth?${query}`, { redirect: 'manual' });
  expect(start.status).toBe(303);
  const location = new URL(start.headers.get('location')!, app.url);
  if (location.href.startsWith(REDIRECT_URI)) return location;
  jar.take(start.headers);
  const fields: [string, string][] =
    approve.length > 0
      ? approve
      : [['api_key', userKey], ...scope.split(' ').map((s): [string, string] => ['scope', s]), ['decision', 'approve']];
  const { posted, final } = await consent(app.url, jar, location, fields);
  expect(posted.status, await posted.clone().text()).toBe(303);
  return final!;
}

describe('registering a public client', () => {
  it('answers no secret, and shows it as public, as the OpenAPI document says', async () => {
    const contract = await loadContract(app);
    const res = await app.request('POST', '/v1/oauth-clients', {
      key: developer,
      body: {
        name: 'Dashboard',
        scopes: ['codes:read'],
        grant_types: ['authorization_code'],
        redirect_uris: ['https://qr.example/dashboard/oauth/callback'],
        token_endpoint_auth_method: 'none',
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'oauth_client',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      secret_prefix: null,
      issuer: `${app.url}/oauth`,
    });
    expect(res.body).not.toHaveProperty('client_secret');
    expect(res.text).not.toContain('qrcs_');
    contract.check('POST', '/v1/oauth-clients', res);
    const one = await app.request('GET', `/v1/oauth-clients/${res.body.id}`, { key: developer });
    expect(one.body).toMatchObject({ id: res.body.id, token_endpoint_auth_method: 'none', secret_prefix: null });
    contract.check('GET', `/v1/oauth-clients/${res.body.id}`, one);
    contract.check('GET', '/v1/oauth-clients', await app.request('GET', '/v1/oauth-clients', { key: developer }));
    const discovery = await app.request('GET', '/oauth/.well-known/openid-configuration');
    expect(discovery.body.token_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
      'none',
    ]);
  });

  it(
    'refuses client_credentials, a code client without redirect URIs, and redirect URIs that are not https or ' +
      'loopback',
    async () => {
      const body = { name: 'x', scopes: ['codes:read'], token_endpoint_auth_method: 'none' };
      const credentials = await app.request('POST', '/v1/oauth-clients', {
        key: developer,
        body: { ...body, grant_types: ['client_credentials'] },
      });
      expect(credentials.status).toBe(422);
      expect(credentials.body.errors).toEqual([
        { path: 'grant_types', message: expect.stringContaining('client_credentials needs a client secret') },
      ]);
      const mixed = await app.request('POST', '/v1/oauth-clients', {
        key: developer,
        body: { ...body, grant_types: ['authorization_code', 'client_credentials'], redirect_uris: [REDIRECT_URI] },
      });
      expect(mixed.status).toBe(422);
      const noRedirect = await app.request('POST', '/v1/oauth-clients', {
        key: developer,
        body: { ...body, grant_types: ['authorization_code'] },
      });
      expect(noRedirect.body.errors.map((e: { path: string }) => e.path)).toEqual(['redirect_uris']);
      const plainHttp = await app.request('POST', '/v1/oauth-clients', {
        key: developer,
        body: {
          ...body,
          grant_types: ['authorization_code'],
          redirect_uris: ['http://spa.example/cb', 'http://localhost:5173/cb', 'http://[::1]/cb'],
        },
      });
      expect(plainHttp.body.errors.map((e: { path: string }) => e.path)).toEqual(['redirect_uris.0']);
      const unknown = await app.request('POST', '/v1/oauth-clients', {
        key: developer,
        body: {
          ...body,
          grant_types: ['authorization_code'],
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: 'private_key_jwt',
        },
      });
      expect(unknown.body.errors.map((e: { path: string }) => e.path)).toEqual(['token_endpoint_auth_method']);
    },
  );

  it('another account can neither see nor delete it', async () => {
    const client = await publicClient();
    const other = await app.newAccountKey('public-client-stranger');
    expect((await app.request('GET', `/v1/oauth-clients/${client.id}`, { key: other })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/oauth-clients/${client.id}`, { key: other })).status).toBe(404);
    expect((await app.request('GET', '/v1/oauth-clients', { key: other })).body.data).toEqual([]);
    expect((await app.request('GET', `/v1/oauth-clients/${client.id}`, { key: developer })).status).toBe(200);
  });
});

describe('the authorization code flow of a public client', () => {
  it(
    'PKCE, consent, code for tokens with only the client_id; the token works on REST and GraphQL; refresh rotates; ' +
      'revoke',
    async () => {
      const client = await publicClient();
      const { verifier, challenge } = pkce();
      const back = await authorize(client.client_id, 'codes:read codes:write', challenge);
      expect(back.origin + back.pathname).toBe(REDIRECT_URI);
      expect(back.searchParams.get('state')).toBe('st-public');
      expect(back.searchParams.get('iss')).toBe(`${app.url}/oauth`);
      const code = back.searchParams.get('code')!;

      const tokens = await form('/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: client.client_id,
        code_verifier: verifier,
      });
      expect(tokens.status, tokens.text).toBe(200);
      expect(tokens.body).toMatchObject({
        token_type: 'Bearer',
        expires_in: 600,
        scope: 'codes:read codes:write',
        refresh_token: expect.any(String),
      });
      expect(decodeJwt(tokens.body.access_token)).toMatchObject({
        client_id: client.client_id,
        scope: 'codes:read codes:write',
        aud: new URL(app.url).origin,
      });

      // The token acts for the account that approved.
      const bearer = tokens.body.access_token as string;
      const created = await app.request('POST', '/v1/codes', {
        key: bearer,
        body: { content: 'https://example.com/from-a-browser-app' },
      });
      expect(created.status, created.text).toBe(201);
      expect((await app.request('GET', `/v1/codes/${created.body.id}`, { key: userKey })).status).toBe(200);
      expect((await app.request('GET', `/v1/codes/${created.body.id}`, { key: developer })).status).toBe(404);
      const gql = await app.graphql(bearer, '{ codes(first: 5) { edges { node { id } } } }');
      expect(gql.status).toBe(200);
      expect(gql.body.data.codes.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([created.body.id]);
      // analytics:read was allowed to the client but not asked for.
      expect((await app.request('GET', '/v1/analytics/overview', { key: bearer })).status).toBe(403);

      // Refresh with the client_id only: a new access token, and a new refresh token (rotation).
      const refreshed = await form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
        client_id: client.client_id,
      });
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(refreshed.body.refresh_token).toEqual(expect.any(String));
      expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
      expect(decodeJwt(refreshed.body.access_token).scope).toBe('codes:read codes:write');
      expect((await app.request('GET', '/v1/codes', { key: refreshed.body.access_token })).status).toBe(200);

      // Revocation (RFC 7009) with the client_id only; the refresh token then stops working.
      const revoked = await form('/oauth/token/revocation', {
        token: refreshed.body.refresh_token,
        token_type_hint: 'refresh_token',
        client_id: client.client_id,
      });
      expect(revoked.status, revoked.text).toBe(200);
      const after = await form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token,
        client_id: client.client_id,
      });
      expect(after.body.error).toBe('invalid_grant');
    },
  );

  it('a spent refresh token used again revokes the grant (reuse detection)', async () => {
    const client = await publicClient();
    const { verifier, challenge } = pkce();
    const code = (await authorize(client.client_id, 'codes:read', challenge)).searchParams.get('code')!;
    const first = await form('/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    // From a page on the origin of one of its redirect URIs, which may read the answer (CORS).
    const second = await form(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: client.client_id },
      { origin: SPA_ORIGIN },
    );
    expect(second.status).toBe(200);
    expect(second.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
    const replay = await form('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: client.client_id,
    });
    expect(replay.body.error).toBe('invalid_grant');
    // The replay took the newer refresh token down with it.
    const third = await form('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      client_id: client.client_id,
    });
    expect(third.body.error).toBe('invalid_grant');
  });

  it('refuses an authorization request without PKCE, and a code with a wrong or no verifier', async () => {
    const client = await publicClient();
    const noPkce = await authorize(client.client_id, 'codes:read', null);
    expect(noPkce.origin + noPkce.pathname).toBe(REDIRECT_URI);
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
    expect(noPkce.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(noPkce.searchParams.has('code')).toBe(false);

    const { verifier, challenge } = pkce();
    const code = (await authorize(client.client_id, 'codes:read', challenge)).searchParams.get('code')!;
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
    };
    const wrong = await form('/oauth/token', { ...exchange, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const missing = await form('/oauth/token', exchange);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_grant');
    // A failed exchange does not spend the code, and the right verifier still redeems it once.
    expect((await form('/oauth/token', { ...exchange, code_verifier: verifier })).status).toBe(200);
    expect((await form('/oauth/token', { ...exchange, code_verifier: verifier })).body.error).toBe('invalid_grant');
  });

  it('a public client cannot use client_credentials, nor authenticate with a secret', async () => {
    const client = await publicClient();
    const credentials = await form('/oauth/token', {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      scope: 'codes:read',
    });
    expect(credentials.status).toBe(400);
    // oidc-provider's words for it (RFC 6749 would say unauthorized_client).
    expect(credentials.body).toEqual({
      error: 'invalid_request',
      error_description: 'requested grant type is not allowed for this client',
    });
    const withSecret = await form(
      '/oauth/token',
      { grant_type: 'client_credentials', scope: 'codes:read' },
      { authorization: basic(client.client_id, 'qrcs_guess') },
    );
    expect(withSecret.status).toBe(401);
    expect(withSecret.body.error).toBe('invalid_client');
  });
});

describe('confidential clients beside public ones', () => {
  it('still need their secret: the client_id alone, or a wrong secret, is refused', async () => {
    const client = await register({ name: 'server job', scopes: ['codes:read'], grant_types: ['client_credentials'] });
    expect(client.client_secret).toMatch(/^qrcs_/);
    const idOnly = await form('/oauth/token', {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      scope: 'codes:read',
    });
    expect(idOnly.status).toBe(401);
    expect(idOnly.body.error).toBe('invalid_client');
    const ok = await form(
      '/oauth/token',
      { grant_type: 'client_credentials', scope: 'codes:read' },
      { authorization: basic(client.client_id, client.client_secret!) },
    );
    expect(ok.status, ok.text).toBe(200);
    expect((await app.request('GET', '/v1/codes', { key: ok.body.access_token })).status).toBe(200);
  });

  it('a confidential code client still needs its secret to redeem a code', async () => {
    const client = await register({
      name: 'web server app',
      scopes: ['codes:read'],
      grant_types: ['authorization_code'],
      redirect_uris: [REDIRECT_URI],
    });
    const { verifier, challenge } = pkce();
    const code = (await authorize(client.client_id, 'codes:read', challenge)).searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    expect((await form('/oauth/token', { ...exchange, client_id: client.client_id })).body.error).toBe(
      'invalid_client',
    );
    const ok = await form('/oauth/token', exchange, { authorization: basic(client.client_id, client.client_secret!) });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('browser origins at the token endpoint', () => {
  // A bogus refresh token: the origin is checked once the client is known, before the grant.
  const attempt = (clientId: string, origin: string, headers: Record<string, string> = {}) =>
    form(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: clientId },
      { origin, ...headers },
    );

  it("lets this server's own pages and a public client's redirect origins call it; refuses other origins", async () => {
    const client = await publicClient();
    expect((await attempt(client.client_id, new URL(app.url).origin)).body.error).toBe('invalid_grant');
    expect((await attempt(client.client_id, SPA_ORIGIN)).body.error).toBe('invalid_grant');
    const foreign = await attempt(client.client_id, 'https://evil.example');
    expect(foreign.body.error).toBe('invalid_request');
    expect(foreign.body.error_description).toMatch(/origin https:\/\/evil\.example not allowed/);
  });

  it('refuses other origins to a confidential client, even one whose redirect URI is there', async () => {
    const client = await register({
      name: 'web server app',
      scopes: ['codes:read'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [`${SPA_ORIGIN}/callback`],
    });
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const res = await form(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'not-a-token' },
      { origin: SPA_ORIGIN, ...auth },
    );
    expect(res.body.error).toBe('invalid_request');
    const same = await form(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'not-a-token' },
      { origin: new URL(app.url).origin, ...auth },
    );
    expect(same.body.error).toBe('invalid_grant');
  });
});
