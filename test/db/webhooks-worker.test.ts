// The delivery worker against a real database (SQLite or MariaDB): several workers on separate
// connections deliver every event exactly once, and a dead worker's claim runs out and is
// taken over. A real receiver on loopback counts what arrives.
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditService, createAuditStore } from '../../src/modules/audit/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb, isSqlite } from '../../src/db/knex.ts';
import { createLogger } from '../../src/logger.ts';
import { newId } from '../../src/shared/ids.ts';
import { createWebhooks, type Webhooks } from '../../src/modules/webhooks/module.ts';
import { createWebhooksStore } from '../../src/modules/webhooks/store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { SCOPES } from '../../src/shared/principal.ts';
import { createOwnedCodeIds } from '../../src/modules/codes/store.ts';

let testDb: TestDb;
let receiver: Receiver;
const accountId = 'acct_worker_test';
const principal = { accountId, keyId: 'key_x', scopes: new Set(SCOPES) };

beforeAll(async () => {
  testDb = await createTestDb();
  await testDb.db('accounts').insert({ id: accountId, name: 'worker-test', created_at: Date.now() });
  receiver = await startReceiver(() => ({ status: 200, delayMs: 5 }));
});
afterAll(async () => {
  await receiver.close();
  await testDb.destroy();
});

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '20',
  WEBHOOK_CONCURRENCY: '5',
  WEBHOOK_TIMEOUT_MS: '1000',
});
const moduleOn = (db: Knex): Webhooks =>
  createWebhooks({
    db,
    config,
    logger: createLogger(config),
    ownedCodeIds: createOwnedCodeIds(db),
    audit: createAuditService({ store: createAuditStore(db) }).record,
  });

/** n events, each with one pending delivery to the endpoint, written like the outbox does. */
async function pendingEvents(endpointId: string, n: number): Promise<string[]> {
  const now = new Date();
  const events = Array.from({ length: n }, () => ({
    id: newId('evt'),
    accountId,
    type: 'code.created' as const,
    payload: '{"n":1}',
    createdAt: now,
  }));
  const store = createWebhooksStore(testDb.db);
  await testDb.db.transaction((trx) =>
    store.insertOutbox(
      events,
      events.map((e) => ({ id: newId('dlv'), eventId: e.id, endpointId, createdAt: now })),
      trx,
    ),
  );
  return events.map((e) => e.id);
}

