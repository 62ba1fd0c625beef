// POST /v1/codes/bulk and bulkCreateCodes: atomic, every problem named, idempotent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHash } from '../../src/http/idempotent.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { countCodes as countCodesOf } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp({ BULK_BODY_LIMIT: '4mb' });
  key = await app.newAccountKey();
});
afterAll(() => app.close());

const item = (i: number, extra: Record<string, unknown> = {}) => ({
  content: `https://example.com/print/${i}`,
  design: { style: i % 2 ? 'dots' : 'branded', fg_color: '#1d4ed8' },
  ...(i % 2 ? {} : { routing: { rules: [{ condition: 'country:DE', destination: `https://example.de/${i}` }] } }),
  ...extra,
});
const items = (n: number) => Array.from({ length: n }, (_, i) => item(i));

const countCodes = (apiKey: string) => countCodesOf(app, apiKey);

describe('POST /v1/codes/bulk', () => {
  it('creates 10,000 codes in request order, all listable, with one batch id', async () => {
    const own = await app.newAccountKey();
    const res = await app.request('POST', '/v1/codes/bulk', { key: own, body: { codes: items(10_000) } });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect(res.body).toMatchObject({
      object: 'bulk_result',
      created: 10_000,
      batch_id: expect.stringMatching(/^batch_/),
    });
    expect(res.body.data.map((c: any) => c.content)).toEqual(items(10_000).map((i) => i.content));
    expect(new Set(res.body.data.map((c: any) => c.scan_url)).size).toBe(10_000);
    expect(res.body.data[0].routing.rules[0]).toMatchObject({
      condition: 'country:DE',
      destination: 'https://example.de/0',
    });
    expect(await countCodes(own)).toBe(10_000);
    // A bulk code is a real code: fetch it and scan it.
    const sample = res.body.data[4321];
    expect((await app.request('GET', `/v1/codes/${sample.id}`, { key: own })).body).toEqual(sample);
    const scan = await app.request('GET', new URL(sample.scan_url).pathname);
    expect(scan.headers.get('location')).toBe(sample.content);
  });

  it('creates nothing when one item of 10,000 is bad, and names it', async () => {
    const own = await app.newAccountKey();
    const codes = items(10_000);
    codes[7777] = item(7777, { content: 'javascript:alert(1)' });
    const res = await app.request('POST', '/v1/codes/bulk', { key: own, body: { codes } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'codes.7777.content', message: 'must be an absolute http:// or https:// URL' },
    ]);
    expect(res.body.detail).toMatch(/1 of 10000 codes are invalid.*none was created/);
    expect(await countCodes(own)).toBe(0);
  });

  it('lists every bad item and field, not just the first', async () => {
    const codes: Record<string, unknown>[] = items(5);
    codes[1] = { content: 'https://example.com', design: { fg_color: 'red' } };
    codes[3] = { content: 'nope', colour: 'blue' } as never;
    const res = await app.request('POST', '/v1/codes/bulk', { key, body: { codes } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual([
      'codes.1.design.fg_color',
      'codes.3.colour',
      'codes.3.content',
    ]);
  });

  it('answers 10,001 items with 413, an empty list with 422, a body over the limit with 413', async () => {
    const tooMany = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: Array.from({ length: 10_001 }, () => ({ content: 'https://e.x/' })) },
    });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.detail).toMatch(/at most 10000/);
    const empty = await app.request('POST', '/v1/codes/bulk', { key, body: { codes: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].path).toBe('codes');
    const huge = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: [{ content: `https://example.com/${'x'.repeat(5 * 1024 * 1024)}` }] },
    });
    expect(huge.status).toBe(413);
    const notAList = await app.request('POST', '/v1/codes/bulk', { key, body: { codes: 'all of them' } });
    expect(notAList.status).toBe(422);
  });
});

