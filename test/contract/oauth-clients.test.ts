// Contract: every OAuth client operation, success and error, validated against the served
// document; and a token from the client credentials grant at the OAuth2 scheme's tokenUrl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { authorize, consent, pkce } from '../support/oauth.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let developer: string;
let codesOnly: string;
let stranger: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  developer = await app.newAccountKey();
  codesOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
  stranger = await app.newAccountKey();
});
afterAll(() => app.close());

async function register(body: Record<string, unknown>, key = developer) {
  const res = await call('POST', '/v1/oauth-clients', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** An access token from the token endpoint the document's OAuth2 scheme names. */
async function clientCredentialsToken(
  client: { client_id: string; client_secret: string },
  scope: string,
): Promise<string> {
  const flows = contract.document.components.securitySchemes.OAuth2.flows;
  const res = await fetch(app.url + flows.clientCredentials.tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('oauth clients', () => {
  it('create: 201 with the secret, issuer and Location, 422, 400, 415, 401, 403 (scope and escalation)', async () => {
    const created = await register({
      name: 'reporting job',
      scopes: ['codes:read'],
      grant_types: ['client_credentials'],
    });
    expect(created.client_secret).toMatch(/^qrcs_/);
    expect(created.issuer).toBe(`${app.url}/oauth`);
    const web = await call('POST', '/v1/oauth-clients', {
      key: developer,
      body: {
        name: 'web app',
        scopes: ['codes:read', 'analytics:read'],
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: ['https://app.example.com/callback'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    });
    expect(web.status).toBe(201);
    expect(web.headers.get('location')).toBe(`/v1/oauth-clients/${web.body.id}`);

    const invalid = await call('POST', '/v1/oauth-clients', {
      key: developer,
      body: { name: '', scopes: ['codes:read'], grant_types: ['password'], redirect_uris: ['http://example.com/cb#x'] },
    });
    expect(invalid.status).toBe(422);
    expect(
      (
        await call('POST', '/v1/oauth-clients', {
          key: developer,
          body: { name: 'x', scopes: ['codes:read'], grant_types: ['authorization_code'] },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await call('POST', '/v1/oauth-clients', {
          key: developer,
          rawBody: '{"name":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/v1/oauth-clients', {
          key: developer,
          rawBody: 'name=x',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await call('POST', '/v1/oauth-clients', {
          body: { name: 'x', scopes: ['codes:read'], grant_types: ['client_credentials'] },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await call('POST', '/v1/oauth-clients', {
          key: codesOnly,
          body: { name: 'x', scopes: ['codes:read'], grant_types: ['client_credentials'] },
        })
      ).status,
    ).toBe(403);

    const limited = (
      await call('POST', '/v1/api-keys', {
        key: developer,
        body: { name: 'limited', scopes: ['keys:manage', 'codes:read'] },
      })
    ).body.key;
    const escalation = await call('POST', '/v1/oauth-clients', {
      key: limited,
      body: { name: 'x', scopes: ['codes:write'], grant_types: ['client_credentials'] },
    });
    expect(escalation.status).toBe(403);
  });

  it('list: 200 with an API key and with an OAuth access token, never a secret; 403; 401', async () => {
    const manager = await register({
      name: 'manager',
      scopes: ['keys:manage', 'codes:read'],
      grant_types: ['client_credentials'],
    });
    const list = await call('GET', '/v1/oauth-clients', { key: developer });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(manager.client_secret.slice(11));
    const token = await clientCredentialsToken(manager, 'keys:manage');
    const viaToken = await call('GET', '/v1/oauth-clients', { key: token });
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.data.map((c: { id: string }) => c.id)).toContain(manager.id);
    expect((await call('GET', '/v1/oauth-clients', { key: codesOnly })).status).toBe(403);
    // A token of the same client without keys:manage (asking for no scope at all is invalid_scope).
    const narrow = await clientCredentialsToken(manager, 'codes:read');
    expect((await call('GET', '/v1/oauth-clients', { key: narrow })).status).toBe(403);
    expect((await call('GET', '/v1/oauth-clients', { key: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' })).status).toBe(401);
  });

  it('get: 200, 404 for another account’s and an unknown id', async () => {
    const client = await register({ name: 'one', scopes: ['codes:read'], grant_types: ['client_credentials'] });
    expect((await call('GET', `/v1/oauth-clients/${client.id}`, { key: developer })).status).toBe(200);
    expect((await call('GET', `/v1/oauth-clients/${client.id}`, { key: stranger })).status).toBe(404);
    expect((await call('GET', '/v1/oauth-clients/client_missing', { key: developer })).status).toBe(404);
  });

  it('delete: 204, its tokens answer 401 afterwards, 404', async () => {
    const client = await register({ name: 'doomed', scopes: ['keys:manage'], grant_types: ['client_credentials'] });
    const token = await clientCredentialsToken(client, 'keys:manage');
    expect((await call('DELETE', `/v1/oauth-clients/${client.id}`, { key: stranger })).status).toBe(404);
    expect((await call('DELETE', `/v1/oauth-clients/${client.id}`, { key: developer })).status).toBe(204);
    expect((await call('GET', '/v1/oauth-clients', { key: token })).status).toBe(401);
    expect((await call('DELETE', `/v1/oauth-clients/${client.id}`, { key: developer })).status).toBe(404);
  });

  it('grants: list, get and withdraw 200/204, 404 for another account’s and an unknown id, 403, 401', async () => {
    const redirectUri = 'http://127.0.0.1:9/callback';
    const web = await register({
      name: 'consented app',
      scopes: ['codes:read'],
      grant_types: ['authorization_code'],
      redirect_uris: [redirectUri],
    });
    const { challenge } = pkce();
    const { jar, consentUrl } = await authorize(app.url, {
      clientId: web.client_id,
      scope: 'codes:read',
      challenge,
      redirectUri,
    });
    await consent(app.url, jar, consentUrl, [
      ['api_key', stranger],
      ['scope', 'codes:read'],
      ['decision', 'approve'],
    ]);
    const list = await call('GET', '/v1/oauth-grants', { key: stranger });
    expect(list.status).toBe(200);
    const grant = list.body.data[0];
    expect(grant.client).toEqual({ id: web.client_id, name: 'consented app' });
    expect((await call('GET', `/v1/oauth-grants/${grant.id}`, { key: stranger })).status).toBe(200);
    expect((await call('GET', `/v1/oauth-grants/${grant.id}`, { key: developer })).status).toBe(404);
    expect((await call('GET', '/v1/oauth-grants/missing', { key: stranger })).status).toBe(404);
    expect((await call('GET', '/v1/oauth-grants', { key: codesOnly })).status).toBe(403);
    expect((await call('GET', '/v1/oauth-grants')).status).toBe(401);
    expect((await call('DELETE', `/v1/oauth-grants/${grant.id}`, { key: developer })).status).toBe(404);
    expect((await call('DELETE', `/v1/oauth-grants/${grant.id}`, { key: stranger })).status).toBe(204);
    expect((await call('DELETE', `/v1/oauth-grants/${grant.id}`, { key: stranger })).status).toBe(404);
  });

  it('walked every OAuth clients operation', () => contract.expectTagCovered('OAuth clients'));
});
