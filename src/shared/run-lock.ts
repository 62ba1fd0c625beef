// Lets one instance of a fleet run a periodic job at a time: a Redis key set with NX and an
// expiry (REDIS_URL). Without Redis every instance runs the job, which must then be safe to run
// twice at once (the scan purge is: its deletes are idempotent and its subtractions guarded).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface RunLock {
  /** Runs `fn` if no other instance holds the lock named `name`; false when another did. */
  run(name: string, ttlMs: number, fn: () => Promise<void>): Promise<boolean>;
  close(): Promise<void>;
}

/** Deletes the key only while it still holds this holder's token (it may have expired and been taken). */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export function createRunLock(redisUrl: string | null): RunLock {
  if (!redisUrl) return { run: async (_name, _ttl, fn) => (await fn(), true), close: async () => {} };
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  return {
    async run(name, ttlMs, fn) {
      const key = `qr-service:lock:${name}`;
      const token = randomBytes(12).toString('hex');
      if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return false;
      try {
        await fn();
      } finally {
        await redis.eval(RELEASE, 1, key, token).catch(() => {});
      }
      return true;
    },
    async close() {
      redis.disconnect();
    },
  };
}
