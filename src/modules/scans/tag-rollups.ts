// Keeping tag_rollups (migrations/…_create_tag_rollups.ts) equal, for every tag, to the sum of
// the rollups of the codes carrying it. Two writers change it:
// - a scan batch adds its scans of tagged codes to their tags (batch-writer.ts);
// - tagging a code adds its whole history to the tag, untagging (or deleting it) subtracts it.
// The two must not interleave on one code: a batch that read the code's tags before the tagging
// committed, and commits after the tagging read the history, would be in neither. So each takes
// the code's row lock first: a batch shared (before anything it reads; its snapshot then starts
// after every tagging of its codes that committed before it), tagging exclusive. Tagging reads
// the history on another connection, which sees every batch committed before its lock; batches
// that come after wait for it and then see the new tags. The locks are the codes module's (the
// code rows) and the links the tags module's, both below this one. SQLite runs one transaction at
// a time.
import type { Knex } from 'knex';
import { isSqlite } from '../../db/knex.ts';
import { inTransaction, type Queryable } from '../../db/transaction.ts';
import { lockCodes } from '../codes/index.ts';
import { tagIdsOfCodes, type LinkChange } from '../tags/index.ts';
import { queuedDimensionRows } from './dimension-deltas.ts';
import { createRollupStore } from './rollup-store.ts';
import {
  TAG_DIMENSIONS,
  tagRollupRows,
  type CodeDailyRollupRow,
  type DimensionRollupRow,
  type SignedTag,
} from './rollups.ts';

/** Codes per IN list. */
const CHUNK = 500;

/** A rollup row as read, whichever way the driver returns BIGINT and BOOLEAN columns. */
function asNumbers<T extends { day: unknown; is_bot: unknown; scans: unknown }>(
  row: T,
): T & { day: number; is_bot: boolean; scans: number } {
  return { ...row, day: Number(row.day), is_bot: Boolean(row.is_bot), scans: Number(row.scans) };
}

/** The tags of a batch's codes, each code's row locked (shared) first: see above. */
export async function lockedTagsOf(codeIds: readonly string[], q: Queryable): Promise<Map<string, string[]>> {
  const ids = [...new Set(codeIds)];
  await lockCodes(ids, q, 'share');
  return tagIdsOfCodes(ids, q);
}

/**
 * Moves codes' histories into or out of tags' rollups as their links change, inside the
 * tagging transaction `trx` (which holds the links' changes). `reader` reads the histories: a
 * pool of its own on MySQL (db/knex.ts createSidePool), since the tagging transaction holds a
 * connection of `db`'s and locks while it waits for the read.
 */
export function createTagHistoryMover(db: Knex, reader: Knex) {
  const rollups = createRollupStore(db);

  /**
   * The codes' daily totals and breakdown rows, rolled and queued, in one snapshot. Only codes
   * with a last scan day have any (the batch that writes a code's first rows writes that too):
   * new codes, tagged as they are made (a bulk call's thousands), cost one read.
   */
  const historyOf = (ids: string[], q: Queryable) =>
    inTransaction(
      q,
      async (snapshot) => {
        const days: CodeDailyRollupRow[] = [];
        const dimensions: DimensionRollupRow[] = [];
        const scanned = new Set<string>();
        for (let i = 0; i < ids.length; i += CHUNK) {
          const part: string[] = await snapshot('code_last_scans')
            .whereIn('code_id', ids.slice(i, i + CHUNK))
            .pluck('code_id');
          if (part.length === 0) continue;
          for (const id of part) scanned.add(id);
          const dayRows = await snapshot('code_daily_rollups')
            .whereIn('code_id', part)
            .select('code_id', 'day', 'is_bot', 'account_id', 'scans', 'unique_scans');
          days.push(...dayRows.map(asNumbers));
          const dimensionRows = await snapshot('scan_dimension_rollups')
            .whereIn('code_id', part)
            .whereIn('dimension', [...TAG_DIMENSIONS])
            .select('code_id', 'dimension', 'day', 'is_bot', 'value', 'scans');
          dimensions.push(...dimensionRows.map(asNumbers));
        }
        if (scanned.size > 0)
          dimensions.push(
            ...(await queuedDimensionRows(snapshot, [...TAG_DIMENSIONS])).filter((r) => scanned.has(r.code_id)),
          );
        return { days, dimensions };
      },
      'repeatable read',
    );

  return async function moveTagHistory(changes: readonly LinkChange[], trx: Knex.Transaction): Promise<void> {
    if (changes.length === 0) return;
    const codeIds = [...new Set(changes.map((c) => c.codeId))];
    await lockCodes(codeIds, trx, 'update');
    // Another connection: this transaction's snapshot may predate batches committed before the lock.
    const { days, dimensions } = await historyOf(codeIds, isSqlite(db) ? trx : reader);
    const tagsOf = new Map<string, SignedTag[]>();
    for (const { codeId, tagId, sign } of changes) tagsOf.set(codeId, [...(tagsOf.get(codeId) ?? []), { tagId, sign }]);
    await rollups.addTagRollups(tagRollupRows(days, dimensions, tagsOf), trx);
  };
}
