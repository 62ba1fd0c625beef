// Scan analytics over HTTP against hand-made scan sets with known answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { recordScans, type ScanSpec } from '../support/scans.ts';

let app: TestApp;
let key: string;
let code: { id: string };
let quiet: { id: string };

// Visitor a scans twice on 2 March and again on 3 March (UTC); b once late on 2 March, which is
// already 3 March in Berlin; a bot once; nothing on 1 or 4 March.
const SCANS: ScanSpec[] = [
  { at: '2026-03-02T10:00:00Z', visitor: 'a', country: 'US', device: 'ios', referrer: 'news.example' },
  { at: '2026-03-02T10:30:00Z', visitor: 'a', country: 'US', device: 'ios', referrer: 'news.example' },
  { at: '2026-03-02T12:00:00Z', visitor: 'crawler', bot: true, country: 'US', device: 'desktop' },
  {
    at: '2026-03-02T23:30:00Z',
    visitor: 'b',
    country: 'DE',
    device: 'desktop',
    os: 'Windows',
    browser: 'Chrome',
    language: 'de',
    ruleId: 'rule_de',
  },
  { at: '2026-03-03T09:00:00Z', visitor: 'a', country: 'US', device: 'ios' },
];

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
  code = await createCode(app, key);
  quiet = await createCode(app, key);
  await recordScans(app, key, code, SCANS);
});
afterAll(() => app.close());

const get = (path: string, k = key) => app.request('GET', path, { key: k });
const series = (body: any) => body.timeseries.map((p: any) => [p.period, p.scans, p.unique_scans]);

