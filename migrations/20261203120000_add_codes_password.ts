import type { Knex } from 'knex';

// Password-protected codes:
// - codes.password_hash: the argon2id hash (PHC string, about 100 characters) of the password a
//   scan must give before it redirects; null for a code without one (every existing code).
// - code_locked_views: how many times a protected code's unlock page was shown, per UTC day. A
//   locked view is not a scan: it adds nothing to scans or rollups, only to this counter, written
//   with the scan batch that carried it (one upsert per code, day and bot flag of a batch).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.string('password_hash', 191).nullable();
  });
  await knex.schema.createTable('code_locked_views', (t) => {
    t.string('code_id', 32).collate('utf8mb4_bin').notNullable();
    t.bigInteger('day').notNullable();
    t.boolean('is_bot').notNullable();
    t.string('account_id', 32).notNullable();
    t.bigInteger('views').notNullable();
    t.primary(['code_id', 'day', 'is_bot']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('code_locked_views');
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('password_hash');
  });
}
