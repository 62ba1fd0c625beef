// The batched scan writer against a real database: group commit, retry without loss, drain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createScanBatchWriter } from '../../src/modules/scans/batch-writer.ts';
import { createScanRecorder, type ScanEvent } from '../../src/modules/scans/recorder.ts';
import { createRollupStore } from '../../src/modules/scans/rollup-store.ts';
import { createScansStore } from '../../src/modules/scans/store.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

let testDb: TestDb;
const logger = createLogger({ logLevel: 'silent' });

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.destroy());

let n = 0;
function event(codeId: string): ScanEvent {
  n += 1;
  return {
    codeId,
    slug: 'abcdefg',
    accountId: 'acct_x',
    at: Date.now(),
    ruleId: null,
    destination: 'https://example.com',
    country: 'DE',
    device: 'mobile',
    os: 'Android',
    browser: 'Chrome',
    referrerHost: null,
    language: 'de',
    isBot: false,
    ip: `192.0.2.${n % 250}`,
    userAgent: 'test',
  };
}

const count = async (codeId: string) => Number((await testDb.db('scans').where({ code_id: codeId }).count({ n: '*' }).first())!.n);
function recorder(batchSize = 100, flushIntervalMs = 10_000) {
  const store = createScansStore(testDb.db);
  const write = createScanBatchWriter(store, createRollupStore(testDb.db));
  return createScanRecorder({ db: testDb.db, store, write, logger, flushIntervalMs, batchSize });
}

describe('scan recorder', () => {
  it('buffers without writing, then writes everything on flush (also after an empty flush)', async () => {
    const r = recorder();
    await r.flush();
    for (let i = 0; i < 250; i++) r.enqueue(event('qr_batch'));
    expect(await count('qr_batch')).toBeLessThan(250);
    await r.flush();
    expect(await count('qr_batch')).toBe(250);
    expect(r.pending()).toBe(0);
  });

  it('writes on its own once the flush interval passes', async () => {
    const r = recorder(1000, 20);
    for (let i = 0; i < 5; i++) r.enqueue(event('qr_timer'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await count('qr_timer')).toBe(5);
  });

  it('keeps scans when a write fails and writes them once the database works again', async () => {
    const r = recorder(100, 20);
    await testDb.db.schema.renameTable('scans', 'scans_away');
    try {
      for (let i = 0; i < 30; i++) r.enqueue(event('qr_retry'));
      await r.flush();
      expect(r.pending()).toBe(30);
    } finally {
      await testDb.db.schema.renameTable('scans_away', 'scans');
    }
    await r.stop();
    expect(r.pending()).toBe(0);
    expect(await count('qr_retry')).toBe(30);
  });

  it('stop() drains the buffer', async () => {
    const r = recorder(10, 60_000);
    for (let i = 0; i < 55; i++) r.enqueue(event('qr_stop'));
    await r.stop();
    expect(await count('qr_stop')).toBe(55);
  });
});