describe('GET /v1/codes/:id/scans', () => {
  it('counts per UTC day with empty days as zero, bots excluded, uniques per visitor and day', async () => {
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-04`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code_id: code.id,
      granularity: 'day',
      timezone: 'UTC',
      include_bots: false,
      total_scans: 4,
      unique_scans: 3,
    });
    expect(res.body.from).toBe('2026-03-01T00:00:00.000Z');
    expect(res.body.to).toBe('2026-03-05T00:00:00.000Z');
    expect(series(res.body)).toEqual([
      ['2026-03-01T00:00:00.000Z', 0, 0],
      ['2026-03-02T00:00:00.000Z', 3, 2],
      ['2026-03-03T00:00:00.000Z', 1, 1],
      ['2026-03-04T00:00:00.000Z', 0, 0],
    ]);
  });

  it('counts bots when asked', async () => {
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-04&include_bots=true`);
    expect(res.body).toMatchObject({ total_scans: 5, unique_scans: 4 });
    expect(res.body.breakdowns.device).toEqual([
      { value: 'ios', scans: 3 },
      { value: 'desktop', scans: 2 },
    ]);
  });

  it('moves the day boundary with the time zone (Berlin is UTC+1 in March)', async () => {
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-02&to=2026-03-03&timezone=Europe/Berlin`);
    expect(res.body.from).toBe('2026-03-02T00:00:00.000+01:00');
    expect(series(res.body)).toEqual([
      ['2026-03-02T00:00:00.000+01:00', 2, 1],
      ['2026-03-03T00:00:00.000+01:00', 2, 2],
    ]);
  });

  it('answers zones with half-hour offsets exactly (from the quarter-hour rollups)', async () => {
    // Kolkata is UTC+5:30: b's 23:30Z scan is 05:00 on 3 March there.
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-02&to=2026-03-03&timezone=Asia/Kolkata`);
    expect(series(res.body)).toEqual([
      ['2026-03-02T00:00:00.000+05:30', 2, 1],
      ['2026-03-03T00:00:00.000+05:30', 2, 2],
    ]);
  });

  it('counts a visitor once per UTC day across a week (hashes rotate daily)', async () => {
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-02&to=2026-03-08&granularity=week`);
    expect(series(res.body)).toEqual([['2026-03-02T00:00:00.000Z', 4, 3]]);
  });

  it('buckets by hour and by month', async () => {
    const hours = await get(
      `/v1/codes/${code.id}/scans?from=2026-03-02T09:00:00Z&to=2026-03-02T12:00:00Z&granularity=hour`,
    );
    expect(series(hours.body)).toEqual([
      ['2026-03-02T09:00:00.000Z', 0, 0],
      ['2026-03-02T10:00:00.000Z', 2, 1],
      ['2026-03-02T11:00:00.000Z', 0, 0],
    ]);
    const months = await get(`/v1/codes/${code.id}/scans?from=2026-02-01&to=2026-03-31&granularity=month`);
    expect(series(months.body)).toEqual([
      ['2026-02-01T00:00:00.000Z', 0, 0],
      ['2026-03-01T00:00:00.000Z', 4, 3],
    ]);
  });

  it('breaks down by every dimension, naming the fallback route "default"', async () => {
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-04`);
    expect(res.body.breakdowns).toEqual({
      country: [
        { value: 'US', scans: 3 },
        { value: 'DE', scans: 1 },
      ],
      // No city database here (GEOIP_CITY_DB): nothing to count, not even as null.
      region: [],
      city: [],
      device: [
        { value: 'ios', scans: 3 },
        { value: 'desktop', scans: 1 },
      ],
      os: [
        { value: 'iOS', scans: 3 },
        { value: 'Windows', scans: 1 },
      ],
      browser: [
        { value: 'Safari', scans: 3 },
        { value: 'Chrome', scans: 1 },
      ],
      // Ties go by value, and "none" sorts first.
      referrer: [
        { value: null, scans: 2 },
        { value: 'news.example', scans: 2 },
      ],
      language: [
        { value: 'en', scans: 3 },
        { value: 'de', scans: 1 },
      ],
      rule: [
        { value: 'default', scans: 3 },
        { value: 'rule_de', scans: 1 },
      ],
    });
  });

  it('limits breakdowns to `top` values', async () => {
    const res = await get(`/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-04&top=1`);
    expect(res.body.breakdowns.country).toEqual([{ value: 'US', scans: 3 }]);
  });

  it('defaults to the last 30 days by day in UTC', async () => {
    const res = await get(`/v1/codes/${quiet.id}/scans`);
    expect(res.status).toBe(200);
    expect(res.body.timeseries).toHaveLength(30);
    expect(res.body.timeseries.every((p: any) => p.scans === 0)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.timeseries[29].period).toBe(`${today}T00:00:00.000Z`);
  });

  it.each([
    ['from=2026-03-05&to=2026-03-01', 'from'],
    ['from=2026-03-01&to=2026-03-01T00:00:00Z', 'from'],
    ['granularity=minute', 'granularity'],
    ['timezone=Mars/Olympus', 'timezone'],
    ['from=yesterday', 'from'],
    ['include_bots=maybe', 'include_bots'],
    ['top=0', 'top'],
    ['from=2026-01-01&to=2026-03-01&granularity=hour', 'to'],
    ['from=2020-01-01&to=2026-01-01', 'to'],
    ['color=red', 'color'],
  ])('refuses %s with a 422 on %s', async (query, path) => {
    const res = await get(`/v1/codes/${code.id}/scans?${query}`);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors.map((e: any) => e.path)).toContain(path);
  });

  it('answers 404 for unknown and deleted codes', async () => {
    expect((await get('/v1/codes/qr_doesnotexist/scans')).status).toBe(404);
    const gone = await createCode(app, key);
    await app.request('DELETE', `/v1/codes/${gone.id}`, { key });
    expect((await get(`/v1/codes/${gone.id}/scans`)).status).toBe(404);
  });
});

