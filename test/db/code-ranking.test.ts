// Top and active codes from the daily code rollups (the uniform threshold of code-ranking.ts)
// against the same answer summed from raw scans, on both engines: skewed and even popularity,
// bots in or out, ranges on UTC midnights and off them (a time zone's day), deleted codes among
// the busiest, more codes asked for than were scanned. Active codes in a range wholly in the past
// come from the day bits (code_scan_days), here in ranges across two of their periods.
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/transaction.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { createOwnedCodeIds } from '../../src/modules/codes/store.ts';
import { createScanBatchWriter } from '../../src/modules/scans/batch-writer.ts';
import { RANKING_LIMITS, topCodesByThreshold } from '../../src/modules/scans/code-ranking.ts';
import { createRollupSource } from '../../src/modules/scans/rollup-query-store.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createRawSource } from '../../src/modules/scans/scan-query-store.ts';
import { createScansStore, type ScanRow } from '../../src/modules/scans/store.ts';
import { backfillCodeScanDays } from '../../migrations/20261130100000_create_code_scan_days.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { insertCodeRows } from '../support/factories.ts';
import { seededRandom } from '../support/random.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
// Twenty days before 2025-11-08, where the day bits of scan-days.ts start a period (day 20,400).
const START = Date.parse('2025-10-19T00:00:00Z');
const DAYS = 45;
const SKEWED = 'acct_skewed';
const EVEN = 'acct_even';
const CODES = 300;
/**
 * Codes of the skewed account scanned once, on one day, at 02:00, 10:00 and (deleted) 12:00 UTC: a
 * range from 05:00 that day to the present counts the 10:00 one, from its last scan alone.
 */
const LAPSED_DAY = START + 33 * DAY;
const LAPSED = [
  { id: `${SKEWED}_lapsed_early`, at: LAPSED_DAY + 2 * HOUR },
  { id: `${SKEWED}_lapsed_late`, at: LAPSED_DAY + 10 * HOUR },
  { id: `${SKEWED}_lapsed_deleted`, at: LAPSED_DAY + 12 * HOUR },
];
/** Codes of the skewed account that are deleted (their rollups stay until a purge): two of the busiest. */
const DELETED = [`${SKEWED}_c000`, `${SKEWED}_c002`, `${SKEWED}_lapsed_deleted`];

let testDb: TestDb;

const codeId = (account: string, i: number) => `${account}_c${String(i).padStart(3, '0')}`;

