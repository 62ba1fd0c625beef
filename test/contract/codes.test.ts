// Contract: every codes operation, success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { codeBody } from '../support/factories.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let readOnly: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
  readOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
});
afterAll(() => app.close());

describe('codes', () => {
  it('create: 201 for url and static codes, 422, 400, 415, 401, 403, and an idempotent replay', async () => {
    const created = await call('POST', '/v1/codes', {
      key,
      body: codeBody({
        design: { style: 'branded' },
        routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de' }] },
      }),
    });
    expect(created.status).toBe(201);
    expect(
      (
        await call('POST', '/v1/codes', {
          key,
          body: { type: 'wifi', content: { ssid: 'Cafe', encryption: 'WPA', password: 'espresso1' } },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('POST', '/v1/codes', {
          key,
          body: { type: 'url', content: 'ftp://nope', design: { fg_color: 'red' } },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await call('POST', '/v1/codes', {
          key,
          rawBody: '{"content":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', '/v1/codes', { key, rawBody: 'content=x', headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(415);
    expect((await call('POST', '/v1/codes', { body: codeBody() })).status).toBe(401);
    expect((await call('POST', '/v1/codes', { key: readOnly, body: codeBody() })).status).toBe(403);
    const body = codeBody();
    const headers = { 'Idempotency-Key': 'contract-1' };
    const first = await call('POST', '/v1/codes', { key, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe(`/v1/codes/${first.body.id}`);
    // A replay answers as the first call did: same status, body and Location, marked replayed.
    const replay = await call('POST', '/v1/codes', { key, body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('location')).toBe(`/v1/codes/${first.body.id}`);
    expect((await call('POST', '/v1/codes', { key, body: codeBody(), headers })).status).toBe(422);
  });

  it('list: 200 with a cursor, 422 on a bad query', async () => {
    const page = await call('GET', '/v1/codes?limit=1', { key });
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    expect((await call('GET', `/v1/codes?limit=1&cursor=${page.body.next_cursor}`, { key })).status).toBe(200);
    expect((await call('GET', '/v1/codes?limit=0&sort=size', { key })).status).toBe(422);
  });

  it('get, update, delete: success and 404, 422', async () => {
    const { body: code } = await call('POST', '/v1/codes', { key, body: codeBody() });
    expect((await call('GET', `/v1/codes/${code.id}`, { key })).status).toBe(200);
    expect((await call('GET', '/v1/codes/qr_missing', { key })).status).toBe(404);
    expect(
      (
        await call('PATCH', `/v1/codes/${code.id}`, {
          key,
          body: { destination: 'https://example.com/new', design: { frame: 'banner' } },
        })
      ).status,
    ).toBe(200);
    expect((await call('PATCH', `/v1/codes/${code.id}`, { key, body: { type: 'text' } })).status).toBe(422);
    expect((await call('PATCH', '/v1/codes/qr_missing', { key, body: {} })).status).toBe(404);
    expect((await call('DELETE', `/v1/codes/${code.id}`, { key })).status).toBe(204);
    expect((await call('DELETE', `/v1/codes/${code.id}`, { key })).status).toBe(404);
  });

  it('a social preview: set on create, 422 for an http image, removed with null', async () => {
    const preview = { title: 'Spring', description: 'Sale', image_url: 'https://cdn.example.com/a.png' };
    const code = (await call('POST', '/v1/codes', { key, body: codeBody({ preview }) })).body;
    expect(code.preview).toEqual(preview);
    const bad = { preview: { image_url: 'http://cdn.example.com/a.png' } };
    expect((await call('PATCH', `/v1/codes/${code.id}`, { key, body: bad })).status).toBe(422);
    expect((await call('PATCH', `/v1/codes/${code.id}`, { key, body: { preview: null } })).body.preview).toBeNull();
  });

  it('walked every codes operation', () => contract.expectTagCovered('Codes'));
});
