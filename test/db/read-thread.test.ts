// The read threads' Knex (src/db/read-thread.ts): on SQLite its statements run on worker threads
// with read-only connections, and it must read as db does: every committed write, one snapshot
// per transaction, the same row shapes; a write is refused. On MySQL it is db itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createReadThreads } from '../../src/db/read-thread.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

const ON_MYSQL = (process.env.DATABASE_URL ?? '').startsWith('mysql://');
let testDb: TestDb;
let reader: Knex;
beforeAll(async () => {
  testDb = await createTestDb({ migrate: false });
  await testDb.db.schema.createTable('read_thread_rows', (t) => {
    t.string('id', 36).primary();
    t.integer('n').notNullable();
  });
  reader = createReadThreads(testDb.db);
});
afterAll(async () => {
  if (reader !== testDb.db) await reader.destroy();
  await testDb.destroy();
});

describe('read threads', () => {
  it('are db itself on MySQL, a Knex of their own on SQLite', () => {
    expect(reader === testDb.db).toBe(testDb.dialect === 'mysql');
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
    if (testDb.dialect === 'sqlite') expect(seen[1]).toBe(seen[0]);
    expect(Number((await reader('read_thread_rows').count({ rows: '*' }).first())!.rows)).toBe(seen[0]! + 1);
  });

  it.skipIf(ON_MYSQL)('refuse a write on SQLite, changing nothing', async () => {
    await expect(reader('read_thread_rows').insert({ id: 'z', n: 9 })).rejects.toMatchObject({
      code: 'SQLITE_READONLY',
    });
    expect(await testDb.db('read_thread_rows').where('id', 'z').first()).toBeUndefined();
  });
});
