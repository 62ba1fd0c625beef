// Raw-scan retention (SCAN_RAW_RETENTION_DAYS) and the purge of a deleted code's scans: old raw
// scans go in batches while rollups keep the history, the writer keeps writing meanwhile, the
// answers say from when raw scans answer, and the overview does not move while a purge runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createScanPurge, LATE_SCANS_MS } from '../../src/modules/scans/purge.ts';
import { createPurgeStore, type PurgeStore } from '../../src/modules/scans/purge-store.ts';
import { createRunLock } from '../../src/shared/run-lock.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';
import { accountIdOf, recordScans, scanEvent, type ScanSpec } from '../support/scans.ts';

const DAY = 86_400_000;
let clock = Date.parse('2026-04-12T00:00:00Z');
let app: TestApp;

beforeAll(async () => {
  app = await getTestApp({ SCAN_RAW_RETENTION_DAYS: '7' }, { now: () => clock });
});
afterAll(() => app.close());

const get = (path: string, key: string) => app.request('GET', path, { key });
const db = () => app.testDb.db;
const rawCount = async (where: Record<string, string>) =>
  Number((await db()('scans').where(where).count({ n: '*' }).first())!.n);
const rollupCount = async (table: string, codeId: string) =>
  Number((await db()(table).where({ code_id: codeId }).count({ n: '*' }).first())!.n);

/** A purge over the app's database with a small batch, recording the size and end of every batch it wrote. */
function smallBatchPurge(batchSize: number, pauseMs = 1) {
  const store = createPurgeStore(db());
  const batches: number[] = [];
  const times: number[] = [];
  const record =
    <A extends unknown[]>(step: (...args: A) => Promise<number>) =>
    async (...args: A) => {
      const n = await step(...args);
      if (n > 0) {
        batches.push(n);
        times.push(performance.now());
      }
      return n;
    };
  const spied: PurgeStore = {
    ...store,
    deleteBefore: record(store.deleteBefore),
    purgeRawBatch: record(store.purgeRawBatch),
  };
  const purge = createScanPurge({
    store: spied,
    retentionDays: 7,
    lock: createRunLock(null),
    logger: createLogger({ logLevel: 'silent' }),
    batchSize,
    pauseMs,
    now: () => clock,
  });
  return { purge, batches, times };
}

/** `n` scans a day from `first` for `days` days, at 10:00 UTC, each its own visitor. */
function daily(first: string, days: number, n: number, extra: Partial<ScanSpec> = {}): ScanSpec[] {
  return Array.from({ length: days * n }, (_, i) => ({
    at: new Date(Date.parse(first) + Math.floor(i / n) * DAY + 36e5 * 10 + (i % n) * 1000).toISOString(),
    visitor: `v${i}`,
    ...extra,
  }));
}

