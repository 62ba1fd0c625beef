// Contract: every analytics operation, success and error, validated against the served
// document, over real scans recorded through the app's recorder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { contractClient, startContractApp, type Contract } from '../support/contract.ts';
import { createCode } from '../support/factories.ts';
import { recordScans, type ScanSpec } from '../support/scans.ts';

let app: TestApp;
let contract: Contract;
let call: ReturnType<typeof contractClient>;
let key: string;
let codesOnly: string;
let code: { id: string };
let theirs: { id: string };

const SCANS: ScanSpec[] = [
  { at: '2026-03-02T10:00:00Z', visitor: 'a', country: 'US', device: 'mobile', referrer: 'news.example' },
  { at: '2026-03-02T10:30:00Z', visitor: 'a', country: 'US', device: 'mobile', referrer: '=HYPERLINK("x")' },
  { at: '2026-03-02T12:00:00Z', visitor: 'crawler', bot: true, country: null, device: 'desktop' },
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
  { at: '2026-03-03T09:00:00Z', visitor: 'a', country: 'US', device: 'mobile' },
];

beforeAll(async () => {
  ({ app, contract, call } = await startContractApp());
  key = await app.newAccountKey();
  codesOnly = await app.newAccountKey(undefined, { scopes: ['codes:read'] });
  code = await createCode(app, key);
  await createCode(app, key, { type: 'text', content: { text: 'quiet' } });
  await recordScans(app, key, code, SCANS);
  const other = await app.newAccountKey();
  theirs = await createCode(app, other);
  await recordScans(app, other, theirs, [{ at: '2026-03-02T10:00:00Z' }]);
});
afterAll(() => app.close());

