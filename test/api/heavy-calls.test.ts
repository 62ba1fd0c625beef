// Expensive calls (analytics, raw exports, bulk imports) take turns per account: past
// HEAVY_CALLS_PER_ACCOUNT running and HEAVY_QUEUE_PER_ACCOUNT waiting, an account is answered 429
// with Retry-After, through REST and GraphQL alike, and what was refused changes nothing. Another
// account's calls and scans are served meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { countCodes, createCode } from '../support/factories.ts';

let app: TestApp;

beforeAll(async () => {
  app = await getTestApp({ HEAVY_CALLS_PER_ACCOUNT: '1', HEAVY_QUEUE_PER_ACCOUNT: '2', RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(() => app.close());

/** `n` aliases of the account overview in one operation: graphql-js starts their resolvers at once. */
const overviews = (n: number) => {
  const fields = Array.from(
    { length: n },
    (_, i) => `a${i}: analyticsOverview(timezone: "Asia/Kolkata") { totalScans }`,
  );
  return `{ ${fields.join(' ')} }`;
};

const refusals = (errors: { extensions: { code: string } }[] = []) =>
  errors.filter((error) => error.extensions.code === 'RATE_LIMITED');

describe('expensive calls per account', () => {
  it('refuses GraphQL overviews past the bound with retryAfter, and serves as many as fit', async () => {
    const key = await app.newAccountKey('aliases');
    // One runs, two wait, the fourth is refused; the overview is non-null, so the answer is null.
    const res = await app.graphql(key, overviews(4));
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const refused = refusals(res.body.errors);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.extensions).toMatchObject({ status: 429, retryAfter: expect.any(Number) });
    expect((refused[0] as unknown as { message: string }).message).toMatch(/HEAVY_CALLS_PER_ACCOUNT/);
    // The refused answer comes as soon as one field failed; the admitted calls end after it. Once
    // they did, the account's turns are free again: three at once fit.
    let fitting = await app.graphql(key, overviews(3));
    for (let tries = 0; fitting.body.errors && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      fitting = await app.graphql(key, overviews(3));
    }
    expect(fitting.body.errors).toBeUndefined();
    expect(Object.keys(fitting.body.data)).toHaveLength(3);
  });

  it("does not count one account's calls against another's, nor hold its scans", async () => {
    const noisy = await app.newAccountKey('noisy');
    const quiet = await app.newAccountKey('quiet');
    const code = await createCode(app, quiet, { content: 'https://example.com/quiet' });
    const flood = app.graphql(noisy, overviews(4));
    const [mine, scan] = await Promise.all([
      app.graphql(quiet, overviews(3)),
      fetch(code.scan_url, { redirect: 'manual' }),
    ]);
    expect(mine.body.errors).toBeUndefined();
    expect(scan.status).toBe(302);
    expect(refusals((await flood).body.errors).length).toBeGreaterThanOrEqual(1);
  });

  it('answers a bulk import past the bound with a 429 problem and Retry-After, creating nothing', async () => {
    const key = await app.newAccountKey('bulk');
    const body = (tag: string) => ({
      codes: Array.from({ length: 300 }, (_, i) => ({ content: `https://example.com/${tag}/${i}` })),
    });
    // One runs, two wait, the fourth is refused whichever arrives last.
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((tag) => app.request('POST', '/v1/codes/bulk', { key, body: body(tag) })),
    );
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(1);
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    expect(refused[0]!.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.body.detail).toMatch(/HEAVY_QUEUE_PER_ACCOUNT/);
    expect(await countCodes(app, key)).toBe(3 * 300);
  });
});

describe.runIf(process.env.DATABASE_URL?.startsWith('mysql://'))('the scan route on MySQL', () => {
  it('reads a code missing from its cache while API work holds every connection of the main pool', async () => {
    const key = await app.newAccountKey('pool');
    const code = await createCode(app, key, { content: 'https://example.com/pool' });
    app.services.scans.targets.clear();
    // The main pool's ten connections, each held by an open transaction as long API calls would.
    const held = await Promise.all(Array.from({ length: 10 }, () => app.testDb.db.transaction()));
    try {
      const scan = await fetch(code.scan_url, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      expect(scan.status).toBe(302);
      expect(scan.headers.get('location')).toBe('https://example.com/pool');
    } finally {
      await Promise.all(held.map((trx) => trx.rollback()));
    }
  });
});
