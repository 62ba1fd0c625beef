// An analytics read cannot hold the database for long (ANALYTICS_STATEMENT_TIMEOUT_MS): past the
// bound its statement is stopped and the call answered 503 with Retry-After, through REST and
// GraphQL alike, while the service answers scans and other calls as before. Raw scans answer here
// (ANALYTICS_SOURCE=raw), and a hundred thousand of them make the overview's statements take
// far longer than the 2 ms bound on either engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

const SCANS = 100_000;
const DAY_MS = 86_400_000;
let app: TestApp;
let key: string;
let code: { id: string; scan_url: string };

/** The digits 0-9 as a derived table, for generating rows in SQL on both engines. */
const DIGITS = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;

beforeAll(async () => {
  app = await getTestApp({ ANALYTICS_SOURCE: 'raw', ANALYTICS_STATEMENT_TIMEOUT_MS: '2', RATE_LIMIT_PER_MINUTE: '0' });
  key = await app.newAccountKey('timeouts');
  code = await createCode(app, key);
  const { db } = app.testDb;
  const { account_id: accountId } = await db('codes').where('id', code.id).first('account_id');
  // SCANS raw scans of the code over the past 10 days, in one statement.
  const n = ['a', 'b', 'c', 'e', 'f', 'g'].map((t, i) => `${t}.d * ${10 ** i}`).join(' + ');
  const tables = ['a', 'b', 'c', 'e', 'f', 'g'].map((t) => `${DIGITS} ${t}`).join(', ');
  await db.raw(
    `INSERT INTO scans (code_id, account_id, scanned_at, country, is_bot, visitor_hash, is_unique, is_account_unique)
     SELECT ?, ?, ? + (${n}) * 8, 'IN', 0, 'v', 0, 0 FROM ${tables} WHERE (${n}) < ?`,
    [code.id, accountId, Date.now() - 10 * DAY_MS, SCANS],
  );
});
afterAll(() => app.close());

describe('the analytics statement timeout', () => {
  it('answers a REST overview past it 503 with Retry-After, a problem naming the setting', async () => {
    const res = await app.request('GET', '/v1/analytics/overview?timezone=Asia/Kolkata', { key });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toMatchObject({ status: 503, detail: expect.stringMatching(/ANALYTICS_STATEMENT_TIMEOUT_MS/) });
  });

  it('answers a GraphQL field past it with an UNAVAILABLE error and retryAfter', async () => {
    const res = await app.graphql(key, '{ analyticsOverview(timezone: "Asia/Kolkata") { totalScans } }');
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'UNAVAILABLE', status: 503, retryAfter: 5 });
  });

  it('leaves scans and other calls answered as before', async () => {
    const [scan, list, analytics] = await Promise.all([
      fetch(code.scan_url, { redirect: 'manual' }),
      app.request('GET', '/v1/codes', { key }),
      app.request('GET', '/v1/analytics/overview?timezone=Asia/Kathmandu', { key }),
    ]);
    expect(scan.status).toBe(302);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([code.id]);
    expect(analytics.status).toBe(503);
  });
});
