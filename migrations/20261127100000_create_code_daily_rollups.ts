import type { Knex } from 'knex';

// Each code's scans per UTC day, beside the hourly ones (scan_rollups): the same rows summed by
// day, which the scan writer keeps from now on in the same transaction. Top and active codes of a
// long range read them: a year's ranking at ten million scans summed 6 million code-hour rows
// (40 s on MariaDB), and now reads the busiest codes of each day through the ranking index, which
// holds a day's codes in order of scans (see rollup-ranking.ts). The partial days at the edges of
// a range (a time zone's midnight) still come from the hourly rows.
// code_id compares as codes.id does (binary), so a probe from a code into this table uses the
// primary key; scan_rollups' code_id kept the database's default collation.
const DAY = 'hour - (hour % 86400000)';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('code_daily_rollups', (t) => {
    t.string('code_id', 32).collate('utf8mb4_bin').notNullable();
    t.bigInteger('day').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('account_id', 32).notNullable();
    t.integer('scans').notNullable();
    t.integer('unique_scans').notNullable();
    t.primary(['code_id', 'day', 'is_bot']);
    t.index(['account_id', 'day', 'scans', 'code_id', 'is_bot'], 'code_daily_rollups_ranking_idx');
  });
  await backfillCodeDays(knex);
}

/** The daily rows from the hourly ones (exported for the test that holds it to the writer). */
export async function backfillCodeDays(knex: Knex): Promise<void> {
  await knex.raw(
    `INSERT INTO code_daily_rollups (code_id, day, is_bot, account_id, scans, unique_scans)
     SELECT code_id, ${DAY}, is_bot, MIN(account_id), SUM(scans), SUM(unique_scans)
     FROM scan_rollups GROUP BY code_id, ${DAY}, is_bot`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_daily_rollups');
}
