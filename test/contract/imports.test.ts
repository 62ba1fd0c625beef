// Contract: POST /v1/imports, dry run, real run and its errors, validated against the served document.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { contractClient, loadContract, type Contract } from '../support/contract.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;

const content = readFileSync(new URL('../fixtures/imports/yourls.csv', import.meta.url), 'utf8');

beforeAll(async () => {
  app = await getTestApp();
  contract = await loadContract(app);
  call = contractClient(app, contract);
  key = await app.newAccountKey();
});
afterAll(() => app.close());

describe('imports', () => {
  it('200 for a dry run and a run that creates nothing, 201 when it creates, 422, 415, 401, 403', async () => {
    const body = { format: 'yourls_csv', content };
    expect((await call('POST', '/v1/imports', { key, body: { ...body, dry_run: true } })).status).toBe(200);
    const created = await call('POST', '/v1/imports', { key, body, headers: { 'idempotency-key': 'import-1' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'import', created: 2, failed: 2 });
    const replayed = await call('POST', '/v1/imports', { key, body, headers: { 'idempotency-key': 'import-1' } });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('POST', '/v1/imports', { key, body })).body).toMatchObject({ created: 0, existing: 2 });
    expect((await call('POST', '/v1/imports', { key, body: { format: 'csv', content } })).status).toBe(422);
    const csv = await call('POST', '/v1/imports', { key, rawBody: content, headers: { 'content-type': 'text/csv' } });
    expect(csv.status).toBe(415);
    expect((await call('POST', '/v1/imports', { body })).status).toBe(401);
    const reader = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
    expect((await call('POST', '/v1/imports', { key: reader, body })).status).toBe(403);
  });

  it('walked every imports operation', () => contract.expectTagCovered('Imports'));
});
