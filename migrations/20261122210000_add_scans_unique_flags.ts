import type { Knex } from 'knex';

// Whether a scan was its visitor's first of the UTC day, for its code and for its account.
// Deciding it once, when the batch is written, makes unique counts additive: the uniques of a
// week are the sum of its days, whether read from raw scans or from rollups.
// The account index serves analytics that cannot be answered from hourly rollups (time zones
// whose offset is not a whole hour) and raw-versus-rollup comparisons.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.boolean('is_unique').notNullable().defaultTo(false);
    t.boolean('is_account_unique').notNullable().defaultTo(false);
    t.index(['account_id', 'scanned_at'], 'scans_account_time_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropIndex(['account_id', 'scanned_at'], 'scans_account_time_idx');
    t.dropColumn('is_unique');
    t.dropColumn('is_account_unique');
  });
}
