// npm run bench:raw-insert [-- --batches 60] [--rounds 3] [--codes 100000]
//
// What storing a scan as a row costs MariaDB, beneath everything else the scan writer does: inserts
// --batches batches of 1,000 raw scan rows (over --codes codes, uniformly) through the scans store
// (the live writer's statement), into the migrated `scans` table and into copies of it with fewer
// secondary indexes, alternated for --rounds rounds. Prints MariaDB's CPU per row (from /proc, as
// bench:redirect and bench:scan-write count it). Each statement commits on its own (the writer's
// transaction adds other statements, not cost to this one).
//
// A trial layout rides along, not used by the service: scans packed as one row per batch and code
// (a JSON array of the scans, indexed by code and by account as `scans` is). It shows what packing
// would save the writer at this many codes per batch, and, after the rounds, what it costs a read:
// the account's scans per hour summed from `scans` and from the packs expanded by JSON_TABLE.
import type { Knex } from 'knex';
import { parseArgs } from 'node:util';
import { createScansStore, type ScanRow } from '../src/modules/scans/store.ts';
import { seededRandom } from '../test/support/random.ts';
import { freshMariaDb } from './fresh-database.ts';
import { cpuSeconds, databasePid } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    codes: { type: 'string', default: '100000' },
  },
});
const BATCHES = Number(values.batches);
const ROUNDS = Number(values.rounds);
const CODES = Number(values.codes);
const NAME = 'qr_bench_raw_insert';
const rand = seededRandom(7);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

let at = Date.parse('2026-06-01T00:00:00Z');
const row = (): ScanRow => ({
  code_id: `qr_raw_${Math.floor(rand() * CODES)}`,
  account_id: 'acct_bench_raw',
  // A scan every 7 s: the rounds' scans span days, so the reads below sum many hours.
  scanned_at: (at += 7_000),
  rule_id: pick([null, 'rule_geo']),
  country: pick(['US', 'DE', 'GB', null]),
  device: pick(['ios', 'android', 'desktop']),
  os: pick(['iOS', 'Android', 'Windows']),
  browser: pick(['Safari', 'Chrome', 'Firefox']),
  referrer_host: pick([null, 'news.example']),
  language: pick(['en', 'de', null]),
  is_bot: rand() < 0.05,
  visitor_hash: Math.floor(rand() * 2 ** 52)
    .toString(16)
    .padStart(32, '0'),
  is_unique: rand() < 0.5,
  is_account_unique: rand() < 0.3,
});

const PACKS = 'scan_packs_trial';

/** The scan columns a pack holds per scan, in the order of each scan's JSON array: all but its code and account. */
const PACKED_COLUMNS: Array<keyof ScanRow> = (Object.keys(row()) as Array<keyof ScanRow>).filter(
  (c) => c !== 'code_id' && c !== 'account_id',
);
/** A packed scan's element holding `column`, as a JSON path. */
const packedPath = (column: keyof ScanRow) => `'$[${PACKED_COLUMNS.indexOf(column)}]'`;

/** The `scans` table as migrated, copies without some of its secondary indexes, and the packs. */
const TABLES: { table: string; indexes: string; drop: string[] }[] = [
  { table: 'scans', indexes: 'as migrated (code and account indexes)', drop: [] },
  { table: 'scans_code_index_only', indexes: 'the code index only', drop: ['scans_account_time_idx'] },
  {
    table: 'scans_no_secondary',
    indexes: 'no secondary index',
    drop: ['scans_account_time_idx', 'scans_code_time_idx'],
  },
  { table: PACKS, indexes: 'trial: a JSON pack per batch and code', drop: [] },
];

async function createPacksTable(db: Knex): Promise<void> {
  await db.schema.createTable(PACKS, (t) => {
    t.bigIncrements('id');
    t.string('code_id', 64).notNullable();
    t.string('account_id', 64).notNullable();
    t.bigInteger('first_at').notNullable();
    t.bigInteger('last_at').notNullable();
    t.integer('scan_count').notNullable();
    t.text('scans', 'longtext').notNullable();
    t.index(['code_id', 'first_at'], 'packs_code_time_idx');
    t.index(['account_id', 'first_at'], 'packs_account_time_idx');
  });
}

