// npm run bench:noisy-neighbor [-- --scans 100000] [--seconds 8] [--engines sqlite,mysql] [--floods a,b]
//                               [--tree DIR]
//
// Can one account's heaviest allowed load slow another account's scans? For each engine (SQLite
// with one process; MariaDB with Redis and WEB_CONCURRENCY=2) a database is seeded with --scans
// scans of account A over 90 days (bench/bulk-seed.ts, the writer's own rows and rollups), the
// real service is started as a process (rate limits at their defaults, except the scan route's
// per-address one: B's visitors all come from 127.0.0.1 here), and account B's scan URL is
// probed open-loop, a scan every 10 ms, each one timed: first quiet, then while account A floods
// (a child process, so that its parsing does not delay the probe's clocks), one kind at a time:
// REST overviews in Asia/Kolkata, GraphQL aliases of analyticsOverview in Asia/Kathmandu, uncached
// PNG renders, bulk imports of 10,000 codes and raw CSV exports. Each flood uses its own key of
// account A (the rate limit is per key), and its loops keep sending past 429s. Prints p50, p99 and
// max of the scans per phase and what the flood got answered. Target: p99 < 20 ms, max < 100 ms.
// `--tree DIR` runs the same phases against the service of another checkout (say, the commit
// before isolation) on the same databases, after this one. Loopback only; every loop is bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/knex.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import type { ScanRow } from '../src/modules/scans/store.ts';
import { createServices } from '../src/services.ts';
import { seededRandom } from '../test/support/random.ts';
import { createBulkScanSeeder, insertBenchCodes } from './bulk-seed.ts';
import { FLOODS, type FloodKind, type FloodTally } from './noisy-neighbor-flood.ts';
import { startService, stopService, type Service } from './service-process.ts';

const { values } = parseArgs({
  options: {
    scans: { type: 'string', default: '100000' },
    codes: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '8' },
    engines: { type: 'string', default: 'sqlite,mysql' },
    floods: { type: 'string', default: FLOODS.join(',') },
    tree: { type: 'string' },
  },
});
const DAY = 86_400_000;
const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(values.seconds);
const PROBE_EVERY_MS = 10;

interface Seeded {
  databaseUrl: string;
  /** One key of account A per flood kind, and B's. */
  keys: Record<FloodKind, string>;
  keyB: string;
  /** A's busiest code: its raw export is the longest. */
  busiest: string;
  cleanup(): Promise<void>;
}

async function seed(engine: 'sqlite' | 'mysql'): Promise<Seeded> {
  const file = join(os.tmpdir(), `qr-bench-noisy-${process.pid}.sqlite`);
  const databaseUrl = engine === 'sqlite' ? `sqlite:${file}` : 'mysql://root@127.0.0.1:3306/qr_bench_noisy';
  if (engine === 'mysql') {
    const admin = createDb('mysql://root@127.0.0.1:3306/');
    await admin.raw('DROP DATABASE IF EXISTS qr_bench_noisy');
    await admin.raw('CREATE DATABASE qr_bench_noisy CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    await admin.destroy();
  }
  const db = createDb(databaseUrl);
  await migrateLatest(db);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const services = await createServices(db, config, createLogger(config));
  const keys = {} as Record<FloodKind, string>;
  for (const kind of FLOODS) keys[kind] = (await services.accounts.issueKey('noisy-a', { name: kind })).key;
  const keyB = (await services.accounts.issueKey('quiet-b')).key;
  const accountId = (await services.accounts.authenticate(keys['rest-analytics']))!.accountId;
  const codes = Number(values.codes);
  const codeIds = await insertBenchCodes(db, accountId, codes);
  const now = Date.now();
  // Code i gets weight 1/(i+1) (Zipf), so code 0 has the longest raw export; times are uniform.
  const rand = seededRandom(4242);
  const weights = codeIds.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const zipf = () => {
    let target = rand() * total;
    for (let i = 0; i < codes; i++) if ((target -= weights[i]!) <= 0) return i;
    return codes - 1;
  };
  const scans = Number(values.scans);
  const times = Float64Array.from({ length: scans }, () => now - 90 * DAY + Math.floor(rand() * 90 * DAY)).sort();
  const seedDay = createBulkScanSeeder(db, now - (now % DAY));
  const countries = ['US', 'DE', 'GB', 'FR', 'IN', 'BR', 'JP', null];
  const devices = ['mobile', 'ios', 'android', 'desktop', 'tablet'];
  const started = performance.now();
  let rows: ScanRow[] = [];
  for (let n = 0; n <= scans; n++) {
    const at = times[n];
    if (rows.length > 0 && (at === undefined || Math.floor(at / DAY) !== Math.floor(rows[0]!.scanned_at / DAY))) {
      await seedDay(rows);
      rows = [];
    }
    if (at === undefined) break;
    const visitor = Math.floor(rand() * 50_000);
    rows.push({
      code_id: codeIds[zipf()]!,
      account_id: accountId,
      scanned_at: at,
      rule_id: null,
      country: countries[visitor % countries.length]!,
      device: devices[visitor % devices.length]!,
      os: null,
      browser: 'Chrome',
      referrer_host: null,
      language: 'en',
      is_bot: false,
      visitor_hash: visitor.toString(16).padStart(32, '0'),
      is_unique: false,
      is_account_unique: false,
    });
  }
  console.error(`${engine}: seeded ${scans} scans in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await services.close();
  await db.destroy();
  return {
    databaseUrl,
    keys,
    keyB,
    busiest: codeIds[0]!,
    async cleanup() {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    },
  };
}

/** B's code, made through the API of the running service: its scan URL on this service's port. */
async function scanUrlOfB(service: Service, keyB: string): Promise<string> {
  const res = await fetch(`${service.url}/v1/codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keyB}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'https://example.com/b' }),
  });
  const body = (await res.json()) as { scan_url: string };
  if (res.status !== 201) throw new Error(`creating B's code: ${res.status} ${JSON.stringify(body)}`);
  return `${service.url}${new URL(body.scan_url).pathname}`;
}

