// SCAN_RAW_ROWS=none over the running server: scans redirect and count as with keep, no raw row
// is stored, the answers that need raw rows say so (409 /problems/raw-scans-not-kept), and a
// database written under keep, then none, then keep again answers from all of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import type { TestDb } from '../support/db.ts';
import { createCode } from '../support/factories.ts';
import { recordScans, type ScanSpec } from '../support/scans.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';

let keepApp: TestApp;
let noneApp: TestApp;
const others: TestApp[] = [];

/** Another app over the same database (as after a restart with other settings); only the first app removes it. */
async function appOver(testDb: TestDb, env: Record<string, string>): Promise<TestApp> {
  const app = await getTestApp({ TRUST_PROXY: 'true', ...env }, { testDb: { ...testDb, destroy: async () => {} } });
  others.push(app);
  return app;
}

beforeAll(async () => {
  keepApp = await getTestApp({ TRUST_PROXY: 'true' });
  noneApp = await appOver(keepApp.testDb, { SCAN_RAW_ROWS: 'none' });
});
afterAll(async () => {
  for (const app of others) await app.close();
  await keepApp.close();
});

/** Scans over two days, off UTC midnight and off the quarter hours, with repeat visitors and a bot. */
const SCANS: ScanSpec[] = [
  { at: '2026-03-01T08:05:00Z', visitor: 'a', country: 'DE', device: 'mobile', os: 'iOS' },
  { at: '2026-03-01T08:20:00Z', visitor: 'a', country: 'DE', device: 'mobile', os: 'iOS' },
  {
    at: '2026-03-01T12:59:00Z',
    visitor: 'b',
    country: 'US',
    device: 'desktop',
    os: 'Windows',
    referrer: 'news.example',
  },
  { at: '2026-03-01T23:30:00Z', visitor: 'c', country: 'FR', device: 'tablet', os: 'Android', language: 'fr' },
  { at: '2026-03-02T00:10:00Z', visitor: 'a', country: 'DE', device: 'mobile', os: 'iOS' },
  { at: '2026-03-02T09:00:00Z', visitor: 'd', country: 'US', device: 'mobile', os: 'Android', bot: true },
  { at: '2026-03-02T17:45:00Z', visitor: 'e', country: 'JP', device: 'desktop', os: 'macOS' },
];

const rawRows = (app: TestApp, codeId: string) =>
  app.testDb
    .db('scans')
    .where({ code_id: codeId })
    .count({ n: '*' })
    .first()
    .then((row) => Number(row!.n));

/**
 * An answer without the ids that differ between two accounts' codes, and without
 * raw_available_since (null with keep, the instant of the answer with none: checked apart).
 */
function comparable(body: Record<string, unknown>): Record<string, any> {
  const { code_id: _, raw_available_since: __, top_codes, ...rest } = body;
  return { ...rest, top_codes: (top_codes as Array<{ id: string }> | undefined)?.map(({ id: _id, ...c }) => c) };
}

