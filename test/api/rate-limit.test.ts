// Rate limits over HTTP: per key on REST and GraphQL (one count for both), bulk calls against
// their own lower limit too, per address on the scan route. The same suite runs with the
// counts in memory and on Redis (REDIS_URL); on Redis two instances share one count, and a
// Redis that is down lets calls through (fail open) with a warning.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequestListener } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import { getTestApp, type TestApp, type TestResponse } from '../support/app.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { createCode } from '../support/factories.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMITS = {
  RATE_LIMIT_PER_MINUTE: '5',
  BULK_RATE_LIMIT_PER_MINUTE: '2',
  SCAN_RATE_LIMIT_PER_MINUTE: '3',
  TRUST_PROXY: 'true',
};

/** A second instance on the same database, as a load balancer would have behind it. */
async function startInstance(testDb: TestDb, env: Record<string, string>, logger = pino({ level: 'silent' })) {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: testDb.url,
    PUBLIC_BASE_URL: url,
    ...env,
  });
  const services: Services = await createServices(testDb.db, config, logger);
  server.on('request', buildRequestListener({ services, logger }));
  return {
    url,
    services,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
    },
  };
}

function expectLimitHeaders(res: TestResponse, limit: number, remaining: number) {
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(res.headers.get('ratelimit-reset'));
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectRefused(res: TestResponse, limit: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
  expectLimitHeaders(res, limit, 0);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe.each([
  ['memory', {}],
  ['Redis', { REDIS_URL }],
])('rate limits counted in %s', (_store, env: Record<string, string>) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await getTestApp({ ...LIMITS, ...env });
  });
  afterAll(() => app.close());

  it('counts every call of a key, REST and GraphQL alike, and refuses the sixth with 429', async () => {
    const key = await app.newAccountKey();
    for (let i = 0; i < 4; i++) {
      const res = await app.request('GET', '/v1/codes', { key });
      expect(res.status).toBe(200);
      expectLimitHeaders(res, 5, 4 - i);
    }
    // A failing call counts too, and carries the headers.
    const invalid = await app.request('POST', '/v1/codes', { key, body: { content: 'not a url' } });
    expect(invalid.status).toBe(422);
    expectLimitHeaders(invalid, 5, 0);

    const refused = await app.request('GET', '/v1/codes', { key });
    expectRefused(refused, 5);
    expect(refused.body.detail).toMatch(/more than 5 calls in a minute/);
    // GraphQL shares the key's count.
    expectRefused(await app.graphql(key, '{ codes(first: 1) { edges { node { id } } } }'), 5);

    // Another key of the same process is not affected.
    const other = await app.request('GET', '/v1/codes', { key: await app.newAccountKey() });
    expect(other.status).toBe(200);
    expectLimitHeaders(other, 5, 4);
  });

  it('charges a GraphQL request a point per root field, its page sizes aside', async () => {
    const key = await app.newAccountKey();
    const res = await app.graphql(
      key,
      '{ a: codes(first: 100) { edges { node { id } } } b: codes(first: 2) { edges { node { id } } } webhooks { ' +
        'edges { node { id } } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expectLimitHeaders(res, 5, 2);
    // Two points are left: a three-point request is refused and charged nothing but the point
    // of reading it; a two-point one still runs.
    const refused = await app.graphql(
      key,
      '{ a: codes { edges { node { id } } } b: tags { edges { node { id } } } c: webhooks { edges { node { id } } } }',
    );
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.body.errors[0].message).toMatch(/costs 3 points and the key had 2 left/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expectLimitHeaders(refused, 5, 1);
    const cheap = await app.graphql(key, '{ codes { edges { node { id } } } }');
    expect(cheap.body.errors).toBeUndefined();
    expectLimitHeaders(cheap, 5, 0);
  });

  it('answers unauthenticated calls without counting them', async () => {
    const res = await app.request('GET', '/v1/codes', { key: 'qrk_nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });

  it('counts a bulk call once against the key and once against the lower bulk limit', async () => {
    const key = await app.newAccountKey();
    const bulk = () =>
      app.request('POST', '/v1/codes/bulk', { key, body: { codes: [{ content: 'https://example.com/bulk' }] } });
    const first = await bulk();
    expect(first.status).toBe(201);
    // The headers show the limit that runs out first: the bulk one.
    expectLimitHeaders(first, 2, 1);
    expectLimitHeaders(await bulk(), 2, 0);
    const third = await bulk();
    expectRefused(third, 2);
    expect(third.body.detail).toMatch(/more than 2 bulk calls in a minute/);
    // Other calls go on: three of the key's five are spent.
    const list = await app.request('GET', '/v1/codes', { key });
    expect(list.status).toBe(200);
    expectLimitHeaders(list, 5, 1);
  });

  it('applies the bulk limit to bulkCreateCodes, with RATE_LIMITED and Retry-After', async () => {
    const key = await app.newAccountKey();
    const mutation = 'mutation($input: [CreateCodeInput!]!) { bulkCreateCodes(input: $input) { created } }';
    const input = [{ content: 'https://example.com/gql-bulk' }];
    expect((await app.graphql(key, mutation, { input })).body.data.bulkCreateCodes.created).toBe(1);
    expect((await app.graphql(key, mutation, { input })).body.data.bulkCreateCodes.created).toBe(1);
    const refused = await app.graphql(key, mutation, { input });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.body.errors[0].extensions.http).toBeUndefined();
    // Nothing was created by the refused call.
    expect((await app.request('GET', '/v1/codes', { key })).body.data).toHaveLength(2);
  });

  it('limits scans per visitor address, with a small 429 page or problem and Retry-After', async () => {
    const code = await createCode(app, await app.newAccountKey());
    const path = new URL(code.scan_url).pathname;
    const scan = (ip: string, accept = 'text/html') =>
      fetch(app.url + path, { redirect: 'manual', headers: { 'x-forwarded-for': ip, accept } });
    const ip = '203.0.113.7';
    for (let i = 0; i < 3; i++) expect((await scan(ip)).status).toBe(302);
    const page = await scan(ip);
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(page.headers.get('ratelimit-remaining')).toBe('0');
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('Too many scans');
    const problem = await scan(ip, 'application/json');
    expect(problem.status).toBe(429);
    expect(problem.headers.get('content-type')).toBe('application/problem+json');
    expect(await problem.json()).toMatchObject({ type: '/problems/rate-limited', status: 429 });
    // Unknown slugs count too (guessing is what the limit is for), and other addresses scan on.
    expect((await fetch(`${app.url}/Zz9Zz9Zz9`, { headers: { 'x-forwarded-for': ip } })).status).toBe(429);
    expect((await scan('198.51.100.1')).status).toBe(302);
  });
});

describe('rate limits on Redis across instances', () => {
  let app: TestApp;
  let second: Awaited<ReturnType<typeof startInstance>>;
  beforeAll(async () => {
    app = await getTestApp({ ...LIMITS, REDIS_URL });
    second = await startInstance(app.testDb, { ...LIMITS, REDIS_URL, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await second.close();
    await app.close();
  });

  it('shares one count per key between the instances', async () => {
    const key = await app.newAccountKey();
    const on = (url: string) => fetch(`${url}/v1/codes`, { headers: { authorization: `Bearer ${key}` } });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await on(i % 2 ? second.url : app.url));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0', '0']);
  });
});

describe('rate limits when Redis is down', () => {
  let testDb: TestDb;
  let instance: Awaited<ReturnType<typeof startInstance>>;
  const lines: string[] = [];
  beforeAll(async () => {
    testDb = await createTestDb();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // Nothing listens on port 1: every count fails.
    instance = await startInstance(
      testDb,
      { ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' },
      pino({ level: 'warn' }, sink),
    );
  });
  afterAll(async () => {
    await instance.close();
    await testDb.destroy();
  });

  it('lets every call through uncounted (fail open) and logs a warning', async () => {
    const { key } = await instance.services.accounts.issueKey('fail-open');
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${instance.url}/v1/codes`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    expect(lines.some((line) => line.includes('rate limit store (Redis) unavailable'))).toBe(true);
  });
});