describe('delivery worker', () => {
  it('delivers every event exactly once with four workers (on two connections on MySQL)', async () => {
    // On SQLite the service writes through one connection per process. Two in one thread can
    // deadlock: one holds a transaction open across an await (recordAttempt) while the other's
    // synchronous statement waits out busy_timeout on the same thread, which fails the first's
    // record after 5 s, and the delivery is sent again when its lease runs out (seen: 220 of 200).
    const second = isSqlite(testDb.db) ? testDb.db : createDb(testDb.url);
    const modules = [moduleOn(testDb.db), moduleOn(testDb.db), moduleOn(second), moduleOn(second)];
    try {
      const { webhook } = await modules[0]!.service.create(principal, {
        url: receiver.url('/many'),
        events: ['code.created'],
      });
      const ids = await pendingEvents(webhook.id, 200);
      for (const m of modules) m.worker.start();
      const got = (await receiver.waitFor((rs) => rs.filter((r) => r.path === '/many').length >= 200, 30_000)).filter(
        (r) => r.path === '/many',
      );
      // Give a double delivery the chance to show up.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = receiver.received.filter((r) => r.path === '/many');
      expect(again).toHaveLength(200);
      expect(new Set(got.map((r) => r.id))).toEqual(new Set(ids));
      const attempts = await testDb.db('webhook_attempts').select('worker');
      expect(attempts).toHaveLength(200);
      // The work was shared: more than one worker sent some.
      expect(new Set(attempts.map((a) => a.worker)).size).toBeGreaterThan(1);
      expect(
        await testDb.db('webhook_deliveries').whereNot('status', 'succeeded').count({ n: '*' }).first(),
      ).toMatchObject({ n: 0 });
    } finally {
      for (const m of modules) await m.close();
      if (second !== testDb.db) await second.destroy();
    }
  });

  it("takes over a dead worker's delivery once its lease has run out, not before", async () => {
    const m = moduleOn(testDb.db);
    const store = createWebhooksStore(testDb.db);
    try {
      const { webhook } = await m.service.create(principal, { url: receiver.url('/orphan'), events: ['code.created'] });
      const [eventId] = await pendingEvents(webhook.id, 1);
      // A worker claims it and dies: a 700 ms lease that nobody records.
      const claimed = await store.claimDue('dead-worker', new Date(), 700, 10);
      expect(claimed.map((c) => c.delivery.eventId)).toEqual([eventId]);
      const claimedAt = Date.now();
      m.worker.start();
      const [request] = (await receiver.waitFor((rs) => rs.some((r) => r.path === '/orphan'))).filter(
        (r) => r.path === '/orphan',
      );
      expect(request!.at - claimedAt).toBeGreaterThanOrEqual(650);
      expect(request!.id).toBe(eventId);
      // The attempt is recorded just after the receiver answered.
      let delivery: Record<string, unknown> | undefined;
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        delivery = await testDb.db('webhook_deliveries').where({ event_id: eventId }).first();
        if (delivery?.status !== 'delivering') break;
      }
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, locked_by: null });
    } finally {
      await m.close();
    }
  });

  it('concurrent claimers get disjoint claims (FOR UPDATE SKIP LOCKED on MySQL, one UPDATE on SQLite)', async () => {
    const second = createDb(testDb.url);
    const m = moduleOn(testDb.db);
    try {
      const { webhook } = await m.service.create(principal, { url: receiver.url('/unused'), events: ['code.created'] });
      await m.service.update(principal, webhook.id, { enabled: false });
      await m.service.update(principal, webhook.id, { enabled: true });
      await pendingEvents(webhook.id, 120);
      const stores = [
        createWebhooksStore(testDb.db),
        createWebhooksStore(second),
        createWebhooksStore(testDb.db),
        createWebhooksStore(second),
      ];
      // Rounds of twelve concurrent claimers until nothing is left: no delivery twice, none lost.
      const all: string[] = [];
      for (let round = 0; round < 20; round++) {
        const claims = await Promise.all(
          stores.flatMap((s, i) =>
            [0, 1, 2].map((k) => s.claimDue(`claimer-${round}-${i}-${k}`, new Date(), 60_000, 15)),
          ),
        );
        const ids = claims.flat().map((c) => c.delivery.id);
        if (ids.length === 0) break;
        all.push(...ids);
      }
      expect(all.length).toBe(120);
      expect(new Set(all).size).toBe(120);
    } finally {
      await m.close();
      await second.destroy();
    }
  });
  it('purges finished events past the retention, keeping those still to be delivered', async () => {
    const m = moduleOn(testDb.db);
    const store = createWebhooksStore(testDb.db);
    try {
      const { webhook } = await m.service.create(principal, { url: receiver.url('/purge'), events: ['code.created'] });
      const old = new Date(Date.now() - 40 * 86_400_000);
      const make = async (status: string, at: Date) => {
        const eventId = newId('evt');
        await testDb.db.transaction((trx) =>
          store.insertOutbox(
            [{ id: eventId, accountId, type: 'code.created', payload: '{}', createdAt: at }],
            [{ id: newId('dlv'), eventId, endpointId: webhook.id, createdAt: at }],
            trx,
          ),
        );
        await testDb
          .db('webhook_deliveries')
          .where({ event_id: eventId })
          .update({ status, next_attempt_at: status === 'pending' ? Date.now() + 86_400_000 : null });
        return eventId;
      };
      const [oldDone, oldFailed, oldPending, recentDone] = [
        await make('succeeded', old),
        await make('failed', old),
        await make('pending', old),
        await make('succeeded', new Date()),
      ];
      await testDb.db('webhook_attempts').insert({
        delivery_id: (await testDb.db('webhook_deliveries').where({ event_id: oldDone }).first()).id,
        attempt: 1,
        worker: 'w',
        started_at: old.getTime(),
        response_status: 200,
        duration_ms: 3,
        error: null,
      });
      const removed = await store.purgeFinished(new Date(Date.now() - 30 * 86_400_000), 1000);
      expect(removed).toBeGreaterThanOrEqual(2);
      const left = new Set(
        (
          await testDb.db('webhook_events').whereIn('id', [oldDone, oldFailed, oldPending, recentDone]).select('id')
        ).map((r) => r.id),
      );
      expect(left).toEqual(new Set([oldPending, recentDone]));
      // Their deliveries and attempts went with them.
      expect(await testDb.db('webhook_deliveries').whereIn('event_id', [oldDone, oldFailed])).toEqual([]);
      expect(await testDb.db('webhook_attempts').where('worker', 'w')).toEqual([]);
    } finally {
      await m.close();
    }
  });
});
