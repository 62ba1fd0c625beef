// The consent an account gave OAuth clients, as the account manages it: listed with the client,
// scopes and approving key (GET /v1/oauth-grants), withdrawn (DELETE), and ended with the API
// key that approved it. A withdrawn grant's refresh token fails at once and its access tokens
// are refused at once; rotation passes a grant to the key's replacement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { authorize, basic, consent, pkce, postForm } from '../support/oauth.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let app: TestApp;
let client: { client_id: string; client_secret: string };

beforeAll(async () => {
  app = await getTestApp();
  const developer = await app.newAccountKey('grants-developer');
  const registered = await app.request('POST', '/v1/oauth-clients', {
    key: developer,
    body: {
      name: 'Acme Reports',
      scopes: ['codes:read', 'analytics:read'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [REDIRECT_URI],
    },
  });
  expect(registered.status).toBe(201);
  client = registered.body;
});
afterAll(() => app.close());

const token = (fields: Record<string, string>) =>
  postForm(`${app.url}/oauth/token`, fields, { authorization: basic(client.client_id, client.client_secret) });

/** The owner of the account behind `ownerKey` consents to codes:read; the client's tokens. */
async function consentWith(ownerKey: string) {
  const { verifier, challenge } = pkce();
  const { jar, consentUrl } = await authorize(app.url, {
    clientId: client.client_id,
    scope: 'codes:read',
    challenge,
    redirectUri: REDIRECT_URI,
  });
  const { final } = await consent(app.url, jar, consentUrl, [
    ['api_key', ownerKey],
    ['scope', 'codes:read'],
    ['decision', 'approve'],
  ]);
  const tokens = await token({
    grant_type: 'authorization_code',
    code: final!.searchParams.get('code')!,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  expect(tokens.status, tokens.text).toBe(200);
  return { access: tokens.body.access_token as string, refresh: tokens.body.refresh_token as string };
}

const canRead = async (bearer: string) => (await app.request('GET', '/v1/codes', { key: bearer })).status;
const grantsOf = async (key: string) =>
  (await app.request('GET', '/v1/oauth-grants', { key })).body.data as Array<Record<string, any>>;

describe('GET /v1/oauth-grants', () => {
  it('lists the consent with its client, scopes and approving key; another account sees nothing of it', async () => {
    const owner = await app.services.accounts.issueKey('grants-list');
    await consentWith(owner.key);
    const grants = await grantsOf(owner.key);
    expect(grants).toEqual([
      {
        id: expect.any(String),
        object: 'oauth_grant',
        client: { id: client.client_id, name: 'Acme Reports' },
        scopes: ['codes:read'],
        approved_by_key_id: owner.keyId,
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    ]);
    const days = (Date.parse(grants[0]!.expires_at) - Date.parse(grants[0]!.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(14, 1);
    const one = await app.request('GET', `/v1/oauth-grants/${grants[0]!.id}`, { key: owner.key });
    expect(one.body).toEqual(grants[0]);
    // The client's own account (or any other) cannot see or withdraw it.
    const stranger = await app.newAccountKey('grants-stranger');
    expect(await grantsOf(stranger)).toEqual([]);
    expect((await app.request('GET', `/v1/oauth-grants/${grants[0]!.id}`, { key: stranger })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/oauth-grants/${grants[0]!.id}`, { key: stranger })).status).toBe(404);
    expect(await grantsOf(owner.key)).toHaveLength(1);
  });
});

describe('DELETE /v1/oauth-grants/:id', () => {
  it('ends the access token and the refresh token at once; the grant is gone', async () => {
    const owner = await app.services.accounts.issueKey('grants-withdraw');
    const tokens = await consentWith(owner.key);
    expect(await canRead(tokens.access)).toBe(200);
    const [grant] = await grantsOf(owner.key);
    expect((await app.request('DELETE', `/v1/oauth-grants/${grant!.id}`, { key: owner.key })).status).toBe(204);
    expect(await canRead(tokens.access)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh })).body.error).toBe(
      'invalid_grant',
    );
    expect(await grantsOf(owner.key)).toEqual([]);
    expect((await app.request('DELETE', `/v1/oauth-grants/${grant!.id}`, { key: owner.key })).status).toBe(404);
  });
});

describe('GraphQL oauthGrants and revokeOAuthGrant', () => {
  it('lists and withdraws like REST; another account gets NOT_FOUND and changes nothing', async () => {
    const owner = await app.services.accounts.issueKey('grants-graphql');
    const tokens = await consentWith(owner.key);
    const listed = await app.graphql(
      owner.key,
      '{ oauthGrants { id clientId clientName scopes approvedByKeyId createdAt expiresAt } }',
    );
    const [grant] = listed.body.data.oauthGrants;
    expect(grant).toMatchObject({
      clientId: client.client_id,
      clientName: 'Acme Reports',
      scopes: ['codes:read'],
      approvedByKeyId: owner.keyId,
    });
    const stranger = await app.newAccountKey('grants-graphql-stranger');
    expect((await app.graphql(stranger, '{ oauthGrants { id } }')).body.data.oauthGrants).toEqual([]);
    const foreign = await app.graphql(stranger, 'mutation($id: ID!) { revokeOAuthGrant(id: $id) { revokedId } }', {
      id: grant.id,
    });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await canRead(tokens.access)).toBe(200);
    const revoked = await app.graphql(owner.key, 'mutation($id: ID!) { revokeOAuthGrant(id: $id) { revokedId } }', {
      id: grant.id,
    });
    expect(revoked.body.data.revokeOAuthGrant).toEqual({ revokedId: grant.id });
    expect(await canRead(tokens.access)).toBe(401);
  });
});

describe('POST /oauth/token/revocation of a refresh token', () => {
  it('revokes its grant (RFC 7009 §2.1), so the access tokens issued under it are refused too', async () => {
    const owner = await app.services.accounts.issueKey('grants-rfc7009');
    const tokens = await consentWith(owner.key);
    expect(await canRead(tokens.access)).toBe(200);
    const revoked = await postForm(
      `${app.url}/oauth/token/revocation`,
      { token: tokens.refresh },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expect(revoked.status).toBe(200);
    expect(await grantsOf(owner.key)).toEqual([]);
    expect(await canRead(tokens.access)).toBe(401);
  });
});

describe('the approving key', () => {
  it('revoked: the grants it approved end (tokens and refresh tokens); one approved by another key stays', async () => {
    const approver = await app.services.accounts.issueKey('grants-revoke');
    const other = await app.services.accounts.issueKey('grants-revoke');
    const approved = await consentWith(approver.key);
    const approvedByOther = await consentWith(other.key);
    expect(await grantsOf(other.key)).toHaveLength(2);
    expect((await app.request('DELETE', `/v1/api-keys/${approver.keyId}`, { key: other.key })).status).toBe(204);
    expect(await canRead(approved.access)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: approved.refresh })).body.error).toBe(
      'invalid_grant',
    );
    expect((await grantsOf(other.key)).map((grant) => grant.approved_by_key_id)).toEqual([other.keyId]);
    expect(await canRead(approvedByOther.access)).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: approvedByOther.refresh })).status).toBe(200);
  });

  it('rotated: the grant passes to the replacement, and ends when the replacement is revoked', async () => {
    const approver = await app.services.accounts.issueKey('grants-rotate');
    const tokens = await consentWith(approver.key);
    const rotated = await app.request('POST', `/v1/api-keys/${approver.keyId}/rotate`, {
      key: approver.key,
      body: { grace_period_seconds: 0 },
    });
    expect(rotated.status, rotated.text).toBe(201);
    const replacement = rotated.body as { id: string; key: string };
    expect((await grantsOf(replacement.key)).map((grant) => grant.approved_by_key_id)).toEqual([replacement.id]);
    expect(await canRead(tokens.access)).toBe(200);
    expect((await app.request('DELETE', `/v1/api-keys/${replacement.id}`, { key: replacement.key })).status).toBe(204);
    expect(await canRead(tokens.access)).toBe(401);
  });
});
