import type { Knex } from 'knex';

// scan_id_runs: the scan ids each committed batch wrote, as runs of consecutive ids of one process
// (scan-ids.ts: a random prefix and a counter), one row per run: usually one per batch. A scan
// replayed from the journal after its batch had committed is skipped by them, with or without a
// raw row to find its scan_id in (SCAN_RAW_ROWS=none stores none). Primary key (prefix, last_n):
// runs of one prefix never overlap, and a batch racing another writer of the same ids fails on it
// and is retried, as on scans.scan_id. Binary collation: the prefixes are case-sensitive base64url.
// The rows live as long as raw scans (raw-scan retention deletes them by `committed_at`).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_id_runs', (t) => {
    t.string('prefix', 16).collate('utf8mb4_bin').notNullable();
    t.bigInteger('last_n').notNullable();
    t.bigInteger('first_n').notNullable();
    t.bigInteger('committed_at').notNullable();
    t.primary(['prefix', 'last_n']);
    t.index(['committed_at'], 'scan_id_runs_time');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_id_runs');
}
