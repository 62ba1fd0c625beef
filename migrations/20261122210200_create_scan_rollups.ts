import type { Knex } from 'knex';

// Rollups, maintained by the scan writer in the same transaction as the raw rows:
// - scan_rollups: per code, per UTC hour: scans and uniques. Series and per-code counts read it
//   by primary key. Top and active codes read the account index, which covers the query (MariaDB's
//   plan: a range scan of the index alone; without `scans` in it, one row lookup per entry made
//   the 30-day top codes of a million scans take 0.8 s).
// - scan_dimension_rollups: per code, per UTC day, one row per (dimension, value), for the
//   breakdowns. A day rather than an hour because rows per dimension value only pay off when
//   they gather many scans; the partial days at the edges of a range come from raw scans.
// - account_scan_rollups: per account, per hour, one row per (dimension, value) for the few
//   dimensions the overview shows, with account-wide uniques on the 'total' rows.
// Absent values are '' in keys, so keys collide on MySQL, where NULLs never do.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_rollups', (t) => {
    t.string('code_id', 32).notNullable();
    t.bigInteger('hour').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('account_id', 32).notNullable();
    t.integer('scans').notNullable();
    t.integer('unique_scans').notNullable();
    t.primary(['code_id', 'hour', 'is_bot']);
    t.index(['account_id', 'hour', 'is_bot', 'code_id', 'scans'], 'scan_rollups_account_hour_idx');
  });
  await knex.schema.createTable('scan_dimension_rollups', (t) => {
    t.string('code_id', 32).notNullable();
    t.string('dimension', 16).notNullable();
    t.bigInteger('day').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('value', 191).notNullable();
    t.integer('scans').notNullable();
    t.primary(['code_id', 'dimension', 'day', 'is_bot', 'value']);
  });
  await knex.schema.createTable('account_scan_rollups', (t) => {
    t.string('account_id', 32).notNullable();
    t.string('dimension', 16).notNullable();
    t.bigInteger('hour').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('value', 32).notNullable();
    t.integer('scans').notNullable();
    t.integer('unique_scans').notNullable();
    t.primary(['account_id', 'dimension', 'hour', 'is_bot', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_scan_rollups');
  await knex.schema.dropTable('scan_dimension_rollups');
  await knex.schema.dropTable('scan_rollups');
}