describe('scannability check per design and payload class', () => {
  const text = (i: number) => ({ type: 'text', content: { text: `Lot ${i}: ${'x'.repeat(i % 180)}` } });

  it('creates 600 distinct static texts of many QR versions with one design', async () => {
    const res = await app.request('POST', '/v1/codes/bulk', {
      key,
      body: { codes: Array.from({ length: 600 }, (_, i) => text(i)) },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect(res.body.created).toBe(600);
  });

  it('refuses a call that needs more checks than one call may run, naming the limit', async () => {
    const before = await countCodes(key);
    // 51 designs x 1 version x 8 masks = 408 checks.
    const codes = Array.from({ length: 51 }, (_, i) => ({
      content: 'https://example.com/x',
      design: { fg_color: `#0000${(i + 16).toString(16).padStart(2, '0')}` },
    }));
    const res = await app.request('POST', '/v1/codes/bulk', { key, body: { codes } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/408 scannability checks .* one call may run 400/);
    expect(await countCodes(key)).toBe(before);
  });

  it('reports a static text too long for any QR code at its item', async () => {
    const codes = [text(1), { type: 'text', content: { text: 'y'.repeat(2000) }, design: { error_correction: 'H' } }];
    const res = await app.request('POST', '/v1/codes/bulk', { key, body: { codes } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'codes.1.content', message: expect.stringMatching(/too long for a QR code at error_correction H/) },
    ]);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, creating nothing more', async () => {
    const own = await app.newAccountKey();
    const body = { codes: items(20) };
    const first = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body,
      headers: { 'idempotency-key': 'print-run-42' },
    });
    const again = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body,
      headers: { 'idempotency-key': 'print-run-42' },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countCodes(own)).toBe(20);
  });

  it('refuses the same key with another body (422) and keeps keys per account', async () => {
    const own = await app.newAccountKey();
    await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body: { codes: items(2) },
      headers: { 'idempotency-key': 'k1' },
    });
    const other = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body: { codes: items(3) },
      headers: { 'idempotency-key': 'k1' },
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/different request body/);
    const anotherAccount = await app.newAccountKey();
    const theirs = await app.request('POST', '/v1/codes/bulk', {
      key: anotherAccount,
      body: { codes: items(3) },
      headers: { 'idempotency-key': 'k1' },
    });
    expect(theirs.status).toBe(201);
  });

  it('answers 409 to a second request while the first with that key still runs', async () => {
    const own = await app.newAccountKey();
    const body = { codes: items(3) };
    // The record a first request leaves while it runs, written as the service writes it
    // (a timing race between two HTTP calls would make this test flaky).
    const principal = await app.services.accounts.authenticate(own);
    await app.testDb.db('idempotency_keys').insert({
      account_id: principal!.accountId,
      key: 'slow-one',
      request_hash: requestHash('POST /v1/codes/bulk', body),
      state: 'running',
      created_at: Date.now(),
    });
    const second = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body,
      headers: { 'idempotency-key': 'slow-one' },
    });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatch(/still being processed/);
    expect(await countCodes(own)).toBe(0);
  });

  it('forgets keys after 24 hours', async () => {
    const own = await app.newAccountKey();
    const body = { codes: items(1) };
    const first = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body,
      headers: { 'idempotency-key': 'old' },
    });
    await app.testDb
      .db('idempotency_keys')
      .where({ key: 'old' })
      .update({ created_at: Date.now() - 25 * 3600 * 1000 });
    const later = await app.request('POST', '/v1/codes/bulk', {
      key: own,
      body,
      headers: { 'idempotency-key': 'old' },
    });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.batch_id).not.toBe(first.body.batch_id);
  });

  it('works on single creates too, and a failed request releases its key', async () => {
    const own = await app.newAccountKey();
    const bad = await app.request('POST', '/v1/codes', {
      key: own,
      body: { content: 'nope' },
      headers: { 'idempotency-key': 'single' },
    });
    expect(bad.status).toBe(422);
    const first = await app.request('POST', '/v1/codes', {
      key: own,
      body: { content: 'https://example.com/once' },
      headers: { 'idempotency-key': 'single' },
    });
    const replay = await app.request('POST', '/v1/codes', {
      key: own,
      body: { content: 'https://example.com/once' },
      headers: { 'idempotency-key': 'single' },
    });
    expect(first.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get('location')).toBe(`/v1/codes/${first.body.id}`);
    expect(await countCodes(own)).toBe(1);
  });
});

describe('concurrency and GraphQL', () => {
  it('runs two bulk calls at once without deadlock or slug collision', async () => {
    const own = await app.newAccountKey();
    const [a, b] = await Promise.all([
      app.request('POST', '/v1/codes/bulk', { key: own, body: { codes: items(2000) } }),
      app.request('POST', '/v1/codes/bulk', { key: own, body: { codes: items(2000) } }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const slugs = new Set([...a.body.data, ...b.body.data].map((c: any) => c.scan_url));
    expect(slugs.size).toBe(4000);
    expect(await countCodes(own)).toBe(4000);
  });

  it('bulkCreateCodes calls the same service', async () => {
    const res = await app.graphql(
      key,
      `mutation($input: [CreateCodeInput!]!) { bulkCreateCodes(input: $input) { batchId created codes { content ` +
        `scanUrl design { style } } } }`,
      {
        input: [
          { content: 'https://example.com/g1', design: { style: 'rounded' } },
          { type: 'text', content: { text: 'hello' } },
        ],
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bulkCreateCodes).toMatchObject({
      batchId: expect.stringMatching(/^batch_/),
      created: 2,
      codes: [
        { content: 'https://example.com/g1', design: { style: 'rounded' } },
        { content: { text: 'hello' }, scanUrl: null },
      ],
    });
    const invalid = await app.graphql(
      key,
      `mutation { bulkCreateCodes(input: [{ content: "https://ok.example" }, { content: "ftp://no" }]) { created } }`,
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'codes.1.content' }],
    });
  });
});