/** Scans over DAYS days; code i is picked with weight 1/(i+1) (skewed) or evenly. */
function scansOf(account: string, n: number, skewed: boolean, seed: number): ScanRow[] {
  const next = seededRandom(seed);
  const weights = Array.from({ length: CODES }, (_, i) => (skewed ? 1 / (i + 1) : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const pickCode = () => {
    let x = next() * total;
    for (let i = 0; i < CODES; i++) if ((x -= weights[i]!) < 0) return i;
    return CODES - 1;
  };
  return Array.from({ length: n }, (_, k) => {
    const isBot = next() < 0.1;
    return {
      code_id: codeId(account, pickCode()),
      account_id: account,
      scanned_at: START + Math.floor(next() * DAYS * DAY),
      rule_id: null,
      country: 'US',
      device: 'ios',
      os: null,
      browser: null,
      referrer_host: null,
      language: null,
      is_bot: isBot,
      visitor_hash: `v${k % 500}${isBot ? 'b' : ''}`,
      is_unique: false,
      is_account_unique: false,
    };
  }).sort((a, b) => a.scanned_at - b.scanned_at);
}

async function seed(db: Knex, account: string, rows: ScanRow[]) {
  await db('accounts').insert({ id: account, name: account, created_at: Date.now() });
  await insertCodeRows(db, account, [...new Set(rows.map((r) => r.code_id))]);
  const write = createScanBatchWriter(createScansStore(db), createRollupStore(db));
  // Batches that share code-days, so the daily rows are added to, not only inserted.
  for (let i = 0; i < rows.length; i += 997) await inTransaction(db, (trx) => write(rows.slice(i, i + 997), trx));
}

function sources(db: Knex) {
  const owned = createOwnedCodeIds(db);
  const codesOn = (q: Queryable) => ({ owned: createOwnedCodeIds(q) });
  const raw = createRawSource(db, owned);
  return { raw, rollups: createRollupSource(db, raw, codesOn), owned };
}

beforeAll(async () => {
  testDb = await createTestDb();
  const skewed = scansOf(SKEWED, 12_000, true, 7);
  const lapsed = LAPSED.map(({ id, at }) => ({ ...skewed[0]!, code_id: id, scanned_at: at, is_bot: false }));
  await seed(
    testDb.db,
    SKEWED,
    [...skewed, ...lapsed].sort((a, b) => a.scanned_at - b.scanned_at),
  );
  await seed(testDb.db, EVEN, scansOf(EVEN, 6_000, false, 8));
  // As the codes service deletes: the code goes, and a purge record names it (the purge itself,
  // which would delete the code's rollups, is left out, as while it waits).
  await testDb.db('codes').whereIn('id', DELETED).delete();
  await testDb
    .db('code_purges')
    .insert(DELETED.map((id) => ({ code_id: id, account_id: SKEWED, deleted_at: Date.now() })));
}, 120_000);
afterAll(() => testDb.destroy());

const windows = [
  { name: 'whole UTC days', from: START + 3 * DAY, to: START + 40 * DAY },
  { name: 'three days across a period of the day bits', from: START + 18 * DAY, to: START + 21 * DAY },
  { name: 'every day scanned', from: START, to: START + DAYS * DAY },
  { name: 'edges off midnight (UTC-5)', from: START + 2 * DAY + 5 * HOUR, to: START + 30 * DAY + 5 * HOUR },
  { name: 'edges off midnight (UTC+9)', from: START + 9 * DAY - 9 * HOUR, to: START + 20 * DAY + 15 * HOUR },
  { name: 'within one day', from: START + 10 * DAY + 3 * HOUR, to: START + 10 * DAY + 20 * HOUR },
  { name: 'open start', from: null, to: START + 12 * DAY },
  { name: 'open end', from: START + 33 * DAY, to: null },
  // Ranges that reach the present, starting inside a day some codes were last scanned on.
  { name: 'to the present from 05:00 (UTC-5)', from: LAPSED_DAY + 5 * HOUR, to: START + DAYS * DAY + 5 * HOUR },
  { name: 'open end from 05:00 (UTC-5)', from: LAPSED_DAY + 5 * HOUR, to: null },
];

describe('code rankings from the daily rollups equal those from raw scans', () => {
  for (const account of [SKEWED, EVEN]) {
    for (const w of windows) {
      it.each([
        { top: 1, includeBots: false },
        { top: 5, includeBots: true },
        { top: 25, includeBots: false },
        { top: 500, includeBots: true },
      ])(`${account}, ${w.name}: %o`, async ({ top, includeBots }) => {
        const { raw, rollups } = sources(testDb.db);
        const window = { from: w.from, to: w.to, includeBots };
        const expected = await raw.codeRanking(account, window, top);
        expect(expected.active).toBeGreaterThan(0);
        expect(await rollups.codeRanking(account, window, top)).toEqual(expected);
      });
    }
  }

  it('leaves deleted codes out even when they were the busiest', async () => {
    const { rollups } = sources(testDb.db);
    const ranking = await rollups.codeRanking(SKEWED, { from: START, to: START + DAYS * DAY, includeBots: false }, 3);
    expect(ranking.top.map((t) => t.codeId)).toEqual([codeId(SKEWED, 1), codeId(SKEWED, 3), codeId(SKEWED, 4)]);
    expect(ranking.active).toBe(CODES + LAPSED.length - DELETED.length);
  });
});

it('the code_scan_days migration builds from the daily rollups the bits the writer set', async () => {
  const { db } = testDb;
  const key = ['account_id', 'period', 'code_id'];
  // Numbers as numbers, whichever way the driver returns BIGINT and BOOLEAN columns.
  const rows = async () =>
    (await db('code_scan_days').select('*').orderBy(key)).map((r: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'account_id' || k === 'code_id' ? v : Number(v)])),
    );
  const written = await rows();
  // Both periods, human and bot days, in the first and last words.
  expect(new Set(written.map((r) => r.period))).toEqual(new Set([50, 51]));
  for (const word of ['h0', 'h7', 'b0', 'b7']) expect(written.some((r) => Number(r[word]) > 0)).toBe(true);
  await db('code_scan_days').delete();
  await backfillCodeScanDays(db);
  expect(await rows()).toEqual(written);
});

describe('the uniform threshold', () => {
  const range = (account: string) => ({
    accountId: account,
    firstDay: START,
    endDay: START + DAYS * DAY,
    includeBots: false,
    edges: new Map<string, number>(),
  });

  /** The account's human daily entries in the range: what a GROUP BY over every code would read. */
  const entriesOf = async (account: string) =>
    Number(
      (await testDb.db('code_daily_rollups').where({ account_id: account, is_bot: 0 }).count({ n: '*' }).first())!.n,
    );

  it('answers a skewed account reading a fraction of its entries', async () => {
    const { raw, owned } = sources(testDb.db);
    expect(await entriesOf(SKEWED)).toBeGreaterThan(3 * 1_000);
    const ranked = await topCodesByThreshold(testDb.db, owned, range(SKEWED), 10, {
      ...RANKING_LIMITS,
      maxEntriesRead: 1_000,
    });
    const expected = await raw.codeRanking(SKEWED, { from: START, to: START + DAYS * DAY, includeBots: false }, 10);
    expect(ranked).toEqual(expected.top);
  });

  it('answers a range of more days than SQLite allows members in a compound SELECT (500)', async () => {
    const { raw, owned } = sources(testDb.db);
    const long = { ...range(SKEWED), firstDay: START - 600 * DAY };
    const expected = await raw.codeRanking(
      SKEWED,
      { from: START - 600 * DAY, to: START + DAYS * DAY, includeBots: false },
      10,
    );
    expect(await topCodesByThreshold(testDb.db, owned, long, 10)).toEqual(expected.top);
  });

  it('gives up (null) when popularity is even and the entries would be read nearly whole', async () => {
    const { owned } = sources(testDb.db);
    const entries = await entriesOf(EVEN);
    const limits = { ...RANKING_LIMITS, maxEntriesRead: Math.floor(entries / 2) };
    expect(await topCodesByThreshold(testDb.db, owned, range(EVEN), 10, limits)).toBeNull();
  });
});
