// Rollups against raw scans: for random scans written through the batch writer, every answer
// the rollups give equals the same answer computed from raw rows, on both engines.
import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRawSource } from '../../src/modules/scans/scan-query-store.ts';
import { createRollupSource } from '../../src/modules/scans/rollup-query-store.ts';
import { analyticsQuerySchema, overviewQuerySchema } from '../../src/modules/analytics/schemas.ts';
import { createAnalyticsService } from '../../src/modules/analytics/service.ts';
import { weekdayHoursQuerySchema } from '../../src/modules/analytics/weekday-hours.ts';
import { createPurgeStore } from '../../src/modules/scans/purge-store.ts';
import { createCodesStore, createOwnedCodeIds } from '../../src/modules/codes/store.ts';
import type { Queryable } from '../../src/db/transaction.ts';
import { createRoutingStore } from '../../src/modules/routing/store.ts';
import { createScanBatchWriter } from '../../src/modules/scans/batch-writer.ts';
import { createDimensionRoller } from '../../src/modules/scans/dimension-deltas.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScansStore, type ScanRow } from '../../src/modules/scans/store.ts';
import { createTagsStore } from '../../src/modules/tags/store.ts';
import { createCodeTagging } from '../../src/modules/tags/tagging.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { parseInput } from '../../src/shared/validation.ts';
import * as backfill from '../../migrations/20261122210300_backfill_scan_rollups.ts';
import * as widenAccountValue from '../../migrations/20261123000000_widen_account_scan_rollups_value.ts';
import * as backfillAccountBreakdowns from '../../migrations/20261123000100_backfill_account_scan_breakdowns.ts';
import * as quarterHours from '../../migrations/20261202100000_quarter_hour_rollups.ts';
import { backfillRedirects } from '../../migrations/20261126120100_add_codes_lifecycle.ts';
import { backfillAccountDays } from '../../migrations/20261127010000_create_account_daily_rollups.ts';
import { backfillCodeDays } from '../../migrations/20261127100000_create_code_daily_rollups.ts';
import { backfillLastScans } from '../../migrations/20261127110000_create_code_last_scans.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { insertCodeRows } from '../support/factories.ts';
import { seededRandom } from '../support/random.ts';
import { createTagHistoryMover } from '../../src/modules/scans/index.ts';

let testDb: TestDb;
const ACCOUNT = 'acct_rollups';
const CODES = ['qr_r1', 'qr_r2', 'qr_r3'];
const principal = { accountId: ACCOUNT, keyId: 'key_test' } as never;
// The longest values scans store: a browser of 48 characters, a referrer host of 191.
const LONG_BROWSER = 'B'.repeat(48);
const LONG_REFERRER = `${'x'.repeat(63)}.${'y'.repeat(63)}.${'z'.repeat(55)}.example`;

function randomScans(n: number): ScanRow[] {
  const next = seededRandom(42);
  const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)]!;
  const start = Date.parse('2026-02-20T00:00:00Z');
  const rows: ScanRow[] = [];
  for (let i = 0; i < n; i++) {
    // The hash covers the User-Agent, which decides the bot flag: a visitor is a bot or not.
    const visitor = Math.floor(next() * 40);
    rows.push({
      code_id: pick(CODES),
      account_id: ACCOUNT,
      // 50 days: across the DST changes of New York (03-08), Berlin (03-29) and Adelaide (04-05).
      scanned_at: start + Math.floor(next() * 50 * 86_400_000),
      rule_id: pick([null, 'rule_a', 'rule_b']),
      country: pick([null, 'US', 'DE', 'IN']),
      ...pick([
        { region: null, city: null },
        { region: 'US/California', city: 'US/California/San Jose' },
        { region: 'DE/Bavaria', city: 'DE/Bavaria/Munich' },
      ]),
      device: pick(['ios', 'android', 'desktop']),
      os: pick(['iOS', 'Android', null]),
      browser: pick(['Safari', 'Chrome', null, LONG_BROWSER]),
      referrer_host: pick([null, 'a.example', 'b.example', LONG_REFERRER]),
      language: pick(['en', 'de', null]),
      is_bot: visitor < 4,
      visitor_hash: `v${visitor}`,
      is_unique: false,
      is_account_unique: false,
    });
  }
  return rows.sort((a, b) => a.scanned_at - b.scanned_at);
}

