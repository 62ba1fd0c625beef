// Cache invalidation across processes. Every process keeps caches in memory (codes by slug,
// images' inputs, API keys, OAuth clients and grants); a change made through one process drops
// its own entry at once, and this bus tells the other processes on the same database through
// Redis pub/sub (REDIS_URL), so they drop theirs within milliseconds instead of when the entry's
// TTL runs out. Best effort by design: a message lost (Redis away, a publish failing) leaves a
// process stale for at most the TTL it had without Redis, and when the subscription comes back
// every cache that listens is dropped whole, since what was published meanwhile is unknown.
// Without REDIS_URL the bus does nothing: the TTLs alone bound staleness.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

const CHANNEL = 'qr-service:invalidate';
export const SUBSCRIBER_NAME = 'qr-service-invalidate';
/** Keys per message: a bulk create of 10,000 codes goes out in a few messages, not 10,000. */
const KEYS_PER_MESSAGE = 1000;
/** How long close() waits for the last publishes to reach Redis. */
const CLOSE_WAIT_MS = 1000;

/** What a listener does with another process's invalidation. */
export interface InvalidationHandlers {
  /** One entry changed or went. */
  drop(key: string): void;
  /** Anything may have changed (the subscription was down): forget every entry. */
  dropAll(): void;
}

export interface InvalidationBus {
  /**
   * Tells the other processes that `key` of `topic` changed. Call after the change committed;
   * this process drops its own entry itself, before answering (read your writes), so the bus
   * never delivers a process's own messages back to it.
   */
  publish(topic: string, key: string): void;
  /** Runs `handlers` for the other processes' invalidations of `topic`. */
  on(topic: string, handlers: InvalidationHandlers): void;
  close(): Promise<void>;
}

interface Message {
  /** The publishing process, so it can skip its own messages. */
  o: string;
  t: string;
  k: string[];
}

export function createInvalidationBus({
  redisUrl,
  logger,
}: {
  redisUrl: string | null;
  logger: Logger;
}): InvalidationBus {
  const listeners = new Map<string, InvalidationHandlers[]>();
  const listen = (topic: string, handlers: InvalidationHandlers) =>
    void listeners.set(topic, [...(listeners.get(topic) ?? []), handlers]);
  if (!redisUrl) return { publish: () => {}, on: listen, close: async () => {} };

  const origin = randomBytes(9).toString('base64url');
  let closed = false;
  let lastLogged = 0;
  const onError = (err: Error) => {
    // ioredis reconnects by itself; one line a minute is enough while Redis is away.
    if (closed || Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    logger.warn(
      { err },
      'Redis for cache invalidation is unavailable; other instances see changes within their cache TTLs until it is ' +
        'back',
    );
  };
  // While Redis is down a publish fails after one retry rather than piling up in memory: the
  // subscribers will have lost their subscription too, and drop everything when it is back.
  const publisher = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  // Resubscribed by hand on each connection (below), so that dropping the caches follows it.
  // Named, so CLIENT LIST shows which connections listen.
  const subscriber = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    autoResubscribe: false,
    connectionName: SUBSCRIBER_NAME,
  });
  publisher.on('error', onError);
  subscriber.on('error', onError);

  function dropAll(): void {
    for (const handlers of listeners.values()) for (const h of handlers) h.dropAll();
  }

  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== CHANNEL) return;
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.o === origin || !Array.isArray(message.k)) return;
    // A topic this version does not know (another version during a rolling deploy) is ignored.
    for (const handlers of listeners.get(message.t) ?? []) for (const key of message.k) handlers.drop(String(key));
  });
  // Every connection, the first included: what was cached before the subscription stood may have
  // changed unseen (at boot that is next to nothing; after an outage it is anything).
  subscriber.on('ready', () => {
    subscriber.subscribe(CHANNEL).then(
      () => {
        dropAll();
        logger.info('Cache invalidation subscribed (REDIS_URL)');
      },
      (err: Error) => onError(err),
    );
  });

  // Keys published in one tick go out together (a bulk create, a key's grants).
  let pending = new Map<string, Set<string>>();
  let scheduled = false;
  const inFlight = new Set<Promise<unknown>>();
  function flush(): void {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    for (const [topic, keys] of batch) {
      const all = [...keys];
      for (let i = 0; i < all.length; i += KEYS_PER_MESSAGE) {
        const sent = publisher
          .publish(
            CHANNEL,
            JSON.stringify({ o: origin, t: topic, k: all.slice(i, i + KEYS_PER_MESSAGE) } satisfies Message),
          )
          .catch(onError)
          .finally(() => inFlight.delete(sent));
        inFlight.add(sent);
      }
    }
  }

  return {
    publish(topic, key) {
      if (closed) return;
      const keys = pending.get(topic);
      if (keys) keys.add(key);
      else pending.set(topic, new Set([key]));
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    on(topic, handlers) {
      // Connects with the first listener, so a process whose setup fails before that opens nothing.
      if (listeners.size === 0) subscriber.connect().catch(onError);
      listen(topic, handlers);
    },
    async close() {
      if (closed) return;
      flush();
      closed = true;
      if (inFlight.size > 0) {
        const wait = new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
        await Promise.race([Promise.allSettled([...inFlight]), wait]);
      }
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
