// Zero loss on a crash: the service is SIGKILLed under scan load and started again on the same
// journal directory; every scan a client got a 302 for is stored, exactly once (raw rows and the
// rollups), on both engines. Then the journal's replay: a file of a dead process whose scans are
// stored already adds nothing, and a torn or damaged record is skipped with a log line while the
// whole ones are stored. With WEB_CONCURRENCY=2 (MariaDB: SQLite serves one process), a worker
// killed under load: its replacement replays its journal, and the scans answered by either add up.
// And the database going away (MariaDB behind a proxy the test cuts): scans answered meanwhile
// wait in the journal through a SIGKILL and a start that fails, and arrive once it is back.
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRecord, journalFileName } from '../../src/modules/scans/journal-file.ts';
import type { ScanEvent } from '../../src/modules/scans/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { callServer, cliKey, startServer, stopServerTree, type ServerProcess } from '../support/process.ts';
import { processTree } from '../support/process-tree.ts';
import { startScanLoad } from '../support/scan-load.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

let testDb: TestDb;
let journalDir: string;
let code: { id: string; path: string };
let deadPid = 0;
const onMysql = loadConfig().databaseUrl.startsWith('mysql://');

beforeAll(async () => {
  testDb = await createTestDb();
  freshJournalDir();
});
const journalDirs: string[] = [];
/** A journal directory of its own: a test that fails leaves nothing in the next one's. */
function freshJournalDir(): string {
  journalDir = mkdtempSync(join(tmpdir(), 'qr-journal-'));
  journalDirs.push(journalDir);
  return journalDir;
}