beforeAll(async () => {
  testDb = await createTestDb();
  const { db } = testDb;
  const now = Date.now();
  await db('accounts').insert({ id: ACCOUNT, name: 'rollups', created_at: now });
  await insertCodeRows(db, ACCOUNT, CODES);
  const write = createScanBatchWriter(createScansStore(db), createRollupStore(db));
  const rows = randomScans(3000);
  // Several batches, so rollup upserts add to rows written by earlier batches.
  for (let i = 0; i < rows.length; i += 700) await inTransaction(db, (trx) => write(rows.slice(i, i + 700), trx));
  // The breakdown counts of the first batch and a half are rolled into their rollups, the rest
  // stay queued: breakdowns read both (a batch queues a row per dimension, nine here).
  expect(await createDimensionRoller(db)(13)).toBe(13);
});
afterAll(() => testDb.destroy());

/**
 * The scans as they were when the backfill migrations ran: region and city came later (issue 19),
 * so those migrations know nothing of them.
 */
async function asBeforeRegionAndCity(db: Knex): Promise<void> {
  await db('scans').update({ region: null, city: null });
  await db('scan_dimension_rollups').whereIn('dimension', ['region', 'city']).delete();
  await db('scan_dimension_deltas').whereIn('dimension', ['region', 'city']).delete();
  await db('account_scan_rollups').whereIn('dimension', ['region', 'city']).delete();
  await db('account_daily_rollups').whereIn('dimension', ['region', 'city']).delete();
}

/** Numbers as numbers, whichever way the driver returns BIGINT and BOOLEAN columns. */
const asNumbers = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === 'boolean' || /^-?\d+$/.test(String(v)) ? Number(v) : v]),
  );

function services() {
  const { db } = testDb;
  const codes = createCodesStore(
    db,
    createRoutingStore(db),
    createCodeTagging(createTagsStore(db), 1000, createTagHistoryMover(db, db)),
  );
  const ownedCodeIds = createOwnedCodeIds(db);
  const raw = createRawSource(db, ownedCodeIds);
  const codesOn = (q: Queryable) => ({ owned: createOwnedCodeIds(q) });
  const sources = { codes, rollups: createRollupSource(db, raw, codesOn), raw };
  return {
    rollups: createAnalyticsService({ ...sources, rawOnly: false }),
    raw: createAnalyticsService({ ...sources, rawOnly: true }),
  };
}

/** Query parameters as a request gives them. */
type Query = Record<string, string | undefined>;

/** Whole-hour zones with and without DST, and the half-hour and 45-minute offsets (issue 37). */
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide'];

