import type { Knex } from 'knex';

// The uses of each code with max_scans, claimed one at a time by the scan path with a conditional
// UPDATE (used < max_scans), so that every instance and worker shares one exact count. A row is
// made on a code's first claim, from its non-bot redirects in the rollups (what max_scans counted
// before); codes without a limit have none. No backfill: the first claim makes the same row.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('code_scan_uses', (t) => {
    t.string('code_id', 32).collate('utf8mb4_bin').primary();
    t.bigInteger('used').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_scan_uses');
}
