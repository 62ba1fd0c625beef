// npm run bench:redirect [-- --sqlite] [--amount 300000] [--connections 50] [--codes 100] [--busy-us 20]
//                         [--web-concurrency 1,2] [--raw-rows keep,none] [--max-scans 2000000000] [--database NAME]
//
// Runs our scan redirect (the real service, routing on, recording on) and a bare node:http
// server answering the same 302s from a Map, one after the other in the same run, with the
// same autocannon load on loopback; prints req/s, p50/p99 and the ratio. Then stops the
// service with SIGTERM and checks that the scans stored equal the 3xx answers counted.
// The per-address scan limit stays on but is raised to 10,000,000 a minute: each of the 8
// addresses sends far more than the default 6,000, so the limiter's cost is measured while it
// never answers 429.
// --web-concurrency takes a comma-separated list: the service is measured once per value, one
// after the other on the same database and codes (each stopped with SIGTERM and its scans
// checked before the next starts), so WEB_CONCURRENCY=1 and 2 are compared in one run. A
// cluster's CPU is its primary's and its workers' together.
// --raw-rows takes a comma-separated list of SCAN_RAW_ROWS values, measured in turn for each
// WEB_CONCURRENCY in the same way (keep,none,keep,none alternates them): what storing no raw scan
// rows saves. Scans are checked against the rollups (raw rows exist only with keep).
// --max-scans gives every code that limit: each scan then claims a use in the database before its
// redirect (scans/scan-limits.ts); a limit far above the run's scans measures the claim's cost.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createDb } from '../src/db/knex.ts';
import { runCli } from '../test/support/process.ts';
import { cpuSeconds, databasePid } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    sqlite: { type: 'boolean', default: false },
    /** Requests per measured run. */
    amount: { type: 'string', default: '300000' },
    connections: { type: 'string', default: '50' },
    codes: { type: 'string', default: '100' },
    /** Also loads a bare server that spins this many µs of CPU per request (the budget a ratio leaves). */
    'busy-us': { type: 'string' },
    /** Writes a V8 CPU profile of the service to this folder. */
    profile: { type: 'string' },
    /** WEB_CONCURRENCY values to measure the service with, one after the other: 1,2. */
    'web-concurrency': { type: 'string', default: '1' },
    /** SCAN_RAW_ROWS values to measure the service with, one after the other: keep,none. */
    'raw-rows': { type: 'string', default: 'keep' },
    /** max_scans of every code (none unless given). */
    'max-scans': { type: 'string' },
    /** The MariaDB database to make anew and drop after (engineers sharing one server each give their own). */
    database: { type: 'string' },
  },
});
const concurrencies = values['web-concurrency'].split(',').map((value) => Number(value.trim()));
if (concurrencies.some((n) => !Number.isInteger(n) || n < 1) || (values.sqlite && concurrencies.some((n) => n > 1))) {
  console.error(
    '--web-concurrency: a comma-separated list of worker counts (1,2); above 1 needs MariaDB (SQLite has one writer)',
  );
  process.exit(2);
}
const rawRowsList = values['raw-rows'].split(',').map((value) => value.trim());
if (rawRowsList.some((value) => value !== 'keep' && value !== 'none')) {
  console.error('--raw-rows: a comma-separated list of SCAN_RAW_ROWS values (keep,none)');
  process.exit(2);
}
/** Every measured run: each WEB_CONCURRENCY with each SCAN_RAW_ROWS, in the order given. */
const variants = concurrencies.flatMap((workers) => rawRowsList.map((rawRows) => ({ workers, rawRows })));
const amount = Number(values.amount);
const connections = Number(values.connections);
const codeCount = Number(values.codes);

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile ' +
  'Safari/537.36';
/** Addresses in several countries, so the GeoIP lookup and the geo rule both do real work. */
const IPS = [
  '8.8.8.8',
  '81.2.69.142',
  '1.1.1.1',
  '5.9.0.1',
  '2001:4860:4860::8888',
  '200.160.2.3',
  '41.0.0.1',
  '133.0.0.1',
];

/** Per run: another checkout's benchmark may be using the same MariaDB at the same time. */
const BENCH_DB = values.database ?? `qr_bench_${process.pid}`;

async function databaseUrl(): Promise<string> {
  if (values.sqlite) return `sqlite:/tmp/qr-bench-${process.pid}.sqlite`;
  const admin = createDb('mysql://root@127.0.0.1:3306/');
  await admin.raw('DROP DATABASE IF EXISTS ??', [BENCH_DB]);
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [BENCH_DB]);
  await admin.destroy();
  return `mysql://root@127.0.0.1:3306/${BENCH_DB}`;
}

async function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      const match = pattern.exec(output);
      if (match) resolve(match);
    });
    child.once('exit', () => reject(new Error(`exited before ready:\n${output}`)));
  });
}