describe('analytics', () => {
  it('a code’s scans: 200 (days, hours in a half-hour zone, bots), 404, 422, 401, 403', async () => {
    const days = await call('GET', `/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-03-04`, { key });
    expect(days.status).toBe(200);
    expect(days.body).toMatchObject({ code_id: code.id, total_scans: 4, unique_scans: 3 });
    expect(days.body.breakdowns.rule).toEqual([
      { value: 'default', scans: 3 },
      { value: 'rule_de', scans: 1 },
    ]);
    const hours = await call(
      'GET',
      `/v1/codes/${code.id}/scans?from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z` +
        '&granularity=hour&timezone=Asia/Kolkata&include_bots=true&top=1',
      {
        key,
      },
    );
    expect(hours.status).toBe(200);
    expect(hours.body.total_scans).toBe(4);
    expect(hours.body.breakdowns.country).toHaveLength(1);
    expect((await call('GET', `/v1/codes/${code.id}/scans`, { key })).status).toBe(200);

    expect((await call('GET', '/v1/codes/qr_missing/scans', { key })).status).toBe(404);
    expect((await call('GET', `/v1/codes/${theirs.id}/scans`, { key })).status).toBe(404);
    const invalid = await call(
      'GET',
      `/v1/codes/${code.id}/scans?granularity=year&timezone=Mars/Olympus&top=0&include_bots=yes&from=2026-02-30`,
      { key },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'from',
      'granularity',
      'include_bots',
      'timezone',
      'top',
    ]);
    expect((await call('GET', `/v1/codes/${code.id}/scans?from=2026-03-04&to=2026-03-01`, { key })).status).toBe(422);
    expect(
      (await call('GET', `/v1/codes/${code.id}/scans?from=2020-01-01&to=2026-01-01&granularity=hour`, { key })).status,
    ).toBe(422);
    expect((await call('GET', `/v1/codes/${code.id}/scans?colour=red`, { key })).status).toBe(422);
    expect((await call('GET', `/v1/codes/${code.id}/scans`)).status).toBe(401);
    expect((await call('GET', `/v1/codes/${code.id}/scans`, { key: codesOnly })).status).toBe(403);
  });

  it('raw scan records: JSON pages with a cursor, CSV, 404, 422, 403', async () => {
    const first = await call('GET', `/v1/codes/${code.id}/scans/raw?limit=2`, { key });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await call('GET', `/v1/codes/${code.id}/scans/raw?limit=10&cursor=${first.body.next_cursor}`, { key });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(3);
    expect(rest.body.next_cursor).toBeNull();
    expect(
      (
        await call('GET', `/v1/codes/${code.id}/scans/raw?from=2026-03-02T12:00:00Z&to=2026-03-03T01:00:00%2B01:00`, {
          key,
        })
      ).body.data,
    ).toHaveLength(2);

    const csv = await call('GET', `/v1/codes/${code.id}/scans/raw?format=csv`, { key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="scans-${code.id}.csv"`);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe(
      'id,scanned_at,rule_id,country,device,os,browser,referrer_host,language,is_bot,is_unique,outcome,region,city',
    );
    expect(lines).toHaveLength(1 + SCANS.length);
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);

    expect((await call('GET', '/v1/codes/qr_missing/scans/raw', { key })).status).toBe(404);
    expect((await call('GET', `/v1/codes/${theirs.id}/scans/raw?format=csv`, { key })).status).toBe(404);
    const invalid = await call('GET', `/v1/codes/${code.id}/scans/raw?limit=0&format=xml&from=yesterday`, { key });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['format', 'from', 'limit']);
    expect((await call('GET', `/v1/codes/${code.id}/scans/raw?cursor=not-a-cursor`, { key })).status).toBe(422);
    expect((await call('GET', `/v1/codes/${code.id}/scans/raw`, { key: codesOnly })).status).toBe(403);
  });

  it('the overview: 200 with top codes and the previous period, 422, 401, 403', async () => {
    const overview = await call('GET', '/v1/analytics/overview?from=2026-03-01&to=2026-03-31&top=5', { key });
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      total_codes: 2,
      active_codes: 1,
      total_scans: 4,
      previous_period: { total_scans: 0, change_pct: null },
    });
    expect(overview.body.top_codes).toEqual([
      { id: code.id, name: null, type: 'url', content: expect.any(String), scans: 4 },
    ]);
    expect(overview.body.breakdowns).toMatchObject({
      os: [
        { value: 'iOS', scans: 3 },
        { value: 'Windows', scans: 1 },
      ],
      browser: [
        { value: 'Safari', scans: 3 },
        { value: 'Chrome', scans: 1 },
      ],
    });
    expect(overview.body.breakdowns.referrer).toEqual([
      { value: null, scans: 2 },
      { value: '=HYPERLINK("x")', scans: 1 },
      { value: 'news.example', scans: 1 },
    ]);
    const weeks = await call(
      'GET',
      '/v1/analytics/overview?from=2026-03-02&to=2026-03-08&granularity=week&timezone=Europe/Berlin&include_bots=true',
      { key },
    );
    expect(weeks.status).toBe(200);
    expect(weeks.body.trend).toHaveLength(1);
    expect((await call('GET', '/v1/analytics/overview', { key: codesOnly })).status).toBe(403);

    const invalid = await call('GET', '/v1/analytics/overview?top=101&to=soon', { key });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['to', 'top']);
    expect((await call('GET', '/v1/analytics/overview')).status).toBe(401);
  });

  it('weekday x hour cells of a code and the account: 200 (whole/half-hour zones), 404, 422, 401, 403', async () => {
    const berlin = await call(
      'GET',
      `/v1/codes/${code.id}/scans/weekday-hours?from=2026-03-01&to=2026-03-04&timezone=Europe/Berlin`,
      { key },
    );
    expect(berlin.status).toBe(200);
    expect(berlin.body.cells).toHaveLength(168);
    expect(berlin.body.total_scans).toBe(4);
    // 2026-03-02 is a Monday: 10:00 and 10:30 UTC are 11:00 in Berlin, 23:30 UTC is Tuesday 00:00.
    const cell = (weekday: number, hour: number) =>
      berlin.body.cells.find((c: { weekday: number; hour: number }) => c.weekday === weekday && c.hour === hour).scans;
    expect(cell(1, 11)).toBe(2);
    expect(cell(2, 0)).toBe(1);
    const kolkata = await call(
      'GET',
      `/v1/analytics/weekday-hours?from=2026-03-01&to=2026-03-04&timezone=Asia/Kolkata`,
      {
        key,
      },
    );
    expect(kolkata.status).toBe(200);
    expect(kolkata.body.total_scans).toBe(4);

    expect((await call('GET', `/v1/codes/${theirs.id}/scans/weekday-hours`, { key })).status).toBe(404);
    const invalid = await call('GET', '/v1/analytics/weekday-hours?timezone=Mars/Olympus&granularity=day', { key });
    expect(invalid.status).toBe(422);
    expect((await call('GET', '/v1/analytics/weekday-hours')).status).toBe(401);
    expect((await call('GET', `/v1/codes/${code.id}/scans/weekday-hours`, { key: codesOnly })).status).toBe(403);
  });

  it('walked every analytics operation', () => contract.expectTagCovered('Analytics'));
});
