// Fixed one-minute windows through rate-limiter-flexible: counted in this process's memory, or
// on Redis (REDIS_URL) so that every instance shares one count per key. A store that fails never
// refuses a call: it passes uncounted and a warning is logged at most once a minute (fail open).
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';

const WINDOW_SECONDS = 60;
const KEY_PREFIX = 'qr-service:rl';
/** A Redis that takes longer than this to count is treated as down for that call. */
const REDIS_TIMEOUT_MS = 250;

/** Where a key stands in its window after a call was counted. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the whole limit is back. */
  resetSeconds: number;
}

export interface RateLimit {
  readonly limit: number;
  /**
   * Counts `points` calls of `key`; null when the store could not count (the call passes). A
   * refusal counts nothing: its state shows what still remains.
   */
  take(key: string, points?: number): Promise<RateLimitState | null>;
}

export interface RateLimits {
  /** Calls per API key (REST and GraphQL); null when switched off. */
  api: RateLimit | null;
  /** Bulk calls per API key, counted on top of `api`. */
  bulk: RateLimit | null;
  /** Scans per visitor address; always in memory: the scan route never waits on the network. */
  scan: RateLimit | null;
  /**
   * Password tries per protected code and visitor address; shared through Redis when configured,
   * so a fleet counts one try once (only the unlock form waits on it, never a redirect).
   */
  unlock: RateLimit | null;
  /** Sign-in attempts per email (lower-cased) and per caller address, counted in one limiter. */
  signIn: RateLimit | null;
  close(): void;
}

function wrap(
  limiter: RateLimiterAbstract,
  limit: number,
  onStoreError: (err: unknown) => void,
  storeUp: () => boolean = () => true,
): RateLimit {
  const state = (res: RateLimiterRes, allowed: boolean): RateLimitState => ({
    allowed,
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  });
  // A refused call is given its points back: a GraphQL operation priced above what remains
  // must not empty the window for the cheaper calls that still fit.
  const refuse = (key: string, points: number, res: RateLimiterRes) =>
    limiter.reward(key, points).then(
      (back) => state(back, false),
      (err: unknown) => {
        onStoreError(err);
        return state(res, false);
      },
    );
  return {
    limit,
    take(key, points = 1) {
      if (!storeUp()) {
        onStoreError(new Error('Redis is not connected'));
        return Promise.resolve(null);
      }
      return limiter.consume(key, points).then(
        (res) => state(res, true),
        // The library rejects with its result past the limit, and with an Error when the store failed.
        (err: unknown) => {
          if (err instanceof RateLimiterRes) return refuse(key, points, err);
          onStoreError(err);
          return null;
        },
      );
    },
  };
}

export function createRateLimits({
  config,
  logger,
}: {
  config: Pick<
    Config,
    | 'redisUrl'
    | 'rateLimitPerMinute'
    | 'bulkRateLimitPerMinute'
    | 'scanRateLimitPerMinute'
    | 'unlockAttemptsPerMinute'
    | 'signInAttemptsPerMinute'
  >;
  logger: Logger;
}): RateLimits {
  let lastLogged = 0;
  const onStoreError = (err: unknown) => {
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    logger.warn({ err }, 'rate limit store (Redis) unavailable: API calls pass without being counted until it is back');
  };
  const needsRedis =
    config.redisUrl !== null &&
    (config.rateLimitPerMinute > 0 ||
      config.bulkRateLimitPerMinute > 0 ||
      config.unlockAttemptsPerMinute > 0 ||
      config.signInAttemptsPerMinute > 0);
  const redis = needsRedis
    ? new Redis(config.redisUrl!, { maxRetriesPerRequest: 1, commandTimeout: REDIS_TIMEOUT_MS })
    : null;
  // Calls made while the first connection is being made wait for it (at most REDIS_TIMEOUT_MS);
  // once Redis was reached or failed, a call while it is away passes at once, uncounted, and
  // ioredis reconnects by itself.
  let connecting = redis !== null;
  redis?.once('ready', () => (connecting = false));
  redis?.on('error', (err) => {
    connecting = false;
    onStoreError(err);
  });
  const storeUp = () => redis!.status === 'ready' || connecting;

  const shared = (name: string, limit: number): RateLimit | null => {
    if (limit === 0) return null;
    const options = { keyPrefix: `${KEY_PREFIX}:${name}`, points: limit, duration: WINDOW_SECONDS };
    if (!redis) return wrap(new RateLimiterMemory(options), limit, onStoreError);
    return wrap(new RateLimiterRedis({ ...options, storeClient: redis }), limit, onStoreError, storeUp);
  };
  const scanLimit = config.scanRateLimitPerMinute;
  return {
    api: shared('api', config.rateLimitPerMinute),
    bulk: shared('bulk', config.bulkRateLimitPerMinute),
    unlock: shared('unlock', config.unlockAttemptsPerMinute),
    signIn: shared('sign-in', config.signInAttemptsPerMinute),
    scan:
      scanLimit > 0
        ? wrap(
            new RateLimiterMemory({ keyPrefix: `${KEY_PREFIX}:scan`, points: scanLimit, duration: WINDOW_SECONDS }),
            scanLimit,
            onStoreError,
          )
        : null,
    close() {
      redis?.disconnect();
    },
  };
}
