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
  { at: '2026-03-02T23:30:00Z', visitor: 'b', country: 'DE', device: 'desktop', os: 'Windows', browser: 'Chrome', language: 'de', ruleId: 'rule_de' },
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
    expect(res.body).toMatchObject({ code_id: code.id, granularity: 'day', timezone: 'UTC', include_bots: false, total_scans: 4, unique_scans: 3 });
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

  it('answers zones with half-hour offsets exactly (from raw scans)', async () => {
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
    const hours = await get(`/v1/codes/${code.id}/scans?from=2026-03-02T09:00:00Z&to=2026-03-02T12:00:00Z&granularity=hour`);
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
  it('sums the account with top codes, trend, breakdowns and the previous period', async () => {
    const res = await get('/v1/analytics/overview?from=2026-03-01&to=2026-03-04');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_scans: 4, unique_scans: 3, active_codes: 1 });
    expect(res.body.total_codes).toBeGreaterThanOrEqual(2);
    expect(res.body.top_codes).toEqual([{ id: code.id, type: 'url', content: expect.any(String), scans: 4 }]);
    expect(res.body.trend.map((p: any) => p.scans)).toEqual([0, 3, 1, 0]);
    expect(res.body.breakdowns.country).toEqual([
      { value: 'US', scans: 3 },
      { value: 'DE', scans: 1 },
    ]);
    expect(res.body.previous_period).toEqual({ from: '2026-02-25T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z', total_scans: 0, change_pct: null });
  });

  it('compares with the previous period in percent', async () => {
    const res = await get('/v1/analytics/overview?from=2026-03-03&to=2026-03-03');
    expect(res.body.total_scans).toBe(1);
    expect(res.body.previous_period).toMatchObject({ total_scans: 3, change_pct: -66.7 });
  });
});
