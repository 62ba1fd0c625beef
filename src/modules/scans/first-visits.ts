// Flags each scan that is its visitor's first of the UTC day, for its code (is_unique) and for
// its account (is_account_unique). Visitor hashes rotate daily, so "first of the day" is the
// finest identity there is; deciding it at write time makes unique counts add up across periods.
import { randomBytes } from 'node:crypto';
import { DAY_MS } from '../../shared/time.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { ScansStore, ScanRow, VisitorKey } from './store.ts';

const keyName = (k: VisitorKey) => `${k.day}|${k.visitor_hash}|${k.scope_id}`;

/**
 * Keys remembered at most (about 120 bytes each); past it the oldest are forgotten. Forgetting
 * only costs writes: a forgotten key is claimed again and found taken.
 */
const MAX_REMEMBERED = 100_000;

/**
 * The visitor keys a writer's committed batches hold in scan_visitors. Such a key is never a
 * first visit again, so the writer leaves it out of its claims: a repeat visitor costs no write,
 * and a batch whose claims are all new needs no read-back (see ScansStore.claimVisitors).
 */
export function createSeenVisitors() {
  // A Set iterates in insertion order, so its first entries are the oldest.
  const seen = new Set<string>();
  return {
    has: (key: string) => seen.has(key),
    /** Names of the keys of a committed batch. */
    remember(names: string[]): void {
      for (const name of names) {
        seen.delete(name);
        seen.add(name);
      }
      for (const oldest of seen) {
        if (seen.size <= MAX_REMEMBERED) break;
        seen.delete(oldest);
      }
    },
  };
}

export type SeenVisitors = ReturnType<typeof createSeenVisitors>;

/**
 * Sets the flags on `rows` and answers the names of the batch's visitor keys, which scan_visitors
 * holds once the transaction commits (this batch's claims, or another writer's), for `seen`.
 */
export async function flagFirstVisits(
  rows: ScanRow[],
  store: Pick<ScansStore, 'claimVisitors'>,
  q: Queryable,
  seen?: SeenVisitors,
): Promise<string[]> {
  const keys = new Map<string, VisitorKey>();
  const keysOf = (r: ScanRow): [VisitorKey, VisitorKey] => {
    const day = Math.floor(r.scanned_at / DAY_MS);
    return [
      { day, visitor_hash: r.visitor_hash, scope_id: r.code_id },
      { day, visitor_hash: r.visitor_hash, scope_id: r.account_id },
    ];
  };
  for (const r of rows) for (const k of keysOf(r)) keys.set(keyName(k), k);
  const unseen = [...keys].filter(([name]) => !seen?.has(name)).map(([, k]) => k);

  // Only keys this batch inserted itself are new: another writer's insert of the same visitor
  // wins the row, and then that writer counts the visit.
  const batch = randomBytes(12).toString('base64url');
  const claimed = new Set((await store.claimVisitors(unseen, batch, q)).map(keyName));

  for (const r of rows) {
    const [codeKey, accountKey] = keysOf(r).map(keyName) as [string, string];
    // The earliest scan of the key in the batch takes the flag; rows arrive in time order.
    r.is_unique = claimed.delete(codeKey);
    r.is_account_unique = claimed.delete(accountKey);
  }
  return [...keys.keys()];
}
