// Flags each scan that is its visitor's first of the UTC day, for its code (is_unique) and for
// its account (is_account_unique). Visitor hashes rotate daily, so "first of the day" is the
// finest identity there is; deciding it at write time makes unique counts add up across periods.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/transaction.ts';
import type { ScanRow, ScansStore, VisitorKey } from './store.ts';

const DAY_MS = 86_400_000;

const keyName = (k: VisitorKey) => `${k.day}|${k.visitor_hash}|${k.scope_id}`;

export async function flagFirstVisits(
  rows: ScanRow[],
  store: Pick<ScansStore, 'claimVisitors'>,
  q: Queryable,
): Promise<void> {
  const keys = new Map<string, VisitorKey>();
  const keysOf = (r: ScanRow): [VisitorKey, VisitorKey] => {
    const day = Math.floor(r.scanned_at / DAY_MS);
    return [
      { day, visitor_hash: r.visitor_hash, scope_id: r.code_id },
      { day, visitor_hash: r.visitor_hash, scope_id: r.account_id },
    ];
  };
  for (const r of rows) for (const k of keysOf(r)) keys.set(keyName(k), k);

  // Only keys this batch inserted itself are new: another writer's insert of the same visitor
  // wins the row, and then that writer counts the visit.
  const batch = randomBytes(12).toString('base64url');
  const claimed = new Set((await store.claimVisitors([...keys.values()], batch, q)).map(keyName));

  for (const r of rows) {
    const [codeKey, accountKey] = keysOf(r).map(keyName) as [string, string];
    // The earliest scan of the key in the batch takes the flag; rows arrive in time order.
    r.is_unique = claimed.delete(codeKey);
    r.is_account_unique = claimed.delete(accountKey);
  }
}
