// OAuth 2.0 end to end against the running server: client registration, the client
// credentials grant, and the authorization code grant with PKCE (S256) and a scripted consent,
// then the API called with the tokens; refresh, introspection (RFC 7662) and revocation (RFC 7009).
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/services.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import {
  authorize as authorizeAt,
  basic,
  consent as postConsent,
  pkce,
  postForm,
  type CookieJar,
} from '../support/oauth.ts';

let app: TestApp;
/** The developer's account, which registers the clients. */
let developer: string;

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  app = await getTestApp();
  developer = await app.newAccountKey('oauth-developer');
});
afterAll(() => app.close());

async function registerClient(body: Record<string, unknown>, key = developer) {
  const res = await app.request('POST', '/v1/oauth-clients', { key, body });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return res.body as { client_id: string; client_secret: string; [k: string]: unknown };
}

const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(app.url + path, fields, headers);

const token = (client: { client_id: string; client_secret: string }, fields: Record<string, string>) =>
  form('/oauth/token', fields, { authorization: basic(client.client_id, client.client_secret) });

describe('discovery', () => {
  it('publishes the endpoints, the grants and S256 as the only PKCE method', async () => {
    const res = await app.request('GET', '/oauth/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: `${app.url}/oauth`,
      token_endpoint: `${app.url}/oauth/token`,
      authorization_endpoint: `${app.url}/oauth/auth`,
      jwks_uri: `${app.url}/oauth/jwks`,
      introspection_endpoint: `${app.url}/oauth/token/introspection`,
      revocation_endpoint: `${app.url}/oauth/token/revocation`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(res.body.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token']),
    );
    const jwks = await app.request('GET', '/oauth/jwks');
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
  });
});

describe('POST /v1/oauth-clients', () => {
  it('registers a client, shows its secret once, and lists it without', async () => {
    const res = await app.request('POST', '/v1/oauth-clients', {
      key: developer,
      body: { name: 'reporting job', scopes: ['codes:read'], grant_types: ['client_credentials'] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'oauth_client',
      name: 'reporting job',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      issuer: `${app.url}/oauth`,
    });
    expect(res.body.client_id).toMatch(/^client_[0-9A-Za-z]{20}$/);
    expect(res.body.client_secret).toMatch(/^qrcs_[0-9A-Za-z]{40}$/);
    const list = await app.request('GET', '/v1/oauth-clients', { key: developer });
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(res.body.client_id);
    expect(list.text).not.toContain(res.body.client_secret.slice(11));
    const one = await app.request('GET', `/v1/oauth-clients/${res.body.client_id}`, { key: developer });
    expect(one.body.secret_prefix).toBe(res.body.client_secret.slice(0, 11));
    const other = await app.newAccountKey('oauth-other');
    expect((await app.request('GET', `/v1/oauth-clients/${res.body.client_id}`, { key: other })).status).toBe(404);
  });

  it('refuses bad registrations, and scopes the registering key lacks', async () => {
    const bad = await app.request('POST', '/v1/oauth-clients', {
      key: developer,
      body: {
        name: 'x',
        scopes: ['codes:read'],
        grant_types: ['authorization_code', 'password'],
        redirect_uris: ['http://example.com/cb', 'https://ok.example/cb#frag'],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'grant_types.1',
      'redirect_uris.0',
      'redirect_uris.1',
    ]);
    const noRedirect = await app.request('POST', '/v1/oauth-clients', {
      key: developer,
      body: { name: 'x', scopes: ['codes:read'], grant_types: ['authorization_code'] },
    });
    expect(noRedirect.body.errors[0].path).toBe('redirect_uris');
    const limited = (await app.services.accounts.issueKey('oauth-developer', { scopes: ['keys:manage', 'codes:read'] }))
      .key;
    const escalate = await app.request('POST', '/v1/oauth-clients', {
      key: limited,
      body: { name: 'x', scopes: ['codes:write'], grant_types: ['client_credentials'] },
    });
    expect(escalate.status).toBe(403);
  });
});

describe('client credentials', () => {
  it('issues a short-lived JWT with the scopes asked and allowed, which the API accepts like a key', async () => {
    const client = await registerClient({
      name: 'server job',
      scopes: ['codes:read', 'codes:write', 'webhooks:read'],
      grant_types: ['client_credentials'],
    });
    const res = await token(client, {
      grant_type: 'client_credentials',
      scope: 'codes:read codes:write analytics:read',
    });
    expect(res.status, res.text).toBe(200);
    // analytics:read was asked but not allowed to the client: left out, as the answer's scope says.
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'codes:read codes:write' });
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({
      iss: `${app.url}/oauth`,
      aud: new URL(app.url).origin,
      client_id: client.client_id,
      sub: client.client_id,
      scope: 'codes:read codes:write',
    });
    expect(claims.exp! - claims.iat!).toBe(600);

    const bearer = res.body.access_token as string;
    const created = await app.request('POST', '/v1/codes', {
      key: bearer,
      body: { content: 'https://example.com/from-oauth' },
    });
    expect(created.status, created.text).toBe(201);
    // The client acts for the account that registered it.
    expect((await app.request('GET', `/v1/codes/${created.body.id}`, { key: developer })).status).toBe(200);
    const forbidden = await app.request('GET', '/v1/webhooks', { key: bearer });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.detail).toContain("'webhooks:read'");
    const gql = await app.graphql(bearer, '{ codes(first: 5) { edges { node { id } } } }');
    expect(gql.body.data.codes.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(created.body.id);
    expect(
      (await app.graphql(bearer, '{ webhooks(first: 1) { edges { cursor } } }')).body.errors[0].extensions.code,
    ).toBe('FORBIDDEN');

    const narrow = await token(client, { grant_type: 'client_credentials', scope: 'codes:read' });
    expect(
      (
        await app.request('POST', '/v1/codes', {
          key: narrow.body.access_token,
          body: { content: 'https://example.com/x' },
        })
      ).status,
    ).toBe(403);
    // No scope asked: no token that could do nothing, but invalid_scope naming what the client may ask.
    const bare = await token(client, { grant_type: 'client_credentials' });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ error: 'invalid_scope' });
    expect(bare.body.error_description).toContain('codes:read codes:write webhooks:read');
  });

  it('refuses a wrong secret, a tampered token, and everything of a deleted client', async () => {
    const client = await registerClient({
      name: 'to delete',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
    });
    const wrong = await token(
      { ...client, client_secret: `${client.client_secret}x` },
      { grant_type: 'client_credentials', scope: 'codes:read' },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const ok = await token(client, { grant_type: 'client_credentials', scope: 'codes:read' });
    const bearer = ok.body.access_token as string;
    expect((await app.request('GET', '/v1/codes', { key: bearer })).status).toBe(200);
    const [header, payload, signature] = bearer.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(bearer), scope: 'codes:read keys:manage' })).toString(
      'base64url',
    );
    expect((await app.request('GET', '/v1/api-keys', { key: `${header}.${forged}.${signature}` })).status).toBe(401);
    expect(
      (await app.request('GET', '/v1/codes', { key: `${header}.${payload}.${signature.slice(0, -4)}AAAA` })).status,
    ).toBe(401);

    expect((await app.request('DELETE', `/v1/oauth-clients/${client.client_id}`, { key: developer })).status).toBe(204);
    expect((await app.request('GET', '/v1/codes', { key: bearer })).status).toBe(401);
    expect((await token(client, { grant_type: 'client_credentials', scope: 'codes:read' })).body.error).toBe(
      'invalid_client',
    );
  });

  it('a token issued by one process is accepted by another on the same database and OAUTH_KEYS_FILE', async () => {
    const client = await registerClient({
      name: 'shared',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
    });
    const bearer = (await token(client, { grant_type: 'client_credentials', scope: 'codes:read' })).body.access_token;
    const config = loadConfig({
      DATABASE_URL: app.testDb.url,
      PUBLIC_BASE_URL: app.url,
      LOG_LEVEL: 'silent',
      WEBHOOK_WORKER: 'false',
      OAUTH_KEYS_FILE: app.config.oauthKeysFile,
    });
    const other = await createServices(app.testDb.db, config, createLogger(config));
    try {
      const principal = await other.oauth.authenticate(bearer);
      expect(principal?.keyId).toBe(client.client_id);
      expect([...principal!.scopes]).toEqual(['codes:read']);
    } finally {
      await other.close();
    }
  });
});

