import type { Knex } from 'knex';

// The account overview's OS, browser and referrer breakdowns, built from the scans recorded
// before the writer kept them: the same rows the batch writer adds (per account, UTC hour and
// bot flag, the value as scans store it, '' when absent, no uniques: those live on the 'total'
// rows). Rows of these dimensions that are already there are rebuilt, so running it is safe
// whatever wrote them. The dimensions are written out: a migration never changes meaning when
// the code's list grows.
const HOUR = 'scanned_at - (scanned_at % 3600000)';
const DIMENSIONS: Array<[string, string]> = [
  ['os', 'os'],
  ['browser', 'browser'],
  ['referrer', 'referrer_host'],
];

export async function up(knex: Knex): Promise<void> {
  await knex('account_scan_rollups')
    .whereIn(
      'dimension',
      DIMENSIONS.map(([dimension]) => dimension),
    )
    .delete();
  for (const [dimension, column] of DIMENSIONS) {
    await knex.raw(
      `INSERT INTO account_scan_rollups (account_id, dimension, hour, is_bot, value, scans, unique_scans)
       SELECT account_id, ?, ${HOUR}, is_bot, COALESCE(${column}, ''), COUNT(*), 0
       FROM scans GROUP BY account_id, ${HOUR}, is_bot, COALESCE(${column}, '')`,
      [dimension],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('account_scan_rollups')
    .whereIn(
      'dimension',
      DIMENSIONS.map(([dimension]) => dimension),
    )
    .delete();
}
