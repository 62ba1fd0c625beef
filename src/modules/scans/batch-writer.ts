// Everything one batch of scans writes, inside the caller's transaction: first-visit flags,
// the raw rows (append-only; none with SCAN_RAW_ROWS=none, whose answers come from what
// follows), the hourly and daily rollups the analytics read, the days each code had scans on
// (scan-days.ts), the per-code breakdown counts, queued for a later roll
// (dimension-deltas.ts), and the tagged codes' counts added to their tags (tag-rollups.ts). The
// recorder and the analytics benchmark's seeder both write through here, so seeded data is
// shaped like real data.
import type { Queryable } from '../../db/transaction.ts';
import { createSeenVisitors, flagFirstVisits, type SeenVisitors } from './first-visits.ts';
import { codeLastScanRows, createCodeDayMemo, type CodeDayMemo } from './last-scans.ts';
import type { RollupStore } from './rollup-store.ts';
import {
  accountDailyRollupRows,
  accountRollupRows,
  codeDailyRollupRows,
  codeRollupRows,
  dimensionRollupRows,
  tagRollupRows,
} from './rollups.ts';
import { codeScanDayRows } from './scan-days.ts';
import type { ScanRow, ScansStore } from './store.ts';
import { lockedTagsOf } from './tag-rollups.ts';

/**
 * What a live writer remembers of its own committed batches, to leave out writes that would
 * change nothing. Without it every row is written, as the bulk seeder does.
 */
export interface WriterMemory {
  codeDays: CodeDayMemo;
  visitors: SeenVisitors;
}

export function createWriterMemory(): WriterMemory {
  return { codeDays: createCodeDayMemo(), visitors: createSeenVisitors() };
}

/** Whether a batch stores its raw scan rows (SCAN_RAW_ROWS=keep) or only what is counted of them (none). */
export type RawRows = 'keep' | 'none';

export function createScanBatchWriter(store: ScansStore, rollups: RollupStore, rawRows: RawRows = 'keep') {
  /**
   * Writes the batch and returns what `memory` is to take in once the transaction commits (not
   * before: a batch that rolls back stored nothing).
   */
  return async function writeScanBatch(rows: ScanRow[], trx: Queryable, memory?: WriterMemory): Promise<() => void> {
    // First: the codes' locks before anything this transaction reads (tag-rollups.ts).
    const tagsOf = await lockedTagsOf(
      rows.map((r) => r.code_id),
      trx,
    );
    const visitorKeys = await flagFirstVisits(rows, store, trx, memory?.visitors);
    if (rawRows === 'keep') await store.insertMany(rows, trx);
    const codeHours = codeRollupRows(rows);
    await rollups.addCodeRollups(codeHours, trx);
    const codeDays = codeDailyRollupRows(codeHours);
    await rollups.addCodeDailyRollups(codeDays, trx);
    const allLastDays = codeLastScanRows(codeDays);
    const lastDays = memory ? memory.codeDays.lastScanNews(allLastDays) : allLastDays;
    await rollups.raiseCodeLastScans(lastDays, trx);
    const newDays = memory ? memory.codeDays.scanDayNews(codeDays) : codeDays;
    await rollups.markCodeScanDays(codeScanDayRows(newDays), trx);
    const dimensions = dimensionRollupRows(rows);
    await rollups.queueDimensionRollups(dimensions, trx);
    if (tagsOf.size > 0) {
      const signed = new Map(
        [...tagsOf].map(([codeId, tagIds]) => [codeId, tagIds.map((tagId) => ({ tagId, sign: 1 as const }))]),
      );
      await rollups.addTagRollups(tagRollupRows(codeDays, dimensions, signed), trx);
    }
    const accountHours = accountRollupRows(rows);
    await rollups.addAccountRollups(accountHours, trx);
    await rollups.addAccountDailyRollups(accountDailyRollupRows(accountHours), trx);
    return () => {
      memory?.codeDays.remember(codeDays);
      memory?.visitors.remember(visitorKeys);
    };
  };
}

export type ScanBatchWriter = ReturnType<typeof createScanBatchWriter>;
