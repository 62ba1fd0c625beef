// Writes the hourly rollups: upserts that add a batch's counts to what is there.
import type { Knex } from 'knex';
import { addOnConflict, scanInsertChunk } from '../../db/dialect.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { AccountRollupRow, CodeRollupRow } from './rollups.ts';

const COUNTERS = ['scans', 'unique_scans'];

export function createRollupStore(db: Knex) {
  const add = addOnConflict(db, COUNTERS);
  const chunk = scanInsertChunk(db);

  async function upsert<T extends object>(q: Queryable, table: string, key: string[], rows: T[]): Promise<void> {
    for (let i = 0; i < rows.length; i += chunk) {
      await q(table).insert(rows.slice(i, i + chunk)).onConflict(key).merge(add);
    }
  }

  return {
    async addCodeRollups(rows: CodeRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'scan_rollups', ['code_id', 'hour', 'is_bot', 'dims'], rows);
    },

    async addAccountRollups(rows: AccountRollupRow[], q: Queryable): Promise<void> {
      await upsert(q, 'account_scan_rollups', ['account_id', 'dimension', 'hour', 'is_bot', 'value'], rows);
    },
  };
}

export type RollupStore = ReturnType<typeof createRollupStore>;