/** Ranges from local midnights in every zone, and hourly ones from the middle of a day (across DSTs). */
const ZONE_QUERIES = [
  ...ZONES.map((timezone) => ({ from: '2026-02-21', to: '2026-04-08', granularity: 'day', timezone })),
  ...ZONES.map((timezone) => ({
    from: '2026-03-06T07:20:00Z',
    to: '2026-03-10T16:50:00Z',
    granularity: 'hour',
    timezone,
  })),
  {
    from: '2026-03-28T13:07:00+01:00',
    to: '2026-03-30T03:00:00+02:00',
    granularity: 'hour',
    timezone: 'Europe/Berlin',
  },
  {
    from: '2026-04-04T10:40:00+10:30',
    to: '2026-04-06T12:00:00+09:30',
    granularity: 'hour',
    timezone: 'Australia/Adelaide',
  },
  { from: '2026-02-01', to: '2026-04-30', granularity: 'week', timezone: 'Asia/Kolkata', include_bots: 'true' },
  { from: '2026-02-01', to: '2026-04-30', granularity: 'month', timezone: 'Asia/Kathmandu' },
  // Ranges that start and end off local midnights (the series take in the whole days around
  // them), across the DST changes of New York (03-08), Berlin (03-29) and Adelaide (04-05).
  { from: '2026-03-05T15:10:00Z', to: '2026-03-12T02:05:00Z', granularity: 'day', timezone: 'UTC' },
  { from: '2026-03-25T10:00:00Z', to: '2026-04-02T13:30:00Z', granularity: 'day', timezone: 'Europe/Berlin' },
  { from: '2026-03-05T15:00:00Z', to: '2026-03-12T02:00:00Z', granularity: 'day', timezone: 'America/New_York' },
  { from: '2026-03-07T13:10:00+05:30', to: '2026-03-21T09:00:00+05:30', granularity: 'day', timezone: 'Asia/Kolkata' },
  { from: '2026-02-27T23:50:00Z', to: '2026-03-15T05:05:00Z', granularity: 'week', timezone: 'Asia/Kathmandu' },
  {
    from: '2026-04-01T08:00:00Z',
    to: '2026-04-09T03:00:00Z',
    granularity: 'day',
    timezone: 'Australia/Adelaide',
    include_bots: 'true',
  },
  { from: '2026-02-20', to: '2026-04-10', granularity: 'month', timezone: 'America/New_York' },
  { from: '2026-03-22', to: '2026-04-12', granularity: 'week', timezone: 'Australia/Adelaide' },
];

/** Each code's series and breakdowns, and the account's weekday x hour cells, the same from both sources. */
async function expectCodesAgree(query: Query, codes = CODES) {
  const { rollups, raw } = services();
  for (const id of codes) {
    const fromRollups = await rollups.codeScans(principal, id, parseInput(analyticsQuerySchema, query));
    expect(fromRollups.total_scans).toBeGreaterThan(0);
    expect(fromRollups).toEqual(await raw.codeScans(principal, id, parseInput(analyticsQuerySchema, query)));
  }
  const { granularity: _, top: __, ...range } = query;
  const cells = parseInput(weekdayHoursQuerySchema, range);
  expect(await rollups.overviewWeekdayHours(principal, cells)).toEqual(
    await raw.overviewWeekdayHours(principal, cells),
  );
  expect(await rollups.codeWeekdayHours(principal, codes[0]!, cells)).toEqual(
    await raw.codeWeekdayHours(principal, codes[0]!, cells),
  );
}

/** The account overview the same from both sources; returns it. */
async function expectOverviewsAgree(query: Query) {
  const { rollups, raw } = services();
  const fromRollups = await rollups.overview(principal, parseInput(overviewQuerySchema, query));
  expect(fromRollups.total_scans).toBeGreaterThan(0);
  expect(fromRollups).toEqual(await raw.overview(principal, parseInput(overviewQuerySchema, query)));
  return fromRollups;
}

/**
 * The overview's trend, a code's series and the weekday x hour cells against the raw scans placed
 * one by one in their local period and hour with Luxon: apart from the grid code (offset runs,
 * slices summed in SQL) that the rollups and raw scans share.
 */
