// The per-code breakdown counts a scan batch queues (scan_dimension_deltas) and the rolls that add
// them to scan_dimension_rollups: the live writer rolls every few batches, a roll leaves deleted
// codes out, a failed roll keeps its batch committed, and concurrent rollers count each entry once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, isSqlite } from '../../src/db/knex.ts';
import { createCommitBatch } from '../../src/modules/scans/commit-batch.ts';
import { createDimensionRoller } from '../../src/modules/scans/dimension-deltas.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { scanEvent } from '../support/scans.ts';

const AT = Date.parse('2026-06-10T09:00:00Z');

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

const scan = (codeId: string, i: number) =>
  scanEvent({ id: codeId, slug: codeId }, 'acct_deltas', { at: new Date(AT + i * 1000).toISOString() });

const count = async (table: string, where: Record<string, string> = {}) =>
  Number((await testDb.db(table).where(where).count({ n: '*' }))[0]!.n);

/** Scans per dimension value of a code in the rollups, as `dimension:value` → scans. */
const rolledCountries = async (codeId: string) =>
  Object.fromEntries(
    (
      await testDb
        .db('scan_dimension_rollups')
        .where({ code_id: codeId, dimension: 'country' })
        .select('value', 'scans')
    ).map((r) => [r.value, Number(r.scans)]),
  );

it('queues each batch and rolls every eighth, summing what the batches queued', async () => {
  const commit = createCommitBatch(testDb.db, async () => false);
  for (let b = 1; b <= 7; b++) await commit([scan('qr_d1', 2 * b), scan('qr_d1', 2 * b + 1)], `queue-${b}`);
  expect(await count('scan_dimension_rollups', { code_id: 'qr_d1' })).toBe(0);
  expect(await count('scan_dimension_deltas')).toBeGreaterThanOrEqual(7);

  await commit([scan('qr_d1', 100)], 'queue-8');
  expect(await count('scan_dimension_deltas')).toBe(0);
  // Fifteen scans, one row per value: scanEvent's scans all come from one country.
  expect(Object.values(await rolledCountries('qr_d1'))).toEqual([15]);
});

it('leaves out the counts of a code deleted before the roll', async () => {
  const { db } = testDb;
  const commit = createCommitBatch(db, async () => false);
  await commit([scan('qr_d2', 1), scan('qr_d3', 2)], 'deleted-1');
  await db('code_purges').insert({ code_id: 'qr_d3', account_id: 'acct_deltas', deleted_at: AT });
  expect(await createDimensionRoller(db)()).toBeGreaterThan(0);
  expect(Object.values(await rolledCountries('qr_d2'))).toEqual([1]);
  expect(await count('scan_dimension_rollups', { code_id: 'qr_d3' })).toBe(0);
  expect(await count('scan_dimension_deltas')).toBe(0);
});

it('answers a batch that committed as committed when the roll after it fails', async () => {
  const { db } = testDb;
  const commit = createCommitBatch(db, async () => false);
  for (let b = 1; b <= 7; b++) await commit([scan('qr_d4', b)], `failing-${b}`);
  // The roll's DELETE of the queued rows fails: a trigger stands in for a database that refuses it.
  const refuse = isSqlite(db)
    ? `BEGIN SELECT RAISE(ABORT, 'roll refused'); END`
    : `FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'roll refused'`;
  await db.raw(`CREATE TRIGGER refuse_roll BEFORE DELETE ON scan_dimension_deltas ${refuse}`);
  try {
    const result = await commit([scan('qr_d4', 8)], 'failing-8');
    expect(result.rollFailure).toMatch(/roll refused/);
    expect(await count('scans', { code_id: 'qr_d4' })).toBe(8);
    // Nothing of the failed roll stayed: the counts wait in the queue, none in the rollups.
    expect(await count('scan_dimension_rollups', { code_id: 'qr_d4' })).toBe(0);
  } finally {
    await db.raw('DROP TRIGGER refuse_roll');
  }
  expect(await createDimensionRoller(db)()).toBeGreaterThan(0);
  expect(Object.values(await rolledCountries('qr_d4'))).toEqual([8]);
});

// Several rolling processes are a MySQL/MariaDB deployment; SQLite serves one process.
describe.runIf((process.env.DATABASE_URL ?? '').startsWith('mysql://'))('concurrent rollers', () => {
  it('add each queued entry once', async () => {
    // A writer of its own per batch, so that no writer reaches its roll: all 21 stay queued.
    for (let b = 0; b < 21; b++)
      await createCommitBatch(testDb.db, async () => false)([scan('qr_d5', b), scan('qr_d6', b)], `many-${b}`);
    const rollers = Array.from({ length: 4 }, () => createDb(testDb.url));
    try {
      await Promise.all(
        rollers.map(async (db) => {
          const roll = createDimensionRoller(db);
          while ((await roll(3)) > 0);
        }),
      );
    } finally {
      await Promise.all(rollers.map((db) => db.destroy()));
    }
    expect(await count('scan_dimension_deltas')).toBe(0);
    expect(Object.values(await rolledCountries('qr_d5'))).toEqual([21]);
    expect(Object.values(await rolledCountries('qr_d6'))).toEqual([21]);
  });
});
