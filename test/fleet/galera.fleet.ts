// Issue 17, proven on a distributed engine: two real service processes behind HAProxy
// (deploy/haproxy/fleet.cfg) on a three-node MariaDB Galera cluster (scripts/fleet/galera.sh).
//
//   instance a  127.0.0.1:3401  DATABASE_URL through HAProxy's DB frontend 3310 (node1 writes,
//                               node2/node3 backups): the recommended single-writer layout
//   instance b  127.0.0.1:3402  DATABASE_URL straight at node2 (3312): a second writer on purpose,
//                               so hot rollup rows meet Galera's certification conflicts
//   HAProxy     127.0.0.1:3480  HTTP to a and b, /readyz checked every 500 ms, fall 2
//
// Counts are read on node3 (3313), which neither instance writes to: what it shows came through
// replication. Numbers go to $FLEET_DIR/results.json and the console (bench/RESULTS.md).
// Run: npx vitest run --config test/fleet/vitest.config.ts (needs haproxy, galera-4, rsync, root).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GALERA = join(ROOT, 'scripts/fleet/galera.sh');
const HAPROXY_CFG = join(ROOT, 'deploy/haproxy/fleet.cfg');
const FLEET_DIR = process.env.FLEET_DIR ?? '/tmp/qr-service-fleet/galera';
const WORK = join(FLEET_DIR, '..', 'run');
const LB = 'http://127.0.0.1:3480';
const STATS = 'http://127.0.0.1:3489/stats;csv';
const DRAIN_MS = 3000;

const galera = (...args: string[]) =>
  execFileSync(GALERA, args, {
    env: { ...process.env, FLEET_DIR },
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 240_000,
  }).toString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function mysql(port: number, database?: string): Knex {
  return knex({
    client: 'mysql2',
    connection: { host: '127.0.0.1', port, user: 'fleet', database, timezone: 'Z' },
    pool: { min: 0, max: 2 },
  });
}

interface Instance {
  name: 'a' | 'b';
  port: number;
  databaseUrl: string;
  child?: ChildProcess;
  exited?: Promise<unknown>;
}

const instances: Instance[] = [
  { name: 'a', port: 3401, databaseUrl: 'mysql://fleet@127.0.0.1:3310/qr' },
  { name: 'b', port: 3402, databaseUrl: 'mysql://fleet@127.0.0.1:3312/qr' },
];
const serviceEnv = (i: Instance): Record<string, string> => ({
  DATABASE_URL: i.databaseUrl,
  PORT: String(i.port),
  PUBLIC_BASE_URL: LB,
  WEB_CONCURRENCY: '1',
  REDIS_URL: 'redis://127.0.0.1:6379/7',
  OAUTH_KEYS_FILE: join(WORK, 'oauth-keys.json'),
  // The instances' scan journals in the run's own folder, not in the checkout's ./data/journal.
  SCAN_JOURNAL_DIR: join(WORK, 'journal'),
  TRUSTED_PROXIES: '127.0.0.1',
  SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
  MIGRATE_ON_START: 'false',
  // Every scan of the test comes from one address.
  SCAN_RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
});

function cli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, ['dist/server/src/cli.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    timeout: 120_000,
  }).toString();
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** HAProxy's view of a server: UP, DOWN, NOLB, MAINT, "UP 1/2"... */
async function lbStatus(backend: string, server: string): Promise<string> {
  const csv = await (await fetch(STATS)).text();
  const row = csv.split('\n').find((line) => line.startsWith(`${backend},${server},`));
  return row?.split(',')[17] ?? 'missing';
}