async function expectPlacedOneByOne(query: Query) {
  const { rollups } = services();
  const overview = await rollups.overview(principal, parseInput(overviewQuerySchema, query));
  const series = await rollups.codeScans(principal, CODES[0]!, parseInput(analyticsQuerySchema, query));
  const { granularity: _, top: __, ...range } = query;
  const week = await rollups.overviewWeekdayHours(principal, parseInput(weekdayHoursQuerySchema, range));
  const zone = overview.timezone;
  const scansIn = (answer: { from: string; to: string }) =>
    testDb
      .db('scans')
      .where('account_id', ACCOUNT)
      .where('scanned_at', '>=', Date.parse(answer.from))
      .where('scanned_at', '<', Date.parse(answer.to))
      .modify((b) => (query.include_bots === 'true' ? b : b.where('is_bot', 0)))
      .orderBy('scanned_at')
      .select('scanned_at', 'code_id') as Promise<Array<{ scanned_at: number | string; code_id: string }>>;
  const periodsOf = (scans: Array<{ scanned_at: number | string }>) => {
    const counts = new Map<string, number>();
    for (const { scanned_at } of scans) {
      const period = DateTime.fromMillis(Number(scanned_at), { zone }).startOf(overview.granularity).toISO()!;
      counts.set(period, (counts.get(period) ?? 0) + 1);
    }
    return [...counts];
  };
  const nonZero = (trend: Array<{ period: string; scans: number }>) =>
    trend.filter((p) => p.scans !== 0).map((p) => [p.period, p.scans]);
  const inOverview = await scansIn(overview);
  expect(inOverview.length).toBeGreaterThan(0);
  expect(nonZero(overview.trend)).toEqual(periodsOf(inOverview));
  expect(nonZero(series.timeseries)).toEqual(periodsOf(inOverview.filter((s) => s.code_id === CODES[0])));
  const cells = new Array<number>(168).fill(0);
  for (const { scanned_at } of await scansIn(week)) {
    const local = DateTime.fromMillis(Number(scanned_at), { zone });
    cells[(local.weekday - 1) * 24 + local.hour]! += 1;
  }
  expect(week.cells.map((c) => c.scans)).toEqual(cells);
}

