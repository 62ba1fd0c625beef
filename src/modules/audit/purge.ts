// Audit retention (AUDIT_RETENTION_DAYS): entries older than that are deleted in small batches,
// on the scan purge's schedule and lock (shared/periodic-job.ts). The only delete of the log.
import type { Logger } from 'pino';
import { createPeriodicJob } from '../../shared/periodic-job.ts';
import type { RunLock } from '../../shared/run-lock.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { AuditStore } from './store.ts';

export interface AuditPurgeOptions {
  store: AuditStore;
  retentionDays: number;
  lock: RunLock;
  logger: Logger;
  /** Rows per delete, so that no transaction holds the table long. */
  batchSize?: number;
  intervalMs?: number;
  now?: () => number;
}

export function createAuditPurge({
  store,
  retentionDays,
  lock,
  logger,
  batchSize = 1000,
  intervalMs = 60 * 60_000,
  now = Date.now,
}: AuditPurgeOptions) {
  /** Deletes every entry older than the retention; returns how many went. */
  async function runOnce(): Promise<number> {
    const before = now() - retentionDays * DAY_MS;
    let total = 0;
    for (let deleted = batchSize; deleted === batchSize; total += deleted) {
      deleted = await store.deleteBefore(before, batchSize);
    }
    return total;
  }

  const job = createPeriodicJob({
    name: 'audit-purge',
    lock,
    logger,
    intervalMs,
    run: async () => {
      const expired = await runOnce();
      if (expired > 0) logger.info({ expired }, 'audit log retention');
    },
  });
  return { runOnce, start: job.start, close: job.close };
}

export type AuditPurge = ReturnType<typeof createAuditPurge>;
