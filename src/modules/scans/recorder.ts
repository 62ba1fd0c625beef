// Group commit for scans: the redirect only appends to an in-memory buffer; a timer (or a full
// batch) writes the buffer in one transaction. A failed write keeps its scans and retries.
// stop() writes whatever is left, so a SIGTERM loses nothing; a crash (SIGKILL, power loss)
// loses at most what arrived since the last flush, i.e. about one flush interval.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { inTransaction } from '../../db/transaction.ts';
import type { ScanBatchWriter } from './batch-writer.ts';
import type { ScanRow, ScansStore } from './store.ts';
import { utcDay, visitorHash } from './visitor.ts';

/** What the scan path hands over. ip and userAgent live only until the flush hashes them. */
export interface ScanEvent {
  codeId: string;
  /** The slug scanned, so consumers (webhooks) can name the scan URL without a lookup. */
  slug: string;
  accountId: string;
  at: number;
  ruleId: string | null;
  destination: string;
  country: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  referrerHost: string | null;
  language: string | null;
  isBot: boolean;
  ip: string | null;
  userAgent: string | undefined;
}

/** Runs inside the flush transaction with the batch: the place for rollups and outbox rows. */
export type BatchHook = (events: ScanEvent[], rows: ScanRow[], trx: Knex.Transaction) => Promise<void>;

export interface RecorderOptions {
  db: Knex;
  store: ScansStore;
  /** Writes the rows (raw scans, first-visit flags, rollups) inside the flush transaction. */
  write: ScanBatchWriter;
  logger: Logger;
  flushIntervalMs: number;
  batchSize: number;
  onBatch?: BatchHook;
  /** Told the size of every batch once its transaction committed (for metrics). */
  onCommitted?: (count: number) => void;
}

const MAX_RETRY_DELAY_MS = 5_000;

export function createScanRecorder({ db, store, write, logger, flushIntervalMs, batchSize, onBatch, onCommitted }: RecorderOptions) {
  let buffer: ScanEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  let failures = 0;
  const salts = new Map<string, string>();

  async function salt(day: string): Promise<string> {
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
    for (const e of events) {
      rows.push({
        code_id: e.codeId,
        account_id: e.accountId,
        scanned_at: e.at,
        rule_id: e.ruleId,
        country: e.country,
        device: e.device,
        os: e.os?.slice(0, 32) ?? null,
        browser: e.browser?.slice(0, 48) ?? null,
        referrer_host: e.referrerHost,
        language: e.language,
        is_bot: e.isBot,
        visitor_hash: visitorHash(await salt(utcDay(e.at)), e.ip, e.userAgent),
        is_unique: false,
        is_account_unique: false,
      });
    }
    return rows;
  }

  async function writeBatch(events: ScanEvent[]): Promise<void> {
    const rows = await toRows(events);
    await inTransaction(db, async (trx) => {
      await write(rows, trx);
      if (onBatch) await onBatch(events, rows, trx);
    });
  }

  function schedule(delay: number): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, delay);
    timer.unref();
  }

  async function writeAll(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.slice(0, batchSize);
      try {
        await writeBatch(batch);
      } catch (err) {
        failures += 1;
        const delay = Math.min(MAX_RETRY_DELAY_MS, flushIntervalMs * 2 ** failures);
        logger.error({ err, pending: buffer.length, retryInMs: delay }, 'scan batch write failed; keeping the scans and retrying');
        schedule(delay);
        return;
      }
      failures = 0;
      buffer = buffer.slice(batch.length);
      // After the try: nothing here may make a committed batch look failed (and be written twice).
      onCommitted?.(batch.length);
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

  return {
    /** Buffers a scan; never waits on the database. */
    enqueue(event: ScanEvent): void {
      buffer.push(event);
      if (buffer.length >= batchSize) void flush();
      else schedule(flushIntervalMs);
    },

    flush,

    pending(): number {
      return buffer.length;
    },

    /** Flushes until the buffer is empty (retrying failed writes), for shutdown. */
    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = null;
      while (buffer.length > 0) {
        await flush();
        if (buffer.length > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_DELAY_MS, flushIntervalMs)));
      }
    },
  };
}

export type ScanRecorder = ReturnType<typeof createScanRecorder>;
