// Subscription.scanCreated over server-sent events through the real /graphql route: a real
// HTTP SSE client on loopback, scoped to the caller's account; in-process, and through Redis
// pub/sub between two instances on one database.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequestListener } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices, type Services } from '../../src/services.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUBSCRIPTION =
  `subscription ($codeId: ID) { scanCreated(codeId: $codeId) { codeId scanUrl destination ruleId ` +
  `device os browser referrerHost isBot scannedAt } }`;

interface Stream {
  status: number;
  contentType: string | null;
  /** Parsed `next` payloads so far. */
  events: any[];
  /** Resolves once `n` payloads arrived (or fails after timeoutMs). */
  next(n: number, timeoutMs?: number): Promise<any[]>;
  /** Resolves when the server ended the stream (or close() aborted it). */
  ended: Promise<void>;
  close(): void;
}

/** POST /graphql with Accept: text/event-stream; parses the `event: next` messages as they come. */
async function subscribe(
  baseUrl: string,
  key: string | undefined,
  variables: Record<string, unknown> = {},
): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      ...(key && { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({ query: SUBSCRIPTION, variables }),
    signal: controller.signal,
  });
  const events: any[] = [];
  let ended: Promise<void> = Promise.resolve();
  if (res.body && res.headers.get('content-type')?.includes('text/event-stream')) {
    ended = (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = message.split('\n');
            const event = lines
              .find((l) => l.startsWith('event:'))
              ?.slice(6)
              .trim();
            const data = lines
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('\n');
            if (event === 'next' && data) events.push(JSON.parse(data));
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    ended,
    async next(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < n) {
        if (Date.now() > deadline)
          throw new Error(`expected ${n} events, got ${events.length}: ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return events;
    },
    close: () => controller.abort(),
  };
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const scan = (baseUrl: string, code: { scan_url: string }) =>
  fetch(baseUrl + new URL(code.scan_url).pathname, { redirect: 'manual', headers: { 'user-agent': FIREFOX } });
/** Long enough for a scan batch (SCAN_FLUSH_INTERVAL_MS=20) to commit and be published. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('scanCreated in one process', () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await getTestApp({ SCAN_FLUSH_INTERVAL_MS: '20' });
    key = await app.newAccountKey();
  });
  afterAll(() => app.close());

  it('streams the caller’s scans as server-sent events, all codes or one', async () => {
    const a = await createCode(app, key);
    const b = await createCode(app, key);
    const all = await subscribe(app.url, key);
    const onlyA = await subscribe(app.url, key, { codeId: a.id });
    try {
      expect(all.status).toBe(200);
      expect(all.contentType).toContain('text/event-stream');
      await settle();
      expect((await scan(app.url, a)).status).toBe(302);
      expect((await scan(app.url, b)).status).toBe(302);
      const events = await all.next(2);
      expect(events.map((e) => e.data.scanCreated.codeId).sort()).toEqual([a.id, b.id].sort());
      expect(events.find((e) => e.data.scanCreated.codeId === a.id).data.scanCreated).toMatchObject({
        scanUrl: a.scan_url,
        destination: a.content,
        ruleId: null,
        device: 'desktop',
        os: 'Linux',
        browser: 'Firefox',
        isBot: false,
        scannedAt: expect.stringMatching(/Z$/),
      });
      await onlyA.next(1);
      await settle();
      expect(onlyA.events.map((e) => e.data.scanCreated.codeId)).toEqual([a.id]);
    } finally {
      all.close();
      onlyA.close();
    }
  });

  it("never carries another account's scans; another account's code id is an error", async () => {
    const mine = await createCode(app, key);
    const otherKey = await app.newAccountKey();
    const theirs = await subscribe(app.url, otherKey);
    const probing = await subscribe(app.url, otherKey, { codeId: mine.id });
    try {
      await settle();
      await scan(app.url, mine);
      await settle();
      await settle();
      expect(theirs.events).toEqual([]);
      await probing.next(1);
      expect(probing.events[0].errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
      expect(probing.events[0].data ?? null).toBeNull();
    } finally {
      theirs.close();
      probing.close();
    }
  });

  it('needs an API key', async () => {
    const anonymous = await subscribe(app.url, undefined);
    expect(anonymous.status).toBe(401);
  });
});

describe('scanCreated across instances (REDIS_URL)', () => {
  let app: TestApp;
  let key: string;
  let second: { url: string; services: Services; server: Server };
  beforeAll(async () => {
    app = await getTestApp({ SCAN_FLUSH_INTERVAL_MS: '20', REDIS_URL });
    key = await app.newAccountKey();
    // A second instance on the same database and the same Redis.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: app.testDb.url,
      PUBLIC_BASE_URL: url,
      SCAN_FLUSH_INTERVAL_MS: '20',
      REDIS_URL,
    });
    const logger = createLogger(config);
    const services = await createServices(app.testDb.db, config, logger);
    server.on('request', buildRequestListener({ services, logger }));
    second = { url, services, server };
  });
  afterAll(async () => {
    second.server.closeAllConnections();
    await new Promise<void>((resolve) => second.server.close(() => resolve()));
    await second.services.close();
    await app.close();
  });

  it('a subscriber on one instance sees the scans recorded by the other', async () => {
    const code = await createCode(app, key);
    const stream = await subscribe(second.url, key, { codeId: code.id });
    const local = await subscribe(app.url, key);
    try {
      await settle();
      // Scanned through the first instance only.
      for (let i = 0; i < 3; i++) expect((await scan(app.url, code)).status).toBe(302);
      const events = await stream.next(3);
      expect(events.every((e) => e.data.scanCreated.codeId === code.id)).toBe(true);
      await local.next(3);
      // Another account on the second instance hears nothing of it.
      const otherKey = await app.newAccountKey();
      const other = await subscribe(second.url, otherKey);
      await settle();
      await scan(app.url, code);
      await stream.next(4);
      await settle();
      expect(other.events).toEqual([]);
      other.close();
    } finally {
      stream.close();
      local.close();
    }
    // A closed stream leaves its Redis channel: no subscriber is left behind.
    const { accountId } = (await app.services.accounts.authenticate(key))!;
    const redis = new Redis(REDIS_URL);
    try {
      for (const deadline = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 50))) {
        const [, count] = (await redis.pubsub('NUMSUB', `qr-service:scans:${accountId}`)) as [string, number];
        if (Number(count) === 0) break;
        if (Date.now() > deadline) throw new Error(`still ${count} Redis subscribers`);
      }
    } finally {
      redis.disconnect();
    }
  });
});

describe('scanCreated and its credential', () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    // Credentials are re-checked every 200 ms. Streams live long enough that only the revocation
    // can end them here, however slow the machine (a 1.5 s bound once ended one first under load).
    app = await getTestApp({
      SCAN_FLUSH_INTERVAL_MS: '20',
      API_KEY_CACHE_TTL_MS: '200',
      GRAPHQL_STREAM_MAX_MS: '60000',
    });
    admin = await app.newAccountKey('live-revocation');
  });
  afterAll(() => app.close());

  it('ends the stream of a key once it is revoked, delivering nothing after', async () => {
    const created = await app.request('POST', '/v1/api-keys', {
      key: admin,
      body: { name: 'watcher', scopes: ['analytics:read'] },
    });
    const code = await createCode(app, admin);
    const stream = await subscribe(app.url, created.body.key);
    try {
      await settle();
      await scan(app.url, code);
      await stream.next(1);
      expect((await app.request('DELETE', `/v1/api-keys/${created.body.id}`, { key: admin })).status).toBe(204);
      await stream.ended;
      await scan(app.url, code);
      await settle();
      // The scan before, then the error that ended the stream; nothing of the scan after.
      expect(stream.events).toHaveLength(2);
      expect(stream.events[0].data.scanCreated.codeId).toBe(code.id);
      expect(stream.events[1].errors[0]).toMatchObject({
        message: expect.stringMatching(/revoked/),
        extensions: { code: 'UNAUTHORIZED' },
      });
    } finally {
      stream.close();
    }
  });
});

describe('scanCreated and its lifetime', () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await getTestApp({ GRAPHQL_STREAM_MAX_MS: '1500' });
    admin = await app.newAccountKey('live-lifetime');
  });
  afterAll(() => app.close());

  it('ends every stream after GRAPHQL_STREAM_MAX_MS', async () => {
    const stream = await subscribe(app.url, admin);
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    stream.close();
  });
});
