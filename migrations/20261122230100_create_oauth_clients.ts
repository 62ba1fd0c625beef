import type { Knex } from 'knex';

// OAuth clients an account registered. Like API keys, only a SHA-256 of the client secret is
// kept. JSON arrays: the scopes the client may ever be given, its redirect URIs and grant types.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_clients', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('name', 191).notNullable();
    t.string('secret_hash', 64).notNullable();
    t.string('secret_prefix', 32).notNullable();
    t.text('scopes').notNullable();
    t.text('redirect_uris').notNullable();
    t.text('grant_types').notNullable();
    t.string('token_endpoint_auth_method', 32).notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['account_id', 'created_at'], 'oauth_clients_account_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_clients');
}
