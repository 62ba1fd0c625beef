// Scans through the real scan route, read back through REST analytics in Europe/Berlin across
// the end of daylight saving time (2026-10-25: 03:00 CEST becomes 02:00 CET, so the local day
// has 25 hours and 02:00-03:00 happens twice). Only Date is faked, so the server, the
// recorder's timers and the database run as usual while the route stamps chosen instants.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;
let code: { id: string; scan_url: string };

/** UTC instants of the scans, and their Berlin wall-clock time. */
const SCANS = [
  '2026-10-24T21:30:00Z', // 23:30 CEST, 24 Oct
  '2026-10-24T22:30:00Z', // 00:30 CEST, 25 Oct
  '2026-10-25T00:30:00Z', // 02:30 CEST, the first 02:30
  '2026-10-25T01:30:00Z', // 02:30 CET, the second 02:30
  '2026-10-25T22:30:00Z', // 23:30 CET, 25 Oct
  '2026-10-25T23:30:00Z', // 00:30 CET, 26 Oct
];

beforeAll(async () => {
  app = await getTestApp({ SCAN_RATE_LIMIT_PER_MINUTE: '0' });
  key = await app.newAccountKey('dst');
  code = await createCode(app, key, { content: 'https://example.com/dst' });
  for (const [i, at] of SCANS.entries()) {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(at) });
    const res = await app.request('GET', new URL(code.scan_url).pathname, {
      headers: { 'user-agent': `Mozilla/5.0 (Windows NT 10.0) visitor-${i}` },
    });
    vi.useRealTimers();
    expect(res.status).toBe(302);
  }
  await app.services.scans.recorder.flush();
});
afterEach(() => vi.useRealTimers());
afterAll(() => app.close());

/** Periods are presented in the zone's offset (2026-10-25T02:00:00.000+01:00); compared here as instants. */
const utc = (instant: string) => new Date(instant).toISOString();
const series = (body: { timeseries: { period: string; scans: number }[] }) =>
  body.timeseries.map((p) => [utc(p.period), p.scans]);
const get = (query: string) => app.request('GET', `/v1/codes/${code.id}/scans?${query}`, { key });

describe('analytics across a daylight-saving change', () => {
  it('daily periods start at Berlin midnight, and 25 October has 25 hours', async () => {
    const res = await get('from=2026-10-24&to=2026-10-26&timezone=Europe/Berlin');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ timezone: 'Europe/Berlin', total_scans: 6 });
    expect(res.body.from).toBe('2026-10-24T00:00:00.000+02:00');
    expect(res.body.to).toBe('2026-10-27T00:00:00.000+01:00');
    expect(series(res.body)).toEqual([
      ['2026-10-23T22:00:00.000Z', 1],
      ['2026-10-24T22:00:00.000Z', 4],
      ['2026-10-25T23:00:00.000Z', 1],
    ]);
  });

  it('hourly periods keep the repeated 02:00 hour apart', async () => {
    const res = await get('from=2026-10-25&to=2026-10-25&timezone=Europe/Berlin&granularity=hour');
    expect(res.status, res.text).toBe(200);
    expect(res.body.timeseries).toHaveLength(25);
    // The two 02:00 hours, told apart by their offsets.
    expect(
      res.body.timeseries.map((p: { period: string }) => p.period).filter((p: string) => p.includes('T02:00')),
    ).toEqual(['2026-10-25T02:00:00.000+02:00', '2026-10-25T02:00:00.000+01:00']);
    const nonZero = series(res.body).filter(([, scans]) => scans !== 0);
    expect(nonZero).toEqual([
      ['2026-10-24T22:00:00.000Z', 1],
      ['2026-10-25T00:00:00.000Z', 1],
      ['2026-10-25T01:00:00.000Z', 1],
      ['2026-10-25T22:00:00.000Z', 1],
    ]);
  });

  it('the same scans in UTC days', async () => {
    const res = await get('from=2026-10-24&to=2026-10-25');
    expect(series(res.body)).toEqual([
      ['2026-10-24T00:00:00.000Z', 2],
      ['2026-10-25T00:00:00.000Z', 4],
    ]);
  });
});
