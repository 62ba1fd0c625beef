// The batched scan writer against a real database: group commit, retry without loss or
// duplicates, drain, on this thread and on the scan writer thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWriteConflict } from '../../src/db/dialect.ts';
import { createLogger } from '../../src/logger.ts';
import type { CommitBatch } from '../../src/modules/scans/commit-batch.ts';
import type { ScanEvent } from '../../src/modules/scans/model.ts';
import { createScanIds } from '../../src/modules/scans/scan-ids.ts';
import { createScanRecorder } from '../../src/modules/scans/recorder.ts';
import { createScansStore } from '../../src/modules/scans/store.ts';
import type { WriterThread } from '../../src/modules/scans/writer-thread.ts';
import { createScanCommit, startScanWriterThread } from '../../src/scan-writer/compose.ts';
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

const count = async (codeId: string) =>
  Number((await testDb.db('scans').where({ code_id: codeId }).count({ n: '*' }).first())!.n);

// Both ways a batch is committed: on this thread (SQLite's way), and on the scan writer thread
// (MySQL's; it works on a SQLite file too, so both engines run it).
describe.each(['main thread', 'writer thread'] as const)('scan recorder, committing on the %s', (where) => {
  let thread: WriterThread | null = null;
  const committed: number[] = [];
  beforeAll(() => {
    if (where === 'writer thread')
      thread = startScanWriterThread({ databaseUrl: testDb.url, publicBaseUrl: 'https://qr.example' });
  });
  afterAll(async () => {
    await thread?.close();
  });

  function recorder(batchSize = 100, flushIntervalMs = 10_000) {
    const commit = thread?.commit ?? createScanCommit(testDb.db, 'https://qr.example');
    return createScanRecorder({
      commit,
      logger,
      flushIntervalMs,
      batchSize,
      onCommitted: (events) => committed.push(events.length),
    });
  }
  const code = (name: string) => `qr_${name}_${where === 'main thread' ? 'main' : 'thread'}`;

  it('buffers without writing, then writes everything on flush (also after an empty flush)', async () => {
    const r = recorder();
    await r.flush();
    for (let i = 0; i < 250; i++) r.enqueue(event(code('batch')));
    expect(await count(code('batch'))).toBeLessThan(250);
    committed.length = 0;
    await r.flush();
    expect(await count(code('batch'))).toBe(250);
    expect(r.pending()).toBe(0);
    // Told of each batch once it committed: 100-scan batches.
    expect(committed.reduce((a, b) => a + b, 0)).toBe(250);
    expect(Math.max(...committed)).toBeLessThanOrEqual(100);
  });

  it('writes on its own once the flush interval passes', async () => {
    // Nobody calls flush(): the batch commits on the recorder's own timer, or the test times out.
    let written!: (size: number) => void;
    const committedOnItsOwn = new Promise<number>((resolve) => (written = resolve));
    const commit = thread?.commit ?? createScanCommit(testDb.db, 'https://qr.example');
    const r = createScanRecorder({
      commit,
      logger,
      flushIntervalMs: 20,
      batchSize: 1000,
      onCommitted: (events) => written(events.length),
    });
    for (let i = 0; i < 5; i++) r.enqueue(event(code('timer')));
    expect(await committedOnItsOwn).toBe(5);
    expect(await count(code('timer'))).toBe(5);
    await r.stop();
  });

  it('keeps scans when a write fails and writes them once the database works again', async () => {
    const r = recorder(100, 20);
    committed.length = 0;
    await testDb.db.schema.renameTable('scans', 'scans_away');
    try {
      for (let i = 0; i < 30; i++) r.enqueue(event(code('retry')));
      await r.flush();
      expect(r.pending()).toBe(30);
      expect(committed).toEqual([]);
    } finally {
      await testDb.db.schema.renameTable('scans_away', 'scans');
    }
    await r.stop();
    expect(r.pending()).toBe(0);
    expect(await count(code('retry'))).toBe(30);
    expect(committed).toEqual([30]);
  });

  it('writes a batch once when its commit went through but the answer was lost, and tells of it once', async () => {
    const real = thread?.commit ?? createScanCommit(testDb.db, 'https://qr.example');
    let loseNextAnswer = true;
    const ids: string[] = [];
    const commit: CommitBatch = async (events, batchId) => {
      ids.push(batchId);
      const result = await real(events, batchId);
      if (loseNextAnswer) {
        loseNextAnswer = false;
        throw new Error('connection lost after COMMIT');
      }
      return result;
    };
    const told: number[] = [];
    const r = createScanRecorder({
      commit,
      logger,
      flushIntervalMs: 20,
      batchSize: 100,
      onCommitted: (events) => told.push(events.length),
    });
    for (let i = 0; i < 25; i++) r.enqueue(event(code('lost')));
    await r.flush();
    expect(r.pending()).toBe(25);
    expect(await count(code('lost'))).toBe(25);
    // Scans enqueued meanwhile wait for the next batch: the retry resends exactly the first one.
    for (let i = 0; i < 5; i++) r.enqueue(event(code('lost')));
    await r.stop();
    expect(await count(code('lost'))).toBe(30);
    expect(ids[1]).toBe(ids[0]);
    expect(ids).toHaveLength(3);
    expect(told).toEqual([25, 5]);
  });

  it('stores a replayed scan or locked view once: the same ids under a new batch id add nothing', async () => {
    const commit = thread?.commit ?? createScanCommit(testDb.db, 'https://qr.example');
    const scanned = code('replayed');
    const batch = [
      ...Array.from({ length: 3 }, (_, i) => ({ ...event(scanned), id: `${where}-scan-${i}` })),
      ...Array.from({ length: 2 }, (_, i) => ({
        ...event(scanned),
        id: `${where}-view-${i}`,
        outcome: 'locked' as const,
      })),
    ];
    const views = async () =>
      Number((await testDb.db('code_locked_views').where({ code_id: scanned }).sum({ n: 'views' }).first())!.n ?? 0);
    expect((await commit(batch, `${where}-first`)).alreadyStored).toEqual([]);
    expect(await count(scanned)).toBe(3);
    expect(await views()).toBe(2);
    // A journal replayed after that batch had committed: a new batch of the same events, one more beside them.
    const replay = [...batch, { ...event(scanned), id: `${where}-view-new`, outcome: 'locked' as const }];
    const result = await commit(replay, `${where}-replay`);
    expect(result.alreadyStored.sort()).toEqual([0, 1, 2].map((i) => `${where}-scan-${i}`));
    expect(await count(scanned)).toBe(3);
    expect(await views()).toBe(3);
  });

  it('tells onRetry of each failed attempt, as something other than a conflict when a table is missing', async () => {
    const retries: unknown[] = [];
    const commit = thread?.commit ?? createScanCommit(testDb.db, 'https://qr.example');
    const r = createScanRecorder({
      commit,
      logger,
      flushIntervalMs: 20,
      batchSize: 100,
      onRetry: (err) => retries.push(err),
    });
    await testDb.db.schema.renameTable('scans', 'scans_away');
    try {
      r.enqueue(event(code('retried')));
      await r.flush();
      expect(retries).toHaveLength(1);
      expect(isWriteConflict(retries[0])).toBe(false);
    } finally {
      await testDb.db.schema.renameTable('scans_away', 'scans');
    }
    await r.stop();
    expect(await count(code('retried'))).toBe(1);
  });

  it('stop() drains the buffer', async () => {
    const r = recorder(10, 60_000);
    for (let i = 0; i < 55; i++) r.enqueue(event(code('stop')));
    await r.stop();
    expect(await count(code('stop'))).toBe(55);
  });
});

