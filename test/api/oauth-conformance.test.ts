// The OAuth server as the standards say a client may rely on it, one point each (issue 32): the
// metadata's issuer and endpoints agree whatever Host a request names, and the metadata is where
// RFC 8414 puts it, listing the API's scopes and only the code response type; introspection
// (RFC 7662) calls a live JWT access token active; client credentials with no allowed scope get
// invalid_scope (RFC 6749 §5.2); a client authenticates only the way it registered (RFC 7591 §2).
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/shared/principal.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { authorize, basic, consent, pkce, postForm } from '../support/oauth.ts';

let app: TestApp;
let developer: string;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  app = await getTestApp();
  developer = await app.newAccountKey('conformance-developer');
});
afterAll(() => app.close());

type Client = { client_id: string; client_secret: string };

async function register(body: Record<string, unknown>): Promise<Client> {
  const res = await app.request('POST', '/v1/oauth-clients', { key: developer, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const job = (scopes: string[], method = 'client_secret_basic') =>
  register({ name: 'job', scopes, grant_types: ['client_credentials'], token_endpoint_auth_method: method });

const basicToken = (client: Client, fields: Record<string, string>) =>
  postForm(`${app.url}/oauth/token`, fields, { authorization: basic(client.client_id, client.client_secret) });

const postToken = (client: Client, fields: Record<string, string>) =>
  postForm(`${app.url}/oauth/token`, { ...fields, client_id: client.client_id, client_secret: client.client_secret });

const introspect = (client: Client, token: string) =>
  postForm(
    `${app.url}/oauth/token/introspection`,
    { token },
    { authorization: basic(client.client_id, client.client_secret) },
  );

/** GET `path` naming another Host than the one the service is configured with (fetch would not let us). */
function getWithHost(path: string, host: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.url}${path}`, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
}

const ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  'introspection_endpoint',
  'revocation_endpoint',
];

describe('metadata', () => {
  it('names endpoints on the issuer, whatever Host the request named', async () => {
    const issuer = `${app.url}/oauth`;
    for (const host of [new URL(app.url).host, `localhost:${new URL(app.url).port}`, 'qr.example.test']) {
      const metadata = await getWithHost('/oauth/.well-known/openid-configuration', host);
      expect(metadata.issuer).toBe(issuer);
      for (const endpoint of ENDPOINTS) expect(String(metadata[endpoint]), `${endpoint} for ${host}`).toMatch(issuer);
    }
  });

  it('is also where RFC 8414 puts it, listing the API scopes and only the code response type', async () => {
    const oidc = await app.request('GET', '/oauth/.well-known/openid-configuration');
    const rfc8414 = await app.request('GET', '/.well-known/oauth-authorization-server/oauth');
    expect(rfc8414.status).toBe(200);
    expect(rfc8414.headers.get('content-type')).toContain('application/json');
    expect(rfc8414.body).toEqual(oidc.body);
    expect(rfc8414.body.issuer).toBe(`${app.url}/oauth`);
    expect(rfc8414.body.scopes_supported).toEqual(expect.arrayContaining([...SCOPES, 'offline_access']));
    expect(rfc8414.body.response_types_supported).toEqual(['code']);
  });
});

describe('introspection of access tokens', () => {
  it('answers a live JWT access token active with its claims, to its own client only', async () => {
    const client = await job(['codes:read', 'codes:write']);
    const issued = await basicToken(client, { grant_type: 'client_credentials', scope: 'codes:read' });
    const bearer = issued.body.access_token as string;
    const answer = await introspect(client, bearer);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      active: true,
      scope: 'codes:read',
      client_id: client.client_id,
      sub: client.client_id,
      iss: `${app.url}/oauth`,
      aud: new URL(app.url).origin,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
      jti: expect.any(String),
    });
    const other = await job(['codes:read']);
    expect((await introspect(other, bearer)).body).toEqual({ active: false });
    expect((await introspect(client, `${bearer.slice(0, -4)}AAAA`)).body).toEqual({ active: false });
    // Its client deleted, the API no longer honours it: no longer active either.
    expect((await app.request('DELETE', `/v1/oauth-clients/${client.client_id}`, { key: developer })).status).toBe(204);
    expect((await app.request('GET', '/v1/codes', { key: bearer })).status).toBe(401);
    const survivor = await job(['codes:read']);
    expect((await introspect(survivor, bearer)).body).toEqual({ active: false });
  });

  it('a token from a consent is active while its grant stands, with the consenting account as sub', async () => {
    const client = await register({
      name: 'app',
      scopes: ['codes:read'],
      grant_types: ['authorization_code'],
      redirect_uris: [REDIRECT_URI],
    });
    const user = await app.newAccountKey('conformance-user');
    const { verifier, challenge } = pkce();
    const started = await authorize(app.url, {
      clientId: client.client_id,
      scope: 'codes:read',
      challenge,
      redirectUri: REDIRECT_URI,
    });
    const { final } = await consent(app.url, started.jar, started.consentUrl, [
      ['api_key', user],
      ['scope', 'codes:read'],
      ['decision', 'approve'],
    ]);
    const tokens = await basicToken(client, {
      grant_type: 'authorization_code',
      code: final!.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    const bearer = tokens.body.access_token as string;
    const active = await introspect(client, bearer);
    expect(active.body).toMatchObject({ active: true, scope: 'codes:read', client_id: client.client_id });
    const grants = await app.request('GET', '/v1/oauth-grants', { key: user });
    expect(active.body.sub).not.toBe(client.client_id);
    const [grant] = grants.body.data;
    expect((await app.request('DELETE', `/v1/oauth-grants/${grant.id}`, { key: user })).status).toBe(204);
    expect((await introspect(client, bearer)).body).toEqual({ active: false });
  });
});

describe('client credentials scope', () => {
  it('is invalid_scope when nothing asked is allowed, and names what was granted when it differs', async () => {
    const client = await job(['codes:read']);
    const refused = await basicToken(client, { grant_type: 'client_credentials', scope: 'analytics:read' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_scope' });
    expect(refused.body.error_description).toContain('codes:read');
    expect(refused.body).not.toHaveProperty('access_token');
    const unknown = await basicToken(client, { grant_type: 'client_credentials', scope: 'openid nonsense' });
    expect(unknown.body.error).toBe('invalid_scope');
    const partly = await basicToken(client, { grant_type: 'client_credentials', scope: 'codes:read analytics:read' });
    expect(partly.status).toBe(200);
    expect(partly.body.scope).toBe('codes:read');
  });
});

describe('client authentication', () => {
  it('takes a secret only the way the client registered to present it', async () => {
    const fields = { grant_type: 'client_credentials', scope: 'codes:read' };
    const basicClient = await job(['codes:read'], 'client_secret_basic');
    expect((await basicToken(basicClient, fields)).status).toBe(200);
    const posted = await postToken(basicClient, fields);
    expect(posted.status).toBe(401);
    expect(posted.body).toMatchObject({ error: 'invalid_client' });

    const postClient = await job(['codes:read'], 'client_secret_post');
    expect((await postToken(postClient, fields)).status).toBe(200);
    const header = await basicToken(postClient, fields);
    expect(header.status).toBe(401);
    expect(header.body.error).toBe('invalid_client');
    // Introspection and revocation authenticate clients the same way.
    const bearer = (await postToken(postClient, fields)).body.access_token as string;
    expect((await introspect(postClient, bearer)).status).toBe(401);
  });
});
