import type { Knex } from 'knex';

// api_keys.created_by: who made the key (a user `user_…`, a key `key_…`, an OAuth client, or
// `cli`), so that removing a member can revoke the keys they made. Null for keys made before.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.string('created_by', 64).nullable();
    t.index(['account_id', 'created_by'], 'api_keys_account_created_by');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropIndex(['account_id', 'created_by'], 'api_keys_account_created_by');
    t.dropColumn('created_by');
  });
}