describe('SCAN_RAW_RETENTION_DAYS', () => {
  it('deletes only raw scans older than the retention, in batches; rollups keep the history', async () => {
    const key = await app.newAccountKey();
    const code = await createCode(app, key);
    // 2026-04-01 .. 04-10, 5 scans a day; the clock says 04-12, so raw scans are kept from 04-05.
    await recordScans(app, key, code, daily('2026-04-01T00:00:00Z', 10, 5));
    const range = '/v1/codes/' + code.id + '/scans?from=2026-04-01&to=2026-04-10&granularity=day';
    const before = (await get(range, key)).body;
    expect(before.total_scans).toBe(50);

    // Locked view ids (kept against a journal replay counting a view twice) live as long as raw scans.
    await db()('locked_view_ids').insert([
      { view_id: `old-${code.id}`, code_id: code.id, viewed_at: Date.parse('2026-04-04T23:59:59Z') },
      { view_id: `kept-${code.id}`, code_id: code.id, viewed_at: Date.parse('2026-04-05T00:00:01Z') },
    ]);

    const { purge, batches } = smallBatchPurge(7);
    const result = await purge.runOnce();
    expect(result.expired).toBeGreaterThanOrEqual(20);
    expect(await db()('locked_view_ids').where('code_id', code.id).pluck('view_id')).toEqual([`kept-${code.id}`]);
    expect(await rawCount({ code_id: code.id })).toBe(30);
    expect(
      Number((await db()('scans').where({ code_id: code.id }).min({ at: 'scanned_at' }).first())!.at),
    ).toBeGreaterThanOrEqual(Date.parse('2026-04-05T00:00:00Z'));
    // In batches of at most 7 rows each (20 of this account's scans, and others' old ones).
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...batches)).toBeLessThanOrEqual(7);

    // Rollups untouched: the UTC series still reaches back to the first scan.
    const after = (await get(range, key)).body;
    expect(after.total_scans).toBe(50);
    expect(after.timeseries).toEqual(before.timeseries);
    expect(after.raw_available_since).toBe('2026-04-05T00:00:00.000Z');
    expect(await rollupCount('scan_rollups', code.id)).toBeGreaterThan(0);
  });

  it('says from when raw scans answer, and refuses raw-backed ranges that start earlier', async () => {
    const key = await app.newAccountKey();
    const code = await createCode(app, key);
    await recordScans(app, key, code, daily('2026-04-08T00:00:00Z', 2, 2));
    const page = await get(`/v1/codes/${code.id}/scans/raw`, key);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ object: 'list', raw_available_since: '2026-04-05T00:00:00.000Z' });
    expect(page.body.data).toHaveLength(4);
    const csv = await get(`/v1/codes/${code.id}/scans/raw?format=csv`, key);
    expect(csv.headers.get('raw-available-since')).toBe('2026-04-05T00:00:00.000Z');

    const early = await get(`/v1/codes/${code.id}/scans/raw?from=2026-04-01T00:00:00Z`, key);
    expect(early.status).toBe(422);
    expect(early.body.errors[0]).toMatchObject({ path: 'from' });
    expect(early.body.errors[0].message).toContain('2026-04-05T00:00:00.000Z');
    expect((await get(`/v1/codes/${code.id}/scans/raw?from=2026-04-05T00:00:00Z`, key)).status).toBe(200);

    // Every zone of today has periods on whole quarter hours, which the rollups answer for any
    // range: India's half-hour offset too, before the horizon.
    const kolkata = (from: string, to = '2026-04-10') =>
      get(`/v1/codes/${code.id}/scans?from=${from}&to=${to}&timezone=Asia/Kolkata`, key);
    const beforeHorizon = await kolkata('2026-04-01');
    expect(beforeHorizon.status).toBe(200);
    expect(beforeHorizon.body).toMatchObject({ total_scans: 4, raw_available_since: '2026-04-05T00:00:00.000Z' });
    const weekdayHours = (zone: string, from = '2026-04-01', to = '2026-04-10') =>
      get(`/v1/analytics/weekday-hours?from=${from}&to=${to}&timezone=${zone}`, key);
    for (const zone of ['UTC', 'Asia/Kolkata', 'Asia/Kathmandu']) {
      expect((await weekdayHours(zone)).body).toMatchObject({
        total_scans: 4,
        raw_available_since: '2026-04-05T00:00:00.000Z',
      });
    }
    // Kolkata's offset in 1900 (+05:21:10, Madras time) is not: raw scans answer, and are gone.
    const refused = await kolkata('1900-01-01', '1900-01-05');
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].path).toBe('from');
    const old = await get('/v1/analytics/overview?from=1900-01-01&to=1900-01-05&timezone=Asia/Kolkata', key);
    expect(old.status).toBe(422);
    expect((await weekdayHours('Asia/Kolkata', '1900-01-01', '1900-01-05')).status).toBe(422);
    const utc = await get('/v1/analytics/overview?from=2026-04-01&to=2026-04-10', key);
    expect(utc.status).toBe(200);
    expect(utc.body).toMatchObject({ total_scans: 4, raw_available_since: '2026-04-05T00:00:00.000Z' });
    // GraphQL says it too, and refuses alike.
    const gql = await app.graphql(
      key,
      `query($id: ID!) {
        code(id: $id) {
          scans(from: "2026-04-06", to: "2026-04-10", timezone: "Asia/Kolkata") { rawAvailableSince totalScans }
        }
        analyticsOverview(from: "2026-04-01", to: "2026-04-10") { rawAvailableSince totalScans } }`,
      { id: code.id },
    );
    expect(gql.body.data).toEqual({
      code: { scans: { rawAvailableSince: '2026-04-05T00:00:00.000Z', totalScans: 4 } },
      analyticsOverview: { rawAvailableSince: '2026-04-05T00:00:00.000Z', totalScans: 4 },
    });
    const gqlEarly = await app.graphql(
      key,
      `{ analyticsOverview(from: "1900-01-01", to: "1900-01-05", timezone: "Asia/Kolkata") { totalScans } }`,
    );
    expect(gqlEarly.body.errors[0].message).toMatch(/raw scans are kept from 2026-04-05T00:00:00.000Z/);
    // Per-code counts: on whole quarter hours from rollups, any window; otherwise not before the horizon.
    const count = (from: string) =>
      app.graphql(key, `query($id: ID!) { code(id: $id) { scanCount(from: "${from}") } }`, { id: code.id });
    expect((await count('2026-04-01T00:00:00Z')).body.data.code.scanCount).toBe(4);
    expect((await count('2026-04-01T00:45:00Z')).body.data.code.scanCount).toBe(4);
    expect((await count('2026-04-06T00:20:00Z')).body.data.code.scanCount).toBe(4);
    expect((await count('2026-04-01T00:20:00Z')).body.errors[0].message).toMatch(
      /raw scans are kept from 2026-04-05T00:00:00.000Z/,
    );
  });

  it('says when a code’s or a tag’s breakdowns leave out an edge day whose raw scans are gone', async () => {
    const key = await app.newAccountKey();
    const code = await createCode(app, key, { tags: ['print'] });
    // 2026-04-01 .. 04-04 at 10:00 UTC, one scan a day; raw scans before 04-05 are deleted.
    await recordScans(app, key, code, daily('2026-04-01T00:00:00Z', 4, 1, { country: 'DE' }));
    await smallBatchPurge(100).purge.runOnce();
    expect(await rawCount({ code_id: code.id })).toBe(0);

    // Berlin's days (UTC+2) run from 22:00 UTC: both edge days of the range lie before the
    // horizon, so the breakdowns count the whole UTC days 04-02 and 04-03, not 04-04's scan.
    const berlin = 'from=2026-04-02&to=2026-04-04&timezone=Europe/Berlin';
    const cut = {
      from: '2026-04-02T00:00:00.000+02:00',
      to: '2026-04-05T00:00:00.000+02:00',
      breakdowns_from: '2026-04-02T02:00:00.000+02:00',
      breakdowns_to: '2026-04-04T02:00:00.000+02:00',
      total_scans: 3,
    };
    const codeScans = (await get(`/v1/codes/${code.id}/scans?${berlin}`, key)).body;
    expect(codeScans).toMatchObject(cut);
    expect(codeScans.breakdowns.country).toEqual([{ value: 'DE', scans: 2 }]);
    const tagged = (await get(`/v1/analytics/overview?${berlin}&tag=print`, key)).body;
    expect(tagged).toMatchObject(cut);
    expect(tagged.breakdowns.country).toEqual([{ value: 'DE', scans: 2 }]);
    // The account's breakdowns come from hourly rollups: the whole range, all three scans.
    const account = (await get(`/v1/analytics/overview?${berlin}`, key)).body;
    expect(account).toMatchObject({ breakdowns_from: cut.from, breakdowns_to: cut.to, total_scans: 3 });
    expect(account.breakdowns.country).toEqual([{ value: 'DE', scans: 3 }]);
    // Whole UTC days need no raw scans, and ranges after the horizon lose nothing.
    const utc = (await get(`/v1/codes/${code.id}/scans?from=2026-04-01&to=2026-04-04`, key)).body;
    expect(utc).toMatchObject({ breakdowns_from: utc.from, breakdowns_to: utc.to, total_scans: 4 });
    expect(utc.breakdowns.country).toEqual([{ value: 'DE', scans: 4 }]);
    const recent = (await get(`/v1/codes/${code.id}/scans?from=2026-04-06&timezone=Europe/Berlin`, key)).body;
    expect(recent).toMatchObject({ breakdowns_from: recent.from, breakdowns_to: recent.to });
    const gql = await app.graphql(
      key,
      `query($id: ID!) {
        code(id: $id) {
          scans(from: "2026-04-02", to: "2026-04-04", timezone: "Europe/Berlin") { breakdownsFrom breakdownsTo }
        }
      }`,
      { id: code.id },
    );
    expect(gql.body.data.code.scans).toEqual({ breakdownsFrom: cut.breakdowns_from, breakdownsTo: cut.breakdowns_to });
  });

  it('lets the writer write during a purge: every concurrent scan is stored', async () => {
    const key = await app.newAccountKey();
    const accountId = await accountIdOf(app, key);
    const code = await createCode(app, key);
    await recordScans(app, key, code, daily('2026-03-01T00:00:00Z', 20, 60));
    const { purge, batches, times } = smallBatchPurge(50, 5);
    // New scans go in while the purge deletes the old ones, flushed in many small batches.
    const fresh = daily('2026-04-11T00:00:00Z', 1, 600);
    const flushed: number[] = [];
    const writing = (async () => {
      for (let i = 0; i < fresh.length; i += 20) {
        for (const s of fresh.slice(i, i + 20)) app.services.scans.recorder.enqueue(scanEvent(code, accountId, s));
        await app.services.scans.recorder.flush();
        flushed.push(performance.now());
      }
    })();
    const [result] = await Promise.all([purge.runOnce(), writing]);
    expect(result.expired).toBeGreaterThanOrEqual(1200);
    expect(batches.length).toBeGreaterThanOrEqual(24);
    // The two did run at once: scan batches were committed between the purge's first and last.
    expect(flushed.filter((t) => t > times[0]! && t < times[times.length - 1]!).length).toBeGreaterThan(0);
    expect(await rawCount({ code_id: code.id })).toBe(600);
    const day = (await get(`/v1/codes/${code.id}/scans?from=2026-03-01&to=2026-04-11`, key)).body;
    expect(day.total_scans).toBe(1800);
  });
});

