// npm run bench:analytics [-- --scans 1000000] [--codes 10000] [--runs 20] [--raw-runs N]
//                          [--explain] [--reuse] [--only TEXT] [--database NAME]
//
// Seeds one account on MariaDB with --codes codes and --scans scans over the past year, written
// a UTC day at a time through the bulk path (bench/bulk-seed.ts: the scan batch writer with
// day-sized batches, so the same flags, raw rows and rollups as the live writer). Code popularity
// follows Zipf's law (s = 1: the top code gets ~10% of scans at 10,000 codes, ~8% at 100,000),
// times are uniform over the year; 1% of the codes carry the tag "campaign". Then times, over
// HTTP, against two servers on the same database, one reading rollups (the default) and one
// reading raw scans only: the overview for 7, 30, 90 and 365 days (by day, and by week), the
// overview of the tagged codes, overviews of past ranges, a 30-day overview in New York, the
// busiest and a median code's 365-day daily series, the account's and the busiest code's weekday x
// hour cells over a year, the dashboard's account page query (30 days in New York, a year in UTC),
// a GraphQL dashboard, and in six zones (whole-hour, DST, half-hour and 45-minute offsets) the
// overview of 30 and 365 local days, an hourly week and a daily year from 07:20 UTC (no midnight
// anywhere: the series take in the whole local days around it), the year's weekday x hour cells
// and the busiest code's year. Prints median and p95 per query and the raw/rollups ratio (--raw-runs N:
// fewer runs for raw scans, which take seconds at ten million; 0 leaves them out). --explain
// prints MariaDB's plan for each SQL statement of the rollups path, and its time when run again
// alone. --reuse skips seeding when the data is there. --only times (and explains) just the queries whose name
// contains TEXT (the raw-scan answers of a half-hour zone before issue 37 took seconds each).
// --database names the MariaDB database it seeds (dropped and made anew) and reads; default
// qr_bench_analytics (engineers sharing one server each give their own).
//
// MariaDB's buffer pool decides much at ten million scans: the bench prints its size. The
// default (128 MiB) holds a fraction of the rollups; a server for this much data has gigabytes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { buildRequestListener } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ACCOUNT_OVERVIEW_QUERY } from '../dashboard/src/analytics/queries.ts';
import { createDb } from '../src/db/knex.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { createLogger } from '../src/logger.ts';
import type { ScanRow } from '../src/modules/scans/store.ts';
import { createServices } from '../src/services.ts';
import { newId } from '../src/shared/ids.ts';
import { seededRandom } from '../test/support/random.ts';
import { createBulkScanSeeder, insertBenchCodes } from './bulk-seed.ts';

const { values } = parseArgs({
  options: {
    scans: { type: 'string', default: '1000000' },
    codes: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '20' },
    'raw-runs': { type: 'string' },
    explain: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    only: { type: 'string' },
    database: { type: 'string', default: 'qr_bench_analytics' },
  },
});
const SCANS = Number(values.scans);
const CODES = Number(values.codes);
const RUNS = Number(values.runs);
const RAW_RUNS = Number(values['raw-runs'] ?? values.runs);
const DATABASE = values.database;
if (!/^\w+$/.test(DATABASE)) throw new Error(`--database ${DATABASE}: letters, digits and _ only`);
const URL_ = `mysql://root@127.0.0.1:3306/${DATABASE}`;
const DAY = 86_400_000;
const NOW = Date.now();

// Deterministic pseudo-random numbers, so runs are comparable. (Before 2026-11-27 an LCG that
// repeated after 16,403 values: the seeded scans had at most that many distinct times and codes.)
const rand = seededRandom(12345);
const pick = <T>(values: readonly T[]) => values[Math.floor(rand() * values.length)]!;

