// First-visit flags when several writers (processes) write the same visitor at the same time:
// exactly one scan is the visitor's first of the day, for the code and for the account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { createScanBatchWriter } from '../../src/modules/scans/batch-writer.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScansStore, type ScanRow } from '../../src/modules/scans/store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

const row = (at: number, visitor: string, codeId = 'qr_fv'): ScanRow => ({
  code_id: codeId,
  account_id: 'acct_fv',
  scanned_at: at,
  rule_id: null,
  country: null,
  device: null,
  os: null,
  browser: null,
  referrer_host: null,
  language: null,
  is_bot: false,
  visitor_hash: visitor,
  is_unique: false,
  is_account_unique: false,
});

// Several writing processes are a MySQL/MariaDB deployment; SQLite serves one process.
const concurrentEngine = (process.env.DATABASE_URL ?? '').startsWith('mysql://');

describe.runIf(concurrentEngine)('first visits with concurrent writers', () => {
  it('flags one scan per visitor, code and UTC day even when writers race', async () => {
    // Each writer has its own connection pool, as separate processes would.
    const writers = Array.from({ length: 4 }, () => createDb(testDb.url));
    try {
      const at = Date.parse('2026-06-01T10:00:00Z');
      const batches = writers.map((db, w) => [
        row(at + w, 'same-visitor'),
        row(at + w, `own-${w}`),
        row(at + w, 'same-visitor', 'qr_fv_other'),
      ]);
      await Promise.all(
        writers.map((db, w) => {
          const write = createScanBatchWriter(createScansStore(db), createRollupStore(db));
          return inTransaction(db, (trx) => write(batches[w]!, trx));
        }),
      );
      const scans = await testDb.db('scans').select('code_id', 'visitor_hash', 'is_unique', 'is_account_unique');
      const flagged = (visitor: string, codeId: string) =>
        scans.filter((s) => s.visitor_hash === visitor && s.code_id === codeId && Boolean(s.is_unique)).length;
      expect(flagged('same-visitor', 'qr_fv')).toBe(1);
      expect(flagged('same-visitor', 'qr_fv_other')).toBe(1);
      for (let w = 0; w < 4; w++) expect(flagged(`own-${w}`, 'qr_fv')).toBe(1);
      // Account-wide: the shared visitor once, each own visitor once.
      expect(scans.filter((s) => Boolean(s.is_account_unique))).toHaveLength(5);
      const rollup = await testDb
        .db('scan_rollups')
        .where({ code_id: 'qr_fv' })
        .sum({ scans: 'scans', unique: 'unique_scans' })
        .first();
      expect({ scans: Number(rollup!.scans), unique: Number(rollup!.unique) }).toEqual({ scans: 8, unique: 5 });
    } finally {
      await Promise.all(writers.map((db) => db.destroy()));
    }
  });
});
