// The delivery worker: claims due deliveries from the outbox (a lease, so several workers in
// several processes never hold the same one at once and a dead worker's deliveries come due
// again), sends up to `concurrency` at a time, and polls. Writers of the outbox in this process
// wake it after their commit, so a delivery usually leaves within milliseconds.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { randomBase62 } from '../../shared/ids.ts';
import type { Deliverer } from './deliverer.ts';
import type { WebhooksStore } from './store.ts';

export interface WorkerOptions {
  store: WebhooksStore;
  deliverer: Deliverer;
  logger: Logger;
  concurrency: number;
  pollIntervalMs: number;
  /** How long a claim lasts: longer than an attempt can take (its timeout) plus recording it. */
  leaseMs: number;
  retentionDays: number;
}

const PURGE_EVERY_MS = 3_600_000;
const PURGE_BATCH = 1000;

/** Names this worker in claims and in the attempt log: host, process and a random tail. */
export function workerName(): string {
  return `${hostname().slice(0, 60)}:${process.pid}:${randomBase62(6)}`;
}

export function createDeliveryWorker({
  store,
  deliverer,
  logger,
  concurrency,
  pollIntervalMs,
  leaseMs,
  retentionDays,
}: WorkerOptions) {
  const name = workerName();
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let ticking: Promise<void> | null = null;
  let wokenWhileTicking = false;
  let poller: NodeJS.Timeout | null = null;
  let purger: NodeJS.Timeout | null = null;

  function launch(work: Promise<void>): void {
    const done: Promise<void> = work
      .catch((err: unknown) =>
        logger.error({ err }, 'webhook delivery attempt failed to run; its lease will expire and it is tried again'),
      )
      .finally(() => {
        inFlight.delete(done);
        void tick();
      });
    inFlight.add(done);
  }

  async function claimWhileDue(): Promise<void> {
    try {
      for (;;) {
        const free = concurrency - inFlight.size;
        if (!running || free <= 0) return;
        const claimed = await store.claimDue(name, new Date(), leaseMs, free);
        for (const delivery of claimed) launch(deliverer.attempt(delivery));
        if (claimed.length < free) return;
      }
    } catch (err) {
      logger.error({ err }, 'claiming webhook deliveries failed; trying again at the next poll');
    }
  }

  /** Claims as many due deliveries as there are free slots, until none are due; one run at a time. */
  async function tick(): Promise<void> {
    if (!running) return;
    if (ticking) {
      wokenWhileTicking = true;
      return;
    }
    ticking = claimWhileDue();
    await ticking;
    ticking = null;
    if (wokenWhileTicking) {
      wokenWhileTicking = false;
      void tick();
    }
  }

  async function purge(): Promise<void> {
    const cutoff = new Date(Date.now() - retentionDays * 86_400_000);
    try {
      while (running && (await store.purgeFinished(cutoff, PURGE_BATCH)) === PURGE_BATCH);
    } catch (err) {
      logger.error({ err }, 'purging old webhook events failed');
    }
  }

  return {
    name,

    start(): void {
      if (running) return;
      running = true;
      poller = setInterval(() => void tick(), pollIntervalMs);
      poller.unref();
      purger = setInterval(() => void purge(), PURGE_EVERY_MS);
      purger.unref();
      void purge();
      void tick();
      logger.info({ worker: name, concurrency }, 'webhook delivery worker started');
    },

    /** Looks for due deliveries now (after an outbox write committed). No-op when not started. */
    wake(): void {
      void tick();
    },

    /** Stops claiming and waits for the attempts in flight (each is bounded by its timeout). */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      if (poller) clearInterval(poller);
      if (purger) clearInterval(purger);
      if (ticking) await ticking;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
