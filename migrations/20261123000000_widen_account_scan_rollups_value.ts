import type { Knex } from 'knex';

// The account overview breaks down by OS, browser and referrer too (see the backfill after this
// one), and a referrer host is stored in up to 191 characters (scans.referrer_host), so the
// rollup's value grows from 32 to 191, the width scan_dimension_rollups.value already has. The
// primary key (account_id 32, dimension 16, hour, is_bot, value 191) is at most 965 bytes in
// utf8mb4, under InnoDB's 3,072 (and each column under the 767 of the older row formats).
// SQLite does not enforce varchar lengths; Knex rebuilds the table there so the declared
// type matches.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_scan_rollups', (t) => {
    t.string('value', 191).notNullable().alter();
  });
}

// Only values that fit in 32 characters may be left when this runs: the backfill's down
// removes the OS, browser and referrer rows first.
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_scan_rollups', (t) => {
    t.string('value', 32).notNullable().alter();
  });
}
