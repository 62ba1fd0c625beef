// The analytics benchmark's bulk path (bench/bulk-seed.ts) against the live one: the same scans
// written through the batch writer in small transactions, and a day at a time through the bulk
// path, leave the same rows in every table the writer fills, on both engines.
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBulkScanSeeder } from '../../bench/bulk-seed.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { createScanBatchWriter, createWriterMemory } from '../../src/modules/scans/batch-writer.ts';
import { createDimensionRoller } from '../../src/modules/scans/dimension-deltas.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScansStore, type ScanRow } from '../../src/modules/scans/store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { seededRandom } from '../support/random.ts';

const ACCOUNT = 'acct_bulk';
const CODES = ['qr_b1', 'qr_b2', 'qr_b3', 'qr_b4'];
const DAY_MS = 86_400_000;
const TODAY = Date.parse('2026-03-10T00:00:00Z');

function randomScans(n: number): ScanRow[] {
  const next = seededRandom(7);
  const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)]!;
  const rows: ScanRow[] = [];
  for (let i = 0; i < n; i++) {
    const visitor = Math.floor(next() * 30);
    rows.push({
      code_id: pick(CODES),
      account_id: ACCOUNT,
      // Four days up to the end of today: two whose visitor claims are kept, two whose are not.
      scanned_at: TODAY - 3 * DAY_MS + Math.floor(next() * 4 * DAY_MS),
      rule_id: pick([null, 'rule_a']),
      country: pick([null, 'US', 'DE']),
      ...pick([
        { region: null, city: null },
        { region: 'US/California', city: 'US/California/San Jose' },
      ]),
      device: pick(['ios', 'android', 'desktop']),
      os: pick(['iOS', 'Android', null]),
      browser: pick(['Safari', 'Chrome', null]),
      referrer_host: pick([null, 'a.example']),
      language: pick(['en', 'de', null]),
      is_bot: visitor < 3,
      outcome: pick(['redirect', 'redirect', 'expired']),
      visitor_hash: `v${visitor}`,
      is_unique: false,
      is_account_unique: false,
    });
  }
  return rows.sort((a, b) => a.scanned_at - b.scanned_at);
}

/** Every table the writer fills, in an order that does not depend on insertion. */
async function contents(db: Knex) {
  const scanColumns = ['code_id', 'account_id', 'scanned_at', 'rule_id', 'country', 'region', 'city', 'device'];
  return {
    scans: await db('scans')
      .select([...scanColumns, 'os', 'browser', 'referrer_host', 'language', 'is_bot', 'visitor_hash'])
      .select('is_unique', 'is_account_unique', 'outcome')
      .orderBy(['scanned_at', 'code_id', 'visitor_hash', 'id']),
    codeRollups: await db('scan_rollups').select().orderBy(['code_id', 'hour', 'is_bot']),
    codeDays: await db('code_daily_rollups').select().orderBy(['code_id', 'day', 'is_bot']),
    lastScans: await db('code_last_scans').select().orderBy('code_id'),
    scanDays: await db('code_scan_days').select().orderBy(['account_id', 'period', 'code_id']),
    dimensionRollups: await db('scan_dimension_rollups')
      .select()
      .orderBy(['code_id', 'dimension', 'day', 'is_bot', 'value']),
    accountRollups: await db('account_scan_rollups')
      .select()
      .orderBy(['account_id', 'dimension', 'hour', 'is_bot', 'value']),
    accountDays: await db('account_daily_rollups')
      .select()
      .orderBy(['account_id', 'dimension', 'day', 'is_bot', 'value']),
    queuedDimensions: await db('scan_dimension_deltas').count({ n: '*' }),
    // The live service deletes the claims of days before yesterday with their salt.
    visitors: await db('scan_visitors')
      .select('day', 'visitor_hash', 'scope_id')
      .where('day', '>=', TODAY / DAY_MS - 1)
      .orderBy(['day', 'visitor_hash', 'scope_id']),
  };
}

let live: TestDb;
let bulk: TestDb;
beforeAll(async () => {
  [live, bulk] = await Promise.all([createTestDb(), createTestDb()]);
});
afterAll(async () => {
  await Promise.all([live.destroy(), bulk.destroy()]);
});

it('writes what the batch writer writes, a day at a time', async () => {
  const rows = randomScans(2500);
  const write = createScanBatchWriter(createScansStore(live.db), createRollupStore(live.db));
  const copy = () => rows.map((r) => ({ ...r }));
  const liveRows = copy();
  // As the live writer does, it leaves out the last-scan rows and visitor claims its committed
  // batches already stored; the bulk path writes every row.
  const memory = createWriterMemory();
  for (let i = 0; i < liveRows.length; i += 300) {
    const takeIn = await inTransaction(live.db, (trx) => write(liveRows.slice(i, i + 300), trx, memory));
    takeIn();
  }
  // The live writer's breakdown counts wait in a queue until a roll; a small limit takes several.
  const roll = createDimensionRoller(live.db);
  let rolls = 0;
  while ((await roll(5)) > 0) rolls += 1;
  expect(rolls).toBeGreaterThan(1);

  const seedDay = createBulkScanSeeder(bulk.db, TODAY);
  const byDay = new Map<number, ScanRow[]>();
  for (const r of copy()) {
    const day = Math.floor(r.scanned_at / DAY_MS);
    byDay.set(day, [...(byDay.get(day) ?? []), r]);
  }
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) await seedDay(byDay.get(day)!);

  const expected = await contents(live.db);
  expect(expected.scans).toHaveLength(2500);
  expect(expected.scans.some((s) => s.is_unique) && expected.scans.some((s) => !s.is_unique)).toBe(true);
  expect(expected.visitors.length).toBeGreaterThan(0);
  expect(await contents(bulk.db)).toEqual(expected);
  // The bulk path kept no claims older than yesterday.
  expect(
    await bulk
      .db('scan_visitors')
      .where('day', '<', TODAY / DAY_MS - 1)
      .count({ n: '*' }),
  ).toEqual([{ n: 0 }]);
});

it('refuses a batch that spans two UTC days', async () => {
  const seedDay = createBulkScanSeeder(bulk.db, TODAY);
  const [a, b] = [randomScans(1)[0]!, randomScans(1)[0]!];
  b.scanned_at = a.scanned_at + DAY_MS;
  await expect(seedDay([a, b])).rejects.toThrow(/one UTC day/);
});
