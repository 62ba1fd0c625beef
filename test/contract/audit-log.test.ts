// Contract: the audit log's operation, JSON and CSV, success and error, validated against the
// served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let narrow: string;

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
  narrow = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
});
afterAll(() => app.close());

describe('audit log', () => {
  it('list: 200 as JSON pages and as CSV, 422, 401, 403', async () => {
    const code = await call('POST', '/v1/codes', { key, body: { content: 'https://example.com/contract-audit' } });
    expect(code.status, code.text).toBe(201);
    await call('PATCH', `/v1/codes/${code.body.id}`, { key, body: { destination: 'https://example.com/moved' } });
    const first = await call('GET', '/v1/audit-log?limit=1', { key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject([{ action: 'code.updated', object_id: code.body.id }]);
    const next = await call('GET', `/v1/audit-log?limit=1&cursor=${first.body.next_cursor}`, { key });
    expect(next.body.data).toMatchObject([{ action: 'code.created' }]);
    const csv = await call('GET', `/v1/audit-log?format=csv&object_id=${code.body.id}`, { key });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\n')).toHaveLength(3);
    expect((await call('GET', '/v1/audit-log?action=nope', { key })).status).toBe(422);
    expect((await call('GET', '/v1/audit-log')).status).toBe(401);
    expect((await call('GET', '/v1/audit-log', { key: narrow })).status).toBe(403);
  });

  it('walked every audit log operation', () => contract.expectTagCovered('Audit log'));
});