/**
 * A fixed number of requests rather than a duration: autocannon then waits for every answer,
 * so the 3xx it counts can be compared exactly with the scans stored. The rate is the requests
 * over the time from the start to the last answer, measured here: autocannon's own
 * requests.average and duration both move in whole seconds on a fixed-amount run (300,000
 * requests in 12 or 13 s read 25,000 or 23,077, an 8% step).
 */
async function load(url: string, paths: string[], amount: number) {
  // Each connection walks the list; every request differs in code, country and device.
  const requests = paths.map((path, i) => ({
    method: 'GET' as const,
    path,
    headers: {
      'x-forwarded-for': IPS[i % IPS.length]!,
      'user-agent': [IPHONE, DESKTOP, ANDROID][i % 3]!,
      'accept-language': 'de-DE,en;q=0.8',
    },
  }));
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, amount, requests }, (err, done) =>
      err ? reject(err) : resolve(done),
    );
    instance.on('response', () => {
      lastAnswerAt = performance.now();
    });
  });
  return { ...result, rate: result.requests.total / ((lastAnswerAt - startedAt) / 1000) };
}

type Result = Awaited<ReturnType<typeof load>>;

/** A process and its children (a cluster's workers), for their CPU together. */
function withChildren(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return [
      pid,
      ...execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number),
    ];
  } catch {
    return [pid]; // ps exits 1 when there are no children
  }
}

/** The CPU seconds of several processes together; null if any cannot be read. */
function cpuSecondsOf(pids: number | number[] | undefined): number | null {
  let total = 0;
  for (const pid of Array.isArray(pids) ? pids : [pids]) {
    const seconds = cpuSeconds(pid);
    if (seconds === null) return null;
    total += seconds;
  }
  return total;
}

/**
 * Runs `measure` and returns what it returns, with the CPU µs per request each process (or group of processes) spent
 * meanwhile.
 */
async function withCpu<T extends Result>(
  pids: Record<string, number | number[] | undefined>,
  measure: () => Promise<T>,
) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const result = await measure();
  const perRequest = Object.entries(pids).map(([name, pid]) => {
    const [start, end] = [before[name], cpuSecondsOf(pid)];
    return start == null || end === null
      ? `${name} n/a`
      : `${name} ${(((end - start) * 1e6) / result.requests.total).toFixed(0)} µs`;
  });
  return { result, cpu: perRequest.join(', ') };
}
const row = (name: string, r: Result) =>
  `| ${name} | ${Math.round(r.rate).toLocaleString('en-US')} | ${r.latency.p50} | ${r.latency.p99} | ${r['3xx']} | ` +
  `${r.non2xx - r['3xx']} | ${r.errors} |`;

