// code_scan_uses: the uses of each code with max_scans, claimed by the scan path (scan-limits.ts).
// One row per limited code; every statement is by primary key, and a claim is one autocommit
// UPDATE, so instances and workers claiming the same code queue on its row for a moment only.
import type { Knex } from 'knex';
import { retryOnWriteConflict, type Queryable } from '../../db/transaction.ts';

export function createScanUseStore(db: Knex) {
  return {
    /**
     * Adds one use when fewer than `max` are used: true when it did; false when the code is used
     * up or has no row yet. A statement that lost a deadlock changed nothing, so it is run again.
     */
    async take(codeId: string, max: number): Promise<boolean> {
      const changed = await retryOnWriteConflict(() =>
        db('code_scan_uses').where('code_id', codeId).where('used', '<', max).increment('used', 1),
      );
      return changed > 0;
    },

    /** The uses of the codes among `ids` that have a row. */
    async usedOf(ids: string[], q: Queryable = db): Promise<Map<string, number>> {
      const rows: { code_id: string; used: number | string }[] = await q('code_scan_uses')
        .select('code_id', 'used')
        .whereIn('code_id', ids);
      return new Map(rows.map((row) => [row.code_id, Number(row.used)]));
    },

    /** Makes the code's row with `used` uses, unless a concurrent claim made it first (then that one stands). */
    async start(codeId: string, used: number): Promise<void> {
      await db('code_scan_uses').insert({ code_id: codeId, used }).onConflict('code_id').ignore();
    },

    /** Drops the code's row: its limit was removed, so a new one counts from the rollups again. */
    async forget(codeId: string, q: Queryable = db): Promise<void> {
      // Looked for first: InnoDB's delete of a missing row locks its gap until the change commits,
      // which would hold up other codes' first claims (their inserts) meanwhile.
      const row = await q('code_scan_uses').where('code_id', codeId).first('code_id');
      if (row) await q('code_scan_uses').where('code_id', codeId).delete();
    },
  };
}

export type ScanUseStore = ReturnType<typeof createScanUseStore>;
