// npm run bench:scan-write [-- --batches 200] [--batch-size 1000] [--codes 100] [--visitors 10000]
//                           [--tagged 0.1] [--raw-rows keep]
//
// Where the scan writer's database time goes: commits --batches batches of --batch-size scans
// (over --codes codes and --visitors visitors, a mix of countries, devices and rules, in time
// order, a batch per 200 ms as SCAN_FLUSH_INTERVAL_MS would cut them) through the live writer's
// commit path, on a fresh MariaDB
// database. Prints MariaDB's CPU per scan (from /proc, as bench:redirect counts it) and, to show
// where it goes, each kind of statement's time from the client (sent to answered), which also
// holds the round trip on loopback and the driver's formatting of the statement in this process.
// The codes exist (a batch locks its codes' rows) and --tagged of them carry a tag (their scans
// are added to its rollups too). Every scan has an id, as the scan route gives it. --raw-rows none
// commits as SCAN_RAW_ROWS=none does (no raw rows); this process's CPU per scan (the writer's own:
// building the statements, hashing the visitors) is printed beside MariaDB's.
import { parseArgs } from 'node:util';
import { createCommitBatch } from '../src/modules/scans/commit-batch.ts';
import type { ScanEvent } from '../src/modules/scans/model.ts';
import { createScanIds } from '../src/modules/scans/scan-ids.ts';
import { insertCodeRows } from '../test/support/factories.ts';
import { seededRandom } from '../test/support/random.ts';
import { freshMariaDb } from './fresh-database.ts';
import { cpuSeconds, databasePid } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '200' },
    'batch-size': { type: 'string', default: '1000' },
    codes: { type: 'string', default: '100' },
    visitors: { type: 'string', default: '10000' },
    tagged: { type: 'string', default: '0.1' },
    'raw-rows': { type: 'string', default: 'keep' },
  },
});
const BATCHES = Number(values.batches);
const SIZE = Number(values['batch-size']);
const CODES = Number(values.codes);
const VISITORS = Number(values.visitors);
const TAGGED = Number(values.tagged);
const RAW_ROWS = values['raw-rows'] === 'none' ? 'none' : 'keep';
const nextId = createScanIds();
const ACCOUNT = 'acct_bench_write';
/** Per run: another checkout's benchmark (or another run of this one) may use the same MariaDB at the same time. */
const NAME = `qr_bench_scan_write_${process.pid}`;

const rand = seededRandom(99);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const COUNTRIES = ['US', 'US', 'DE', 'GB', 'FR', 'IN', 'BR', 'JP', 'CA', null];
const DEVICES = ['ios', 'android', 'desktop', 'tablet'];
const AGENTS = ['Mozilla/5.0 (iPhone)', 'Mozilla/5.0 (Linux; Android 14)', 'Mozilla/5.0 (Windows NT 10.0)'];

/** A batch's scans, in time order over the 200 ms from `start`. */
function batch(start: number): ScanEvent[] {
  return Array.from({ length: SIZE }, (_, i) => {
    const code = Math.floor(rand() * CODES);
    const visitor = Math.floor(rand() * VISITORS);
    return {
      id: nextId(),
      codeId: `qr_write_${code}`,
      slug: `w${code}`,
      accountId: ACCOUNT,
      at: start + Math.floor((i * 200) / SIZE),
      ruleId: pick([null, 'rule_geo', 'rule_device', 'rule_both']),
      destination: 'https://example.com/',
      country: pick(COUNTRIES),
      device: pick(DEVICES),
      os: pick(['iOS', 'Android', 'Windows']),
      browser: pick(['Safari', 'Chrome', 'Firefox']),
      referrerHost: pick([null, 'news.example', 'social.example']),
      language: pick(['en', 'de', 'fr', null]),
      isBot: rand() < 0.05,
      ip: `198.51.${Math.floor(visitor / 250)}.${visitor % 250}`,
      userAgent: AGENTS[visitor % AGENTS.length]!,
    };
  });
}

async function main() {
  const db = await freshMariaDb(NAME);
  await db('accounts').insert({ id: ACCOUNT, name: 'bench write', created_at: Date.now() });
  const codeIds = Array.from({ length: CODES }, (_, i) => `qr_write_${i}`);
  await insertCodeRows(db, ACCOUNT, codeIds);
  await db('tags').insert({
    id: 'tag_bench_write',
    account_id: ACCOUNT,
    name: 'bench',
    name_key: 'bench',
    created_at: 0,
  });
  const tagged = codeIds.slice(0, Math.round(CODES * TAGGED)).map((id) => ({ code_id: id, tag_id: 'tag_bench_write' }));
  if (tagged.length > 0) await db('code_tags').insert(tagged);
  const commit = createCommitBatch(db, async () => false, RAW_ROWS);

  const started = new Map<string, number>();
  const byTable = new Map<string, { ms: number; statements: number }>();
  db.on('query', (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, performance.now()));
  db.on('query-response', (_r: unknown, q: { __knexQueryUid: string; sql: string }) => {
    const table = /(?:into|from|update)\s+`?(\w+)`?/i.exec(q.sql)?.[1] ?? q.sql.split(' ')[0]!.toLowerCase();
    const verb = q.sql.trimStart().split(' ')[0]!.toLowerCase();
    const sum = byTable.get(`${table} ${verb}`) ?? { ms: 0, statements: 0 };
    sum.ms += performance.now() - started.get(q.__knexQueryUid)!;
    sum.statements += 1;
    byTable.set(`${table} ${verb}`, sum);
  });

  const mariadb = databasePid();
  const cpuBefore = cpuSeconds(mariadb);
  const ownBefore = process.cpuUsage();
  const wallStart = performance.now();
  const start = Date.now() - BATCHES * 200;
  for (let i = 0; i < BATCHES; i++) await commit(batch(start + i * 200), `bench-write-${i}`);
  const wall = performance.now() - wallStart;
  const cpuAfter = cpuSeconds(mariadb);
  const own = process.cpuUsage(ownBefore);
  const scans = BATCHES * SIZE;
  const day = new Date().toISOString().slice(0, 10);
  console.log(
    `${BATCHES} batches of ${SIZE} scans, ${CODES} codes (${tagged.length} tagged), ${VISITORS} visitors, ` +
      `SCAN_RAW_ROWS=${RAW_ROWS} (${day})`,
  );
  console.log('| table | statements | ms | µs per scan |\n|---|---|---|---|');
  for (const [table, s] of [...byTable].sort((a, b) => b[1].ms - a[1].ms))
    console.log(`| ${table} | ${s.statements} | ${s.ms.toFixed(0)} | ${((s.ms * 1000) / scans).toFixed(2)} |`);
  console.log(`wall: ${((wall * 1000) / scans).toFixed(2)} µs per scan (the writer's own CPU included)`);
  console.log(`writer CPU (this process): ${((own.user + own.system) / scans).toFixed(2)} µs per scan`);
  if (cpuBefore !== null && cpuAfter !== null)
    console.log(`MariaDB CPU: ${(((cpuAfter - cpuBefore) * 1e6) / scans).toFixed(2)} µs per scan`);
  await db.raw('DROP DATABASE ??', [NAME]);
  await db.destroy();
}

await main();
