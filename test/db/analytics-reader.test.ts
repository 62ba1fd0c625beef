// The analytics reader (src/db/analytics-reader.ts): on SQLite read threads (read-thread.ts),
// whose statements run on worker threads with read-only connections, on MySQL a pool of its own.
// It must read as db does: every committed write, one snapshot per transaction, the same row
// shapes; on SQLite a write is refused. And a statement past its timeout is stopped, with an
// error dialect.ts answers as a 503, while the reader reads on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createAnalyticsReader } from '../../src/db/analytics-reader.ts';
import { databaseRefusal, isStatementTimeout } from '../../src/db/dialect.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

const ON_MYSQL = (process.env.DATABASE_URL ?? '').startsWith('mysql://');
let testDb: TestDb;
let reader: Knex;
/** The same reader, its statements bounded at 100 ms. */
let bounded: Knex;
beforeAll(async () => {
  testDb = await createTestDb({ migrate: false });
  await testDb.db.schema.createTable('read_thread_rows', (t) => {
    t.string('id', 36).primary();
    t.integer('n').notNullable();
  });
  reader = createAnalyticsReader(testDb.db, 0);
  bounded = createAnalyticsReader(testDb.db, 100);
});
afterAll(async () => {
  await reader.destroy();
  await bounded.destroy();
  await testDb.destroy();
});

/**
 * A statement that runs for seconds whatever the data, far past the 100 ms bound: SQLite counts to
 * four million in a recursive CTE (2-3 s, which its thread then finishes after the answer),
 * MariaDB, whose recursion stops at 1,000 rows (max_recursive_iterations), counts a billion
 * rows of a cross join.
 */
const counting = (to: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${to})`;
const LONG_STATEMENT = ON_MYSQL
  ? `${counting(1000)} SELECT COUNT(*) AS c FROM n a, n b, n c`
  : `${counting(4_000_000)} SELECT COUNT(*) AS c FROM n`;

describe('the analytics reader', () => {
  it('is a Knex of its own on both engines', () => {
    expect(reader).not.toBe(testDb.db);
  });

  it('read every committed write, with the row shapes of db', async () => {
    await testDb.db('read_thread_rows').insert([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ]);
    const sums = (q: Knex) => q('read_thread_rows').count({ rows: '*' }).sum({ total: 'n' }).first();
    expect(await sums(reader)).toEqual(await sums(testDb.db));
    expect(await reader('read_thread_rows').where('n', '>', 1).pluck('id')).toEqual(['b']);
  });

  it('read one snapshot in a transaction', async () => {
    const seen = await reader.transaction(async (trx) => {
      const before = await trx('read_thread_rows').count({ rows: '*' }).first();
      await testDb.db('read_thread_rows').insert({ id: `c${testDb.dialect}`, n: 3 });
      const after = await trx('read_thread_rows').count({ rows: '*' }).first();
      return [Number(before!.rows), Number(after!.rows)];
    });
    expect(seen[1]).toBe(seen[0]);
    expect(Number((await reader('read_thread_rows').count({ rows: '*' }).first())!.rows)).toBe(seen[0]! + 1);
  });

  it.skipIf(ON_MYSQL)('refuse a write on SQLite, changing nothing', async () => {
    await expect(reader('read_thread_rows').insert({ id: 'z', n: 9 })).rejects.toMatchObject({
      code: 'SQLITE_READONLY',
    });
    expect(await testDb.db('read_thread_rows').where('id', 'z').first()).toBeUndefined();
  });

  it('stops a statement past its timeout, answered as a 503, and reads on', async () => {
    const started = performance.now();
    const err: unknown = await bounded.raw(LONG_STATEMENT).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isStatementTimeout(err)).toBe(true);
    expect(databaseRefusal(err)).toMatchObject({ status: 503, retryAfterSeconds: 5 });
    // Answered at its bound, not when the statement would have ended (seconds).
    expect(performance.now() - started).toBeLessThan(1_500);
    // The reader reads on: at once on MariaDB, which stopped the statement; on SQLite once the
    // thread has finished the given-up one (the reads sent meanwhile are given up in their turn).
    let read: unknown;
    for (let tries = 0; tries < 100 && read === undefined; tries++) {
      read = await bounded('read_thread_rows')
        .count({ rows: '*' })
        .first()
        .catch((e: unknown) => {
          if (!isStatementTimeout(e)) throw e;
          return new Promise((resolve) => setTimeout(resolve, 100));
        });
    }
    expect(Number((read as { rows: number }).rows)).toBeGreaterThan(0);
  });
});
