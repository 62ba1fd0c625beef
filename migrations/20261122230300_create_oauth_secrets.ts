import type { Knex } from 'knex';

// The OAuth server's signing key (a private JWK) and cookie key, made by the first process
// that needs them and shared by every process on the database, so a token signed by one
// verifies in all and a consent started on one can finish on another.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_secrets', (t) => {
    t.string('id', 32).primary();
    t.text('value').notNullable();
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_secrets');
}
