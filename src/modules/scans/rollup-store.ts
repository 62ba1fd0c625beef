// Writes the rollups: upserts that add a batch's counts to what is there.
import type { Knex } from 'knex';
import { addOnConflict, scanInsertChunk } from '../../db/dialect.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { AccountRollupRow, CodeRollupRow, DimensionRollupRow } from './rollups.ts';

export function createRollupStore(db: Knex) {
  const addScansAndUniques = addOnConflict(db, ['scans', 'unique_scans']);
  const addScans = addOnConflict(db, ['scans']);
  const chunk = scanInsertChunk(db);

  async function upsert<T extends object>(q: Queryable, table: string, key: string[], rows: T[], add: Record<string, Knex.Raw>): Promise<void> {
    for (let i = 0; i < rows.length; i += chunk) {
      await q(table).insert(rows.slice(i, i + chunk)).onConflict(key).merge(add);
    }
  }

  return {
    async addCodeRollups(rows: CodeRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'scan_rollups', ['code_id', 'hour', 'is_bot'], rows, addScansAndUniques);
    },

    async addDimensionRollups(rows: DimensionRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'scan_dimension_rollups', ['code_id', 'dimension', 'day', 'is_bot', 'value'], rows, addScans);
    },

    async addAccountRollups(rows: AccountRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'account_scan_rollups', ['account_id', 'dimension', 'hour', 'is_bot', 'value'], rows, addScansAndUniques);
    },
  };
}

export type RollupStore = ReturnType<typeof createRollupStore>;