async function lbCounters(backend: string, server: string): Promise<{ sessions: number; r3xx: number }> {
  const csv = await (await fetch(STATS)).text();
  const header = csv.split('\n')[0]!.replace(/^# /, '').split(',');
  const row = csv
    .split('\n')
    .find((line) => line.startsWith(`${backend},${server},`))!
    .split(',');
  return { sessions: Number(row[header.indexOf('stot')]), r3xx: Number(row[header.indexOf('hrsp_3xx')]) };
}

async function startInstance(i: Instance): Promise<void> {
  const log = createWriteStream(join(WORK, `${i.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['dist/server/src/main.js'], {
    cwd: ROOT,
    env: { ...process.env, ...serviceEnv(i) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  i.child = child;
  i.exited = once(child, 'exit');
  await until(
    `instance ${i.name} ready`,
    async () => (await fetch(`http://127.0.0.1:${i.port}/readyz`)).status === 200,
    30_000,
  );
}

async function stopInstance(i: Instance): Promise<void> {
  if (!i.child || i.child.exitCode !== null) return;
  i.child.kill('SIGTERM');
  await i.exited;
}

/** One scan through `base`: 302 or what went wrong. */
async function scan(base: string, path: string): Promise<string> {
  try {
    const res = await fetch(base + path, { redirect: 'manual' });
    await res.arrayBuffer();
    // A 503 of HAProxy's own (no server left) is HTML; the service's are problem+json.
    if (res.status >= 500 && !res.headers.get('content-type')?.includes('json')) return `${res.status}-haproxy`;
    return String(res.status);
  } catch (err) {
    return `error:${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`;
  }
}

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

let haproxy: ChildProcess | undefined;
let key = '';
let node3: Knex;
const results: Record<string, unknown> = { date: new Date().toISOString() };

async function createCode(base: string, content: string): Promise<{ id: string; path: string }> {
  const res = await fetch(`${base}/v1/codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  expect(res.status).toBe(201);
  const code = (await res.json()) as { id: string; scan_url: string };
  return { id: code.id, path: new URL(code.scan_url).pathname };
}

const storedScans = async (codeId: string) =>
  Number((await node3('scans').where({ code_id: codeId }).count({ n: '*' }))[0]!.n);

/** Waits for the stored count to reach `expected` (the instances retry failed batches), then returns it. */
async function settledCount(codeId: string, expected: number, timeoutMs = 60_000): Promise<number> {
  await until(`${expected} scans stored`, async () => (await storedScans(codeId)) >= expected, timeoutMs, 500).catch(
    () => undefined,
  );
  await sleep(1000); // and nothing more arrives: a batch written twice would show here
  return storedScans(codeId);
}

beforeAll(async () => {
  mkdirSync(FLEET_DIR, { recursive: true });
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  galera('start');
  const node1 = mysql(3311);
  await node1.raw('DROP DATABASE IF EXISTS qr');
  await node1.raw('CREATE DATABASE qr CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  await node1.destroy();
  node3 = mysql(3313, 'qr');

  haproxy = spawn('haproxy', ['-db', '-f', HAPROXY_CFG], { stdio: ['ignore', 'pipe', 'pipe'] });
  const hlog = createWriteStream(join(WORK, 'haproxy.log'));
  haproxy.stdout!.pipe(hlog);
  haproxy.stderr!.pipe(hlog);
  await until('HAProxy DB frontend with node1 up', async () => (await lbStatus('galera', 'node1')) === 'UP', 20_000);

  // Migrated once, through the DB frontend; the instances do not migrate.
  cli(['migrate'], { DATABASE_URL: instances[0]!.databaseUrl });
  key = cli(['keys', 'create', '--account', 'fleet'], { DATABASE_URL: instances[0]!.databaseUrl })
    .trim()
    .split('\n')
    .at(-1)!;
  // a first: it writes the OAuth key file, which b then reads.
  await startInstance(instances[0]!);
  await startInstance(instances[1]!);
  await until(
    'both instances UP in HAProxy',
    async () => (await lbStatus('qr_instances', 'a')) === 'UP' && (await lbStatus('qr_instances', 'b')) === 'UP',
    20_000,
  );
});

afterAll(async () => {
  writeFileSync(join(WORK, 'results.json'), JSON.stringify(results, null, 2));
  console.log('fleet results', JSON.stringify(results, null, 2));
  await Promise.all(instances.map(stopInstance));
  haproxy?.kill('SIGTERM');
  await node3?.destroy();
  if (process.env.FLEET_KEEP_GALERA !== '1') galera('stop');
});

describe('a fleet on Galera', () => {
  it('every table of the migrated schema has a primary key (Galera replicates row events by key)', async () => {
    const missing = await node3.raw(
      `SELECT t.table_name AS name FROM information_schema.tables t
       LEFT JOIN information_schema.table_constraints c
         ON c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.constraint_type = 'PRIMARY KEY'
       WHERE t.table_schema = 'qr' AND t.table_type = 'BASE TABLE' AND c.constraint_name IS NULL
       ORDER BY t.table_name`,
    );
    const tables = await node3.raw(
      `SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = 'qr' AND table_type = 'BASE TABLE'`,
    );
    const withoutKey = (missing[0] as { name: string }[]).map((r) => r.name);
    results.tables = { total: Number(tables[0][0].n), withoutPrimaryKey: withoutKey };
    expect(withoutKey).toEqual([]);
  });

  it('(a) a code created through one instance is served by the other', async () => {
    for (const [from, to] of [
      [3401, 3402],
      [3402, 3401],
    ]) {
      const code = await createCode(`http://127.0.0.1:${from}`, `https://example.com/from-${from}`);
      const res = await fetch(`http://127.0.0.1:${to}${code.path}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`https://example.com/from-${from}`);
    }
  });

  it('(b) scans through HAProxy to both instances are each stored exactly once', async () => {
    const code = await createCode(LB, 'https://example.com/both');
    const before = { a: await lbCounters('qr_instances', 'a'), b: await lbCounters('qr_instances', 'b') };
    const outcomes: string[] = [];
    const N = 600;
    for (let i = 0; i < N; i += 20)
      outcomes.push(...(await Promise.all(Array.from({ length: 20 }, () => scan(LB, code.path)))));
    const redirects = outcomes.filter((o) => o === '302').length;
    const after = { a: await lbCounters('qr_instances', 'a'), b: await lbCounters('qr_instances', 'b') };
    const stored = await settledCount(code.id, redirects);
    results.both = {
      sent: N,
      outcomes: tally(outcomes),
      redirects,
      stored,
      viaA: after.a.r3xx - before.a.r3xx,
      viaB: after.b.r3xx - before.b.r3xx,
    };
    expect(redirects).toBe(N);
    expect(after.a.r3xx - before.a.r3xx).toBeGreaterThan(0);
    expect(after.b.r3xx - before.b.r3xx).toBeGreaterThan(0);
    expect(stored).toBe(redirects);
  });

  it('(c) node1 (writer behind the DB frontend) SIGKILLed in a burst: every 302 stored, node rejoins', async () => {
    const code = await createCode(LB, 'https://example.com/kill');
    const outcomes: string[] = [];
    const api: string[] = [];
    let running = true;
    const failedAt: number[] = [];
    const burst = async () => {
      while (running) {
        const outcome = await scan(LB, code.path);
        outcomes.push(outcome);
        if (outcome !== '302') failedAt.push(Date.now());
      }
    };
    const apiLoop = async () => {
      while (running) {
        try {
          const res = await fetch(`${LB}/v1/codes/${code.id}`, { headers: { authorization: `Bearer ${key}` } });
          await res.arrayBuffer();
          api.push(String(res.status));
        } catch (err) {
          api.push(`error:${(err as Error).message}`);
        }
        await sleep(50);
      }
    };
    const loops = [...Array.from({ length: 8 }, burst), apiLoop()];
    await sleep(1500);
    const killedAt = Date.now();
    galera('kill', '1');
    await sleep(6000);
    running = false;
    await Promise.all(loops);
    const burstMs = Date.now() - killedAt + 1500;

    const restartAt = Date.now();
    galera('start-node', '1');
    galera('wait-size', '3');
    const rejoinMs = Date.now() - restartAt;

    const redirects = outcomes.filter((o) => o === '302').length;
    const stored = await settledCount(code.id, redirects, 90_000);
    const window = failedAt.length
      ? { firstMsAfterKill: Math.min(...failedAt) - killedAt, lastMsAfterKill: Math.max(...failedAt) - killedAt }
      : null;
    results.nodeKill = {
      burstMs,
      scans: tally(outcomes),
      failedScanWindow: window,
      redirects,
      stored,
      api: tally(api),
      rejoinMs,
    };
    expect(stored).toBe(redirects);
    // The cluster stalls until the dead node is evicted; the instances answer scans from memory meanwhile.
    expect(tally(outcomes)).toEqual({ '302': outcomes.length });
    expect(redirects).toBeGreaterThan(0);
    expect(galera('status')).toMatch(/node1 pid=\d+ port=3311 state=Synced size=3/);
  });

  it('(d) rolling restart behind HAProxy (SHUTDOWN_DRAIN_MS > inter x fall): not one request fails', async () => {
    const code = await createCode(LB, 'https://example.com/rolling');
    const outcomes: string[] = [];
    let running = true;
    const stream = async () => {
      while (running) {
        outcomes.push(await scan(LB, code.path));
        await sleep(20);
      }
    };
    const loops = [stream(), stream()];
    const timings: Record<string, number> = {};
    await sleep(1000);
    for (const i of instances) {
      const t0 = Date.now();
      await stopInstance(i);
      await startInstance(i);
      await until(
        `${i.name} back UP in HAProxy`,
        async () => (await lbStatus('qr_instances', i.name)) === 'UP',
        30_000,
      );
      timings[i.name] = Date.now() - t0;
    }
    await sleep(1000);
    running = false;
    await Promise.all(loops);
    const redirects = outcomes.filter((o) => o === '302').length;
    const stored = await settledCount(code.id, redirects);
    results.rollingRestart = { requests: outcomes.length, outcomes: tally(outcomes), stored, restartMs: timings };
    expect(tally(outcomes)).toEqual({ '302': outcomes.length });
    expect(stored).toBe(redirects);
  });

  it('batch write failures were retried, never dropped (logs and Galera counters)', async () => {
    const logs = Object.fromEntries(
      instances.map((i) => {
        const lines = readFileSync(join(WORK, `${i.name}.log`), 'utf8').split('\n');
        const failed = lines.filter((l) => l.includes('scan batch write failed'));
        return [
          i.name,
          { batchWriteFailures: failed.length, deadlocks: failed.filter((l) => l.includes('ER_LOCK_DEADLOCK')).length },
        ];
      }),
    );
    const status = async (port: number) => {
      const db = mysql(port);
      const [rows] = await db.raw(
        `SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')`,
      );
      await db.destroy();
      return Object.fromEntries(
        (rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, Number(r.Value)]),
      );
    };
    results.retries = { logs, node2: await status(3312), node1SinceRestart: await status(3311) };
    // Every earlier step compared stored rows with 302 answers: a dropped batch would have failed there.
    expect(results.retries).toBeDefined();
  });
});
