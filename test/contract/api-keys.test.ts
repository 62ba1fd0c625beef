// Contract: every API key operation, success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let admin: string;
let codesOnly: string;
let stranger: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  admin = await app.newAccountKey();
  codesOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
  stranger = await app.newAccountKey();
});
afterAll(() => app.close());

async function createKey(body: Record<string, unknown>, key = admin) {
  const res = await call('POST', '/v1/api-keys', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('api keys', () => {
  it('create: 201 with the secret and Location, 422, 400, 415, 401, 403 (scope and escalation)', async () => {
    const created = await createKey({
      name: 'dashboard',
      scopes: ['codes:read', 'analytics:read'],
      expires_at: '2099-01-31T00:00:00Z',
    });
    expect(created.key).toMatch(/^qrk_/);
    expect(
      (await call('POST', '/v1/api-keys', { key: admin, body: { name: 'x', scopes: ['codes:read'] } })).headers.get(
        'location',
      ),
    ).toMatch(/^\/v1\/api-keys\/key_/);
    const invalid = await call('POST', '/v1/api-keys', {
      key: admin,
      body: { name: '', scopes: ['codes:delete'], expires_at: '2001-01-01T00:00:00Z', extra: 1 },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.length).toBeGreaterThan(1);
    expect(
      (
        await call('POST', '/v1/api-keys', {
          key: admin,
          rawBody: '{"name":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/v1/api-keys', {
          key: admin,
          rawBody: 'name=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(415);
    expect((await call('POST', '/v1/api-keys', { body: { name: 'x', scopes: ['codes:read'] } })).status).toBe(401);
    expect(
      (await call('POST', '/v1/api-keys', { key: codesOnly, body: { name: 'x', scopes: ['codes:read'] } })).status,
    ).toBe(403);
    const manager = await createKey({ name: 'manager', scopes: ['keys:manage', 'codes:read'] });
    const escalation = await call('POST', '/v1/api-keys', {
      key: manager.key,
      body: { name: 'escalate', scopes: ['codes:write'] },
    });
    expect(escalation.status).toBe(403);
    expect(escalation.body.detail).toContain('codes:write');
  });

  it('list: 200 without secrets, 403', async () => {
    const list = await call('GET', '/v1/api-keys', { key: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(1);
    expect(list.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
    expect((await call('GET', '/v1/api-keys', { key: codesOnly })).status).toBe(403);
  });

  it('get: 200, 404 for another account’s and an unknown id', async () => {
    const created = await createKey({ name: 'one', scopes: ['webhooks:read'] });
    expect((await call('GET', `/v1/api-keys/${created.id}`, { key: admin })).status).toBe(200);
    expect((await call('GET', `/v1/api-keys/${created.id}`, { key: stranger })).status).toBe(404);
    expect((await call('GET', '/v1/api-keys/key_missing', { key: admin })).status).toBe(404);
  });

  it('rotate: 201 without a body and with one, 409 when already rotated or revoked, 422, 415, 404', async () => {
    const first = await createKey({ name: 'rotating', scopes: ['codes:read'] });
    const rotated = await call('POST', `/v1/api-keys/${first.id}/rotate`, { key: admin });
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get('location')).toBe(`/v1/api-keys/${rotated.body.id}`);
    expect(rotated.body.previous).toMatchObject({ id: first.id, replaced_by: rotated.body.id, status: 'active' });
    expect((await call('POST', `/v1/api-keys/${first.id}/rotate`, { key: admin })).status).toBe(409);

    const second = await call('POST', `/v1/api-keys/${rotated.body.id}/rotate`, {
      key: admin,
      body: { grace_period_seconds: 0, expires_at: null },
    });
    expect(second.status).toBe(201);
    expect(second.body.previous.status).toBe('expired');

    const other = await createKey({ name: 'other', scopes: ['codes:read'] });
    expect(
      (await call('POST', `/v1/api-keys/${other.id}/rotate`, { key: admin, body: { grace_period_seconds: -1 } }))
        .status,
    ).toBe(422);
    expect(
      (
        await call('POST', `/v1/api-keys/${other.id}/rotate`, {
          key: admin,
          body: { grace_period_seconds: 60, colour: 'red' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await call('POST', `/v1/api-keys/${other.id}/rotate`, {
          key: admin,
          rawBody: 'grace=1',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect((await call('POST', `/v1/api-keys/${other.id}/rotate`, { key: stranger })).status).toBe(404);
    await call('DELETE', `/v1/api-keys/${other.id}`, { key: admin });
    expect((await call('POST', `/v1/api-keys/${other.id}/rotate`, { key: admin })).status).toBe(409);
  });

  it('revoke: 204, the key answers 401 afterwards, 404', async () => {
    const doomed = await createKey({ name: 'doomed', scopes: ['keys:manage'] });
    expect((await call('GET', '/v1/api-keys', { key: doomed.key })).status).toBe(200);
    expect((await call('DELETE', `/v1/api-keys/${doomed.id}`, { key: stranger })).status).toBe(404);
    expect((await call('DELETE', `/v1/api-keys/${doomed.id}`, { key: admin })).status).toBe(204);
    expect((await call('GET', `/v1/api-keys/${doomed.id}`, { key: admin })).body.status).toBe('revoked');
    expect((await call('GET', '/v1/api-keys', { key: doomed.key })).status).toBe(401);
    // Revoking twice is harmless.
    expect((await call('DELETE', `/v1/api-keys/${doomed.id}`, { key: admin })).status).toBe(204);
    expect((await call('DELETE', '/v1/api-keys/key_missing', { key: admin })).status).toBe(404);
  });

  it('walked every API keys operation', () => contract.expectTagCovered('API keys'));
});