describe('GET /v1/analytics/overview', () => {
  it("counts a deleted code's scans nowhere from its deletion on: not in totals, top or active codes", async () => {
    const own = await app.newAccountKey();
    const [kept, gone] = [await createCode(app, own), await createCode(app, own)];
    await recordScans(app, own, kept, [{ at: '2026-04-02T10:00:00Z', visitor: 'k' }]);
    await recordScans(app, own, gone, [
      { at: '2026-04-02T11:00:00Z', visitor: 'g1' },
      { at: '2026-04-02T12:00:00Z', visitor: 'g2' },
    ]);
    const before = (await get('/v1/analytics/overview?from=2026-04-01&to=2026-04-03', own)).body;
    expect(before).toMatchObject({ total_scans: 3, active_codes: 2 });
    expect(before.top_codes.map((c: any) => [c.id, c.scans])).toEqual([
      [gone.id, 2],
      [kept.id, 1],
    ]);
    expect((await app.request('DELETE', `/v1/codes/${gone.id}`, { key: own })).status).toBe(204);
    const after = (await get('/v1/analytics/overview?from=2026-04-01&to=2026-04-03', own)).body;
    expect(after).toMatchObject({ total_scans: 1, active_codes: 1 });
    expect(after.top_codes.map((c: any) => [c.id, c.scans])).toEqual([[kept.id, 1]]);
  });

  it('sums the account with top codes, trend, breakdowns and the previous period', async () => {
    const res = await get('/v1/analytics/overview?from=2026-03-01&to=2026-03-04');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_scans: 4, unique_scans: 3, active_codes: 1 });
    expect(res.body.total_codes).toBeGreaterThanOrEqual(2);
    expect(res.body.top_codes).toEqual([
      { id: code.id, name: null, type: 'url', content: expect.any(String), scans: 4 },
    ]);
    expect(res.body.trend.map((p: any) => p.scans)).toEqual([0, 3, 1, 0]);
    // One code was scanned in the range: the account's breakdowns are that code's (checked
    // value by value above), for the dimensions the overview keeps.
    const {
      language: _language,
      rule: _rule,
      ...codeBreakdowns
    } = (await get(`/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-04`)).body.breakdowns;
    expect(res.body.breakdowns).toEqual(codeBreakdowns);
    expect(Object.keys(res.body.breakdowns)).toEqual([
      'country',
      'region',
      'city',
      'device',
      'os',
      'browser',
      'referrer',
    ]);
    expect(res.body.previous_period).toEqual({
      from: '2026-02-25T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      total_scans: 0,
      change_pct: null,
    });
  });

  it('lists top_codes codes when asked for fewer (or more) than top values per breakdown', async () => {
    const own = await app.newAccountKey();
    const codes = [await createCode(app, own), await createCode(app, own), await createCode(app, own)];
    for (const [i, c] of codes.entries())
      await recordScans(
        app,
        own,
        c,
        Array.from({ length: 3 - i }, (_, k) => ({
          at: `2026-04-02T1${k}:00:00Z`,
          visitor: `v${i}${k}`,
          country: 'DE',
        })),
      );
    const overview = async (query: string) => {
      const res = await get(`/v1/analytics/overview?from=2026-04-01&to=2026-04-03&${query}`, own);
      expect(res.status).toBe(200);
      return res.body;
    };
    const fewer = await overview('top=3&top_codes=1');
    expect(fewer.top_codes.map((c: any) => [c.id, c.scans])).toEqual([[codes[0]!.id, 3]]);
    expect(fewer).toMatchObject({ active_codes: 3, total_scans: 6 });
    expect(fewer.breakdowns.device).toEqual([{ value: 'mobile', scans: 6 }]);
    const more = await overview('top=1&top_codes=2');
    expect(more.top_codes.map((c: any) => c.id)).toEqual([codes[0]!.id, codes[1]!.id]);
    expect((await overview('top=2')).top_codes).toHaveLength(2);
    for (const bad of ['top_codes=0', 'top_codes=101', 'top_codes=two']) {
      const res = await get(`/v1/analytics/overview?${bad}`, own);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe('top_codes');
    }
    const gql = await app.graphql(
      own,
      '{ analyticsOverview(from: "2026-04-01", to: "2026-04-03", top: 3, topCodes: 1) { topCodes { scans } } }',
    );
    expect(gql.body.data.analyticsOverview.topCodes).toEqual([{ scans: 3 }]);
  });

  it('compares with the previous period in percent', async () => {
    const res = await get('/v1/analytics/overview?from=2026-03-03&to=2026-03-03');
    expect(res.body.total_scans).toBe(1);
    expect(res.body.previous_period).toMatchObject({ total_scans: 3, change_pct: -66.7 });
  });
});

