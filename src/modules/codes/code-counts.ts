// How many codes an account has that are not archived, kept as a running sum (the overview's
// `total_codes`; counting the codes' index took 74 ms at 100,000 codes on MariaDB). The sum is
// split over SLOTS rows per account and each change adds to one of them, drawn at random: a
// change holds its slot's row lock until it commits, so with one row, every code creation of an
// account would wait for the one before it (a bulk creation of 10,000 codes for seconds), and
// through two Galera nodes at once they would fail certification. With 16 slots, two concurrent
// changes meet on a row one time in 16. Exact: every change adds to the sum in the transaction of
// the change itself (codes/store.ts).
import { addOnConflict } from '../../db/dialect.ts';
import type { Queryable } from '../../db/transaction.ts';

const SLOTS = 16;

/** Adds `delta` codes to the account's count, in the caller's transaction. */
export async function addToCodeCount(q: Queryable, accountId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  const slot = Math.floor(Math.random() * SLOTS);
  await q('account_code_counts')
    .insert({ account_id: accountId, slot, codes: delta })
    .onConflict(['account_id', 'slot'])
    .merge(addOnConflict(q, ['codes']));
}

/** The account's codes that are not archived. */
export async function codeCountOf(q: Queryable, accountId: string): Promise<number> {
  const row = await q('account_code_counts').where('account_id', accountId).sum({ n: 'codes' }).first();
  return Number(row?.n ?? 0);
}
