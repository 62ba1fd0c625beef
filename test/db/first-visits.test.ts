// First-visit flags when several writers (processes) write the same visitor at the same time:
// exactly one scan is the visitor's first of the day, for the code and for the account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { createScanBatchWriter, createWriterMemory } from '../../src/modules/scans/batch-writer.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScansStore, type ScanRow } from '../../src/modules/scans/store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

const row = (at: number, visitor: string, codeId = 'qr_fv', accountId = 'acct_fv'): ScanRow => ({
  code_id: codeId,
  account_id: accountId,
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

describe('first visits with a writer that remembers its claims', () => {
  const at = Date.parse('2026-06-02T10:00:00Z');
  const flags = (rows: ScanRow[]) => rows.map((r) => [r.visitor_hash, r.is_unique, r.is_account_unique]);

  it('leaves out what it has seen, reads back only a mix, and finds what another writer claimed', async () => {
    const { db } = testDb;
    const write = createScanBatchWriter(createScansStore(db), createRollupStore(db));
    const memory = createWriterMemory();
    // The claim statements of each batch: the visitors its insert names, and whether it read back.
    let statements: Array<{ sql: string; bindings: unknown[] }> = [];
    const log = (q: { sql: string; bindings?: unknown[] }) =>
      statements.push({ sql: q.sql, bindings: q.bindings ?? [] });
    const claimsOf = () => {
      const ofVisitors = statements.filter((q) => q.sql.includes('scan_visitors'));
      const inserts = ofVisitors.filter((q) => /^insert/i.test(q.sql));
      return {
        inserted: [...new Set(inserts.flatMap((q) => q.bindings).filter((b) => /^m-/.test(String(b))))].sort(),
        readBack: ofVisitors.some((q) => /^select/i.test(q.sql)),
      };
    };
    const commit = async (rows: ScanRow[], withMemory = true) => {
      statements = [];
      const takeIn = await inTransaction(db, (trx) => write(rows, trx, withMemory ? memory : undefined));
      takeIn();
      return { flags: flags(rows), claims: claimsOf() };
    };
    db.on('query', log);
    try {
      expect(await commit([row(at, 'm-a', 'qr_m1'), row(at + 1, 'm-b', 'qr_m1')])).toEqual({
        flags: [
          ['m-a', true, true],
          ['m-b', true, true],
        ],
        claims: { inserted: ['m-a', 'm-b'], readBack: false },
      });
      // m-a is remembered (no claim written); m-c's claims are all new: nothing to read back.
      expect(await commit([row(at + 2, 'm-a', 'qr_m1'), row(at + 3, 'm-c', 'qr_m1')])).toEqual({
        flags: [
          ['m-a', false, false],
          ['m-c', true, true],
        ],
        claims: { inserted: ['m-c'], readBack: false },
      });
      // Another writer (no memory of this one's) claims m-d for qr_m1 and m-e for qr_m2.
      await commit([row(at + 4, 'm-d', 'qr_m1'), row(at + 5, 'm-e', 'qr_m2')], false);
      // Every claim of this batch is taken: the count says so, nothing is read back.
      expect(await commit([row(at + 6, 'm-e', 'qr_m2')])).toEqual({
        flags: [['m-e', false, false]],
        claims: { inserted: ['m-e'], readBack: false },
      });
      // Claims of its own and a taken one: it reads back which are its own.
      expect(await commit([row(at + 7, 'm-d', 'qr_m1'), row(at + 8, 'm-d', 'qr_m2')])).toEqual({
        flags: [
          ['m-d', false, false],
          ['m-d', true, false],
        ],
        claims: { inserted: ['m-d'], readBack: true },
      });
    } finally {
      db.removeListener('query', log);
    }
    const claims = await db('scan_visitors')
      .whereIn('visitor_hash', ['m-a', 'm-b', 'm-c', 'm-d', 'm-e'])
      .count({ n: '*' });
    // Per visitor one claim for its account, and one per code it scanned.
    expect(Number(claims[0]!.n)).toBe(5 + 6);
  });

  it('remembers nothing of a batch that rolled back', async () => {
    const { db } = testDb;
    const write = createScanBatchWriter(createScansStore(db), createRollupStore(db));
    const memory = createWriterMemory();
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      inTransaction(db, async (trx) => {
        await write([row(at, 'm-rollback', 'qr_m3')], trx, memory);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    const retried = [row(at + 1, 'm-rollback', 'qr_m3')];
    (await inTransaction(db, (trx) => write(retried, trx, memory)))();
    expect(flags(retried)).toEqual([['m-rollback', true, true]]);
  });
});