describe('overview breakdowns by OS, browser and referrer', () => {
  // In April: two of the account's codes, a visitor who tells nothing, a bot, and another
  // account's scans in the same hours (which must not count).
  let other: string;
  beforeAll(async () => {
    other = await app.newAccountKey();
    const [first, second] = [await createCode(app, key), await createCode(app, key)];
    await recordScans(app, key, first, [
      { at: '2026-04-06T08:00:00Z', visitor: 'c', os: 'Android', browser: 'Chrome', referrer: 'social.example' },
      { at: '2026-04-06T10:00:00Z', visitor: 'd', os: 'iOS', browser: 'Safari', referrer: 'news.example' },
      {
        at: '2026-04-07T12:00:00Z',
        visitor: 'crawler',
        bot: true,
        os: 'Linux',
        browser: 'Googlebot',
        referrer: 'crawl.example',
      },
    ]);
    await recordScans(app, key, second, [
      { at: '2026-04-06T08:30:00Z', visitor: 'c', os: 'Android', browser: 'Chrome', referrer: 'social.example' },
      {
        at: '2026-04-07T11:00:00Z',
        visitor: 'e',
        country: null,
        device: null,
        os: null,
        browser: null,
        referrer: null,
      },
    ]);
    const theirs = await createCode(app, other);
    await recordScans(app, other, theirs, [
      { at: '2026-04-06T08:00:00Z', visitor: 'x', os: 'Windows', browser: 'Firefox', referrer: 'social.example' },
      { at: '2026-04-06T10:00:00Z', visitor: 'y', os: 'Android', browser: 'Firefox', referrer: 'other.example' },
    ]);
  });

  const breakdowns = async (query: string, k = key) => {
    const res = await get(`/v1/analytics/overview?from=2026-04-06&to=2026-04-07&${query}`, k);
    expect(res.status).toBe(200);
    return res.body.breakdowns;
  };

  it('counts the account’s scans across its codes, bots excluded, null for a value the scan did not tell', async () => {
    expect(await breakdowns('')).toEqual({
      country: [
        { value: 'US', scans: 3 },
        { value: null, scans: 1 },
      ],
      region: [],
      city: [],
      device: [
        { value: 'mobile', scans: 3 },
        { value: null, scans: 1 },
      ],
      // Ties by value, "none" first.
      os: [
        { value: 'Android', scans: 2 },
        { value: null, scans: 1 },
        { value: 'iOS', scans: 1 },
      ],
      browser: [
        { value: 'Chrome', scans: 2 },
        { value: null, scans: 1 },
        { value: 'Safari', scans: 1 },
      ],
      referrer: [
        { value: 'social.example', scans: 2 },
        { value: null, scans: 1 },
        { value: 'news.example', scans: 1 },
      ],
    });
  });

  it('counts bots when asked, and lists `top` values', async () => {
    const all = await breakdowns('include_bots=true');
    expect(all.os).toEqual([
      { value: 'Android', scans: 2 },
      { value: null, scans: 1 },
      // By code unit, as on every engine: capitals first.
      { value: 'Linux', scans: 1 },
      { value: 'iOS', scans: 1 },
    ]);
    expect(all.browser).toEqual([
      { value: 'Chrome', scans: 2 },
      { value: null, scans: 1 },
      { value: 'Googlebot', scans: 1 },
      { value: 'Safari', scans: 1 },
    ]);
    expect(all.referrer).toEqual([
      { value: 'social.example', scans: 2 },
      { value: null, scans: 1 },
      { value: 'crawl.example', scans: 1 },
      { value: 'news.example', scans: 1 },
    ]);
    const top = await breakdowns('top=1');
    expect([top.os, top.browser, top.referrer]).toEqual([
      [{ value: 'Android', scans: 2 }],
      [{ value: 'Chrome', scans: 2 }],
      [{ value: 'social.example', scans: 2 }],
    ]);
  });

  it('answers the same in a half-hour zone (quarter-hour rollups at the edges) as in UTC (daily rollups)', async () => {
    // 6-7 April in Kolkata is 5 April 18:30Z to 7 April 18:30Z: every April scan.
    const [inKolkata, inUtc] = [
      await breakdowns('timezone=Asia/Kolkata&include_bots=true'),
      await breakdowns('include_bots=true'),
    ];
    expect(inKolkata).toEqual(inUtc);
  });

  it('never counts another account’s scans', async () => {
    expect(await breakdowns('', other)).toMatchObject({
      os: [
        { value: 'Android', scans: 1 },
        { value: 'Windows', scans: 1 },
      ],
      browser: [{ value: 'Firefox', scans: 2 }],
      referrer: [
        { value: 'other.example', scans: 1 },
        { value: 'social.example', scans: 1 },
      ],
    });
  });
});
