// The scan writer thread, seen from the main thread: commit(batch) posts the batch to a worker
// thread that writes it on its own connection pool, and resolves once that transaction
// committed. On a 2-core machine this takes about a third of the CPU a scan costs off the thread
// that answers scans (bench/RESULTS.md). The recorder keeps every batch until commit() resolves,
// so a thread that fails or dies loses nothing: the batch is retried, on a new thread if needed.
import { Worker } from 'node:worker_threads';
import type { RawRows } from './batch-writer.ts';
import type { CommitBatch, CommittedBatch } from './commit-batch.ts';
import type { ScanEvent } from './model.ts';

export interface WriterThreadData {
  databaseUrl: string;
  publicBaseUrl: string;
  /** SCAN_RAW_ROWS: absent keeps them. */
  rawRows?: RawRows;
}

export type WriterRequest = { type: 'commit'; id: number; batchId: string; events: ScanEvent[] } | { type: 'close' };
export type WriterReply =
  { id: number; result: CommittedBatch } | { id: number; error: { message: string; code?: string } };

/** How long close() waits for the thread to close its pool before stopping it. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * `entry` is the thread's module: its own composition root (src/scan-writer/), which builds the
 * batch commit over its own pool with the webhook outbox handed in.
 */
export function createWriterThread(data: WriterThreadData, entry: URL) {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: CommittedBatch) => void; reject: (err: Error) => void }>();

  function failAll(err: Error): void {
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  }

  // Started on the first batch: a process that records no scan (the CLI, most tests) starts none.
  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(entry, { workerData: data });
    thread.on('message', (reply: WriterReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) thread.unref();
      if (!waiting) return;
      if ('result' in reply) waiting.resolve(reply.result);
      else waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    });
    thread.on('error', (err) => failAll(err));
    thread.on('exit', (code) => {
      if (worker === thread) worker = null;
      failAll(new Error(`the scan writer thread stopped (exit code ${code})`));
    });
    worker = thread;
    return thread;
  }

  const commit: CommitBatch = (events, batchId) =>
    new Promise((resolve, reject) => {
      const thread = started();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      // Referenced only while a batch is out, so that an idle thread never keeps the process up.
      thread.ref();
      thread.postMessage({ type: 'commit', id, batchId, events } satisfies WriterRequest);
    });

  return {
    commit,

    /** Closes the thread's pool and ends it; call after the recorder stopped (nothing pending). */
    async close(): Promise<void> {
      const thread = worker;
      if (!thread) return;
      worker = null;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage({ type: 'close' } satisfies WriterRequest);
      const timeout = setTimeout(() => void thread.terminate(), CLOSE_TIMEOUT_MS);
      await exited;
      clearTimeout(timeout);
    },

    /** Stops the thread at once, as a crash would (tests). */
    async kill(): Promise<void> {
      await worker?.terminate();
    },
  };
}

export type WriterThread = ReturnType<typeof createWriterThread>;