describe('deleting a code', () => {
  it('purges its raw scans and rollups in the background; the overview is alike before, during and after', async () => {
    clock = Date.parse('2026-04-12T00:00:00Z');
    const key = await app.newAccountKey();
    const [kept, gone] = [await createCode(app, key), await createCode(app, key)];
    await recordScans(app, key, kept, daily('2026-04-06T00:00:00Z', 3, 4, { country: 'DE' }));
    await recordScans(app, key, gone, daily('2026-04-06T00:00:00Z', 3, 40, { country: 'FR', device: 'desktop' }));
    const overview = async (query = '') => {
      const res = await get(`/v1/analytics/overview?from=2026-04-06&to=2026-04-08${query}`, key);
      expect(res.status).toBe(200);
      const { raw_available_since, ...rest } = res.body;
      expect(raw_available_since).toBe(new Date(clock - 7 * DAY).toISOString());
      return rest;
    };
    const onlyKept = await overview();
    expect(onlyKept).toMatchObject({ total_scans: 132, active_codes: 2 });
    /** The account's weekday x hour cells of the same days: every scan was at 10:00 UTC. */
    const heatmap = async (zone = 'UTC') => {
      const res = await get(`/v1/analytics/weekday-hours?from=2026-04-06&to=2026-04-08&timezone=${zone}`, key);
      expect(res.status).toBe(200);
      return { total: res.body.total_scans, busy: res.body.cells.filter((c: any) => c.scans !== 0) };
    };
    expect(await heatmap()).toEqual({
      total: 132,
      busy: [1, 2, 3].map((weekday) => ({ weekday, hour: 10, scans: 44 })),
    });

    expect((await app.request('DELETE', `/v1/codes/${gone.id}`, { key })).status).toBe(204);
    // At once: the deleted code's scans count nowhere, though none is purged yet.
    const justAfter = await overview();
    expect(justAfter).toMatchObject({ total_scans: 12, unique_scans: 12, active_codes: 1, total_codes: 1 });
    expect(justAfter.breakdowns.country).toEqual([{ value: 'DE', scans: 12 }]);
    expect(justAfter.breakdowns.device).toEqual([{ value: 'mobile', scans: 12 }]);
    expect(justAfter.trend.map((t: any) => t.scans)).toEqual([4, 4, 4]);
    const heatmapAfter = await heatmap();
    expect(heatmapAfter).toEqual({ total: 12, busy: [1, 2, 3].map((weekday) => ({ weekday, hour: 10, scans: 4 })) });
    // A half-hour zone, from the quarter-hour rollups: 10:00 UTC is 15:30 in Kolkata.
    expect(await heatmap('Asia/Kolkata')).toEqual({
      total: 12,
      busy: [1, 2, 3].map((weekday) => ({ weekday, hour: 15, scans: 4 })),
    });
    const halfHour = await overview('&timezone=Asia/Kolkata');
    expect(halfHour.total_scans).toBe(12);
    expect(await rawCount({ code_id: gone.id })).toBe(120);

    // Midway: one small batch of its raw scans gone (and subtracted from the account's rollups).
    const store = createPurgeStore(db());
    expect(await store.purgeRawBatch(gone.id, 4)).toBe(4);
    expect(await rawCount({ code_id: gone.id })).toBe(116);
    expect(await overview()).toEqual(justAfter);
    expect(await overview('&timezone=Asia/Kolkata')).toEqual(halfHour);

    // Within the late-scan grace: raw scans all go, in batches of 5, while the overview is
    // asked again and again; the code's rollups wait.
    clock += 60_000;
    const { purge } = smallBatchPurge(5, 2);
    let done = false;
    const running = purge.runOnce().finally(() => (done = true));
    const seen: unknown[] = [];
    const seenHeatmaps: unknown[] = [];
    while (!done) {
      seen.push(await overview());
      seenHeatmaps.push(await heatmap());
    }
    const first = await running;
    expect(first).toMatchObject({ purgedScans: 116, purgedCodes: 0 });
    expect(seen.length).toBeGreaterThan(2);
    for (const answer of seen) expect(answer).toEqual(justAfter);
    for (const answer of seenHeatmaps) expect(answer).toEqual(heatmapAfter);
    expect(await rawCount({ code_id: gone.id })).toBe(0);
    expect(await rollupCount('scan_rollups', gone.id)).toBeGreaterThan(0);
    expect(await rollupCount('code_daily_rollups', gone.id)).toBeGreaterThan(0);
    expect(await rollupCount('code_last_scans', gone.id)).toBe(1);
    expect(await rollupCount('code_scan_days', gone.id)).toBeGreaterThan(0);
    expect(await overview()).toEqual(justAfter);

    clock += LATE_SCANS_MS;
    const second = await app.services.scanPurge.runOnce();
    expect(second.purgedCodes).toBe(1);
    expect(await rollupCount('scan_rollups', gone.id)).toBe(0);
    expect(await rollupCount('code_daily_rollups', gone.id)).toBe(0);
    expect(await rollupCount('code_last_scans', gone.id)).toBe(0);
    expect(await rollupCount('code_scan_days', gone.id)).toBe(0);
    expect(await rollupCount('scan_dimension_rollups', gone.id)).toBe(0);
    expect((await db()('code_purges').where({ code_id: gone.id }).first()).purged_at).not.toBeNull();
    expect(await overview()).toEqual(justAfter);
    expect(await heatmap()).toEqual(heatmapAfter);
    expect(await overview('&timezone=Asia/Kolkata')).toEqual(halfHour);
    expect(await heatmap('Asia/Kathmandu')).toEqual({
      total: 12,
      busy: [1, 2, 3].map((weekday) => ({ weekday, hour: 15, scans: 4 })),
    });
    // The kept code is whole.
    expect(await rawCount({ code_id: kept.id })).toBe(12);
    expect((await get(`/v1/codes/${kept.id}/scans?from=2026-04-06&to=2026-04-08`, key)).body.total_scans).toBe(12);
  });
});
