import type { Knex } from 'knex';

// Hourly rollups, maintained by the scan writer in the same transaction as the raw rows.
// scan_rollups: per code, per UTC hour, per combination of the breakdown dimensions (absent
// values are '' so the key can collide on MySQL, where NULLs never do). `dims` is a short hash
// of the combination, keeping the primary key narrow. Per-code series and breakdowns read it.
// account_scan_rollups: per account, per hour, one row per (dimension, value) for the few
// dimensions the overview shows, with account-wide uniques on the 'total' rows.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_rollups', (t) => {
    t.string('code_id', 32).notNullable();
    t.bigInteger('hour').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('dims', 16).notNullable();
    t.string('account_id', 32).notNullable();
    t.string('rule_id', 32).notNullable();
    t.string('country', 2).notNullable();
    t.string('device', 16).notNullable();
    t.string('os', 32).notNullable();
    t.string('browser', 48).notNullable();
    t.string('referrer_host', 191).notNullable();
    t.string('language', 8).notNullable();
    t.integer('scans').notNullable();
    t.integer('unique_scans').notNullable();
    t.primary(['code_id', 'hour', 'is_bot', 'dims']);
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
  await knex.schema.dropTable('scan_rollups');
}