// SCAN_RAW_ROWS=none: the same rollups, no raw rows, and a replayed scan still counted once,
// also when the journal was written under the other setting.
describe.each(['main thread', 'writer thread'] as const)('without raw rows, committing on the %s', (where) => {
  const threads: WriterThread[] = [];
  afterAll(() => Promise.all(threads.map((t) => t.close())));
  const commitWith = (rawRows: 'keep' | 'none'): CommitBatch => {
    if (where === 'main thread') return createScanCommit(testDb.db, 'https://qr.example', rawRows);
    const thread = startScanWriterThread({ databaseUrl: testDb.url, publicBaseUrl: 'https://qr.example', rawRows });
    threads.push(thread);
    return thread.commit;
  };
  const rolled = async (codeId: string) =>
    Number((await testDb.db('scan_rollups').where({ code_id: codeId }).sum({ n: 'scans' }).first())!.n ?? 0);
  const place = where === 'main thread' ? 'main' : 'thread';
  const withIds = (codeId: string, n: number) => {
    const next = createScanIds();
    return Array.from({ length: n }, () => ({ ...event(codeId), id: next() }));
  };

  it('writes the rollups and no raw row, and skips the scans of a replayed batch', async () => {
    const codeId = `qr_none_${place}`;
    const commit = commitWith('none');
    const batch = withIds(codeId, 20);
    expect((await commit(batch, `${place}-none-1`)).alreadyStored).toEqual([]);
    expect(await count(codeId)).toBe(0);
    expect(await rolled(codeId)).toBe(20);
    // The journal replayed after the batch had committed, with 5 scans it had not reached.
    const more = withIds(codeId, 5);
    const result = await commit([...batch, ...more], `${place}-none-replay`);
    expect(result.alreadyStored.sort()).toEqual(batch.map((e) => e.id).sort());
    expect(await rolled(codeId)).toBe(25);
    expect(await count(codeId)).toBe(0);
  });

  it('counts a replayed scan once across a change of SCAN_RAW_ROWS, either way', async () => {
    for (const [first, then] of [
      ['keep', 'none'],
      ['none', 'keep'],
    ] as const) {
      const codeId = `qr_switch_${first}_${place}`;
      const batch = withIds(codeId, 10);
      await commitWith(first)(batch, `${place}-${first}-first`);
      const result = await commitWith(then)(batch, `${place}-${first}-replayed`);
      expect(result.alreadyStored).toHaveLength(10);
      expect(await rolled(codeId)).toBe(10);
      expect(await count(codeId)).toBe(first === 'keep' ? 10 : 0);
    }
  });
});