interface Latencies {
  p50: number;
  p99: number;
  max: number;
  count: number;
  failed: number;
}

/** A scan every PROBE_EVERY_MS for `seconds`, each timed from when it was due (open loop). */
async function probe(scanUrl: string, seconds: number): Promise<Latencies> {
  const samples: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let n = 0; n < (seconds * 1000) / PROBE_EVERY_MS; n++) {
    const due = start + n * PROBE_EVERY_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(
      fetch(scanUrl, { redirect: 'manual' }).then(
        async (res) => {
          await res.arrayBuffer();
          if (res.status === 302) samples.push(performance.now() - due);
          else failed++;
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(inFlight);
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(samples.length * q) - 1)] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: samples.at(-1) ?? NaN, count: samples.length, failed };
}

/** Runs one flood kind in a child process until `until`; resolves with its tally. */
function floodChild(kind: FloodKind, service: Service, seeded: Seeded, until: number): Promise<FloodTally> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/noisy-neighbor-flood.ts',
      kind,
      service.url,
      seeded.keys[kind],
      seeded.busiest,
      `${until}`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return once(child, 'exit').then(() => JSON.parse(out) as FloodTally);
}

/**
 * Until the server answers /healthz quickly again (at most 90 s): the flood's last requests may
 * still run after its client left. Returns the seconds that took, a measure of the backlog.
 */
async function settle(service: Service): Promise<number> {
  const begun = performance.now();
  for (let quick = 0, deadline = Date.now() + 90_000; quick < 5 && Date.now() < deadline;) {
    const started = performance.now();
    const answered = await fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.arrayBuffer().then(() => true),
      () => false,
    );
    quick = answered && performance.now() - started < 20 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
  return (performance.now() - begun) / 1000;
}

interface Row {
  engine: string;
  tree: string;
  phase: string;
  scans: Latencies;
  flood?: FloodTally;
  /** Seconds the server took to answer quickly again once the flood's client stopped. */
  busyAfter?: number;
}

async function measure(engine: 'sqlite' | 'mysql', seeded: Seeded, label: string, tree: string): Promise<Row[]> {
  const env: Record<string, string> = { DATABASE_URL: seeded.databaseUrl, SCAN_RATE_LIMIT_PER_MINUTE: '0' };
  if (engine === 'mysql') Object.assign(env, { WEB_CONCURRENCY: '2', REDIS_URL: 'redis://127.0.0.1:6379/0' });
  const service = await startService(tree, env);
  const rows: Row[] = [];
  try {
    const scanUrl = await scanUrlOfB(service, seeded.keyB);
    await probe(scanUrl, 1);
    console.error(`${engine} ${label}: quiet`);
    rows.push({ engine, tree: label, phase: 'quiet', scans: await probe(scanUrl, SECONDS) });
    for (const kind of values.floods.split(',') as FloodKind[]) {
      console.error(`${engine} ${label}: ${kind}`);
      const until = Date.now() + (SECONDS + 2) * 1000;
      const flooding = floodChild(kind, service, seeded, until);
      await new Promise((r) => setTimeout(r, 1500));
      const scans = await probe(scanUrl, SECONDS);
      const flood = await flooding;
      rows.push({ engine, tree: label, phase: kind, scans, flood, busyAfter: await settle(service) });
    }
  } finally {
    await stopService(service);
  }
  return rows;
}

const ms = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(1));

async function main() {
  const rows: Row[] = [];
  for (const engine of values.engines.split(',') as ('sqlite' | 'mysql')[]) {
    const seeded = await seed(engine);
    try {
      rows.push(...(await measure(engine, seeded, 'this tree', ROOT)));
      if (values.tree) rows.push(...(await measure(engine, seeded, values.tree, resolve(values.tree))));
    } finally {
      await seeded.cleanup();
    }
  }
  console.log(
    [
      '',
      `### ${new Date().toISOString().slice(0, 10)} — bench:noisy-neighbor on ${os.cpus().length} cores ` +
        `(${os.cpus()[0]?.model.trim()}), Node ${process.version}; ${Number(values.scans).toLocaleString()} scans ` +
        `of account A, B's scan every ${PROBE_EVERY_MS} ms for ${SECONDS} s per phase`,
      '',
      '| engine | tree | phase | scans | p50 ms | p99 ms | max ms | failed | flood answers | busy after, s | ' +
        'p99 < 20, max < 100 |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => {
        const met = r.scans.failed === 0 && r.scans.p99 < 20 && r.scans.max < 100 ? 'met' : 'MISSED';
        const flood = r.flood ? Object.entries(r.flood).map(([status, n]) => `${status}: ${n}`) : ['—'];
        return (
          `| ${r.engine} | ${r.tree} | ${r.phase} | ${r.scans.count} | ${ms(r.scans.p50)} | ${ms(r.scans.p99)} | ` +
          `${ms(r.scans.max)} | ${r.scans.failed} | ${flood.join(', ')} | ${r.busyAfter?.toFixed(1) ?? '—'} | ${met} |`
        );
      }),
    ].join('\n'),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
