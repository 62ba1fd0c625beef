import type { Knex } from 'knex';

// scans.scan_id: the id the scan route gives each scan before it answers (scan-ids.ts). A scan is
// journaled on disk before its redirect is answered and replayed after a crash (scan-journal.ts);
// the batch commit skips ids already stored, so a scan replayed after its batch had committed is
// not stored twice. Unique (NULLs allowed: scans stored before this, and seeded ones, have none);
// binary collation because the ids are case-sensitive base64url.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.string('scan_id', 32).collate('utf8mb4_bin').nullable().unique('scans_scan_id_unique');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropUnique(['scan_id'], 'scans_scan_id_unique');
    t.dropColumn('scan_id');
  });
}
