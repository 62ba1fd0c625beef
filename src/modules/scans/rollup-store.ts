// Writes the rollups: upserts that add a batch's counts to what is there.
import type { Knex } from 'knex';
import { addOnConflict, greatestOnConflict, orOnConflict, scanInsertChunk } from '../../db/dialect.ts';
import { inKeyOrder } from '../../db/key-order.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { CodeLastScanRow } from './last-scans.ts';
import { type CodeScanDayRow, DAY_BIT_COLUMNS } from './scan-days.ts';
import type {
  AccountDailyRollupRow,
  AccountRollupRow,
  CodeDailyRollupRow,
  CodeRollupRow,
  DimensionRollupRow,
  TagRollupRow,
} from './rollups.ts';
import { packDimensionDeltas } from './rollups.ts';

export function createRollupStore(db: Knex) {
  const addScansAndUniques = addOnConflict(db, ['scans', 'unique_scans']);
  const addCodeCounts = addOnConflict(db, ['scans', 'unique_scans', 'redirects']);
  const addScans = addOnConflict(db, ['scans']);
  const keepLatest = greatestOnConflict(db, ['last_day', 'last_human_day']);
  const setBits = orOnConflict(db, DAY_BIT_COLUMNS);
  const chunk = scanInsertChunk(db);
  const accountKey = (time: 'hour' | 'day') => ['account_id', 'dimension', time, 'is_bot', 'value'];

  async function upsert<T extends object>(
    q: Queryable,
    table: string,
    key: string[],
    unordered: T[],
    add: Record<string, Knex.Raw>,
  ): Promise<void> {
    // Every writer locks keys in the same order, so two processes' batches cannot deadlock.
    const rows = inKeyOrder(unordered, key);
    for (let i = 0; i < rows.length; i += chunk) {
      await q(table)
        .insert(rows.slice(i, i + chunk))
        .onConflict(key)
        .merge(add);
    }
  }

  return {
    async addCodeRollups(rows: CodeRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'scan_rollups', ['code_id', 'hour', 'is_bot'], rows, addCodeCounts);
    },

    async addCodeDailyRollups(rows: CodeDailyRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'code_daily_rollups', ['code_id', 'day', 'is_bot'], rows, addScansAndUniques);
    },

    async raiseCodeLastScans(rows: CodeLastScanRow[], q: Queryable): Promise<void> {
      await upsert(q, 'code_last_scans', ['code_id'], rows, keepLatest);
    },

    async markCodeScanDays(rows: CodeScanDayRow[], q: Queryable): Promise<void> {
      await upsert(q, 'code_scan_days', ['account_id', 'period', 'code_id'], rows, setBits);
    },

    /** Each code's non-bot scans that went to its destination (what max_scans counts), among `ids`. */
    async limitedScans(ids: string[], q: Queryable = db): Promise<Map<string, number>> {
      const rows: { code_id: string; n: number | string | null }[] = await q('scan_rollups')
        .select('code_id')
        .sum({ n: 'redirects' })
        .whereIn('code_id', ids)
        .where('is_bot', false)
        .groupBy('code_id');
      return new Map(rows.map((row) => [row.code_id, Number(row.n ?? 0)]));
    },

    async addDimensionRollups(rows: DimensionRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'scan_dimension_rollups', ['code_id', 'dimension', 'day', 'is_bot', 'value'], rows, addScans);
    },

    /** Queues a batch's dimension rows for a later roll into scan_dimension_rollups (dimension-deltas.ts). */
    async queueDimensionRollups(rows: DimensionRollupRow[], q: Queryable): Promise<void> {
      const packed = packDimensionDeltas(rows);
      if (packed.length > 0) await q('scan_dimension_deltas').insert(packed);
    },

    async addAccountRollups(rows: AccountRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'account_scan_rollups', accountKey('hour'), rows, addScansAndUniques);
    },

    /**
     * Adds to the tags' rollups; negative counts subtract (a code untagged). Rows brought to zero
     * stay: deleting them would lock each tag's whole range, which batches adding to it hold
     * parts of (a deadlock); breakdowns leave zeros out.
     */
    async addTagRollups(rows: TagRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'tag_rollups', ['tag_id', 'dimension', 'day', 'is_bot', 'value'], rows, addScansAndUniques);
    },

    async addAccountDailyRollups(rows: AccountDailyRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'account_daily_rollups', accountKey('day'), rows, addScansAndUniques);
    },
  };
}

export type RollupStore = ReturnType<typeof createRollupStore>;
