// A background job run every interval, one instance of a fleet at a time (RunLock), never two
// runs overlapping in one process, and stopped after the run in flight. The scan purge and the
// audit log's retention run on it.
import type { Logger } from 'pino';
import type { RunLock } from './run-lock.ts';

export interface PeriodicJobOptions {
  /** The lock's name, and how the log names a failure. */
  name: string;
  lock: RunLock;
  logger: Logger;
  intervalMs: number;
  run: () => Promise<void>;
}

export function createPeriodicJob({ name, lock, logger, intervalMs, run }: PeriodicJobOptions) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function tick(): Promise<void> {
    try {
      // Held ten intervals at least: an instance that died holding it frees it then.
      await lock.run(name, Math.max(intervalMs * 10, 600_000), run);
    } catch (err) {
      logger.error({ err }, `${name} failed; the next run goes on from where it stopped`);
    }
  }

  return {
    /** Runs every `intervalMs` until close(); main.ts starts it, tests run the job directly. */
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        if (!running) running = tick().finally(() => (running = null));
      }, intervalMs);
      timer.unref();
    },
    /** Stops the timer and waits for the run in flight. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
