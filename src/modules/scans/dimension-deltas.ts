// The per-code breakdown counts that scan batches queue (scan_dimension_deltas) instead of adding
// to scan_dimension_rollups themselves: rolling them in, and reading those still queued.
//
// A roll takes the oldest queued rows, sums their entries (a value scanned in many batches
// becomes one upsert), adds them to the rollups and deletes them, in one transaction: each entry
// is in exactly one of the two tables at any moment, so a breakdown that reads both in one
// snapshot counts every scan once. Concurrent rollers (several instances) skip each other's
// locked rows on MySQL/MariaDB; SQLite has one writer.
import type { Knex } from 'knex';
import { isSqlite } from '../../db/knex.ts';
import { inTransaction, type Queryable } from '../../db/transaction.ts';
import { createRollupStore } from './rollup-store.ts';
import { summedDimensionRows, unpackDimensionDeltas, type DimensionRollupRow } from './rollups.ts';

/** Queued rows (a batch has one per dimension it counts) one roll takes at most. */
const ROLL_LIMIT = 256;

/** Ids per IN list when leaving out deleted codes. */
const ID_CHUNK = 1000;

/** Rolls queued breakdown counts into scan_dimension_rollups; answers how many queued rows went. */
export function createDimensionRoller(db: Knex) {
  const rollups = createRollupStore(db);
  return async function roll(limit = ROLL_LIMIT): Promise<number> {
    // Read committed: the locking read of the queue's last rows takes no gap lock after them,
    // which would hold up every other instance's batch inserting its queued rows until the roll
    // commits. Nothing here needs a snapshot: the rows it sums are locked, the upserts add.
    return inTransaction(
      db,
      async (trx) => {
        const queued: Array<{ id: number | string; dimension: string; entries: string }> = await trx(
          'scan_dimension_deltas',
        )
          .select('id', 'dimension', 'entries')
          .orderBy('id')
          .limit(limit)
          .modify((b) => (isSqlite(db) ? b : b.forUpdate().skipLocked()));
        if (queued.length === 0) return 0;
        const summed = summedDimensionRows(queued.flatMap((r) => unpackDimensionDeltas(r.dimension, r.entries)));
        // A code deleted meanwhile has its rollups purged (or being purged): nothing may add to them.
        const deleted = await deletedCodes(trx, [...new Set(summed.map((r) => r.code_id))]);
        await rollups.addDimensionRollups(
          summed.filter((r) => !deleted.has(r.code_id)),
          trx,
        );
        await trx('scan_dimension_deltas')
          .whereIn(
            'id',
            queued.map((r) => r.id),
          )
          .delete();
        return queued.length;
      },
      'read committed',
    );
  };
}

async function deletedCodes(q: Queryable, codeIds: string[]): Promise<Set<string>> {
  const deleted = new Set<string>();
  for (let i = 0; i < codeIds.length; i += ID_CHUNK) {
    const ids: string[] = await q('code_purges')
      .whereIn('code_id', codeIds.slice(i, i + ID_CHUNK))
      .pluck('code_id');
    for (const id of ids) deleted.add(id);
  }
  return deleted;
}

/** The queued entries of some dimensions, of every code: few rows, read whole and filtered by the caller. */
export async function queuedDimensionRows(q: Queryable, dimensions: readonly string[]): Promise<DimensionRollupRow[]> {
  const rows: Array<{ dimension: string; entries: string }> = await q('scan_dimension_deltas')
    .whereIn('dimension', [...dimensions])
    .select('dimension', 'entries');
  return rows.flatMap((r) => unpackDimensionDeltas(r.dimension, r.entries));
}
