// npm run bench:raw-insert [-- --batches 60] [--rounds 3]
//
// What storing a scan as a row costs MariaDB, beneath everything else the scan writer does: inserts
// --batches batches of 1,000 raw scan rows through the scans store (the live writer's statement),
// into the migrated `scans` table and into copies of it with fewer secondary indexes, the three
// alternated for --rounds rounds. Prints MariaDB's CPU per row (from /proc, as bench:redirect and
// bench:scan-write count it). Each statement commits on its own (the writer's transaction adds
// other statements, not cost to this one).
import type { Knex } from 'knex';
import { parseArgs } from 'node:util';
import { createScansStore, type ScanRow } from '../src/modules/scans/store.ts';
import { seededRandom } from '../test/support/random.ts';
import { freshMariaDb } from './fresh-database.ts';
import { cpuSeconds, databasePid } from './process-cpu.ts';

const { values } = parseArgs({
  options: { batches: { type: 'string', default: '60' }, rounds: { type: 'string', default: '3' } },
});
const BATCHES = Number(values.batches);
const ROUNDS = Number(values.rounds);
const NAME = 'qr_bench_raw_insert';
const rand = seededRandom(7);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

let at = Date.parse('2026-06-01T00:00:00Z');
const row = (): ScanRow => ({
  code_id: `qr_raw_${Math.floor(rand() * 100_000)}`,
  account_id: 'acct_bench_raw',
  scanned_at: (at += 7),
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

/** The `scans` table as migrated, and copies without some of its secondary indexes. */
const TABLES: { table: string; indexes: string; drop: string[] }[] = [
  { table: 'scans', indexes: 'as migrated (code and account indexes)', drop: [] },
  { table: 'scans_code_index_only', indexes: 'the code index only', drop: ['scans_account_time_idx'] },
  {
    table: 'scans_no_secondary',
    indexes: 'no secondary index',
    drop: ['scans_account_time_idx', 'scans_code_time_idx'],
  },
];

async function insertBatches(db: Knex, table: string, pid: number): Promise<number> {
  const store = createScansStore(db);
  const before = cpuSeconds(pid)!;
  for (let b = 0; b < BATCHES; b++) {
    const rows = Array.from({ length: 1000 }, row);
    // The store writes to `scans`; a copy gets the same statement renamed.
    if (table === 'scans') await store.insertMany(rows);
    else await db(table).insert(rows);
  }
  return ((cpuSeconds(pid)! - before) * 1e6) / (BATCHES * 1000);
}

async function main() {
  const pid = databasePid();
  if (pid === undefined || cpuSeconds(pid) === null) throw new Error('no local MariaDB/MySQL process to measure');
  const db = await freshMariaDb(NAME);
  for (const { table, drop } of TABLES.slice(1)) {
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
  await db.destroy();
}

await main();
