// One batch of scans from events to commit: visitor hashes under the day's salt, then a single
// transaction with the rows (first-visit flags, raw scans unless SCAN_RAW_ROWS=none, rollups, the
// runs of scan ids written: scan-id-runs.ts) and the webhook outbox rows;
// every few batches, in a transaction of its own, a roll of the queued breakdown counts.
// It runs on the scan writer thread (MySQL, see writer-thread.ts) or on the main thread (SQLite);
// either way the recorder hands it a batch and waits for the answer before dropping the batch.
// The outbox rows are the webhooks module's, above scans: its writer is handed in (by services.ts,
// and by the writer thread's own composition, src/scan-writer/).
import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { createScanBatchWriter, createWriterMemory, type RawRows } from './batch-writer.ts';
import { createDimensionRoller } from './dimension-deltas.ts';
import type { ScanEvent } from './model.ts';
import { createLockedViewsStore } from './locked-views.ts';
import { createRollupStore } from './rollup-store.ts';
import { createScanIdRunsStore } from './scan-id-runs.ts';
import { createScansStore, type ScanRow } from './store.ts';
import { utcDay, visitorHash } from './visitor.ts';

export interface CommittedBatch {
  /** The batch wrote webhook outbox rows: the delivery worker has work. */
  webhooksQueued: boolean;
  /**
   * The roll of queued breakdown counts after this batch failed (its message). The batch itself
   * committed; the counts stay queued, breakdowns still read them, and a later roll takes them.
   */
  rollFailure?: string;
  /** Ids of the batch's scans stored already, by an earlier commit (a replayed journal's): skipped. */
  alreadyStored: string[];
}

/**
 * Batches a writer commits between rolls of the queued breakdown counts: more batches per roll
 * sum more repeats of a value into one upsert, and leave more queued rows for breakdowns to read.
 */
const BATCHES_PER_ROLL = 8;

/**
 * Writes the webhook outbox rows of committed scans inside the batch's transaction, so both
 * commit or neither does (no scan event is lost); true when it wrote any.
 */
export type WriteScanEvents = (events: ScanEvent[], trx: Knex.Transaction) => Promise<boolean>;

/** Commits `events` as batch `batchId`; a batch retried under its id is written at most once. */
export type CommitBatch = (events: ScanEvent[], batchId: string) => Promise<CommittedBatch>;

/**
 * Commits scan batches over stores of its own on `db` (the writer thread has its own pool), with
 * or without their raw rows (SCAN_RAW_ROWS).
 */
export function createCommitBatch(db: Knex, writeScanEvents: WriteScanEvents, rawRows: RawRows = 'keep'): CommitBatch {
  const store = createScansStore(db);
  const write = createScanBatchWriter(store, createRollupStore(db), rawRows);
  const idRuns = createScanIdRunsStore(db);
  const salts = new Map<string, string>();
  const memory = createWriterMemory();
  const roll = createDimensionRoller(db);
  const lockedViews = createLockedViewsStore(db);
  let batchesSinceRoll = 0;

  async function saltOf(day: string): Promise<string> {
    let value = salts.get(day);
    if (!value) {
      value = await store.saltForDay(day);
      if (salts.size > 3) salts.clear();
      salts.set(day, value);
    }
    return value;
  }

  async function toRows(events: ScanEvent[]): Promise<ScanRow[]> {
    const rows: ScanRow[] = [];
    // A batch spans one or two UTC days: look the salt up per day, not per scan.
    let day = '';
    let salt = '';
    for (const e of events) {
      if (e.outcome === 'locked') continue;
      const dayOfScan = utcDay(e.at);
      if (dayOfScan !== day) [day, salt] = [dayOfScan, await saltOf(dayOfScan)];
      rows.push({
        scan_id: e.id ?? null,
        code_id: e.codeId,
        account_id: e.accountId,
        scanned_at: e.at,
        rule_id: e.ruleId,
        country: e.country,
        region: e.region ?? null,
        city: e.city ?? null,
        device: e.device,
        os: e.os?.slice(0, 32) ?? null,
        browser: e.browser?.slice(0, 48) ?? null,
        referrer_host: e.referrerHost,
        language: e.language,
        is_bot: e.isBot,
        outcome: e.outcome ?? 'redirect',
        visitor_hash: visitorHash(salt, e.ip, e.userAgent),
        is_unique: false,
        is_account_unique: false,
      });
    }
    return rows;
  }

  const idsOf = (rows: ScanRow[]) => rows.flatMap((r) => (r.scan_id ? [r.scan_id] : []));

  /**
   * The ids stored already: in the id runs of committed batches, whatever SCAN_RAW_ROWS was, and
   * with raw rows kept also in scans.scan_id (scans committed before the runs were kept).
   */
  async function storedIds(ids: string[], trx: Knex.Transaction): Promise<Set<string>> {
    const inRuns = await idRuns.stored(ids, trx);
    if (rawRows === 'none') return inRuns;
    const unseen = inRuns.size === 0 ? ids : ids.filter((id) => !inRuns.has(id));
    return new Set([...inRuns, ...(await store.storedScanIds(unseen, trx))]);
  }

  return async function commitBatch(events, batchId) {
    const allRows = await toRows(events);
    const locked = allRows.length < events.length ? events.filter((e) => e.outcome === 'locked') : [];
    let takeInMemory = () => {};
    const committed = await inTransaction(db, async (trx): Promise<CommittedBatch> => {
      // An earlier attempt committed and only its answer was lost: nothing left to write. Its
      // outbox rows may be waiting, so the delivery worker is woken as if this one wrote them.
      if (!(await store.markBatchCommitted(batchId, trx))) return { webhooksQueued: true, alreadyStored: [] };
      // Scans replayed from a journal whose batch had committed before the crash: the rows,
      // rollups and outbox rows are written from the others only, so nothing counts twice. The
      // primary key of scan_id_runs (and with raw rows the unique key on scan_id) fails a batch
      // that races another writer of the same ids; its retry reads them here.
      const stored = await storedIds(idsOf(allRows), trx);
      const rows = stored.size === 0 ? allRows : allRows.filter((r) => !stored.has(r.scan_id!));
      const fresh = stored.size === 0 ? events : events.filter((e) => e.id === undefined || !stored.has(e.id));
      // A batch of locked views only has no scan to write.
      if (rows.length > 0) {
        takeInMemory = await write(rows, trx, memory);
        await idRuns.add(idsOf(rows), Date.now(), trx);
      }
      if (locked.length > 0) await lockedViews.add(locked, trx);
      return { webhooksQueued: await writeScanEvents(fresh, trx), alreadyStored: [...stored] };
    });
    takeInMemory();
    if (++batchesSinceRoll < BATCHES_PER_ROLL) return committed;
    batchesSinceRoll = 0;
    try {
      await roll();
      return committed;
    } catch (err) {
      return { ...committed, rollFailure: (err as Error).message };
    }
  };
}
