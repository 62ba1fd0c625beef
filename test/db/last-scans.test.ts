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

/**
 * A batch committer whose transaction can be made to fail after the writer ran (`failing.now`),
 * and a count of the statements so far that name `table`.
 */
function committer(table: string) {
  const failing = { now: false };
  const commit = createCommitBatch(testDb.db, async () => {
    if (failing.now) throw new Error('outbox down');
    return false;
  });
  const statements: string[] = [];
  testDb.db.on('query', (q: { sql: string }) => statements.push(q.sql));
  return { commit, failing, writesTo: () => statements.filter((s) => s.includes(table)).length };
}

it('stores each rise of a code last days, skips what it stored, and forgets nothing that rolled back', async () => {
  const { db } = testDb;
  const { commit, failing, writesTo: writesToLastScans } = committer('code_last_scans');
  const lastScans = async () => {
    const row = await db('code_last_scans').where('code_id', CODE).first();
    return row && { last: Number(row.last_day), human: Number(row.last_human_day) };
  };

  await commit([scan(D + 3_600_000, true)], 'b1');
  expect(await lastScans()).toEqual({ last: D, human: -1 });

  // The same day again, bots only: nothing to raise, no statement.
  const before = writesToLastScans();
  await commit([scan(D + 7_200_000, true)], 'b2');
  expect(writesToLastScans()).toBe(before);

  // A human scan the next day, in a batch whose transaction fails after the writer ran.
  failing.now = true;
  await expect(commit([scan(D + DAY + 60_000)], 'b3')).rejects.toThrow('outbox down');
  expect(await lastScans()).toEqual({ last: D, human: -1 });
  failing.now = false;
  await commit([scan(D + DAY + 60_000)], 'b3');
  expect(await lastScans()).toEqual({ last: D + DAY, human: D + DAY });

  // A late scan of an earlier day lowers nothing.
  await commit([scan(D - DAY)], 'b4');
  expect(await lastScans()).toEqual({ last: D + DAY, human: D + DAY });
});

it("sets each code-day's bit once, sets a late day's too, and forgets nothing that rolled back", async () => {
  const { db } = testDb;
  const CODE_DAYS = 'qr_days_1';
  const dayScan = (at: number, bot = false) =>
    scanEvent({ id: CODE_DAYS, slug: 'days1' }, 'acct_last', { at: new Date(at).toISOString(), bot });
  const { commit, failing, writesTo: writesToDays } = committer('code_scan_days');
  /** The code's days with human scans (or bot ones), as days since the epoch, from its bits. */
  const scanDays = async (kind: 'h' | 'b') => {
    const days: number[] = [];
    for (const row of await db('code_scan_days').where({ code_id: CODE_DAYS })) {
      for (let word = 0; word < 8; word++) {
        const bits = Number(row[`${kind}${word}`]);
        for (let bit = 0; bit < 50; bit++)
          if (Math.floor(bits / 2 ** bit) % 2 === 1) days.push(Number(row.period) * 400 + word * 50 + bit);
      }
    }
    return days.sort((a, b) => a - b);
  };
  const humanDays = () => scanDays('h');
  const dayOf = (at: number) => Math.floor(at / DAY);

  await commit([dayScan(D + 3_600_000)], 'd1');
  expect(await humanDays()).toEqual([dayOf(D)]);

  // The same day again: its bit is set, no statement.
  const before = writesToDays();
  await commit([dayScan(D + 7_200_000)], 'd2');
  expect(writesToDays()).toBe(before);

  // The next day, in a batch whose transaction fails after the writer ran, then again.
  failing.now = true;
  await expect(commit([dayScan(D + DAY + 60_000)], 'd3')).rejects.toThrow('outbox down');
  expect(await humanDays()).toEqual([dayOf(D)]);
  failing.now = false;
  await commit([dayScan(D + DAY + 60_000)], 'd3');
  expect(await humanDays()).toEqual([dayOf(D), dayOf(D) + 1]);

  // A late scan of an earlier day sets its bit; bot scans set bot days' bits, on a day whose
  // human bit this writer already set too.
  await commit([dayScan(D - 5 * DAY), dayScan(D + DAY + 120_000, true), dayScan(D + 2 * DAY, true)], 'd4');
  expect(await humanDays()).toEqual([dayOf(D) - 5, dayOf(D), dayOf(D) + 1]);
  expect(await scanDays('b')).toEqual([dayOf(D) + 1, dayOf(D) + 2]);
});
