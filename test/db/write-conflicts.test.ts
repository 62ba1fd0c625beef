// What the scan writer retries as a conflict (counted as scan_batch_retries_total{cause="conflict"}):
// a real deadlock between two transactions on MariaDB (InnoDB reports Galera's certification
// conflicts the same way, error 1213), and the error as the writer thread hands it back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWriteConflict, databaseRefusal } from '../../src/db/dialect.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

describe('isWriteConflict', () => {
  it('takes the writer thread’s copy of an error by its code, and nothing else', () => {
    expect(
      isWriteConflict(Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK' })),
    ).toBe(true);
    expect(
      isWriteConflict(Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT' })),
    ).toBe(true);
    expect(
      isWriteConflict(
        Object.assign(new Error("Table 'scans' doesn't exist"), { code: 'ER_NO_SUCH_TABLE', errno: 1146 }),
      ),
    ).toBe(false);
    expect(isWriteConflict(new Error('the scan writer thread stopped (exit code 1)'))).toBe(false);
    expect(isWriteConflict(null)).toBe(false);
  });
});

describe('databaseRefusal', () => {
  it('answers a request that lost a deadlock with a 503 to send again after a second, and nothing else', () => {
    const lost = databaseRefusal(Object.assign(new Error('Deadlock found'), { errno: 1213 }));
    expect(lost).toMatchObject({ kind: 'unavailable', status: 503, retryAfterSeconds: 1 });
    expect(lost!.message).toContain('send it again');
    expect(databaseRefusal(Object.assign(new Error('Duplicate entry'), { errno: 1062 }))).toBeNull();
  });
});

// Two transactions locking two rows in opposite orders: one of them is chosen as the victim.
describe.runIf((process.env.DATABASE_URL ?? '').startsWith('mysql://'))('a real deadlock on MariaDB', () => {
  it('is a write conflict', async () => {
    const { db } = testDb;
    await db.schema.createTable('conflict_rows', (t) => {
      t.integer('id').primary();
      t.integer('n').notNullable();
    });
    await db('conflict_rows').insert([
      { id: 1, n: 0 },
      { id: 2, n: 0 },
    ]);
    let bothHoldOne!: () => void;
    const held = new Promise<void>((resolve) => {
      let count = 0;
      bothHoldOne = () => ++count === 2 && resolve();
    });
    const crossing = (first: number, second: number) =>
      db.transaction(async (trx) => {
        await trx('conflict_rows').where({ id: first }).increment('n', 1);
        bothHoldOne();
        await held;
        await trx('conflict_rows').where({ id: second }).increment('n', 1);
      });
    const results = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures).toHaveLength(1);
    expect(isWriteConflict(failures[0]!.reason)).toBe(true);
    expect(databaseRefusal(failures[0]!.reason)?.status).toBe(503);
  });
});
