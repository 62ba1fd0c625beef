// Contract: every UTM template operation, success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let reader: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
  reader = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
});
afterAll(() => app.close());

describe('UTM templates', () => {
  it('create: 201 with Location, 422, 401, 403; list and get: 200, 404', async () => {
    const created = await call('POST', '/v1/utm-templates', {
      key,
      body: { name: 'Posters', utm_source: 'poster', utm_medium: 'print' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/utm-templates/${created.body.id}`);
    expect((await call('POST', '/v1/utm-templates', { key, body: { name: 'none' } })).status).toBe(422);
    expect((await call('POST', '/v1/utm-templates', { body: { name: 'x', utm_source: 'x' } })).status).toBe(401);
    const forbidden = await call('POST', '/v1/utm-templates', { key: reader, body: { name: 'x', utm_source: 'x' } });
    expect(forbidden.status).toBe(403);
    expect((await call('GET', '/v1/utm-templates', { key })).body.data).toHaveLength(1);
    expect((await call('GET', '/v1/utm-templates')).status).toBe(401);
    expect((await call('GET', `/v1/utm-templates/${created.body.id}`, { key })).status).toBe(200);
    expect((await call('GET', '/v1/utm-templates/utm_nope', { key })).status).toBe(404);
  });

  it('update: 200, 422, 404; delete: 204, 404', async () => {
    const template = (await call('POST', '/v1/utm-templates', { key, body: { name: 't', utm_source: 'a' } })).body;
    const path = `/v1/utm-templates/${template.id}`;
    expect((await call('PATCH', path, { key, body: { utm_campaign: 'c' } })).body.utm_campaign).toBe('c');
    expect((await call('PATCH', path, { key, body: { utm_source: null, utm_campaign: null } })).status).toBe(422);
    expect((await call('PATCH', '/v1/utm-templates/utm_nope', { key, body: {} })).status).toBe(404);
    expect((await call('DELETE', path, { key })).status).toBe(204);
    expect((await call('DELETE', path, { key })).status).toBe(404);
  });

  it('walked every operation of the tag', () => contract.expectTagCovered('UTM templates'));
});
