// Render worker threads behind a fair, bounded queue. Drawing, rasterising and decoding run on
// piscina's threads (render-worker.ts), niced below the main thread so that scans and API calls
// keep their CPU while images wait. Each account has its own queue, served round-robin, so one
// account's flood of 4096 px PNGs delays its own images, not everyone's; past
// `queuePerAccount` images waiting or drawing, an account is refused with a 429 and Retry-After.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { threadEntry } from '../../shared/build-layout.ts';
import { DomainError } from '../../shared/errors.ts';
import type { CheckResult, CheckTask, ImageBytes, ImageTask, RenderTask, VersionsTask } from './render-work.ts';

export interface RenderPoolOptions {
  /** Worker threads; 0 means one per core but one, at least 1 (RENDER_WORKERS). */
  threads: number;
  /** Images one account may have waiting or drawing at once (RENDER_QUEUE_PER_ACCOUNT). */
  queuePerAccount: number;
}

interface Job {
  task: RenderTask;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Worker threads lower their priority by this much: a flood of renders must not slow scans. */
const NICE_INCREMENT = 10;
/** An idle worker lives this long, so a burst does not pay a thread start per image. */
const IDLE_TIMEOUT_MS = 30_000;

export const defaultRenderThreads = () => Math.max(1, availableParallelism() - 1);

export function createRenderPool(options: RenderPoolOptions) {
  const threads = options.threads > 0 ? options.threads : defaultRenderThreads();
  let piscina: Piscina | null = null;
  /** Waiting jobs per account; Map order is the round-robin order. */
  const waiting = new Map<string, Job[]>();
  /** Jobs waiting or running, per account. */
  const held = new Map<string, number>();
  let running = 0;
  /** Recent task duration, for a Retry-After that means something. */
  let averageMs = 50;

  // Started on the first image: a process that draws none (the CLI, most tests) starts no thread.
  const pool = () =>
    (piscina ??= new Piscina({
      filename: threadEntry(import.meta.url, './render-worker.js', './render-worker-entry.mjs').href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_TIMEOUT_MS,
      niceIncrement: NICE_INCREMENT,
      // Between tasks a thread's event loop must turn: resvg's pixmaps are freed by finalizers
      // that run there after a collection, and piscina's default (Atomics.wait) blocks it.
      atomics: 'disabled',
    }));

  function nextJob(): { accountId: string; job: Job } | null {
    for (const [accountId, queue] of waiting) {
      const job = queue.shift()!;
      // To the back of the round, or out of it when its queue is empty.
      waiting.delete(accountId);
      if (queue.length > 0) waiting.set(accountId, queue);
      return { accountId, job };
    }
    return null;
  }

  function release(accountId: string): void {
    const left = (held.get(accountId) ?? 1) - 1;
    if (left > 0) held.set(accountId, left);
    else held.delete(accountId);
  }

  function dispatch(): void {
    while (running < threads) {
      const next = nextJob();
      if (!next) return;
      running++;
      const started = performance.now();
      pool()
        .run(next.job.task)
        .then(next.job.resolve, next.job.reject)
        .finally(() => {
          running--;
          averageMs = 0.8 * averageMs + 0.2 * (performance.now() - started);
          release(next.accountId);
          dispatch();
        });
    }
  }

  function submit(accountId: string, task: RenderTask): Promise<unknown> {
    const count = held.get(accountId) ?? 0;
    if (count >= options.queuePerAccount) {
      const retryAfter = Math.max(1, Math.ceil((count * averageMs) / threads / 1000));
      throw new DomainError(
        'rate_limited',
        `This account already has ${count} images waiting to be drawn, the most it may have at once ` +
          `(RENDER_QUEUE_PER_ACCOUNT). Retry in ${retryAfter} s.`,
        undefined,
        retryAfter,
      );
    }
    held.set(accountId, count + 1);
    return new Promise((resolve, reject) => {
      const queue = waiting.get(accountId);
      if (queue) queue.push({ task, resolve, reject });
      else waiting.set(accountId, [{ task, resolve, reject }]);
      dispatch();
    });
  }

  return {
    threads,

    /** One image's bytes and the width it was drawn at, drawn on a worker thread for `accountId`. */
    async image(accountId: string, task: Omit<ImageTask, 'kind'>): Promise<{ body: Buffer; width: number }> {
      const { bytes, width } = (await submit(accountId, { kind: 'image', ...task })) as ImageBytes;
      return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), width };
    },

    /** Whether a design decodes back to its payload, checked on a worker thread for `accountId`. */
    check(accountId: string, task: Omit<CheckTask, 'kind'>): Promise<CheckResult> {
      return submit(accountId, { kind: 'check', ...task }) as Promise<CheckResult>;
    },

    /** The QR version of each payload (0: too long), worked out on a worker thread for `accountId`. */
    versions(accountId: string, task: Omit<VersionsTask, 'kind'>): Promise<number[]> {
      return submit(accountId, { kind: 'versions', ...task }) as Promise<number[]>;
    },

    /** Waits for the images being drawn, then ends the threads. */
    async close(): Promise<void> {
      await piscina?.close();
      piscina = null;
    },
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;
