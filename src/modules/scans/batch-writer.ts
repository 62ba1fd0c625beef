// Everything one batch of scans writes, inside the caller's transaction: first-visit flags,
// the raw rows (append-only), and the hourly and daily rollups the analytics read. The recorder and the
// analytics benchmark's seeder both write through here, so seeded data is shaped like real data.
import type { Queryable } from '../../db/transaction.ts';
import { flagFirstVisits } from './first-visits.ts';
import { codeLastScanRows, type CodeLastScanRow, type LastScanMemo } from './last-scans.ts';
import type { RollupStore } from './rollup-store.ts';
import {
  accountDailyRollupRows,
  accountRollupRows,
  codeDailyRollupRows,
  codeRollupRows,
  dimensionRollupRows,
} from './rollups.ts';
import type { ScanRow, ScansStore } from './store.ts';

export function createScanBatchWriter(store: ScansStore, rollups: RollupStore) {
  /**
   * `lastScans` leaves out the code_last_scans rows its writer already stored (the live writer
   * has one; without it, every row is written). Returns the rows written there, for the writer
   * to remember once the transaction commits.
   */
  return async function writeScanBatch(
    rows: ScanRow[],
    trx: Queryable,
    lastScans?: LastScanMemo,
  ): Promise<CodeLastScanRow[]> {
    await flagFirstVisits(rows, store, trx);
    await store.insertMany(rows, trx);
    const codeHours = codeRollupRows(rows);
    await rollups.addCodeRollups(codeHours, trx);
    const codeDays = codeDailyRollupRows(codeHours);
    await rollups.addCodeDailyRollups(codeDays, trx);
    const allLastDays = codeLastScanRows(codeDays);
    const lastDays = lastScans ? lastScans.news(allLastDays) : allLastDays;
    await rollups.raiseCodeLastScans(lastDays, trx);
    await rollups.addDimensionRollups(dimensionRollupRows(rows), trx);
    const accountHours = accountRollupRows(rows);
    await rollups.addAccountRollups(accountHours, trx);
    await rollups.addAccountDailyRollups(accountDailyRollupRows(accountHours), trx);
    return lastDays;
  };
}

export type ScanBatchWriter = ReturnType<typeof createScanBatchWriter>;
