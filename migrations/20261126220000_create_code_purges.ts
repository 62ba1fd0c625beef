import type { Knex } from 'knex';

// Deleted codes whose raw scans and rollups are still being purged. A row is written
// in the transaction that deletes the code; the purge (scans/purge.ts) removes the code's raw
// scans in small batches, subtracting each batch from the account's rollups as it goes, then
// the code's own rollups, and sets purged_at. While purged_at is null, the account overview
// subtracts what of the code is left, so its answers do not move while the purge runs.
// Rows stay once purged: a small record of what was deleted and when (code ids are random and
// never reused, so a code id names one code for good).
//
// No index on scans.scanned_at for raw-scan retention: every index is paid on each of many
// inserts, and the (account_id, scanned_at) index already finds an account's old scans, whose
// primary keys the retention then deletes in small batches.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('code_purges', (t) => {
    t.string('code_id', 32).collate('utf8mb4_bin').primary();
    t.string('account_id', 32).notNullable();
    t.bigInteger('deleted_at').notNullable();
    t.bigInteger('purged_at').nullable();
    t.index(['account_id', 'purged_at'], 'code_purges_account_idx');
    t.index(['purged_at', 'deleted_at'], 'code_purges_pending_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_purges');
}
