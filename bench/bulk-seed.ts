// The analytics benchmark's bulk path: a year of scans written a whole UTC day at a time through
// the scan batch writer itself (first-visit flags, raw rows, rollups), with three differences from
// the live path, none of which changes what is stored:
// - A day's batch holds every scan of that day, and every rollup and visitor key falls within one
//   UTC day, so each key is written once, with the sum the live writer's upserts would reach
//   batch by batch (one row per key instead of one upsert per key and batch).
// - The per-code breakdown counts go to their rollups at once, where the live writer queues them
//   and rolls them in a few batches later (dimension-deltas.ts): the same rows once rolled.
// - Visitor claims are answered in memory: nothing before the day's batch can have claimed a key
//   of that day, so every key is new, as the database would answer. Only the claims of the last
//   two days are stored, as the live service keeps them (older ones go with their day's salt).
// test/db/bulk-seed.test.ts holds it to that: both paths, the same tables.
import type { Knex } from 'knex';
import { scanInsertChunk } from '../src/db/dialect.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { addToCodeCount } from '../src/modules/codes/code-counts.ts';
import { createScanBatchWriter } from '../src/modules/scans/batch-writer.ts';
import { createRollupStore } from '../src/modules/scans/rollup-store.ts';
import { createScansStore, type ScanRow, type VisitorKey } from '../src/modules/scans/store.ts';
import { newId } from '../src/shared/ids.ts';

const DAY_MS = 86_400_000;

/**
 * Writes one UTC day's scans (all of them, in time order) per call; days must come in order.
 * `today` is the day (epoch ms) whose claims and the day before's are kept.
 */
export function createBulkScanSeeder(db: Knex, today: number) {
  const keepFromDay = Math.floor(today / DAY_MS) - 1;
  const store = createScansStore(db);
  const chunk = scanInsertChunk(db);
  const rollups = createRollupStore(db);
  const write = createScanBatchWriter(
    {
      ...store,
      async claimVisitors(keys: VisitorKey[], batch: string, q) {
        const kept = keys.filter((k) => k.day >= keepFromDay).map((k) => ({ ...k, batch }));
        for (let i = 0; i < kept.length; i += chunk) await q('scan_visitors').insert(kept.slice(i, i + chunk));
        return keys;
      },
    },
    { ...rollups, queueDimensionRollups: rollups.addDimensionRollups },
  );
  return async function seedDay(rows: ScanRow[]): Promise<void> {
    const day = Math.floor(rows[0]!.scanned_at / DAY_MS);
    if (rows.some((r) => Math.floor(r.scanned_at / DAY_MS) !== day)) throw new Error('one UTC day per call');
    await inTransaction(db, (trx) => write(rows, trx));
  };
}

/** `count` url codes of the account, inserted directly (no slugs, no images); their ids. */
export async function insertBenchCodes(db: Knex, accountId: string, count: number): Promise<string[]> {
  const codeIds = Array.from({ length: count }, () => newId('qr'));
  const now = Date.now();
  await db.batchInsert(
    'codes',
    codeIds.map((id, i) => ({
      id,
      account_id: accountId,
      type: 'url',
      content: `https://example.com/c/${i}`,
      design: '{}',
      routing_enabled: false,
      slug: null,
      created_at: now,
      updated_at: now,
    })),
    // SQLite's limit of terms in a compound SELECT is 500.
    500,
  );
  await addToCodeCount(db, accountId, count);
  return codeIds;
}