describe('SCAN_RAW_ROWS=none', () => {
  it('redirects and counts every scan as keep does (totals, series, uniques, breakdowns), no raw row', async () => {
    const answers = [];
    const sinces: Array<Array<string | null>> = [];
    for (const app of [keepApp, noneApp]) {
      const since: Array<string | null> = [];
      sinces.push(since);
      const key = await app.newAccountKey();
      const code = await createCode(app, key, { content: 'https://example.com/landing' });
      const scan = await app.request('GET', new URL(code.scan_url).pathname, {
        headers: { 'user-agent': IPHONE, 'x-forwarded-for': '8.8.8.8' },
      });
      expect(scan.status).toBe(302);
      expect(scan.headers.get('location')).toBe('https://example.com/landing');
      await recordScans(app, key, code, SCANS);
      const get = async (path: string) => {
        const res = await app.request('GET', path, { key });
        expect(res.status, res.text).toBe(200);
        since.push(res.body.raw_available_since);
        return comparable(res.body);
      };
      const range = 'from=2026-03-01&to=2026-03-02&include_bots=true';
      answers.push({
        raw: await rawRows(app, code.id),
        recent: (await get(`/v1/codes/${code.id}/scans`)).total_scans,
        hours: await get(`/v1/codes/${code.id}/scans?${range}&granularity=hour`),
        days: await get(`/v1/codes/${code.id}/scans?${range}&granularity=day&top=20`),
        overview: await get(`/v1/analytics/overview?${range}&granularity=day`),
        weekdayHours: await get(`/v1/codes/${code.id}/scans/weekday-hours?${range}`),
        graphql: (
          await app.graphql(
            key,
            `query($id: ID!) { code(id: $id) { all: scanCount(includeBots: true) uniques: uniqueScanCount ` +
              `quarter: scanCount(from: "2026-03-01T08:15:00Z", to: "2026-03-02T09:15:00Z") } }`,
            {
              id: code.id,
            },
          )
        ).body,
      });
    }
    const [keep, none] = answers;
    expect(keep!.raw).toBe(SCANS.length + 1);
    expect(none!.raw).toBe(0);
    expect(none!.recent).toBe(1);
    expect(keep!.days.total_scans).toBe(SCANS.length);
    expect(keep!.days.unique_scans).toBe(6);
    expect({ ...none, raw: 0 }).toEqual({ ...keep, raw: 0 });
    expect(sinces[0]!.every((s) => s === null)).toBe(true);
    for (const s of sinces[1]!) expect(Date.now() - Date.parse(s!)).toBeLessThan(120_000);
    // Six analytics reads per app on a machine shared with benchmarks: seconds each under load.
  }, 120_000);

  it('answers the raw export, JSON or CSV, with 409 naming the setting, for any code', async () => {
    const key = await noneApp.newAccountKey();
    const code = await createCode(noneApp, key);
    const other = await createCode(noneApp, await noneApp.newAccountKey());
    for (const path of [
      `/v1/codes/${code.id}/scans/raw`,
      `/v1/codes/${code.id}/scans/raw?format=csv`,
      `/v1/codes/${other.id}/scans/raw`,
    ]) {
      const res = await noneApp.request('GET', path, { key });
      expect(res.status, path).toBe(409);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        type: '/problems/raw-scans-not-kept',
        title: 'Raw scans not kept',
        status: 409,
      });
      expect(res.body.detail).toMatch(/SCAN_RAW_ROWS=none/);
      expect(res.text).not.toMatch(/scanned_at/);
    }
  });

  it('refuses counts that need raw rows, and says which UTC days a code’s breakdowns count', async () => {
    const key = await noneApp.newAccountKey();
    const code = await createCode(noneApp, key);
    await recordScans(noneApp, key, code, SCANS);
    const offQuarter = await noneApp.graphql(
      key,
      `query($id: ID!) { code(id: $id) { scanCount(from: "2026-03-01T08:07:00Z") } }`,
      { id: code.id },
    );
    expect(offQuarter.body.errors[0].extensions).toMatchObject({ code: 'RAW_SCANS_NOT_KEPT', status: 409 });
    expect(offQuarter.body.errors[0].message).toMatch(/SCAN_RAW_ROWS=none/);

    // Berlin's days start at 23:00 UTC: the series is exact (rollups), the breakdowns count whole UTC days.
    const res = await noneApp.request(
      'GET',
      `/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-02&timezone=Europe/Berlin&granularity=day`,
      { key },
    );
    expect(res.status).toBe(200);
    expect(res.body.total_scans).toBe(6);
    expect(res.body.from).toBe('2026-03-01T00:00:00.000+01:00');
    expect(res.body.breakdowns_from).toBe('2026-03-01T01:00:00.000+01:00');
    expect(res.body.breakdowns_to).toBe('2026-03-03T01:00:00.000+01:00');
    const countries = Object.fromEntries(
      res.body.breakdowns.country.map((c: { value: string; scans: number }) => [c.value, c.scans]),
    );
    // The UTC days nearest the range, 2026-03-01 and 03-02 (bots left out).
    expect(countries).toEqual({ DE: 3, US: 1, FR: 1, JP: 1 });
    // A day in New York (05:00 to 05:00 UTC): the UTC day it mostly lies in.
    const newYork = await noneApp.request(
      'GET',
      `/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-01&timezone=America/New_York&granularity=day`,
      { key },
    );
    expect(newYork.body.breakdowns_from).toBe('2026-02-28T19:00:00.000-05:00');
    expect(newYork.body.breakdowns_to).toBe('2026-03-01T19:00:00.000-05:00');
  });

  it('keeps earlier data readable through keep, none and keep again', async () => {
    const key = await keepApp.newAccountKey();
    const code = await createCode(keepApp, key);
    const day = (d: number, visitor: string): ScanSpec => ({ at: `2026-05-0${d}T10:00:00Z`, visitor });
    await recordScans(keepApp, key, code, [day(1, 'a'), day(1, 'b')]);
    await recordScans(noneApp, key, code, [day(2, 'a'), day(2, 'c'), day(2, 'd')]);
    const keepAgain = await appOver(keepApp.testDb, {});
    await recordScans(keepAgain, key, code, [day(3, 'e')]);

    const series = `/v1/codes/${code.id}/scans?from=2026-05-01&to=2026-05-03&granularity=day`;
    for (const app of [keepApp, noneApp, keepAgain]) {
      const res = await app.request('GET', series, { key });
      expect(res.body.timeseries.map((p: { scans: number }) => p.scans)).toEqual([2, 3, 1]);
      expect(res.body.unique_scans).toBe(6);
    }
    const exported = await keepAgain.request('GET', `/v1/codes/${code.id}/scans/raw?limit=100`, { key });
    expect(exported.status).toBe(200);
    expect(exported.body.data.map((s: { scanned_at: string }) => s.scanned_at.slice(0, 10))).toEqual([
      '2026-05-01',
      '2026-05-01',
      '2026-05-03',
    ]);
    expect((await noneApp.request('GET', `/v1/codes/${code.id}/scans/raw`, { key })).status).toBe(409);
  });
});
