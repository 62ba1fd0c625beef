// Each code's last days (code_last_scans) as the live writer keeps them: it leaves out rows it
// already stored, and only a committed batch counts as stored, so a batch that rolled back
// leaves nothing out of the next.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCommitBatch } from '../../src/modules/scans/commit-batch.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { scanEvent } from '../support/scans.ts';

const DAY = 86_400_000;
const D = Date.parse('2026-06-10T00:00:00Z');
const CODE = 'qr_last_1';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

/** A scan of the code at `at` (epoch ms), through the shared test event builder. */
const scan = (at: number, bot = false) =>
  scanEvent({ id: CODE, slug: 'last1' }, 'acct_last', { at: new Date(at).toISOString(), bot });

it('stores each rise of a code last days, skips what it stored, and forgets nothing that rolled back', async () => {
  const { db } = testDb;
  let failOutbox = false;
  const commit = createCommitBatch(db, async () => {
    if (failOutbox) throw new Error('outbox down');
    return false;
  });
  const statements: string[] = [];
  db.on('query', (q: { sql: string }) => statements.push(q.sql));
  const lastScans = async () => {
    const row = await db('code_last_scans').where('code_id', CODE).first();
    return row && { last: Number(row.last_day), human: Number(row.last_human_day) };
  };
  const writesToLastScans = () => statements.filter((s) => s.includes('code_last_scans')).length;

  await commit([scan(D + 3_600_000, true)], 'b1');
  expect(await lastScans()).toEqual({ last: D, human: -1 });

  // The same day again, bots only: nothing to raise, no statement.
  const before = writesToLastScans();
  await commit([scan(D + 7_200_000, true)], 'b2');
  expect(writesToLastScans()).toBe(before);

  // A human scan the next day, in a batch whose transaction fails after the writer ran.
  failOutbox = true;
  await expect(commit([scan(D + DAY + 60_000)], 'b3')).rejects.toThrow('outbox down');
  expect(await lastScans()).toEqual({ last: D, human: -1 });
  failOutbox = false;
  await commit([scan(D + DAY + 60_000)], 'b3');
  expect(await lastScans()).toEqual({ last: D + DAY, human: D + DAY });

  // A late scan of an earlier day lowers nothing.
  await commit([scan(D - DAY)], 'b4');
  expect(await lastScans()).toEqual({ last: D + DAY, human: D + DAY });
});
