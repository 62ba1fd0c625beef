// The live scan stream behind Subscription.scanCreated: the scan batch publishes each account's
// scans after it commits; subscribers of that account receive them. In this process by default;
// through Redis pub/sub when REDIS_URL is set, so a subscriber on any instance sees scans
// recorded by every instance. Best effort by design: the durable path is the outbox.
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Repeater, SlidingBuffer } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ScanEventOutcome } from '../scans/index.ts';
import type { ScanDimensions } from '../scans/index.ts';

/** A scan as webhooks and the subscription present it (the `data` of scan.created). */
export interface ScanPayload extends ScanDimensions {
  code_id: string;
  scan_url: string;
  destination: string | null;
  outcome: ScanEventOutcome;
  unlocked: boolean;
  is_bot: boolean;
  scanned_at: string;
}

/** Events one subscriber may fall behind by before the oldest are dropped (not the process). */
const SUBSCRIBER_BUFFER = 1000;
const CHANNEL = 'qr-service:scans';

interface ScanTarget {
  addEventListener(type: string, listener: (event: CustomEvent<ScanPayload[]>) => void): void;
  removeEventListener(type: string, listener: (event: CustomEvent<ScanPayload[]>) => void): void;
  dispatchEvent(event: CustomEvent<ScanPayload[]>): boolean;
}

export function createLiveScans({ redisUrl, logger }: { redisUrl: string | null; logger: Logger }) {
  let closeRedis = () => {};
  let target: ScanTarget;
  if (redisUrl) {
    let lastLogged = 0;
    let closed = false;
    const onError = (err: Error) => {
      // ioredis reconnects by itself; one line a minute is enough while Redis is away.
      if (closed || Date.now() - lastLogged < 60_000) return;
      lastLogged = Date.now();
      logger.warn({ err }, 'Redis for the live scan stream is unavailable; live scans pause until it is back');
    };
    // Lazy: a process that never publishes nor subscribes (the CLI) never connects. While Redis
    // is down, publishes fail after one retry (so they cannot pile up in memory); SUBSCRIBE
    // commands wait for the reconnect.
    const publisher = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const subscriber = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    publisher.on('error', onError);
    subscriber.on('error', onError);
    closeRedis = () => {
      closed = true;
      publisher.disconnect();
      subscriber.disconnect();
    };
    // The event target sends PUBLISH, SUBSCRIBE and UNSUBSCRIBE without awaiting them: these
    // facades catch their failures, which would otherwise be unhandled rejections.
    const publishClient = {
      publish: (channel: string, message: string) => publisher.publish(channel, message).catch(onError),
    };
    const subscribeClient = {
      on: (event: 'message', listener: (channel: string, message: string) => void) => subscriber.on(event, listener),
      subscribe: (channel: string) => subscriber.subscribe(channel).catch(onError),
      unsubscribe: (channel: string) => subscriber.unsubscribe(channel).catch(onError),
    };
    target = createRedisEventTarget({
      publishClient: publishClient as unknown as Redis,
      subscribeClient: subscribeClient as unknown as Redis,
    }) as unknown as ScanTarget;
  } else {
    target = new EventTarget() as unknown as ScanTarget;
  }
  const topic = (accountId: string) => `${CHANNEL}:${accountId}`;
  /** Subscribers in this process, by account: without Redis nobody else can be listening. */
  const localListeners = new Map<string, number>();

  return {
    /** False only when no one can receive the account's scans, so a batch need not present them. */
    mayHaveListeners(accountId: string): boolean {
      return redisUrl !== null || localListeners.has(accountId);
    },

    /** Sends an account's scans to its subscribers (after the batch committed). */
    publish(accountId: string, scans: ScanPayload[]): void {
      if (scans.length > 0) target.dispatchEvent(new CustomEvent(topic(accountId), { detail: scans }));
    },

    /** The account's scans as they are recorded, one at a time, filtered. Ends when returned. */
    subscribe(
      accountId: string,
      filter: (scan: ScanPayload) => boolean = () => true,
    ): AsyncIterableIterator<ScanPayload> {
      return new Repeater<ScanPayload>(async (push, stop) => {
        const listener = (event: CustomEvent<ScanPayload[]>) => {
          for (const scan of event.detail) if (filter(scan)) void push(scan);
        };
        target.addEventListener(topic(accountId), listener);
        localListeners.set(accountId, (localListeners.get(accountId) ?? 0) + 1);
        await stop;
        target.removeEventListener(topic(accountId), listener);
        const left = localListeners.get(accountId)! - 1;
        if (left > 0) localListeners.set(accountId, left);
        else localListeners.delete(accountId);
      }, new SlidingBuffer(SUBSCRIBER_BUFFER));
    },

    async close(): Promise<void> {
      closeRedis();
    },
  };
}

export type LiveScans = ReturnType<typeof createLiveScans>;
