// Contract: every tag operation, success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let reader: string;
let stranger: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
  reader = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
  stranger = await app.newAccountKey();
});
afterAll(() => app.close());

describe('tags', () => {
  it('create: 201 with Location, 409 for a taken name, 422, 400, 415, 401, 403', async () => {
    const created = await call('POST', '/v1/tags', { key, body: { name: 'print', color: '#E8710A' } });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/tags/${created.body.id}`);
    expect((await call('POST', '/v1/tags', { key, body: { name: 'PRINT' } })).status).toBe(409);
    const invalid = await call('POST', '/v1/tags', { key, body: { name: '', color: 'red', extra: 1 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['color', 'extra', 'name']);
    expect(
      (await call('POST', '/v1/tags', { key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/v1/tags', {
          key,
          rawBody: 'name=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(415);
    expect((await call('POST', '/v1/tags', { body: { name: 'x' } })).status).toBe(401);
    expect((await call('POST', '/v1/tags', { key: reader, body: { name: 'x' } })).status).toBe(403);
  });

  it('list: 200 with code counts and next_cursor, 422', async () => {
    await call('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com/contract-tags', tags: ['print', 'menu'] },
    });
    const first = await call('GET', '/v1/tags?limit=1', { key });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject([{ name: 'menu', code_count: 1 }]);
    const next = await call('GET', `/v1/tags?limit=1&cursor=${first.body.next_cursor}`, { key });
    expect(next.body.data).toMatchObject([{ name: 'print', code_count: 1 }]);
    expect((await call('GET', '/v1/tags?limit=501', { key })).status).toBe(422);
  });

  it('get, update, delete: 200, 204, 404 for another account’s and an unknown id, 409, 422', async () => {
    const tag = (await call('POST', '/v1/tags', { key, body: { name: 'poster' } })).body;
    expect((await call('GET', `/v1/tags/${tag.id}`, { key })).status).toBe(200);
    expect((await call('GET', `/v1/tags/${tag.id}`, { key: stranger })).status).toBe(404);
    expect((await call('GET', '/v1/tags/tag_missing', { key })).status).toBe(404);
    expect(
      (await call('PATCH', `/v1/tags/${tag.id}`, { key, body: { name: 'Poster', color: '#000000' } })).status,
    ).toBe(200);
    expect((await call('PATCH', `/v1/tags/${tag.id}`, { key, body: { name: 'Print' } })).status).toBe(409);
    expect((await call('PATCH', `/v1/tags/${tag.id}`, { key, body: { color: 'black' } })).status).toBe(422);
    expect((await call('PATCH', `/v1/tags/${tag.id}`, { key: stranger, body: { name: 'mine' } })).status).toBe(404);
    expect((await call('DELETE', `/v1/tags/${tag.id}`, { key: stranger })).status).toBe(404);
    expect((await call('DELETE', `/v1/tags/${tag.id}`, { key })).status).toBe(204);
    expect((await call('DELETE', `/v1/tags/${tag.id}`, { key })).status).toBe(404);
  });

  it('walked every tags operation', () => contract.expectTagCovered('Tags'));
});
