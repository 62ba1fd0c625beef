// max_scans claims (scan-limits.ts over code_scan_uses) on the engine under test: claims from two
// pools on one database, as two instances make them, take exactly max_scans uses; a code's row
// starts from its committed non-bot redirects; checking uses none; a removed limit drops the row.
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.ts';
import { createCommitBatch } from '../../src/modules/scans/commit-batch.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScanLimits } from '../../src/modules/scans/scan-limits.ts';
import { createScanUseStore } from '../../src/modules/scans/scan-use-store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { scanEvent } from '../support/scans.ts';

let testDb: TestDb;
/** A second connection pool on the same database: another instance's. */
let other: Knex;

beforeAll(async () => {
  testDb = await createTestDb();
  other = createDb(testDb.url);
});
afterAll(async () => {
  await other.destroy();
  await testDb.destroy();
});

const limitsOn = (db: Knex) => {
  const rollups = createRollupStore(db);
  return createScanLimits({
    store: createScanUseStore(db),
    redirectsOf: (ids, q = db) => rollups.limitedScans(ids, q),
  });
};

const usedOf = async (codeId: string) => (await limitsOn(testDb.db).usedOf([codeId])).get(codeId) ?? 0;

describe('claims', () => {
  it('60 claims at once from two pools take exactly 5 uses', async () => {
    const [a, b] = [limitsOn(testDb.db), limitsOn(other)];
    const claims = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).claim('qr_claims_burst', 5)),
    );
    expect(claims.filter(Boolean)).toHaveLength(5);
    expect(await usedOf('qr_claims_burst')).toBe(5);
  });

  it('a code scanned before it had a limit starts from its non-bot redirects; checking uses none', async () => {
    const code = { id: 'qr_claims_seeded', slug: 'seeded' };
    const at = '2026-06-10T12:00:00Z';
    const events = [
      ...Array.from({ length: 3 }, () => scanEvent(code, 'acct_claims', { at })),
      ...Array.from({ length: 4 }, () => scanEvent(code, 'acct_claims', { at, bot: true })),
      { ...scanEvent(code, 'acct_claims', { at }), outcome: 'paused' as const, destination: null },
    ];
    await createCommitBatch(testDb.db, async () => false)(events, 'batch_claims_seeded');
    const limits = limitsOn(testDb.db);
    expect(await usedOf(code.id)).toBe(3);
    expect(await limits.left(code.id, 4)).toBe(true);
    expect(await limits.left(code.id, 3)).toBe(false);
    expect(await limits.claim(code.id, 4)).toBe(true);
    expect(await limits.claim(code.id, 4)).toBe(false);
    expect(await limits.left(code.id, 4)).toBe(false);
    // Raised: one more use; lowered below what was used: none.
    expect(await limits.claim(code.id, 5)).toBe(true);
    expect(await limits.claim(code.id, 2)).toBe(false);
    expect(await usedOf(code.id)).toBe(5);
  });

  it('a removed limit drops the row: a new one counts from the rollups again', async () => {
    const limits = limitsOn(testDb.db);
    expect(await limits.claim('qr_claims_forgot', 2)).toBe(true);
    expect(await usedOf('qr_claims_forgot')).toBe(1);
    await limits.forget('qr_claims_forgot');
    // The claimed scan was never recorded here, so the rollups have none.
    expect(await usedOf('qr_claims_forgot')).toBe(0);
    expect(await testDb.db('code_scan_uses').where('code_id', 'qr_claims_forgot').first()).toBeUndefined();
  });
});
