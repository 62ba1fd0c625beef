import type { Knex } from 'knex';

// locked_view_ids: the ids of the locked views counted in code_locked_views. A locked view is
// journaled before its unlock page is answered, like a scan, and a journal replayed after its
// batch had committed would count it again; the batch commit skips the ids stored here, as it
// skips stored scans by scans.scan_id. The ids live as long as raw scans (raw-scan retention
// deletes them by `viewed_at`; a purged code's go with its counts). Binary collation: the ids are
// case-sensitive base64url.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('locked_view_ids', (t) => {
    t.string('view_id', 32).collate('utf8mb4_bin').primary();
    t.string('code_id', 32).collate('utf8mb4_bin').notNullable();
    t.bigInteger('viewed_at').notNullable();
    t.index(['code_id'], 'locked_view_ids_code');
    t.index(['viewed_at'], 'locked_view_ids_time');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('locked_view_ids');
}
