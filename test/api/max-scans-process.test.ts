// max_scans across processes: real server processes (src/main.ts) on one database, 60 scans at
// once of a code with max_scans 5, each on a connection of its own. Exactly 5 go to the
// destination and 55 get the limit's answer (a 410 problem, no expired_destination), however
// the scans are spread: one process (both engines), WEB_CONCURRENCY=2 (the primary hands each
// new connection to the next worker) and two instances on one MariaDB, scans alternating.
// SQLite refuses WEB_CONCURRENCY and serves one process (cluster.test.ts).
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { callServer, cliKey, startServer, stopServerTree, type ServerProcess } from '../support/process.ts';

const onMysql = loadConfig().databaseUrl.startsWith('mysql://');
const SCANS = 60;
const MAX_SCANS = 5;

let testDb: TestDb;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  // Migrated here: a server migrating under load may not start within startServer's 20 s.
  testDb = await createTestDb();
});
afterAll(() => testDb?.destroy());

/** The service on the test database. */
function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  // The compiled service (npm start): it starts in a fraction of tsx's time on a busy machine.
  return startServer(
    {
      DATABASE_URL: testDb.url,
      // 60 scans from one address must not meet the scan rate limit.
      SCAN_RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_WORKER: 'false',
      ...env,
    },
    undefined,
    'npm start',
  ).then((server) => (servers.push(server), server));
}

async function stopAll(): Promise<void> {
  await Promise.all(servers.map((server) => stopServerTree(server)));
  servers = [];
}

/** One scan on a connection of its own (no agent): its status. */
function scanStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A code with max_scans 5 made through `server`, and its path. */
async function limitedCode(server: ServerProcess, account: string): Promise<{ id: string; key: string; path: string }> {
  const key = await cliKey(testDb.url, account);
  const res = await callServer(server, key, 'POST', '/v1/codes', {
    content: 'https://example.com/coupon',
    max_scans: MAX_SCANS,
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, key, path: new URL(res.body.scan_url).pathname };
}

/** 60 scans at once, the i-th to servers[i % n]; the count of each status. */
async function burst(targets: ServerProcess[], path: string): Promise<Record<number, number>> {
  const statuses = await Promise.all(
    Array.from({ length: SCANS }, (_, i) => scanStatus(targets[i % targets.length]!.url + path)),
  );
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function expectUsedUp(server: ServerProcess, code: { id: string; key: string }): Promise<void> {
  const res = await callServer(server, code.key, 'GET', `/v1/codes/${code.id}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.state).toBe('limit_reached');
}

describe('60 concurrent scans of a code with max_scans 5', () => {
  afterEach(stopAll);

  it('one process: exactly 5 redirects', async () => {
    const server = await start();
    const code = await limitedCode(server, 'max-scans-one');
    expect(await burst([server], code.path)).toEqual({ 302: MAX_SCANS, 410: SCANS - MAX_SCANS });
    await expectUsedUp(server, code);
  }, 180_000);

  it.runIf(onMysql)(
    'WEB_CONCURRENCY=2: exactly 5 redirects over both workers',
    async () => {
      const server = await start({ WEB_CONCURRENCY: '2' });
      await server.waitForLog(/"msg":"every worker listening"/);
      const code = await limitedCode(server, 'max-scans-cluster');
      expect(await burst([server], code.path)).toEqual({ 302: MAX_SCANS, 410: SCANS - MAX_SCANS });
      await expectUsedUp(server, code);
    },
    180_000,
  );

  it.runIf(onMysql)(
    'two instances on one database: exactly 5 redirects, scans alternating',
    async () => {
      const a = await start();
      const b = await start();
      const code = await limitedCode(a, 'max-scans-pair');
      expect(await burst([a, b], code.path)).toEqual({ 302: MAX_SCANS, 410: SCANS - MAX_SCANS });
      await expectUsedUp(b, code);
    },
    180_000,
  );
});