const COUNTRIES = [
  'US',
  'US',
  'US',
  'DE',
  'DE',
  'GB',
  'FR',
  'IN',
  'BR',
  'JP',
  'CA',
  'ES',
  'IT',
  'NL',
  'SE',
  'PL',
  'MX',
  'AU',
  'KR',
  null,
];
const DEVICES = ['mobile', 'mobile', 'ios', 'android', 'desktop', 'tablet'];
const OSES = ['iOS', 'Android', 'Windows', 'macOS', 'Linux', null];
const BROWSERS = ['Safari', 'Chrome', 'Chrome', 'Firefox', 'Edge', 'Samsung Internet'];
const REFERRERS = [
  null,
  null,
  null,
  null,
  'google.com',
  'instagram.com',
  'facebook.com',
  'news.example',
  't.co',
  'linkedin.com',
];
const LANGUAGES = ['en', 'en', 'de', 'fr', 'es', 'pt', 'ja', 'it', null];

async function prepare(): Promise<{ key: string; codeIds: string[] }> {
  const admin = createDb('mysql://root@127.0.0.1:3306/');
  if (!values.reuse) {
    await admin.raw(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.raw(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  }
  await admin.destroy();
  const db = createDb(URL_);
  await migrateLatest(db);
  const config = loadConfig({ ...process.env, DATABASE_URL: URL_, LOG_LEVEL: 'silent' });
  const services = await createServices(db, config, createLogger(config));
  const key = (await services.accounts.issueKey('bench-analytics')).key;
  const accountId = (await services.accounts.authenticate(key))!.accountId;

  let codeIds: string[] = (await db('codes').select('id').orderBy('id')).map((r: { id: string }) => r.id);
  if (values.reuse && codeIds.length > 0) {
    // The key is the reused account's own: issueKey finds the account by its name.
    await services.close();
    await db.destroy();
    return { key, codeIds: await rankCodes(codeIds) };
  }

  codeIds = await insertBenchCodes(db, accountId, CODES);
  const now = Date.now();

  // Zipf over codes: code i (0-based rank) is scanned with weight 1/(i+1).
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < CODES; i++) cumulative.push((total += 1 / (i + 1)));
  const zipf = () => {
    const target = rand() * total;
    let lo = 0;
    let hi = CODES - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  // Tag 1% of the codes, spread over the popularity ranks.
  const tagId = newId('tag');
  await db('tags').insert({
    id: tagId,
    account_id: accountId,
    name: 'campaign',
    name_key: 'campaign',
    created_at: now,
  });
  await db.batchInsert(
    'code_tags',
    codeIds.filter((_, i) => i % 100 === 7).map((id) => ({ code_id: id, tag_id: tagId })),
    1000,
  );

  const times = Float64Array.from({ length: SCANS }, () => NOW - 365 * DAY + Math.floor(rand() * 365 * DAY)).sort();
  const seedDay = createBulkScanSeeder(db, NOW - (NOW % DAY));
  const started = performance.now();
  let rows: ScanRow[] = [];
  for (let n = 0; n < SCANS; n++) {
    const at = times[n]!;
    if (rows.length > 0 && Math.floor(at / DAY) !== Math.floor(rows[0]!.scanned_at / DAY)) {
      await seedDay(rows);
      rows = [];
      if (Math.floor(at / DAY) % 30 === 0) console.log(`  seeded ${n.toLocaleString()} scans`);
    }
    const visitor = Math.floor(rand() * 300_000);
    rows.push({
      code_id: codeIds[zipf()]!,
      account_id: accountId,
      scanned_at: at,
      rule_id: rand() < 0.2 ? 'rule_bench' : null,
      country: pick(COUNTRIES),
      device: pick(DEVICES),
      os: pick(OSES),
      browser: pick(BROWSERS),
      referrer_host: pick(REFERRERS),
      language: pick(LANGUAGES),
      is_bot: visitor % 33 === 0,
      visitor_hash: visitor.toString(16).padStart(32, '0'),
      is_unique: false,
      is_account_unique: false,
    });
  }
  if (rows.length > 0) await seedDay(rows);
  const seconds = (performance.now() - started) / 1000;
  const counts = await Promise.all(
    ['scans', 'scan_rollups', 'scan_dimension_rollups', 'account_scan_rollups', 'scan_visitors'].map(
      async (t) => [t, Number((await db(t).count({ n: '*' }).first())!.n)] as const,
    ),
  );
  console.log(
    `seeded ${SCANS.toLocaleString()} scans over ${CODES.toLocaleString()} codes in ${seconds.toFixed(1)} s ` +
      `(${Math.round(SCANS / seconds).toLocaleString()} scans/s, a day per batch)`,
  );
  console.log(`rows: ${counts.map(([t, n]) => `${t} ${n.toLocaleString()}`).join(', ')}`);
  await services.close();
  await db.destroy();
  return { key, codeIds: await rankCodes(codeIds) };
}

/** Codes by scan count, busiest first. */
async function rankCodes(codeIds: string[]): Promise<string[]> {
  const db = createDb(URL_);
  const rows = await db('scans').select('code_id').count({ n: '*' }).groupBy('code_id').orderBy('n', 'desc');
  await db.destroy();
  const ranked = (rows as unknown as { code_id: string }[]).map((r) => r.code_id);
  return ranked.length > 0 ? ranked : codeIds;
}

async function startServer(source: 'rollups' | 'raw') {
  const db = createDb(URL_);
  // Rate limits off: the bench sends a few hundred requests a minute with one key.
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: URL_,
    LOG_LEVEL: 'silent',
    ANALYTICS_SOURCE: source,
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const services = await createServices(db, config, createLogger(config));
  const server: Server = createServer(buildRequestListener({ services, logger: createLogger(config) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    db,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await services.close();
      await db.destroy();
    },
  };
}

interface Query {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

async function send(base: string, key: string, q: Query): Promise<void> {
  const res = await fetch(base + q.path, {
    method: q.method,
    headers: { authorization: `Bearer ${key}`, ...(q.body ? { 'content-type': 'application/json' } : {}) },
    body: q.body ? JSON.stringify(q.body) : undefined,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"'))
    throw new Error(`${q.name}: ${res.status} ${text.slice(0, 300)}`);
}

async function time(base: string, key: string, q: Query, runs = RUNS): Promise<{ median: number; p95: number }> {
  for (let i = 0; i < Math.min(3, runs); i++) await send(base, key, q);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await send(base, key, q);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return {
    median: samples[Math.floor(samples.length / 2)]!,
    p95: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.95) - 1)]!,
  };
}

async function explain(server: Awaited<ReturnType<typeof startServer>>, key: string, q: Query): Promise<void> {
  const statements: Array<{ sql: string; bindings: unknown[] }> = [];
  const listener = (s: { sql: string; bindings: unknown[] }) => statements.push(s);
  server.db.on('query', listener);
  await send(server.url, key, q);
  server.db.off('query', listener);
  console.log(`\nEXPLAIN ${q.name}`);
  for (const s of statements) {
    if (!/^select/i.test(s.sql) || /api_keys/.test(s.sql)) continue;
    const [plan] = await server.db.raw(`EXPLAIN ${s.sql}`, s.bindings as never);
    const started = performance.now();
    await server.db.raw(s.sql, s.bindings as never);
    const ms = (performance.now() - started).toFixed(1);
    console.log(`  ${ms} ms alone: ${s.sql.slice(0, 150)}${s.sql.length > 150 ? '…' : ''}`);
    for (const p of plan as Record<string, unknown>[])
      console.log(`    table=${p.table} type=${p.type} key=${p.key} rows=${p.rows} extra=${p.Extra ?? ''}`);
  }
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Whole-hour zones with and without DST, and the half-hour and 45-minute offsets (issue 37). */
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide'];

/**
 * The answers a team in `zone` asks for: ranges of local days (from a local midnight) and an
 * hourly week from an instant that is no midnight anywhere (07:20 UTC, a week ago).
 */
function inZone(zone: string, busiest: string): Query[] {
  const at = (name: string, path: string): Query => ({ name: `${name}, ${zone}`, method: 'GET', path });
  const days = (n: number) => `from=${isoDay(NOW - (n - 1) * DAY)}&to=${isoDay(NOW)}&timezone=${zone}`;
  const weekAgo = new Date(NOW - 7 * DAY);
  weekAgo.setUTCHours(7, 20, 0, 0);
  const hourly = `from=${weekAgo.toISOString()}&to=${new Date(NOW).toISOString()}&granularity=hour&timezone=${zone}`;
  const yearAgo = new Date(NOW - 365 * DAY);
  yearAgo.setUTCHours(7, 20, 0, 0);
  const offMidnight = `from=${yearAgo.toISOString()}&to=${new Date(NOW).toISOString()}&timezone=${zone}`;
  return [
    at('overview, 30 days by day', `/v1/analytics/overview?${days(30)}`),
    at('overview, 365 days by day', `/v1/analytics/overview?${days(365)}`),
    at('overview, 7 days by hour from 07:20 UTC', `/v1/analytics/overview?${hourly}`),
    at('overview, 365 days by day from 07:20 UTC', `/v1/analytics/overview?${offMidnight}`),
    at('weekday x hour, 365 days', `/v1/analytics/weekday-hours?${days(365)}`),
    at('busiest code, 365-day daily series', `/v1/codes/${busiest}/scans?${days(365)}`),
  ];
}

async function main() {
  const { key, codeIds } = await prepare();
  const busiest = codeIds[0]!;
  const median = codeIds[Math.floor(codeIds.length / 2)]!;
  const yearFrom = isoDay(NOW - 364 * DAY);
  const yearTo = isoDay(NOW);
  const thirtyDaysAgo = new Date(NOW - 30 * DAY).toISOString();
  const overview = (days: number, granularity: 'day' | 'week', tag?: string): Query => ({
    name: `overview${tag ? ` of tag ${tag}` : ''}, ${days} days by ${granularity}`,
    method: 'GET',
    path:
      `/v1/analytics/overview?from=${isoDay(NOW - (days - 1) * DAY)}&to=${yearTo}&granularity=${granularity}` +
      (tag ? `&tag=${tag}` : ''),
  });
  // A range wholly in the past (a report of a past month or quarter): nothing after it.
  const pastOverview = (days: number, endsDaysAgo: number, granularity: 'day' | 'week'): Query => ({
    name: `overview, ${days} days ending ${endsDaysAgo} days ago, by ${granularity}`,
    method: 'GET',
    path:
      `/v1/analytics/overview?from=${isoDay(NOW - (endsDaysAgo + days - 1) * DAY)}` +
      `&to=${isoDay(NOW - endsDaysAgo * DAY)}&granularity=${granularity}`,
  });
  // The dashboard's account page, with the query it sends (top 100 values, the weekday x hour cells).
  const dashboardPage = (days: number, granularity: 'day' | 'week', timezone: string): Query => ({
    name: `dashboard account page, ${days} days by ${granularity}, ${timezone}`,
    method: 'POST',
    path: '/graphql',
    body: {
      query: ACCOUNT_OVERVIEW_QUERY,
      variables: { from: isoDay(NOW - (days - 1) * DAY), to: yearTo, granularity, timezone },
    },
  });
  const queries: Query[] = [
    // What a plain call takes: the unit the rate limit's points are priced in (modules/analytics/prices.ts).
    { name: 'a page of 50 codes (a plain call)', method: 'GET', path: '/v1/codes?limit=50' },
    ...[7, 30, 90, 365].flatMap((days) => [overview(days, 'day'), overview(days, 'week')]),
    overview(365, 'week', 'campaign'),
    pastOverview(30, 60, 'day'),
    pastOverview(90, 90, 'week'),
    pastOverview(180, 180, 'week'),
    // A year ending a month ago: on 365 of every 400 days it spans two periods of the day bits
    // (scan-days.ts), and the active codes are counted over both.
    pastOverview(365, 30, 'week'),
    {
      name: 'busiest code, 365-day daily series',
      method: 'GET',
      path: `/v1/codes/${busiest}/scans?from=${yearFrom}&to=${yearTo}`,
    },
    {
      name: 'median code, 365-day daily series',
      method: 'GET',
      path: `/v1/codes/${median}/scans?from=${yearFrom}&to=${yearTo}`,
    },
    {
      name: 'overview, 30 days by day, America/New_York',
      method: 'GET',
      path: `/v1/analytics/overview?from=${isoDay(NOW - 29 * DAY)}&to=${yearTo}&timezone=America/New_York`,
    },
    {
      name: 'weekday x hour, 365 days',
      method: 'GET',
      path: `/v1/analytics/weekday-hours?from=${yearFrom}&to=${yearTo}`,
    },
    {
      name: 'busiest code, a page of 100 raw scans',
      method: 'GET',
      path: `/v1/codes/${busiest}/scans/raw?limit=100`,
    },
    {
      name: 'busiest code, weekday x hour, 365 days',
      method: 'GET',
      path: `/v1/codes/${busiest}/scans/weekday-hours?from=${yearFrom}&to=${yearTo}`,
    },
    dashboardPage(30, 'day', 'America/New_York'),
    dashboardPage(365, 'week', 'UTC'),
    ...ZONES.flatMap((zone) => inZone(zone, busiest)),
    {
      name: 'GraphQL dashboard',
      method: 'POST',
      path: '/graphql',
      body: {
        query: `query($since: DateTime!) {
          analyticsOverview {
            totalScans uniqueScans activeCodes trend { period scans } topCodes { id scans }
            breakdowns {
              country { value scans } device { value scans } os { value scans } browser { value scans }
              referrer { value scans }
            }
          }
          codes(first: 100) { edges { node { id scanCount(from: $since) uniqueScanCount(from: $since) } } } }`,
        variables: { since: thirtyDaysAgo },
      },
    },
  ];

  const rollups = await startServer('rollups');
  const raw = await startServer('raw');
  const [[pool]] = await rollups.db.raw('SELECT @@innodb_buffer_pool_size AS bytes');
  console.log(
    `\n${RUNS} runs each (raw: ${RAW_RUNS}) after up to 3 warm-up runs, over HTTP on loopback ` +
      `(${new Date().toISOString().slice(0, 10)}; MariaDB buffer pool ${Math.round(pool.bytes / 2 ** 20)} MiB)`,
  );
  console.log('query'.padEnd(64) + 'rollups median / p95'.padEnd(24) + 'raw median / p95'.padEnd(24) + 'raw / rollups');
  // The servers run in this process: its peak RSS while they answer bounds the service's.
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  const chosen = queries.filter((q) => values.only === undefined || q.name.includes(values.only));
  for (const q of chosen) {
    const a = await time(rollups.url, key, q);
    const fmt = (t: { median: number; p95: number }) => `${t.median.toFixed(1)} / ${t.p95.toFixed(1)} ms`.padEnd(24);
    // --raw-runs 0 leaves raw scans out (when only the rollups changed between two runs).
    if (RAW_RUNS === 0) {
      console.log(q.name.padEnd(64) + fmt(a) + '—');
      continue;
    }
    const b = await time(raw.url, key, q, RAW_RUNS);
    console.log(q.name.padEnd(64) + fmt(a) + fmt(b) + `${(b.median / a.median).toFixed(1)}x`);
  }
  clearInterval(sampler);
  console.log(`peak RSS of the process serving both (and of the bench itself): ${Math.round(peakRss / 2 ** 20)} MiB`);
  if (values.explain) for (const q of chosen) await explain(rollups, key, q);
  await rollups.close();
  await raw.close();
}

await main();
