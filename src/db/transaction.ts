import type { Knex } from 'knex';
import { isWriteConflict } from './dialect.ts';

export type Queryable = Knex | Knex.Transaction;

/** Runs fn in a transaction; nested calls join the outer transaction. */
export async function inTransaction<T>(db: Queryable, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Knex.Transaction);
  return (db as Knex).transaction(fn);
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
