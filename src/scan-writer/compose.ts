// The scan writer's composition, above scans and webhooks: the batch commit with the webhook
// outbox writer handed in (in the batch's transaction), on the main thread (SQLite) or on the
// writer thread (thread.ts), which builds the same over a pool of its own.
import type { Knex } from 'knex';
import { threadEntry } from '../shared/build-layout.ts';
import { createCommitBatch, type CommitBatch, type RawRows } from '../modules/scans/index.ts';
import { createWriterThread, type WriterThread, type WriterThreadData } from '../modules/scans/index.ts';
import { createScanOutbox } from '../modules/webhooks/index.ts';
import { createWebhooksStore } from '../modules/webhooks/index.ts';

/**
 * Commits scan batches on `db`, writing their webhook outbox rows in the same transaction, and
 * their raw rows unless `rawRows` is none (SCAN_RAW_ROWS).
 */
export function createScanCommit(db: Knex, publicBaseUrl: string, rawRows: RawRows = 'keep'): CommitBatch {
  return createCommitBatch(db, createScanOutbox({ store: createWebhooksStore(db), publicBaseUrl }), rawRows);
}

/** The writer thread, started on its first batch; it commits through createScanCommit on its own pool. */
export function startScanWriterThread(data: WriterThreadData): WriterThread {
  return createWriterThread(data, threadEntry(import.meta.url, './thread.js', './thread-entry.mjs'));
}
