import type { Knex } from 'knex';
import { isWriteConflict } from './dialect.ts';
import { isSqlite } from './knex.ts';

export type Queryable = Knex | Knex.Transaction;

/**
 * MySQL/MariaDB isolation levels a transaction may ask for (SQLite's are always serializable):
 * - `repeatable read`: every statement reads one snapshot. Asked for where that matters, since a
 *   server may be set to READ COMMITTED, where each statement reads anew.
 * - `read committed`: locks the rows it touches and no gaps between them, so a worker that claims
 *   the rows at the end of a table does not hold up inserts after them.
 */
export type Isolation = 'repeatable read' | 'read committed';

/** Runs fn in a transaction; nested calls join the outer transaction (and its isolation). */
export async function inTransaction<T>(
  db: Queryable,
  fn: (trx: Knex.Transaction) => Promise<T>,
  isolation?: Isolation,
): Promise<T> {
  if (db.isTransaction) return fn(db as Knex.Transaction);
  if (!isolation || isSqlite(db as Knex)) return (db as Knex).transaction(fn);
  return (db as Knex).transaction(fn, { isolationLevel: isolation });
}

/**
 * Runs a statement that may simply be run again (an idempotent delete or update) and runs it
 * again when it lost to a concurrent one (InnoDB deadlock, lock wait timeout, SQLite busy):
 * several such statements on rows they share, started at once, can deadlock on MariaDB.
 */
export async function retryOnWriteConflict<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isWriteConflict(err)) throw err;
    }
  }
}

/** One trivial round trip (readiness): rejects when the database cannot be reached. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.raw('select 1');
}
