// Contract: every bulk operation (JSON and CSV creation, the batch ZIP), success and error,
// validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHash } from '../../src/http/idempotent.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { contractClient, loadContract, type Contract } from '../support/contract.ts';
import { accountIdOf } from '../support/scans.ts';

let app: TestApp;
/** Small limits: a 2 KiB bulk body and two bulk calls a minute. */
let limited: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let callLimited: ReturnType<typeof contractClient>;
let key: string;
let readOnly: string;
let batchId: string;

const HEADER = 'type,content,fg_color,style';
const postCsv = (apiKey: string, text: string) =>
  call('POST', '/v1/codes/bulk', {
    key: apiKey,
    rawBody: text,
    headers: { 'content-type': 'text/csv; charset=utf-8' },
  });

beforeAll(async () => {
  app = await getTestApp();
  limited = await getTestApp({ BULK_BODY_LIMIT: '2kb', BULK_RATE_LIMIT_PER_MINUTE: '2' });
  contract = await loadContract(app);
  call = contractClient(app, contract);
  callLimited = contractClient(limited, contract);
  key = await app.newAccountKey();
  readOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
});
afterAll(async () => {
  await limited.close();
  await app.close();
});

describe('bulk creation', () => {
  it('JSON: 201 with every code, 422 naming every invalid item, 400, 413, 415, 401, 403', async () => {
    const created = await call('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/t/1', design: { style: 'rounded', fg_color: '#1a73e8' } },
          { type: 'text', content: { text: 'Table 2' } },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'bulk_result', created: 2 });
    batchId = created.body.batch_id;

    const invalid = await call('POST', '/v1/codes/bulk', {
      key,
      body: {
        codes: [
          { content: 'https://example.com/ok' },
          { content: 'ftp://nope', design: { fg_color: 'red' } },
          { type: 'text', content: {} },
        ],
      },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'codes.1.content',
      'codes.1.design.fg_color',
      'codes.2.content.text',
    ]);
    expect((await call('POST', '/v1/codes/bulk', { key, body: { codes: [] } })).status).toBe(422);
    expect((await call('POST', '/v1/codes/bulk', { key, body: { codes: 'all of them' } })).status).toBe(422);

    expect(
      (
        await call('POST', '/v1/codes/bulk', {
          key,
          rawBody: '{"codes":[',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const tooMany = await call('POST', '/v1/codes/bulk', {
      key,
      body: { codes: Array.from({ length: 10_001 }, () => ({ content: 'https://e.x/' })) },
    });
    expect(tooMany.status).toBe(413);
    expect(
      (await call('POST', '/v1/codes/bulk', { key, rawBody: 'content=x', headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(415);
    expect(
      (await call('POST', '/v1/codes/bulk', { body: { codes: [{ content: 'https://example.com/' }] } })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/v1/codes/bulk', { key: readOnly, body: { codes: [{ content: 'https://example.com/' }] } }))
        .status,
    ).toBe(403);
  });

  it('CSV: 201 in row order, 422 naming rows or a bad header, 400 if malformed, 415 for another charset', async () => {
    const created = await postCsv(
      key,
      `${HEADER}\nurl,https://example.com/csv/1,#1a73e8,rounded\ntext,"{""text"":""Table 2""}",,\n`,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.map((c: { type: string }) => c.type)).toEqual(['url', 'text']);

    const rows = await postCsv(
      key,
      `${HEADER}\n,https://example.com/ok,,\n,https://example.com/bad,red,\n,javascript:alert(1),,\n`,
    );
    expect(rows.status).toBe(422);
    expect(rows.body.errors).toEqual([
      { path: 'row 3.fg_color', message: 'must be a color in the form #rrggbb' },
      { path: 'row 4.content', message: 'must be an absolute http:// or https:// URL' },
    ]);
    expect((await postCsv(key, 'colour,content\nred,https://example.com/\n')).status).toBe(422);
    expect((await postCsv(key, `${HEADER}\n`)).status).toBe(422);
    expect((await postCsv(key, `${HEADER}\nurl,"https://example.com/unclosed\n`)).status).toBe(400);
    const latin1 = await call('POST', '/v1/codes/bulk', {
      key,
      rawBody: `${HEADER}\n,https://example.com/,,\n`,
      headers: { 'content-type': 'text/csv; charset=iso-8859-1' },
    });
    expect(latin1.status).toBe(415);
  });

  it('Idempotency-Key: a replay, 422 for another body, 409 while the first still runs', async () => {
    const own = await app.newAccountKey();
    const body = { codes: [{ content: 'https://example.com/idem/1' }] };
    const headers = { 'Idempotency-Key': 'contract-bulk-1' };
    const first = await call('POST', '/v1/codes/bulk', { key: own, body, headers });
    expect(first.status).toBe(201);
    const again = await call('POST', '/v1/codes/bulk', { key: own, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(
      (
        await call('POST', '/v1/codes/bulk', {
          key: own,
          body: { codes: [{ content: 'https://example.com/idem/2' }] },
          headers,
        })
      ).status,
    ).toBe(422);

    // The record a request leaves while it runs, as the service writes it (a race would be flaky).
    await app.testDb.db('idempotency_keys').insert({
      account_id: await accountIdOf(app, own),
      key: 'contract-running',
      request_hash: requestHash('POST /v1/codes/bulk', body),
      state: 'running',
      created_at: Date.now(),
    });
    expect(
      (await call('POST', '/v1/codes/bulk', { key: own, body, headers: { 'Idempotency-Key': 'contract-running' } }))
        .status,
    ).toBe(409);
  });

  it('the body limit (413, CSV and JSON) and the bulk rate limit (429 with Retry-After)', async () => {
    const limitedKey = await limited.newAccountKey();
    const rows = Array.from({ length: 100 }, (_, i) => `,https://example.com/limit/${i},,`);
    const big = await callLimited('POST', '/v1/codes/bulk', {
      key: limitedKey,
      rawBody: [HEADER, ...rows].join('\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(big.status).toBe(413);
    const bigJson = await callLimited('POST', '/v1/codes/bulk', {
      key: limitedKey,
      body: { codes: rows.map((content) => ({ content })) },
    });
    expect(bigJson.status).toBe(413);
    // Two bulk calls a minute, and both were used.
    const refused = await callLimited('POST', '/v1/codes/bulk', {
      key: limitedKey,
      body: { codes: [{ content: 'https://example.com/' }] },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A fresh key still has its bulk calls.
    expect(
      (
        await callLimited('POST', '/v1/codes/bulk', {
          key: await limited.newAccountKey(),
          body: { codes: [{ content: 'https://example.com/' }] },
        })
      ).status,
    ).toBe(201);
  });
});

describe('batch ZIP', () => {
  it('200 with the ZIP, 404 for an unknown or another account’s batch, 422 for a bad query, 401, 403', async () => {
    const zip = await call('GET', `/v1/batches/${batchId}/images.zip?format=svg&size=128`, { key });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="${batchId}.zip"`);
    expect((await call('GET', `/v1/batches/${batchId}/images.zip?format=png&size=64&margin=2`, { key })).status).toBe(
      200,
    );

    expect((await call('GET', '/v1/batches/batch_missing/images.zip', { key })).status).toBe(404);
    expect((await call('GET', `/v1/batches/${batchId}/images.zip`, { key: await app.newAccountKey() })).status).toBe(
      404,
    );
    const badQuery = await call('GET', `/v1/batches/${batchId}/images.zip?format=gif&size=9`, { key });
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['format', 'size']);
    expect((await call('GET', `/v1/batches/${batchId}/images.zip`)).status).toBe(401);
    const analyticsOnly = await app.newAccountKey(undefined, { scopes: ['analytics:read'] });
    expect((await call('GET', `/v1/batches/${batchId}/images.zip`, { key: analyticsOnly })).status).toBe(403);
  });
});

describe('coverage', () => {
  it('walked every bulk operation', () => contract.expectTagCovered('Bulk'));
});
