// Raw-scan retention (SCAN_RAW_RETENTION_DAYS) and the purge of deleted codes' scans, run in
// the background in small batches with a pause between them, so the scan writer keeps writing.
// Rollups keep the history raw scans are deleted from; a deleted code's raw scans are
// subtracted from its account's rollups as they go, then its own rollups are deleted.
// With REDIS_URL one instance of a fleet runs it at a time; without, each instance may, which
// is safe: retention deletes are idempotent and a purge batch that lost a race rolls back.
import { DAY_MS } from '../../shared/time.ts';
import type { Logger } from 'pino';
import { createPeriodicJob } from '../../shared/periodic-job.ts';
import type { RunLock } from '../../shared/run-lock.ts';
import type { PurgeStore } from './purge-store.ts';

/**
 * How long after a code's deletion its rollups are deleted, at least: scans still buffered or
 * being retried when it was deleted are written meanwhile, and their raw rows purged with the
 * rest. Other instances may serve the code from their caches for their TTL first (services.ts
 * adds CODE_CACHE_TTL_MS).
 */
export const LATE_SCANS_MS = 5 * 60_000;

export interface ScanPurgeOptions {
  store: PurgeStore;
  /** Raw scans older than this many days are deleted; null keeps them. */
  retentionDays: number | null;
  lock: RunLock;
  logger: Logger;
  /** Rows per batch: small on SQLite, whose one writer waits for each batch. */
  batchSize: number;
  /** Pause between batches, so that the writer's transactions get their turn. */
  pauseMs?: number;
  /** How often the background run starts. */
  intervalMs?: number;
  /** How long after a deletion scans of the code may still be written (LATE_SCANS_MS at least). */
  lateScansMs?: number;
  now?: () => number;
}

export interface PurgeResult {
  /** Raw scans deleted for their age. */
  expired: number;
  /** Raw scans of deleted codes deleted. */
  purgedScans: number;
  /** Deleted codes whose purge finished. */
  purgedCodes: number;
}

/** Deleted codes taken per run: the rest wait for the next one. */
const CODES_PER_RUN = 20;

export function createScanPurge({
  store,
  retentionDays,
  lock,
  logger,
  batchSize,
  pauseMs = 50,
  intervalMs = 60_000,
  lateScansMs = LATE_SCANS_MS,
  now = Date.now,
}: ScanPurgeOptions) {
  const pause = () => (pauseMs > 0 ? new Promise((resolve) => setTimeout(resolve, pauseMs)) : Promise.resolve());
  let stopping = false;

  /** Repeats `step` until it does nothing, pausing between batches; returns what it did in all. */
  async function drain(step: () => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      if (stopping) return total;
      const done = await step();
      total += done;
      if (done === 0) return total;
      await pause();
    }
  }

  async function purgeCodes(result: PurgeResult): Promise<void> {
    for (const code of await store.pending(CODES_PER_RUN)) {
      result.purgedScans += await drain(() => store.purgeRawBatch(code.codeId, batchSize));
      if (stopping || now() < code.deletedAt + lateScansMs) continue;
      await drain(() => store.purgeRollupBatch(code.codeId, batchSize));
      // Scans that came in while the rollups went: their raw rows are subtracted as before.
      result.purgedScans += await drain(() => store.purgeRawBatch(code.codeId, batchSize));
      if (stopping) return;
      await store.markPurged(code.codeId, now());
      result.purgedCodes += 1;
    }
  }

  async function expire(result: PurgeResult): Promise<void> {
    const before = rawAvailableSince();
    if (before === null) return;
    for (
      let account = await store.nextAccountWithScans(null);
      account !== null && !stopping;
      account = await store.nextAccountWithScans(account)
    ) {
      const accountId = account;
      result.expired += await drain(() => store.deleteBefore(accountId, before, batchSize));
    }
    await drain(() => store.deleteViewIdsBefore(before, batchSize));
    await drain(() => store.deleteIdRunsBefore(before, batchSize));
  }

  /** The earliest instant whose raw scans are kept (null: all are); analytics answer from it on. */
  function rawAvailableSince(): number | null {
    return retentionDays === null ? null : now() - retentionDays * DAY_MS;
  }

  /** One pass: deleted codes first (the overview subtracts them until done), then old scans. */
  async function runOnce(): Promise<PurgeResult> {
    const result: PurgeResult = { expired: 0, purgedScans: 0, purgedCodes: 0 };
    await purgeCodes(result);
    await expire(result);
    return result;
  }

  const job = createPeriodicJob({
    name: 'scan-purge',
    lock,
    logger,
    intervalMs,
    run: async () => {
      const result = await runOnce();
      if (result.expired + result.purgedScans + result.purgedCodes > 0) logger.info(result, 'scan purge');
    },
  });

  return {
    rawAvailableSince,
    runOnce,
    /** Runs every `intervalMs` until close(); main.ts starts it, tests call runOnce(). */
    start: job.start,
    /** Stops after the batch in flight. */
    async close(): Promise<void> {
      stopping = true;
      await job.close();
    },
  };
}

export type ScanPurge = ReturnType<typeof createScanPurge>;