describe('rollups and raw scans agree', () => {
  const queries = [
    { from: '2026-02-19', to: '2026-03-12', granularity: 'day' },
    { from: '2026-02-19', to: '2026-03-12', granularity: 'day', include_bots: 'true' },
    { from: '2026-02-23', to: '2026-03-01', granularity: 'hour', timezone: 'America/New_York' },
    { from: '2026-02-01', to: '2026-03-31', granularity: 'week', timezone: 'Europe/Berlin' },
    { from: '2026-02-01', to: '2026-03-31', granularity: 'month', timezone: 'Pacific/Auckland', top: '100' },
    ...ZONE_QUERIES,
  ];

  it.each(queries)('per code: %o', (query) => expectCodesAgree(query));

  it.each(queries)('overview: %o', async (query) => {
    const fromRollups = await expectOverviewsAgree(query);
    expect(fromRollups.active_codes).toBe(3);
    // Every breakdown is compared, the longest values and "none" among them.
    expect(Object.keys(fromRollups.breakdowns)).toEqual([
      'country',
      'region',
      'city',
      'device',
      'os',
      'browser',
      'referrer',
    ]);
    // Region and city count only the scans placed: no null entry.
    expect(fromRollups.breakdowns.region.map((c) => c.value)).toEqual(
      expect.arrayContaining(['US/California', 'DE/Bavaria']),
    );
    expect(fromRollups.breakdowns.region.map((c) => c.value)).not.toContain(null);
    expect(fromRollups.breakdowns.city.map((c) => c.value)).not.toContain(null);
    expect(fromRollups.breakdowns.os.map((c) => c.value)).toContain(null);
    expect(fromRollups.breakdowns.browser.map((c) => c.value)).toEqual(expect.arrayContaining([null, LONG_BROWSER]));
    expect(fromRollups.breakdowns.referrer.map((c) => c.value)).toEqual(expect.arrayContaining([null, LONG_REFERRER]));
  });

  it.each(ZONE_QUERIES)('as the raw scans placed one by one with Luxon: %o', (query) => expectPlacedOneByOne(query));

  it.each([
    { from: '2026-02-25T00:00:00Z', to: '2026-03-05T00:00:00Z', includeBots: false },
    { from: '2026-02-25T05:00:00Z', to: '2026-03-05T19:00:00Z', includeBots: true },
    { from: '2026-02-25T05:17:31.250Z', to: '2026-03-05T19:42:00Z', includeBots: false },
    { from: '2026-02-27T10:05:00Z', to: '2026-02-27T10:55:00Z', includeBots: true },
    { from: null, to: '2026-03-01T12:30:00Z', includeBots: false },
    // On quarter hours (Kathmandu's and Kolkata's hours) and not.
    { from: '2026-03-06T18:15:00Z', to: '2026-03-09T06:45:00Z', includeBots: false },
    { from: '2026-03-06T18:14:59Z', to: '2026-03-07T02:30:01Z', includeBots: true },
  ])('code totals for DataLoader: %o', async (q) => {
    const { rollups, raw } = services();
    const at = (t: string | null) => (t === null ? null : Date.parse(t));
    const window = { from: at(q.from), to: at(q.to), includeBots: q.includeBots };
    const totals = await rollups.totalsByCode(principal, [...CODES, 'qr_none'], window);
    expect(totals.some((t) => t.scans > 0)).toBe(true);
    expect(totals[3]).toEqual({ scans: 0, unique: 0 });
    expect(totals).toEqual(await raw.totalsByCode(principal, [...CODES, 'qr_none'], window));
  });

  it('unique counts equal distinct (visitor, UTC day) pairs, per code and per account', async () => {
    const { db } = testDb;
    const rows: ScanRow[] = await db('scans').where({ is_bot: false });
    const distinct = (scope: (r: ScanRow) => string) =>
      new Set(rows.map((r) => `${scope(r)}|${r.visitor_hash}|${Math.floor(Number(r.scanned_at) / 86_400_000)}`)).size;
    const { rollups } = services();
    const all = { from: '2026-02-20', to: '2026-04-10', granularity: 'day' };
    let perCode = 0;
    for (const id of CODES)
      perCode += (await rollups.codeScans(principal, id, parseInput(analyticsQuerySchema, all))).unique_scans;
    expect(perCode).toBe(distinct((r) => r.code_id));
    expect((await rollups.overview(principal, parseInput(overviewQuerySchema, all))).unique_scans).toBe(
      distinct(() => ACCOUNT),
    );
  });

  it.each([
    {
      table: 'account_daily_rollups',
      key: ['account_id', 'dimension', 'day', 'is_bot', 'value'],
      day: 'day',
      backfill: backfillAccountDays,
    },
    { table: 'code_daily_rollups', key: ['code_id', 'day', 'is_bot'], day: 'day', backfill: backfillCodeDays },
    { table: 'code_last_scans', key: ['code_id'], day: 'last_day', backfill: backfillLastScans },
  ])('the $table migration builds from the rollups what the writer keeps', async ({ table, key, day, backfill }) => {
    const { db } = testDb;
    const rows = async () => (await db(table).select('*').orderBy(key)).map(asNumbers);
    const written = await rows();
    expect(written.length).toBeGreaterThan(1);
    expect(written.every((r) => (r[day] as number) % 86_400_000 === 0)).toBe(true);
    await db(table).delete();
    await backfill(db);
    expect(await rows()).toEqual(written);
  });

  it('the daily account rollups hold every dimension of the overview', async () => {
    const dimensions = await testDb.db('account_daily_rollups').distinct('dimension').pluck('dimension');
    expect(new Set(dimensions)).toEqual(
      new Set(['total', 'country', 'region', 'city', 'device', 'os', 'browser', 'referrer']),
    );
  });

  it('the account breakdowns migrations roll back and rebuild what the writer wrote', async () => {
    const { db } = testDb;
    await asBeforeRegionAndCity(db);
    const key = ['account_id', 'dimension', 'hour', 'is_bot', 'value'];
    const rows = async () =>
      (await db('account_scan_rollups').select('*').orderBy(key)).map((r) => ({
        ...r,
        hour: Number(r.hour),
        is_bot: Number(r.is_bot),
      }));
    const width = async () => Number((await db('account_scan_rollups').columnInfo('value')).maxLength);
    const written = await rows();
    expect(written.some((r) => r.dimension === 'referrer' && r.value === LONG_REFERRER)).toBe(true);
    expect(await width()).toBe(191);

    await backfillAccountBreakdowns.down(db);
    await widenAccountValue.down(db);
    expect(await width()).toBe(32);
    expect(await rows()).toEqual(written.filter((r) => ['total', 'country', 'device'].includes(r.dimension)));

    await widenAccountValue.up(db);
    await backfillAccountBreakdowns.up(db);
    // That backfill writes hours, which the quarter migration splits as it would have then.
    await quarterHours.up(db);
    expect(await width()).toBe(191);
    expect(await rows()).toEqual(written);
  });

  it('the backfill migration rebuilds the same flags and rollups from raw scans alone', async () => {
    const { db } = testDb;
    await asBeforeRegionAndCity(db);
    // The migration knows no queue: what the writer wrote is all rolled in first.
    expect(await createDimensionRoller(db)()).toBeGreaterThan(0);
    expect(await db('scan_dimension_deltas').count({ n: '*' })).toEqual([{ n: 0 }]);
    const tables = {
      scans: ['id'],
      scan_rollups: ['code_id', 'hour', 'is_bot'],
      scan_dimension_rollups: ['code_id', 'dimension', 'day', 'is_bot', 'value'],
      account_scan_rollups: ['account_id', 'dimension', 'hour', 'is_bot', 'value'],
    };
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(tables).map(async ([table, key]) => {
            const columns = table === 'scans' ? ['id', 'is_unique', 'is_account_unique'] : '*';
            const rows = await db(table).select(columns).orderBy(key);
            return [
              table,
              rows.map((r: Record<string, unknown>) =>
                Object.fromEntries(
                  Object.entries(r).map(([k, v]) => [
                    k,
                    typeof v === 'boolean' ? Number(v) : Number.isNaN(Number(v)) ? v : Number(v),
                  ]),
                ),
              ),
            ];
          }),
        ),
      );
    const written = await snapshot();
    await db('scans').update({ is_unique: false, is_account_unique: false });
    for (const table of ['scan_rollups', 'scan_dimension_rollups', 'account_scan_rollups']) await db(table).delete();
    await db('scan_visitors').delete();
    await backfill.up(db);
    await backfillAccountBreakdowns.up(db);
    await backfillRedirects(db);
    await quarterHours.up(db);
    expect(await snapshot()).toEqual(written);
    // Visitors of the last two days are remembered, so their next scan today is not unique again.
    expect(Number((await db('scan_visitors').count({ n: '*' }).first())!.n)).toBe(0);
    const now = Date.now();
    await db('scans').insert({ ...randomScans(1)[0]!, scanned_at: now, visitor_hash: 'recent' });
    for (const table of ['scan_rollups', 'scan_dimension_rollups', 'account_scan_rollups']) await db(table).delete();
    await backfill.up(db);
    const day = Math.floor(now / 86_400_000);
    expect(
      (await db('scan_visitors').select('day', 'scope_id').orderBy('scope_id')).map((v) => [Number(v.day), v.scope_id]),
    ).toEqual([
      [day, ACCOUNT],
      [day, expect.stringMatching(/^qr_r/)],
    ]);
  });
});