/** Starts an authorization request as a browser would; answers the consent page's URL and the jar. */
const authorize = (clientId: string, scope: string, challenge: string, state?: string) =>
  authorizeAt(app.url, { clientId, scope, challenge, redirectUri: REDIRECT_URI, state });

const consent = (jar: CookieJar, consentUrl: string, fields: [string, string][]) =>
  postConsent(app.url, jar, consentUrl, fields);

describe('authorization code with PKCE', () => {
  let client: { client_id: string; client_secret: string };
  /** The user: another account, whose owner consents with one of its keys. */
  let userKey: string;
  beforeAll(async () => {
    client = await registerClient({
      name: 'Acme Dashboard',
      scopes: ['codes:read', 'codes:write', 'analytics:read'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [REDIRECT_URI],
    });
    userKey = await app.newAccountKey('oauth-user');
  });

  it('the owner consents, code for tokens, the API called for that account; refresh, introspect, revoke', async () => {
    const { verifier, challenge } = pkce();
    const { jar, consentUrl } = await authorize(client.client_id, 'codes:read codes:write analytics:read', challenge);

    const page = await fetch(consentUrl, { headers: { cookie: jar.header() } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('Acme Dashboard');
    for (const scope of ['codes:read', 'codes:write', 'analytics:read']) expect(html).toContain(`value="${scope}"`);
    expect(html).toContain('name="api_key"');

    // The owner approves two of the three (analytics:read left unchecked).
    const { final } = await consent(jar, consentUrl, [
      ['api_key', userKey],
      ['scope', 'codes:read'],
      ['scope', 'codes:write'],
      ['decision', 'approve'],
    ]);
    expect(final!.origin + final!.pathname).toBe(REDIRECT_URI);
    expect(final!.searchParams.get('state')).toBe('st-123');
    expect(final!.searchParams.get('iss')).toBe(`${app.url}/oauth`);
    const code = final!.searchParams.get('code')!;

    // PKCE: only the verifier of this request's challenge redeems the code.
    const wrongVerifier = await token(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce().verifier,
    });
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const tokens = await token(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(tokens.status, tokens.text).toBe(200);
    // Only what was approved; the client has the refresh_token grant, so a refresh token too.
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'codes:read codes:write' });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));
    const claims = decodeJwt(tokens.body.access_token);
    expect(claims.scope).toBe('codes:read codes:write');

    // The token acts for the user's account, not the developer's.
    const bearer = tokens.body.access_token as string;
    const created = await app.request('POST', '/v1/codes', {
      key: bearer,
      body: { content: 'https://example.com/for-the-user' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await app.request('GET', `/v1/codes/${created.body.id}`, { key: userKey })).status).toBe(200);
    expect((await app.request('GET', `/v1/codes/${created.body.id}`, { key: developer })).status).toBe(404);
    expect((await app.request('GET', '/v1/analytics/overview', { key: bearer })).status).toBe(403);

    // Refresh: a new access token with the same scopes.
    const refreshed = await token(client, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(decodeJwt(refreshed.body.access_token).scope).toBe('codes:read codes:write');
    const refreshToken = refreshed.body.refresh_token ?? tokens.body.refresh_token;

    // Introspection (RFC 7662) of the refresh token, by its client only.
    const introspected = await form(
      '/oauth/token/introspection',
      { token: refreshToken },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expect(introspected.body).toMatchObject({ active: true, client_id: client.client_id, sub: claims.sub });
    const stranger = await registerClient({
      name: 'stranger',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
    });
    const peek = await form(
      '/oauth/token/introspection',
      { token: refreshToken },
      { authorization: basic(stranger.client_id, stranger.client_secret) },
    );
    expect(peek.body).toEqual({ active: false });

    // Revocation (RFC 7009): another client cannot; its own client can, and the refresh token
    // (and its grant) stop working at once.
    const foreign = await form(
      '/oauth/token/revocation',
      { token: refreshToken },
      { authorization: basic(stranger.client_id, stranger.client_secret) },
    );
    expect(foreign.body.error).toBe('invalid_request');
    expect(
      (
        await form(
          '/oauth/token/introspection',
          { token: refreshToken },
          { authorization: basic(client.client_id, client.client_secret) },
        )
      ).body.active,
    ).toBe(true);
    const revoked = await form(
      '/oauth/token/revocation',
      { token: refreshToken },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expect(revoked.status).toBe(200);
    expect((await token(client, { grant_type: 'refresh_token', refresh_token: refreshToken })).body.error).toBe(
      'invalid_grant',
    );
    expect(
      (
        await form(
          '/oauth/token/introspection',
          { token: refreshToken },
          { authorization: basic(client.client_id, client.client_secret) },
        )
      ).body,
    ).toEqual({ active: false });
  });

  it('a code is single-use: presenting it again also revokes what it gave (RFC 6749 4.1.2)', async () => {
    const { verifier, challenge } = pkce();
    const { jar, consentUrl } = await authorize(client.client_id, 'codes:read', challenge);
    const { final } = await consent(jar, consentUrl, [
      ['api_key', userKey],
      ['scope', 'codes:read'],
      ['decision', 'approve'],
    ]);
    const exchange = {
      grant_type: 'authorization_code',
      code: final!.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    };
    const first = await token(client, exchange);
    expect(first.status).toBe(200);
    expect((await token(client, exchange)).body.error).toBe('invalid_grant');
    expect(
      (await token(client, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).body.error,
    ).toBe('invalid_grant');
  });

  it('requires PKCE with S256', async () => {
    const query = new URLSearchParams({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'codes:read',
      state: 's',
    });
    const noPkce = await fetch(`${app.url}/oauth/auth?${query}`, { redirect: 'manual' });
    expect(noPkce.status).toBe(303);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    query.set('code_challenge', pkce().challenge);
    query.set('code_challenge_method', 'plain');
    const plain = await fetch(`${app.url}/oauth/auth?${query}`, { redirect: 'manual' });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('the owner can deny; a key without keys:manage, or an unknown one, cannot consent', async () => {
    const { challenge } = pkce();
    const { jar, consentUrl } = await authorize(client.client_id, 'codes:read', challenge);
    const readOnly = (await app.services.accounts.issueKey('oauth-user', { scopes: ['codes:read'] })).key;
    const weak = await consent(jar, consentUrl, [
      ['api_key', readOnly],
      ['scope', 'codes:read'],
      ['decision', 'approve'],
    ]);
    expect(weak.posted.status).toBe(403);
    expect(await weak.posted.text()).toContain('keys:manage');
    const unknown = await consent(jar, consentUrl, [
      ['api_key', `qrk_${'x'.repeat(40)}`],
      ['scope', 'codes:read'],
      ['decision', 'approve'],
    ]);
    expect(unknown.posted.status).toBe(401);
    const none = await consent(jar, consentUrl, [
      ['api_key', userKey],
      ['decision', 'approve'],
    ]);
    expect(none.posted.status).toBe(422);

    const denied = await consent(jar, consentUrl, [['decision', 'deny']]);
    expect(denied.final!.searchParams.get('error')).toBe('access_denied');
    expect(denied.final!.searchParams.get('state')).toBe('st-123');
  });

  it('a consent page needs the browser that started the request (its cookie)', async () => {
    const { consentUrl } = await authorize(client.client_id, 'codes:read', pkce().challenge);
    const res = await fetch(consentUrl);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
