// Group commit for scans: the redirect only appends to an in-memory buffer; a timer (or a full
// batch) writes the buffer in one transaction. A failed write keeps its scans and retries.
// stop() writes whatever is left, so a SIGTERM loses nothing. With a journal (scan-journal.ts)
// each scan is also on disk before its answer is sent, and the journal is told how many scans
// committed so it can drop them: a crash loses nothing either, as the next start replays the
// journal. Without one, a crash loses what arrived since the last flush (one flush interval).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommitBatch, CommittedBatch } from './commit-batch.ts';
import type { ScanEvent } from './model.ts';
import type { ScanJournal } from './scan-journal.ts';

export interface RecorderOptions {
  /** Writes a batch in one transaction: on the writer thread or on this one (commit-batch.ts). */
  commit: CommitBatch;
  logger: Logger;
  flushIntervalMs: number;
  batchSize: number;
  /** Told of every batch once its transaction committed (metrics, live stream, webhooks). */
  onCommitted?: (events: ScanEvent[], result: CommittedBatch) => void;
  /** Told of every failed attempt, which will be retried (metrics). */
  onRetry?: (err: unknown) => void;
  /** Journals each scan before its answer; its recovered scans are committed first. */
  journal?: ScanJournal | null;
}

const MAX_RETRY_DELAY_MS = 5_000;

export function createScanRecorder({
  commit,
  logger,
  flushIntervalMs,
  batchSize,
  onCommitted,
  onRetry,
  journal = null,
}: RecorderOptions) {
  let buffer: ScanEvent[] = journal ? [...journal.recovered] : [];
  /** Scans committed since the start, in enqueue order (the journal's count too). */
  let committedCount = 0;
  /**
   * The batch being written, out of the buffer but kept with its id until a commit of it is
   * acknowledged: a retry sends exactly these scans under the same id, which is how a batch
   * whose earlier attempt did commit (and only the answer was lost) is not written twice.
   */
  let current: { id: string; events: ScanEvent[] } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  let failures = 0;

  function schedule(delay: number): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, delay);
    timer.unref();
  }

  const pending = () => buffer.length + (current?.events.length ?? 0);

  async function writeAll(): Promise<void> {
    while (current || buffer.length > 0) {
      if (!current) {
        current = { id: randomBytes(12).toString('base64url'), events: buffer.slice(0, batchSize) };
        buffer = buffer.slice(current.events.length);
      }
      const batch = current;
      let result: CommittedBatch;
      try {
        result = await commit(batch.events, batch.id);
      } catch (err) {
        failures += 1;
        const delay = Math.min(MAX_RETRY_DELAY_MS, flushIntervalMs * 2 ** failures);
        logger.error(
          { err, pending: pending(), retryInMs: delay },
          'scan batch write failed; keeping the scans and retrying',
        );
        onRetry?.(err);
        schedule(delay);
        return;
      }
      failures = 0;
      current = null;
      committedCount += batch.events.length;
      try {
        journal?.committed(committedCount);
      } catch (err) {
        logger.error({ err }, 'scan journal: could not drop committed scans');
      }
      // After the try: nothing here may make a committed batch look failed.
      onCommitted?.(batch.events, result);
    }
  }

  /** Writes everything buffered, batch by batch. Concurrent calls share one run. */
  function flush(): Promise<void> {
    if (!flushing) {
      // Assigned before the run can finish, and cleared by the run's own continuation.
      flushing = writeAll().finally(() => {
        flushing = null;
      });
    }
    return flushing;
  }

  // A stopped process's journaled scans are written first, as soon as the database takes them.
  if (buffer.length > 0) schedule(0);

  return {
    /**
     * Buffers a scan; never waits on the database. `answer` is sent once the scan is journaled
     * (in this event-loop turn's group write), at once without a journal.
     */
    enqueue(event: ScanEvent, answer?: () => void): void {
      buffer.push(event);
      if (journal) journal.append(event, answer);
      else answer?.();
      if (buffer.length >= batchSize) void flush();
      else schedule(flushIntervalMs);
    },

    flush,

    /** Scans answered and not yet committed: buffered, or in the batch being written. */
    pending,

    /** Flushes until the buffer is empty (retrying failed writes), for shutdown; then closes the journal. */
    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = null;
      while (pending() > 0) {
        await flush();
        if (pending() > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_DELAY_MS, flushIntervalMs)));
      }
      journal?.close();
    },
  };
}

export type ScanRecorder = ReturnType<typeof createScanRecorder>;
