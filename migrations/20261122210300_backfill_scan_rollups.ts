import type { Knex } from 'knex';

// Scans recorded before analytics existed: flag their first visits and build the rollups from
// them, so an upgraded service shows its whole history. The same rules as the batch writer:
// a visitor's first scan (lowest id) of a UTC day per code and per account is unique.
// Expressions are plain arithmetic so one statement serves MySQL and SQLite.
const HOUR = 'scanned_at - (scanned_at % 3600000)';
const DAY = 'scanned_at - (scanned_at % 86400000)';
const DIMENSIONS: Array<[string, string]> = [
  ['country', 'country'],
  ['device', 'device'],
  ['os', 'os'],
  ['browser', 'browser'],
  ['referrer', 'referrer_host'],
  ['language', 'language'],
  ['rule', 'rule_id'],
];

async function flagFirsts(knex: Knex, flag: string, scope: string): Promise<void> {
  // The extra derived table lets MySQL update the table the subquery reads.
  await knex.raw(
    `UPDATE scans SET ${flag} = 1 WHERE id IN (SELECT id FROM (SELECT MIN(id) AS id FROM scans GROUP BY ${scope}, ` +
      `${DAY}, visitor_hash) firsts)`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await flagFirsts(knex, 'is_unique', 'code_id');
  await flagFirsts(knex, 'is_account_unique', 'account_id');
  await knex.raw(
    `INSERT INTO scan_rollups (code_id, hour, is_bot, account_id, scans, unique_scans)
     SELECT code_id, ${HOUR}, is_bot, MIN(account_id), COUNT(*), SUM(is_unique)
     FROM scans GROUP BY code_id, ${HOUR}, is_bot`,
  );
  for (const [dimension, column] of DIMENSIONS) {
    await knex.raw(
      `INSERT INTO scan_dimension_rollups (code_id, dimension, day, is_bot, value, scans)
       SELECT code_id, ?, ${DAY}, is_bot, COALESCE(${column}, ''), COUNT(*)
       FROM scans GROUP BY code_id, ${DAY}, is_bot, COALESCE(${column}, '')`,
      [dimension],
    );
  }
  await knex.raw(
    `INSERT INTO account_scan_rollups (account_id, dimension, hour, is_bot, value, scans, unique_scans)
     SELECT account_id, 'total', ${HOUR}, is_bot, '', COUNT(*), SUM(is_account_unique)
     FROM scans GROUP BY account_id, ${HOUR}, is_bot`,
  );
  for (const column of ['country', 'device']) {
    await knex.raw(
      `INSERT INTO account_scan_rollups (account_id, dimension, hour, is_bot, value, scans, unique_scans)
       SELECT account_id, ?, ${HOUR}, is_bot, COALESCE(${column}, ''), COUNT(*), 0
       FROM scans GROUP BY account_id, ${HOUR}, is_bot, COALESCE(${column}, '')`,
      [column],
    );
  }
  // Visitors already seen today or yesterday, so their next scan today is not counted again.
  const since = Date.now() - (Date.now() % 86_400_000) - 86_400_000;
  for (const scope of ['code_id', 'account_id']) {
    await knex.raw(
      `INSERT INTO scan_visitors (day, visitor_hash, scope_id, batch)
       SELECT DISTINCT (${DAY}) / 86400000, visitor_hash, ${scope}, 'backfill' FROM scans WHERE scanned_at >= ?`,
      [since],
    );
  }
}

// Nothing to undo here: rolling back the migrations before it drops the rollup tables and flags.
export async function down(): Promise<void> {}
