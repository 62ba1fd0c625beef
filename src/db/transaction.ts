import type { Knex } from 'knex';

export type Queryable = Knex | Knex.Transaction;

/** Runs fn in a transaction; nested calls join the outer transaction. */
export async function inTransaction<T>(db: Queryable, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Knex.Transaction);
  return (db as Knex).transaction(fn);
}