describe('scan writer thread', () => {
  it('loses no scan when the thread dies with a batch in flight: the batch goes to a new thread', async () => {
    const thread = startScanWriterThread({ databaseUrl: testDb.url, publicBaseUrl: 'https://qr.example' });
    const r = createScanRecorder({ commit: thread.commit, logger, flushIntervalMs: 20, batchSize: 100 });
    try {
      for (let i = 0; i < 10; i++) r.enqueue(event('qr_crash'));
      await r.flush();
      expect(await count('qr_crash')).toBe(10);
      // The table is away, so the batch in flight cannot commit before the thread dies.
      await testDb.db.schema.renameTable('scans', 'scans_away');
      try {
        for (let i = 0; i < 30; i++) r.enqueue(event('qr_crash'));
        const flushed = r.flush();
        await thread.kill();
        await flushed;
        expect(r.pending()).toBe(30);
      } finally {
        await testDb.db.schema.renameTable('scans_away', 'scans');
      }
      await r.stop();
      expect(await count('qr_crash')).toBe(40);
    } finally {
      await thread.close();
    }
  });
});

describe('batch ids', () => {
  it('are kept until the salt of a new day comes, then those from before yesterday go', async () => {
    const store = createScansStore(testDb.db);
    const at = (iso: string) => Date.parse(iso);
    await testDb.db('scan_batches').insert([
      { id: 'batch_old', committed_at: at('2030-01-03T23:59:59Z') },
      { id: 'batch_yesterday', committed_at: at('2030-01-04T00:00:00Z') },
    ]);
    expect(await store.markBatchCommitted('batch_old', testDb.db)).toBe(false);
    await store.saltForDay('2030-01-05');
    const left = await testDb.db('scan_batches').whereIn('id', ['batch_old', 'batch_yesterday']).pluck('id');
    expect(left).toEqual(['batch_yesterday']);
    expect(await store.markBatchCommitted('batch_old', testDb.db)).toBe(true);
  });
});

describe('visitor salts', () => {
  it('are given for a day even when the cleanup of a later day deletes it meanwhile', async () => {
    const store = createScansStore(testDb.db);
    // Each round asks for an old day and, at once, a day three days later whose cleanup deletes
    // the old day's salt: whichever order the statements interleave in, both calls answer.
    for (let round = 0; round < 20; round++) {
      const old = new Date(Date.UTC(2031, 0, 1 + round * 4)).toISOString().slice(0, 10);
      const later = new Date(Date.UTC(2031, 0, 4 + round * 4)).toISOString().slice(0, 10);
      const [oldSalt, laterSalt] = await Promise.all([store.saltForDay(old), store.saltForDay(later)]);
      expect(oldSalt).toMatch(/^[0-9a-f]{64}$/);
      expect(laterSalt).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
