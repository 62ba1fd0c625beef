// Contract: every domains operation, success and error, validated against the served document.
// DNS answers come from a map (the injected resolver): no lookup leaves the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { fakeDns } from '../support/dns.ts';

const dns = fakeDns();
const txt = dns.txt;

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let readOnly: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp({}, { resolveTxt: dns.resolveTxt }));
  key = await app.newAccountKey();
  readOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
});
afterAll(() => app.close());

describe('domains', () => {
  it('add: 201 with Location, 409, 422, 400, 401, 403; list and get: 200, 404', async () => {
    const added = await call('POST', '/v1/domains', {
      key,
      body: { hostname: 'contract.example', fallback_url: 'https://example.com/' },
    });
    expect(added.status).toBe(201);
    expect(added.headers.get('location')).toBe(`/v1/domains/${added.body.id}`);
    expect((await call('POST', '/v1/domains', { key, body: { hostname: 'contract.example' } })).status).toBe(409);
    expect(
      (await call('POST', '/v1/domains', { key, body: { hostname: '10.0.0.1', fallback_url: 'nope' } })).body.errors,
    ).toHaveLength(2);
    expect(
      (await call('POST', '/v1/domains', { key, rawBody: '{', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect((await call('POST', '/v1/domains', { body: { hostname: 'x.example' } })).status).toBe(401);
    expect((await call('POST', '/v1/domains', { key: readOnly, body: { hostname: 'x.example' } })).status).toBe(403);
    expect((await call('GET', '/v1/domains', { key })).body.data).toHaveLength(1);
    expect((await call('GET', '/v1/domains')).status).toBe(401);
    expect((await call('GET', `/v1/domains/${added.body.id}`, { key })).status).toBe(200);
    expect((await call('GET', '/v1/domains/dom_nope', { key })).status).toBe(404);
  });

  it('verify: 422 with no record, 200 with it, 404; update: 200, 422, 404; remove: 409 if used, 204, 404', async () => {
    const domain = (await call('POST', '/v1/domains', { key, body: { hostname: 'verify-contract.example' } })).body;
    expect((await call('POST', `/v1/domains/${domain.id}/verify`, { key })).status).toBe(422);
    txt.set(domain.verification.name, [[domain.verification.value]]);
    const verified = await call('POST', `/v1/domains/${domain.id}/verify`, { key });
    expect(verified.body.status).toBe('verified');
    expect((await call('POST', '/v1/domains/dom_nope/verify', { key })).status).toBe(404);
    expect(
      (await call('PATCH', `/v1/domains/${domain.id}`, { key, body: { fallback_url: 'https://example.com/x' } })).body
        .fallback_url,
    ).toBe('https://example.com/x');
    expect((await call('PATCH', `/v1/domains/${domain.id}`, { key, body: { fallback_url: 42 } })).status).toBe(422);
    expect((await call('PATCH', '/v1/domains/dom_nope', { key, body: {} })).status).toBe(404);
    const code = await call('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com/', domain: 'verify-contract.example' },
    });
    expect(code.body.scan_url).toMatch(/^https:\/\/verify-contract\.example\//);
    expect((await call('DELETE', `/v1/domains/${domain.id}`, { key })).status).toBe(409);
    await call('DELETE', `/v1/codes/${code.body.id}`, { key });
    expect((await call('DELETE', `/v1/domains/${domain.id}`, { key })).status).toBe(204);
    expect((await call('DELETE', `/v1/domains/${domain.id}`, { key })).status).toBe(404);
  });

  it('walked every operation of the tag', () => contract.expectTagCovered('Domains'));
});