afterAll(async () => {
  await testDb?.destroy();
  for (const dir of journalDirs) rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer({
    DATABASE_URL: testDb.url,
    SCAN_JOURNAL_DIR: journalDir,
    SCAN_RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    WEBHOOK_WORKER: 'false',
    // Migrated by createTestDb: the server starts faster without the check.
    MIGRATE_ON_START: 'false',
    ...env,
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The code's raw scans and the scans its daily rollups count. */
async function stored(): Promise<{ raw: number; rolledUp: number }> {
  const [raw] = await testDb.db('scans').where({ code_id: code.id }).count({ n: '*' });
  const [rolled] = await testDb.db('code_daily_rollups').where({ code_id: code.id }).sum({ n: 'scans' });
  return { raw: Number(raw!.n), rolledUp: Number(rolled!.n ?? 0) };
}

/**
 * The stored counts once `raw` scans are stored (or 30 s passed): a batch the restart could not
 * write at once (a lock the killed process held until the database noticed) is retried.
 */
async function storedWhen(raw: number): Promise<{ raw: number; rolledUp: number }> {
  const deadline = Date.now() + 30_000;
  let counts = await stored();
  while (counts.raw < raw && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    counts = await stored();
  }
  return counts;
}

/**
 * What a crash test holds: every answered scan stored, once; beyond them only scans whose answer
 * the kill cut off (journaled before the answer, so they may be stored, at most one per cut
 * request), and the rollups count the same scans as the raw rows.
 */
function expectStoredAfterCrash(counts: { raw: number; rolledUp: number }, answered: number, cut: number): void {
  expect(counts.raw).toBeGreaterThanOrEqual(answered);
  expect(counts.raw).toBeLessThanOrEqual(answered + cut);
  expect(counts.rolledUp).toBe(counts.raw);
}

function killed(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGKILL');
  return server.exited;
}

describe('scan journal', () => {
  it('stores every scan answered before a SIGKILL under load, once, after the restart', async () => {
    const first = await start();
    const key = await cliKey(testDb.url, 'journal');
    const created = await callServer(first, key, 'POST', '/v1/codes', { content: 'https://example.com/journal' });
    expect(created.status, created.text).toBe(201);
    code = { id: created.body.id, path: new URL(created.body.scan_url).pathname };
    const load = startScanLoad(first.url + code.path, 20);
    // Killed mid-flow: some batches committed, the last flush window's scans only journaled.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    deadPid = first.child.pid!;
    await killed(first);
    const statuses = await load.stop();
    const answered = statuses[302] ?? 0;
    expect(Object.keys(statuses)).toEqual(['302']);
    expect(answered).toBeGreaterThan(100);
    const before = await stored();
    // The crash window is real: without the journal these would be lost.
    expect(before.raw).toBeLessThan(answered);

    const second = await start();
    try {
      // Replayed at start (written before it listens, unless the first write is refused and retried).
      expect(second.logs()).toMatch(/scan journal: replaying scans of a stopped process/);
      expectStoredAfterCrash(await storedWhen(answered), answered, load.cut());
      // The dead process's files were claimed, replayed and deleted once committed.
      expect(readdirSync(journalDir).filter((f) => f.includes(`-${deadPid}-`))).toEqual([]);
    } finally {
      await stopServerTree(second);
    }
    // A clean stop leaves no journal behind.
    expect(readdirSync(journalDir)).toEqual([]);
  }, 120_000);

  it('replays a dead process file once: scans stored already are skipped, a torn or damaged record too', async () => {
    const { raw: storedBefore } = await stored();
    const [row] = await testDb.db('codes').where({ id: code.id }).select('account_id', 'slug');
    const scan = (i: number): ScanEvent => ({
      id: `replay-test-${i}`,
      codeId: code.id,
      slug: row.slug,
      accountId: row.account_id,
      at: Date.now(),
      ruleId: null,
      destination: 'https://example.com/journal',
      country: null,
      device: 'desktop',
      os: null,
      browser: null,
      referrerHost: null,
      language: null,
      isBot: false,
      ip: '192.0.2.1',
      userAgent: 'journal-test',
    });
    const records = [0, 1, 2].map((i) => encodeRecord(scan(i)));
    const file = join(journalDir, journalFileName(deadPid, 'test', 0));
    writeFileSync(file, records.join(''));
    let server = await start();
    await stopServerTree(server);
    expect(await stored()).toEqual({ raw: storedBefore + 3, rolledUp: storedBefore + 3 });

    // The same scans again (a crash after their batch committed, before the journal dropped
    // them), one more whole one, a damaged one (its checksum no longer matches), and a torn tail.
    const damaged = encodeRecord(scan(4)).replace('journal-test', 'journal-tesT');
    const torn = encodeRecord(scan(5)).slice(0, 40);
    writeFileSync(file, records.join('') + encodeRecord(scan(3)) + damaged);
    appendFileSync(file, torn);
    server = await start();
    await stopServerTree(server);
    expect(server.logs()).toMatch(/"skipped":2,"msg":"scan journal: skipped a torn or damaged record"/);
    expect(await stored()).toEqual({ raw: storedBefore + 4, rolledUp: storedBefore + 4 });
    expect(readdirSync(journalDir), server.logs()).toEqual([]);
  }, 120_000);

  it.skipIf(!onMysql)(
    'WEB_CONCURRENCY=2: a worker killed under load has its answered scans replayed by its replacement',
    async () => {
      const { raw: storedBefore } = await stored();
      freshJournalDir();
      const server = await start({ WEB_CONCURRENCY: '2' });
      try {
        await server.waitForLog(/"msg":"every worker listening"/);
        const load = startScanLoad(server.url + code.path, 20);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        const [victim] = processTree(server.child.pid!).slice(1);
        process.kill(victim!, 'SIGKILL');
        await server.waitForLog(new RegExp(`"pid":${victim},"code":null,"signal":"SIGKILL"`));
        await server.waitForLog(/"msg":"scan journal: replaying scans of a stopped process"/, 60_000);
        await server.waitForLog(/"msg":"replacement worker listening"/, 60_000);
        const statuses = await load.stop();
        expect(statuses[302]).toBeGreaterThan(100);
        // Drained by SIGTERM: every scan the survivors answered is written too.
        await stopServerTree(server);
        expectStoredAfterCrash(await stored(), storedBefore + statuses[302]!, load.cut());
        expect(readdirSync(journalDir), server.logs()).toEqual([]);
      } finally {
        await stopServerTree(server);
      }
    },
    // A primary and two workers compiled by tsx on a busy machine: starts alone may take a minute.
    240_000,
  );

  it.skipIf(!onMysql)(
    'database down: scans answered meanwhile survive a SIGKILL and a failed start, and are stored once it is back',
    async () => {
      const { raw: storedBefore } = await stored();
      freshJournalDir();
      const target = new URL(testDb.url);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 3306));
      const viaProxy = new URL(testDb.url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      try {
        const server = await start({ DATABASE_URL: viaProxy.toString() });
        const load = startScanLoad(server.url + code.path, 20);
        await pause(1_000);
        await proxy.down();
        // The code is cached (CODE_CACHE_TTL_MS): scans are answered and journaled, batches fail.
        await pause(1_500);
        await killed(server);
        const statuses = await load.stop();
        expect(statuses[302]).toBeGreaterThan(100);
        const answered = storedBefore + statuses[302]!;
        expect((await stored()).raw).toBeLessThan(answered);

        // A start while the database is still down fails; the journal stays for the next one.
        await expect(start({ DATABASE_URL: viaProxy.toString() })).rejects.toThrow(/server exited/);
        expect(readdirSync(journalDir).length).toBeGreaterThan(0);
        await proxy.up();
        const back = await start({ DATABASE_URL: viaProxy.toString() });
        try {
          expectStoredAfterCrash(await storedWhen(answered), answered, load.cut());
        } finally {
          await stopServerTree(back);
        }
        expect(readdirSync(journalDir), back.logs()).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
    // A primary and two workers compiled by tsx on a busy machine: starts alone may take a minute.
    240_000,
  );
});