// Each test compares many answers: minutes on a busy machine.
describe('the quarter-hour rollups through their migration, a purge and retention', { timeout: 180_000 }, () => {
  const HOUR = 3_600_000;
  const KEYS = {
    scan_rollups: ['code_id', 'hour', 'is_bot'],
    account_scan_rollups: ['account_id', 'dimension', 'hour', 'is_bot', 'value'],
  };
  const rowsOf = async (table: keyof typeof KEYS) =>
    (await testDb.db(table).select('*').orderBy(KEYS[table])).map(asNumbers);
  const bothTables = async () => ({
    codes: await rowsOf('scan_rollups'),
    account: await rowsOf('account_scan_rollups'),
  });
  // Fewer than the writer's parity tests: one range of local days per zone, and hours from 07:20.
  const SOME_QUERIES = [...ZONE_QUERIES.filter((q) => q.granularity === 'day'), ZONE_QUERIES[10]!];
  const answersAgree = async (queries: Query[], codes: string[]) => {
    for (const query of queries) {
      await expectCodesAgree(query, codes);
      await expectOverviewsAgree(query);
    }
  };

  it('the migration splits every hour whose raw scans are kept, and merges them back down', async () => {
    const { db } = testDb;
    // The backfills of the test before wrote hours, as before quarters; the account's other
    // breakdowns and the redirects come from the migrations that followed.
    await asBeforeRegionAndCity(db);
    await backfillAccountBreakdowns.up(db);
    await backfillRedirects(db);
    const hours = await bothTables();
    expect([...hours.codes, ...hours.account].every((r) => (r.hour as number) % HOUR === 0)).toBe(true);
    await quarterHours.up(db);
    const split = await bothTables();
    expect(split.codes.some((r) => (r.hour as number) % HOUR !== 0)).toBe(true);
    expect(split.account.some((r) => (r.hour as number) % HOUR !== 0)).toBe(true);
    await answersAgree(SOME_QUERIES, CODES);
    // Again: nothing changes. Down: the same hours as before.
    await quarterHours.up(db);
    expect(await bothTables()).toEqual(split);
    await quarterHours.down(db);
    expect(await bothTables()).toEqual(hours);
    await quarterHours.up(db);
    expect(await bothTables()).toEqual(split);
  });

  it('a deleted code purged: the rollups still answer every zone as raw scans do', async () => {
    const { db } = testDb;
    const store = createPurgeStore(db);
    const gone = CODES[2]!;
    await db('codes').where({ id: gone }).delete();
    await store.codeDeleted(gone, ACCOUNT, Date.now(), db);
    while ((await store.purgeRawBatch(gone, 400)) > 0);
    while ((await store.purgeRollupBatch(gone, 400)) > 0);
    expect(await db('scan_rollups').where({ code_id: gone }).count({ n: '*' })).toEqual([{ n: 0 }]);
    await answersAgree(SOME_QUERIES, CODES.slice(0, 2));
  });

  it('retention: hours whose raw scans are gone stay whole, exact on whole hours; the rest is split', async () => {
    const { db } = testDb;
    const hourly = { from: '2026-03-01', to: '2026-03-20', granularity: 'hour' };
    const { rollups } = services();
    const utcHours = () => rollups.overview(principal, parseInput(overviewQuerySchema, hourly));
    const answered = await utcHours();
    const split = await bothTables();
    // Back to hours, as before the migration, and the raw scans before 12:20 on 03-10 expire.
    await quarterHours.down(db);
    const horizon = Date.parse('2026-03-10T12:20:00Z');
    const store = createPurgeStore(db);
    while ((await store.deleteBefore(ACCOUNT, horizon, 500)) > 0);
    expect(await db('scans').where('scanned_at', '<', horizon).count({ n: '*' })).toEqual([{ n: 0 }]);
    await quarterHours.up(db);
    // From the first whole hour after the horizon, the writer's quarters; before the hour it
    // falls in, whole hours (that hour itself is split where none of its scans expired).
    const whole = Date.parse('2026-03-10T13:00:00Z');
    const after = await bothTables();
    for (const table of ['codes', 'account'] as const) {
      const since = (rows: Array<Record<string, unknown>>) => rows.filter((r) => (r.hour as number) >= whole);
      expect(since(after[table])).toEqual(since(split[table]));
      const old = after[table].filter((r) => (r.hour as number) < whole - HOUR);
      expect(old.length).toBeGreaterThan(0);
      expect(old.every((r) => (r.hour as number) % HOUR === 0)).toBe(true);
    }
    // Old hours answer exactly on whole hours; every zone answers as raw scans after the horizon.
    expect(await utcHours()).toEqual(answered);
    await answersAgree(
      [
        ...ZONES.map((timezone) => ({ from: '2026-03-26', to: '2026-04-08', granularity: 'day', timezone })),
        { from: '2026-03-20T05:20:00Z', to: '2026-03-22T00:00:00Z', granularity: 'hour', timezone: 'Asia/Kathmandu' },
      ],
      CODES.slice(0, 2),
    );
  });
});