/** A batch's rows as one pack per code, each scan an array of PACKED_COLUMNS. */
function packsOf(rows: ScanRow[]) {
  const byCode = new Map<string, ScanRow[]>();
  for (const r of rows) byCode.set(r.code_id, [...(byCode.get(r.code_id) ?? []), r]);
  return [...byCode.values()].map((scans) => ({
    code_id: scans[0]!.code_id,
    account_id: scans[0]!.account_id,
    first_at: scans[0]!.scanned_at,
    last_at: scans.at(-1)!.scanned_at,
    scan_count: scans.length,
    scans: JSON.stringify(
      scans.map((r) => PACKED_COLUMNS.map((c) => (typeof r[c] === 'boolean' ? Number(r[c]) : (r[c] ?? null)))),
    ),
  }));
}

async function insertBatches(db: Knex, table: string, pid: number): Promise<number> {
  const store = createScansStore(db);
  const before = cpuSeconds(pid)!;
  for (let b = 0; b < BATCHES; b++) {
    const rows = Array.from({ length: 1000 }, row);
    // The store writes to `scans`; a copy gets the same statement renamed.
    if (table === 'scans') await store.insertMany(rows);
    else if (table === PACKS) await db(table).insert(packsOf(rows));
    else await db(table).insert(rows);
  }
  return ((cpuSeconds(pid)! - before) * 1e6) / (BATCHES * 1000);
}

async function main() {
  const pid = databasePid();
  if (pid === undefined || cpuSeconds(pid) === null) throw new Error('no local MariaDB/MySQL process to measure');
  const db = await freshMariaDb(NAME);
  await createPacksTable(db);
  for (const { table, drop } of TABLES.slice(1, 3)) {
    await db.raw(`CREATE TABLE ?? LIKE scans`, [table]);
    for (const index of drop) await db.raw('ALTER TABLE ?? DROP INDEX ??', [table, index]);
  }
  const perRow = new Map<string, number[]>(TABLES.map((t) => [t.table, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const { table } of TABLES) perRow.get(table)!.push(await insertBatches(db, table, pid));
  const date = new Date().toISOString().slice(0, 10);
  console.log(`${BATCHES} batches of 1,000 rows per table and round, ${ROUNDS} rounds alternated (${date})`);
  console.log('raw scans table                               MariaDB CPU per row, each round');
  for (const { table, indexes } of TABLES) {
    const rounds = perRow.get(table)!.map((us) => `${us.toFixed(1)} µs`);
    console.log(`${indexes.padEnd(46)}${rounds.join(', ')}`);
  }
  await timeHourlyReads(db);
  await db.destroy();
}

/** Median of five runs of the account's scans per hour, from `scans` and from the packs. */
async function timeHourlyReads(db: Knex): Promise<void> {
  const median = async (sql: string) => {
    const ms: number[] = [];
    let rows: unknown[] | undefined;
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      [rows] = await db.raw(sql);
      ms.push(performance.now() - start);
    }
    return { ms: ms.sort((a, b) => a - b)[2]!, hours: rows?.length ?? 0 };
  };
  const hourOf = (column: string) => `${column} - ${column} % 3600000 AS hour`;
  const fromRows = await median(
    `SELECT ${hourOf('scanned_at')}, COUNT(*) AS n, SUM(is_unique) AS u FROM scans ` +
      `WHERE account_id = 'acct_bench_raw' AND is_bot = 0 GROUP BY hour`,
  );
  const fromPacks = await median(
    `SELECT ${hourOf('s.at')}, COUNT(*) AS n, SUM(s.u) AS u FROM ${PACKS} p, ` +
      `JSON_TABLE(p.scans, '$[*]' COLUMNS (at BIGINT PATH ${packedPath('scanned_at')}, ` +
      `bot INT PATH ${packedPath('is_bot')}, u INT PATH ${packedPath('is_unique')})) s ` +
      `WHERE p.account_id = 'acct_bench_raw' AND s.bot = 0 GROUP BY hour`,
  );
  const scans = ROUNDS * BATCHES * 1000;
  console.log(`the account's ${scans.toLocaleString('en')} scans per hour, median of 5 runs:`);
  console.log(`  from scans rows                           ${fromRows.ms.toFixed(0)} ms (${fromRows.hours} hours)`);
  console.log(`  from the packs through JSON_TABLE         ${fromPacks.ms.toFixed(0)} ms (${fromPacks.hours} hours)`);
}

await main();
