// GraphQL charged by cost over HTTP: an operation is charged its points (analytics, renders
// and per-item queries at their price) against the key's per-minute budget, REST's analytics
// routes the same prices; the RateLimit-* headers and Query.rateLimit show the points. Too many
// analytics root fields, or more points than an operation may cost, are refused before
// anything runs. Rate limit 100 points a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_OVERVIEW_QUERY } from '../../dashboard/src/analytics/queries.ts';
import { MAX_ANALYTICS_FIELDS } from '../../src/graphql/limits.ts';
import { CODE_SCANS_POINTS, OVERVIEW_POINTS, WEEKDAY_HOURS_POINTS } from '../../src/modules/analytics/prices.ts';
import { getTestApp, type TestApp, type TestResponse } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

const LIMIT = 100;
const OVERVIEW = 'analyticsOverview(top: 1, timezone: "Asia/Kathmandu") { totalScans }';
const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

const remaining = (res: TestResponse) => Number(res.headers.get('ratelimit-remaining'));

describe('GraphQL charged by cost', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await getTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT), GRAPHQL_MAX_POINTS: '60' });
  });
  afterAll(() => app.close());

  it('refuses 1,500 aliased overviews before running any, charging only the point of reading them', async () => {
    const key = await app.newAccountKey(undefined, { scopes: ['analytics:read'] });
    const res = await app.graphql(key, aliases(1500, OVERVIEW));
    // A validation error, answered with the status the others get.
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe(
      `An operation may hold analyticsOverview and analyticsWeekdayHours together at most ${MAX_ANALYTICS_FIELDS} ` +
        'times (found 1500).',
    );
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(remaining(res)).toBe(LIMIT - 1);
  });

  it('charges an overview its price, in the headers and in Query.rateLimit', async () => {
    const key = await app.newAccountKey(undefined, { scopes: ['analytics:read'] });
    const res = await app.graphql(key, `{ ${OVERVIEW} rateLimit { cost limit remaining resetSeconds } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.rateLimit).toMatchObject({ cost: OVERVIEW_POINTS, limit: LIMIT, remaining: LIMIT - 10 });
    expect(res.body.data.rateLimit.resetSeconds).toBeLessThanOrEqual(60);
    expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(remaining(res)).toBe(LIMIT - OVERVIEW_POINTS);
    // Every analytics root field the cap allows, each at its price.
    const five = aliases(MAX_ANALYTICS_FIELDS, OVERVIEW);
    expect(remaining(await app.graphql(key, five))).toBe(LIMIT - OVERVIEW_POINTS * (1 + MAX_ANALYTICS_FIELDS));
  });

  it('charges the REST analytics routes what their GraphQL fields cost', async () => {
    const key = await app.newAccountKey(undefined, { scopes: ['analytics:read', 'codes:write'] });
    const overview = await app.request('GET', '/v1/analytics/overview', { key });
    expect(overview.status).toBe(200);
    expect(remaining(overview)).toBe(LIMIT - OVERVIEW_POINTS);
    const cells = await app.request('GET', '/v1/analytics/weekday-hours', { key });
    expect(remaining(cells)).toBe(LIMIT - OVERVIEW_POINTS - WEEKDAY_HOURS_POINTS);
  });

  it('charges per-code analytics once per code of the page', async () => {
    const key = await app.newAccountKey();
    for (let i = 0; i < 3; i++) await createCode(app, key, { content: `https://example.com/cost-${i}` });
    const res = await app.graphql(
      key,
      '{ codes(first: 4) { edges { node { scanCount scans { totalScans } } } } rateLimit { cost } }',
    );
    expect(res.body.errors).toBeUndefined();
    // The page (1), the batched counts (1), a series per code the page may hold (4 x 5).
    expect(res.body.data.rateLimit.cost).toBe(1 + 1 + 4 * CODE_SCANS_POINTS);
    // The three creates were a point each.
    expect(remaining(res)).toBe(LIMIT - 3 - 22);
  });

  it('refuses an operation over GRAPHQL_MAX_POINTS before it runs, naming its points', async () => {
    const key = await app.newAccountKey();
    const res = await app.graphql(key, '{ codes(first: 100) { edges { node { scans { totalScans } } } } }');
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(
      /^This operation costs 501 points, more than 60, the most one operation/,
    );
    expect(remaining(res)).toBe(LIMIT - 1);
  });

  it('answers 429 with Retry-After when the points exceed what remains, and charges nothing for it', async () => {
    const key = await app.newAccountKey(undefined, { scopes: ['analytics:read'] });
    // 5 x 10 points, then 4 x 10 + 5: five left.
    expect(remaining(await app.graphql(key, aliases(MAX_ANALYTICS_FIELDS, OVERVIEW)))).toBe(LIMIT - 50);
    const spent = await app.graphql(
      key,
      `{ ${aliases(4, OVERVIEW).slice(1, -1)} analyticsWeekdayHours { totalScans } }`,
    );
    expect(remaining(spent)).toBe(5);
    const refused = await app.graphql(key, `{ ${OVERVIEW} }`);
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.body.errors[0].message).toMatch(/costs 10 points and the key had 5 left/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Only the point of reading it was spent.
    expect(remaining(refused)).toBe(4);
    // REST's overview is refused alike, as problem+json, and spends nothing; a cheap call still fits.
    const rest = await app.request('GET', '/v1/analytics/overview', { key });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('content-type')).toContain('application/problem+json');
    expect(rest.body.detail).toMatch(/costs 10 points and the key has 4 of its 100 left/);
    expect(remaining(rest)).toBe(4);
    const cheap = await app.graphql(key, '{ rateLimit { cost remaining } }');
    expect(cheap.body.data.rateLimit).toEqual({ cost: 1, remaining: 3 });
  });

  it("lets the dashboard's account page through at 15 points", async () => {
    const key = await app.newAccountKey(undefined, { scopes: ['analytics:read'] });
    const res = await app.graphql(key, ACCOUNT_OVERVIEW_QUERY, { timezone: 'America/New_York' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.analyticsOverview.totalScans).toBe(0);
    expect(remaining(res)).toBe(LIMIT - OVERVIEW_POINTS - WEEKDAY_HOURS_POINTS);
  });
});

describe('GraphQL points without a rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await getTestApp({ RATE_LIMIT_PER_MINUTE: '0', GRAPHQL_MAX_POINTS: '60' });
  });
  afterAll(() => app.close());

  it('still refuses an operation over GRAPHQL_MAX_POINTS, and reports no rate limit', async () => {
    const key = await app.newAccountKey();
    const over = await app.graphql(key, '{ codes(first: 20) { edges { node { scans { totalScans } } } } }');
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toMatch(/costs 101 points, more than 60/);
    const res = await app.graphql(key, '{ codes(first: 2) { edges { node { id } } } rateLimit { cost } }');
    expect(res.body).toEqual({ data: { codes: { edges: [] }, rateLimit: null } });
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});
