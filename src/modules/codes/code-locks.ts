// Row locks on codes for another module's consistency: the scan writer locks a batch's codes
// (shared) and tagging locks the codes it tags (exclusive), so a batch's scans of a code are
// added to its tags exactly once (scans/tag-rollups.ts). SQLite runs one transaction at a time.
import { isSqlite } from '../../db/knex.ts';
import type { Queryable } from '../../db/transaction.ts';

/** Ids per locking read. */
const CHUNK = 500;

/**
 * Locks the rows of these codes (those that exist) until the transaction ends, in id order, so
 * that two transactions locking overlapping sets wait for each other rather than deadlock.
 */
export async function lockCodes(codeIds: readonly string[], q: Queryable, mode: 'share' | 'update'): Promise<void> {
  if (codeIds.length === 0 || isSqlite(q)) return;
  const ids = [...new Set(codeIds)].sort();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const query = q('codes')
      .whereIn('id', ids.slice(i, i + CHUNK))
      .orderBy('id')
      .select('id');
    await (mode === 'share' ? query.forShare() : query.forUpdate());
  }
}
