import type { Knex } from 'knex';

// Raw scans, append-only. No foreign key to codes: a batch must never fail because a code was
// deleted between the scan and the flush, and deleting a code must not delete its history.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scans', (t) => {
    t.bigIncrements('id');
    t.string('code_id', 32).notNullable();
    t.string('account_id', 32).notNullable();
    t.bigInteger('scanned_at').notNullable();
    t.string('rule_id', 32).nullable();
    t.string('country', 2).nullable();
    t.string('device', 16).nullable();
    t.string('os', 32).nullable();
    t.string('browser', 48).nullable();
    t.string('referrer_host', 191).nullable();
    t.string('language', 8).nullable();
    t.boolean('is_bot').notNullable();
    t.string('visitor_hash', 32).notNullable();
    // One secondary index: every index is paid on each of many inserts. Account-wide reads go
    // to rollups (the analytics work), so they need no index here.
    t.index(['code_id', 'scanned_at'], 'scans_code_time_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scans');
}