async function main() {
  const url = await databaseUrl();
  const key = (await runCli(['keys', 'create', '--account', 'bench'], { DATABASE_URL: url })).stdout
    .trim()
    .split('\n')
    .at(-1)!;
  const env = {
    ...process.env,
    DATABASE_URL: url,
    PORT: '0',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    NODE_ENV: 'production',
    SCAN_RATE_LIMIT_PER_MINUTE: '10000000',
  };
  const profileArgs = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
  const startService = async ({ workers, rawRows }: (typeof variants)[number]) => {
    const child = spawn(process.execPath, [...profileArgs, '--import', 'tsx', 'src/main.ts'], {
      env: { ...env, LOG_LEVEL: 'info', WEB_CONCURRENCY: String(workers), SCAN_RAW_ROWS: rawRows },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // A cluster is ready when its primary says every worker listens.
    const ready = workers > 1 ? /"url":"(http:\/\/[^"]+)","workers"/ : /"url":"(http:\/\/[^"]+)"/;
    return { child, url: (await waitForLine(child, ready))[1]! };
  };
  let { child: service, url: serviceUrl } = await startService(variants[0]!);

  const slugs: [string, string][] = [];
  for (let i = 0; i < codeCount; i++) {
    const res = await fetch(`${serviceUrl}/v1/codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        content: `https://example.com/landing/${i}`,
        ...(values['max-scans'] && { max_scans: Number(values['max-scans']) }),
        routing: {
          rules: [
            { condition: 'country:US,CA', destination: `https://example.com/na/${i}` },
            { condition: 'device:ios', destination: `https://apps.apple.com/app/${i}` },
            { condition: 'device:android & country:DE', destination: `https://play.google.com/store/${i}` },
          ],
        },
      }),
    });
    const code = await res.json();
    slugs.push([new URL(code.scan_url).pathname.slice(1), code.content]);
  }
  const paths = slugs.map(([slug]) => `/${slug}`);

  const startBare = async (busyUs: number) => {
    const server = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-redirect.ts'], {
      env: { ...process.env, BUSY_US: String(busyUs) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    server.stdin!.end(slugs.map(([slug, dest]) => `${slug} ${dest}`).join('\n'));
    return { server, port: (await waitForLine(server, /port (\d+)/))[1]! };
  };
  const { server: bare, port: barePort } = await startBare(0);

  // Warm both (JIT, caches), then measure each in turn.
  await load(`http://127.0.0.1:${barePort}`, paths, 20_000);
  const { result: bareResult, cpu: bareCpu } = await withCpu({ server: bare.pid, 'load generator': process.pid }, () =>
    load(`http://127.0.0.1:${barePort}`, paths, amount),
  );
  type Variant = (typeof variants)[number];
  const runs: (Variant & { result: Result; cpu: string })[] = [];
  const stored: (Variant & { stored: number; rawRowCount: number; answered: number })[] = [];
  let answered = 0;
  for (const [i, variant] of variants.entries()) {
    if (i > 0) ({ child: service, url: serviceUrl } = await startService(variant));
    const warmup = await load(serviceUrl, paths, 20_000);
    const { result, cpu } = await withCpu(
      {
        service: withChildren(service.pid),
        ...(values.sqlite ? {} : { database: databasePid() }),
        'load generator': process.pid,
      },
      () => load(serviceUrl, paths, amount),
    );
    runs.push({ ...variant, result, cpu });
    answered += warmup['3xx'] + result['3xx'];
    service.kill('SIGTERM');
    await once(service, 'exit');
    const db = createDb(url);
    stored.push({
      ...variant,
      stored: Number((await db('scan_rollups').sum({ n: 'scans' }).first())!.n),
      rawRowCount: Number((await db('scans').count({ n: '*' }).first())!.n),
      answered,
    });
    await db.destroy();
  }
  bare.kill('SIGTERM');
  const busyUs = values['busy-us'] ? Number(values['busy-us']) : null;
  let busyResult: Result | null = null;
  if (busyUs !== null) {
    const busy = await startBare(busyUs);
    await load(`http://127.0.0.1:${busy.port}`, paths, 20_000);
    busyResult = await load(`http://127.0.0.1:${busy.port}`, paths, amount);
    busy.server.kill('SIGTERM');
  }

  const name = ({ workers, rawRows }: Variant) =>
    'qr-service scan route' +
    (concurrencies.length > 1 || workers > 1 ? `, WEB_CONCURRENCY=${workers}` : '') +
    (rawRowsList.length > 1 || rawRows !== 'keep' ? `, SCAN_RAW_ROWS=${rawRows}` : '');
  console.log(
    `\nredirect benchmark, ${values.sqlite ? 'SQLite' : 'MariaDB'}, ${connections} connections, ${amount} requests ` +
      `each, ${codeCount} codes with 3 rules (geo, device, device+geo)` +
      (values['max-scans'] ? `, max_scans ${values['max-scans']}` : ''),
  );
  console.log('| server | req/s | p50 ms | p99 ms | 3xx | other non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(row('bare node:http, Map lookup', bareResult));
  for (const run of runs) console.log(row(name(run), run.result));
  if (busyResult) console.log(row(`bare node:http + ${busyUs} µs of CPU per request`, busyResult));
  console.log('');
  for (const run of runs)
    console.log(`throughput ratio (${name(run)} / bare): ${((run.result.rate / bareResult.rate) * 100).toFixed(1)}%`);
  for (const run of runs.slice(1))
    console.log(
      `throughput ratio (${name(run)} / ${name(runs[0]!)}): ` +
        `${((run.result.rate / runs[0]!.result.rate) * 100).toFixed(1)}%`,
    );
  if (busyResult)
    console.log(
      `throughput ratio (bare + ${busyUs} µs / bare): ${((busyResult.rate / bareResult.rate) * 100).toFixed(1)}%`,
    );
  console.log(`CPU per request (1 s of CPU = 1,000,000 µs; the machine has 2 cores): bare run: ${bareCpu}`);
  for (const run of runs) console.log(`  ${name(run)}: ${run.cpu}`);
  for (const s of stored) {
    const verdict = s.stored === s.answered ? 'equal' : `DIFFERENT by ${s.stored - s.answered}`;
    console.log(
      `after ${name(s)} stopped (SIGTERM): scans counted in the rollups ${s.stored} (raw rows ${s.rawRowCount}); ` +
        `3xx answers counted so far (warm-ups + measured): ${s.answered}; ${verdict}`,
    );
  }
  if (!values.sqlite) {
    const admin = createDb('mysql://root@127.0.0.1:3306/');
    await admin.raw('DROP DATABASE IF EXISTS ??', [BENCH_DB]);
    await admin.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
