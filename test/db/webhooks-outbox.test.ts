// The outbox writer against a real database: rows commit with the change or not at all, a
// scan batch costs one SELECT and one multi-row INSERT per table, and the live stream hears of
// a batch only when the recorder says it committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditService, createAuditStore } from '../../src/modules/audit/index.ts';
import { loadConfig } from '../../src/config.ts';
import { scanInsertChunk } from '../../src/db/dialect.ts';
import { createLogger } from '../../src/logger.ts';
import type { Code } from '../../src/modules/codes/model.ts';
import { ACTIVE_LIFECYCLE } from '../../src/modules/codes/lifecycle.ts';
import type { ScanEvent } from '../../src/modules/scans/model.ts';
import { createWebhooks, type Webhooks } from '../../src/modules/webhooks/module.ts';
import type { WriteScanEvents } from '../../src/modules/scans/commit-batch.ts';
import { createScanOutbox } from '../../src/modules/webhooks/outbox.ts';
import { createWebhooksStore } from '../../src/modules/webhooks/store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { SCOPES } from '../../src/shared/principal.ts';
import { createOwnedCodeIds } from '../../src/modules/codes/store.ts';

let testDb: TestDb;
let webhooks: Webhooks;
let writeScanEvents: WriteScanEvents;
const accounts = ['acct_outbox_a', 'acct_outbox_b', 'acct_outbox_c'];
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  PUBLIC_BASE_URL: 'https://qr.example',
});

beforeAll(async () => {
  testDb = await createTestDb();
  for (const id of accounts) await testDb.db('accounts').insert({ id, name: id, created_at: Date.now() });
  webhooks = createWebhooks({
    db: testDb.db,
    config,
    logger: createLogger(config),
    ownedCodeIds: createOwnedCodeIds(testDb.db),
    audit: createAuditService({ store: createAuditStore(testDb.db) }).record,
  });
  writeScanEvents = createScanOutbox({ store: createWebhooksStore(testDb.db), publicBaseUrl: config.publicBaseUrl });
  // a: every scan; b: scans of one code only; c: no endpoint at all.
  await webhooks.service.create(
    { accountId: accounts[0]!, keyId: 'k', scopes: new Set(SCOPES) },
    { url: 'http://127.0.0.1:9/a', events: ['scan.created', 'code.created'] },
  );
  await webhooks.service.create(
    { accountId: accounts[0]!, keyId: 'k', scopes: new Set(SCOPES) },
    { url: 'http://127.0.0.1:9/a2', events: ['scan.created'] },
  );
  await testDb.db('codes').insert({
    id: 'qr_outbox_b1',
    account_id: accounts[1],
    type: 'text',
    content: '{}',
    design: '{}',
    routing_enabled: false,
    slug: null,
    created_at: 0,
    updated_at: 0,
  });
  await webhooks.service.create(
    { accountId: accounts[1]!, keyId: 'k', scopes: new Set(SCOPES) },
    { url: 'http://127.0.0.1:9/b', events: ['scan.created'], code_ids: ['qr_outbox_b1'] },
  );
});
afterAll(async () => {
  await webhooks.close();
  await testDb.destroy();
});

function scanOf(accountId: string, codeId: string, i: number): ScanEvent {
  return {
    codeId,
    slug: `S${i}`,
    accountId,
    at: Date.now(),
    ruleId: null,
    destination: 'https://example.com/',
    country: 'DE',
    device: 'mobile',
    os: 'Android',
    browser: 'Chrome',
    referrerHost: null,
    language: 'de',
    isBot: false,
    ip: null,
    userAgent: undefined,
  };
}

const count = async (table: string) =>
  Number(((await testDb.db(table).count({ n: '*' }).first()) as { n: number | string }).n);

