// Webhook durability across real processes (src/main.ts): a SIGKILL with events pending loses
// none of them, and two server processes running workers on one database send each event once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { callServer as call, cliKey, startServer } from '../support/process.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let testDb: TestDb;
let receiver: Receiver;

beforeAll(async () => {
  testDb = await createTestDb({ migrate: false });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await testDb.destroy();
});

const baseEnv = () => ({
  DATABASE_URL: testDb.url,
  ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  SCAN_FLUSH_INTERVAL_MS: '50',
});

const newKey = (account: string) => cliKey(testDb.url, account);

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const countOf = async (query: Promise<unknown>) => Number(((await query) as { n: number | string }).n);

describe('webhooks across processes', () => {
  it('SIGKILL with events pending and in flight, start again: every event is delivered', async () => {
    const key = await newKey('killed');
    const path = '/kill';
    // Until the restart the receiver never answers: deliveries stay in flight or pending.
    let answering = false;
    receiver.respond((r) => (r.path !== path || answering ? 200 : 'hang'));
    const env = { ...baseEnv(), WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_CONCURRENCY: '3' };
    const first = await startServer(env);
    let webhookId: string;
    try {
      const created = await call(first, key, 'POST', '/v1/webhooks', {
        url: receiver.url(path),
        events: ['code.created', 'scan.created'],
      });
      expect(created.status).toBe(201);
      webhookId = created.body.id;
      for (let i = 0; i < 5; i++) {
        const code = await call(first, key, 'POST', '/v1/codes', { content: `https://example.com/killed/${i}` });
        for (let s = 0; s < 4; s++)
          expect((await fetch(first.url + new URL(code.body.scan_url).pathname, { redirect: 'manual' })).status).toBe(
            302,
          );
      }
      // All 25 events are in the outbox (the scan batches committed) and some are in flight.
      await until(
        async () => (await countOf(testDb.db('webhook_events').count({ n: '*' }).first())) === 25,
        10_000,
        'the outbox rows',
      ).catch(async (err) => {
        throw new Error(
          `${err.message}: ` +
            `${JSON.stringify(await testDb.db('webhook_events').count({ n: '*' }).first())}\n${first.logs()}`,
        );
      });
      await until(
        async () => receiver.received.filter((r) => r.path === path).length >= 3,
        10_000,
        'attempts in flight',
      );
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull();
    } finally {
      first.child.kill('SIGKILL');
    }
    const undelivered = await countOf(
      testDb.db('webhook_deliveries').whereNot('status', 'succeeded').count({ n: '*' }).first(),
    );
    expect(undelivered).toBe(25);

    answering = true;
    const second = await startServer(env);
    try {
      // In-flight claims of the dead process come due when their lease (timeout + 5 s) runs out.
      await until(
        async () =>
          (await countOf(testDb.db('webhook_deliveries').where('status', 'succeeded').count({ n: '*' }).first())) ===
          25,
        30_000,
        'every delivery',
      );
      const eventIds = (await testDb.db('webhook_events').select('id')).map((row) => row.id).sort();
      const answered = receiver.received.filter((r) => r.path === path && r.at > 0);
      expect([...new Set(answered.map((r) => r.id))].sort()).toEqual(eventIds);
      const types = await testDb.db('webhook_events').select('type');
      expect(types.filter((t) => t.type === 'scan.created')).toHaveLength(20);
      expect(webhookId!).toMatch(/^wh_/);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('two server processes with workers on one database deliver each event exactly once', async () => {
    const key = await newKey('twins');
    const path = '/twins';
    receiver.respond((r) => (r.path === path ? { status: 200, delayMs: 20 } : 200));
    const env = { ...baseEnv(), WEBHOOK_CONCURRENCY: '4' };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const created = await call(a, key, 'POST', '/v1/webhooks', {
        url: receiver.url(path),
        events: ['scan.created', 'code.created'],
      });
      expect(created.status).toBe(201);
      const codes = [
        await call(a, key, 'POST', '/v1/codes', { content: 'https://example.com/a' }),
        await call(b, key, 'POST', '/v1/codes', { content: 'https://example.com/b' }),
      ];
      // 2 code events and 200 scans, half through each process.
      for (let i = 0; i < 200; i += 20) {
        await Promise.all(
          Array.from({ length: 20 }, (_, k) => {
            const code = codes[(i + k) % 2]!.body;
            const via = (i + k) % 2 === 0 ? a : b;
            return fetch(via.url + new URL(code.scan_url).pathname, { redirect: 'manual' });
          }),
        );
      }
      const endpointId = created.body.id;
      await until(
        async () =>
          (await countOf(
            testDb
              .db('webhook_deliveries')
              .where({ endpoint_id: endpointId, status: 'succeeded' })
              .count({ n: '*' })
              .first(),
          )) >= 202,
        30_000,
        'every delivery',
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const got = receiver.received.filter((r) => r.path === path);
      const perId = new Map<string, number>();
      for (const r of got) perId.set(r.id, (perId.get(r.id) ?? 0) + 1);
      expect(perId.size).toBe(202);
      expect([...perId.values()].every((n) => n === 1)).toBe(true);
      // Both processes sent some.
      const workers = await testDb
        .db('webhook_attempts as t')
        .join('webhook_deliveries as d', 'd.id', 't.delivery_id')
        .where('d.endpoint_id', endpointId)
        .distinct('t.worker');
      expect(workers.length).toBe(2);
    } finally {
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
    }
  });
});
