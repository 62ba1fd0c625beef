// Contract: every uploaded-image operation, success and error, validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { formWithFile, pngOf } from '../support/upload-fixtures.ts';

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

describe('uploaded images', () => {
  it('upload: 201, 422, 401, 403; list, get and content: 200, 404, 422; delete: 409, 204, 404', async () => {
    const created = await call('POST', '/v1/images', { key, ...formWithFile(pngOf()) });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/images/${created.body.id}`);
    expect((await call('POST', '/v1/images', { key, ...formWithFile(Buffer.from('not an image')) })).status).toBe(422);
    expect((await call('POST', '/v1/images', formWithFile(pngOf()))).status).toBe(401);
    expect((await call('POST', '/v1/images', { key: reader, ...formWithFile(pngOf()) })).status).toBe(403);

    expect((await call('GET', '/v1/images', { key })).body.data).toHaveLength(1);
    expect((await call('GET', '/v1/images?cursor=nope', { key })).status).toBe(422);
    expect((await call('GET', `/v1/images/${created.body.id}`, { key })).status).toBe(200);
    expect((await call('GET', '/v1/images/img_nope', { key })).status).toBe(404);
    expect((await call('GET', `/v1/images/${created.body.id}/content`, { key })).status).toBe(200);
    expect((await call('GET', '/v1/images/img_nope/content', { key })).status).toBe(404);

    const code = await app.request('POST', '/v1/codes', {
      key,
      body: { content: 'https://example.com', design: { logo_image_id: created.body.id } },
    });
    expect(code.status, code.text).toBe(201);
    expect((await call('DELETE', `/v1/images/${created.body.id}`, { key })).status).toBe(409);
    await app.request('DELETE', `/v1/codes/${code.body.id}`, { key });
    expect((await call('DELETE', `/v1/images/${created.body.id}`, { key })).status).toBe(204);
    expect((await call('DELETE', `/v1/images/${created.body.id}`, { key })).status).toBe(404);
    contract.expectTagCovered('Uploaded images');
  });
});