describe('outbox', () => {
  it('writes a scan batch with one SELECT and multi-row INSERTs chunked like scans, in the transaction', async () => {
    const scans = [
      ...Array.from({ length: 300 }, (_, i) => scanOf(accounts[0]!, 'qr_outbox_a1', i)),
      ...Array.from({ length: 50 }, (_, i) => scanOf(accounts[1]!, i % 2 ? 'qr_outbox_b1' : 'qr_outbox_b2', i)),
      ...Array.from({ length: 50 }, (_, i) => scanOf(accounts[2]!, 'qr_outbox_c1', i)),
    ];
    const [eventsBefore, deliveriesBefore] = [await count('webhook_events'), await count('webhook_deliveries')];
    const statements: string[] = [];
    const live: unknown[] = [];
    const listening = webhooks.service.subscribeScans(
      { accountId: accounts[2]!, keyId: 'k', scopes: new Set(SCOPES) },
      null,
    );
    const stream = await listening;
    void (async () => {
      for await (const scan of stream) live.push(scan);
    })();
    const queued = await testDb.db.transaction(async (trx) => {
      trx.on('query', (q: { sql: string }) => statements.push(q.sql.split(' ').slice(0, 3).join(' ').toLowerCase()));
      return writeScanEvents(scans, trx);
    });
    expect(queued).toBe(true);
    // Writing the rows publishes nothing: the recorder tells the outbox once the batch committed.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(live).toEqual([]);
    webhooks.outbox.scansCommitted(scans, queued);
    // a: 300 scans x 2 endpoints; b: 25 scans of the watched code; c: none.
    expect((await count('webhook_events')) - eventsBefore).toBe(325);
    expect((await count('webhook_deliveries')) - deliveriesBefore).toBe(625);
    expect(statements.filter((s) => s.startsWith('select'))).toHaveLength(1);
    // Chunked like scans: one INSERT per table on MySQL (1000 rows), 200-row ones on SQLite.
    const chunk = scanInsertChunk(testDb.db);
    expect(statements.filter((s) => s.includes('webhook_events'))).toHaveLength(Math.ceil(325 / chunk));
    expect(statements.filter((s) => s.includes('webhook_deliveries'))).toHaveLength(Math.ceil(625 / chunk));
    // The live stream carries every scan (account c too, which has no endpoint), after the commit.
    for (const deadline = Date.now() + 2000; live.length < 50 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 10));
    expect(live).toHaveLength(50);
    await stream.return?.();
  });

  it('queues nothing for scans no endpoint wants', async () => {
    const [eventsBefore, deliveriesBefore] = [await count('webhook_events'), await count('webhook_deliveries')];
    const scans = [scanOf(accounts[1]!, 'qr_outbox_b2', 1), scanOf(accounts[2]!, 'qr_outbox_c1', 2)];
    expect(await testDb.db.transaction((trx) => writeScanEvents(scans, trx))).toBe(false);
    expect(await count('webhook_events')).toBe(eventsBefore);
    expect(await count('webhook_deliveries')).toBe(deliveriesBefore);
  });

  it('leaves nothing behind when the transaction rolls back', async () => {
    const [eventsBefore, deliveriesBefore] = [await count('webhook_events'), await count('webhook_deliveries')];
    const code = {
      id: 'qr_x',
      accountId: accounts[0]!,
      type: 'url',
      content: 'https://example.com/',
      name: null,
      notes: null,
      forwardQuery: false,
      passwordHash: null,
      appLinks: null,
      utm: null,
      preview: null,
      page: null,
      lifecycle: ACTIVE_LIFECYCLE,
      design: {},
      logoId: null,
      routing: { enabled: false, rules: [] },
      tags: [],
      slug: 'Abc1234',
      domain: null,
      importedScans: 0,
      createdAt: new Date(),
      updatedAt: new Date(),
    } as Code;
    await expect(
      testDb.db.transaction(async (trx) => {
        await webhooks.outbox.codeEvent({ type: 'code.created', code }, trx);
        expect(await writeScanEvents([scanOf(accounts[0]!, 'qr_x', 1)], trx)).toBe(true);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count('webhook_events')).toBe(eventsBefore);
    expect(await count('webhook_deliveries')).toBe(deliveriesBefore);
  });
});
