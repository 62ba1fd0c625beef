import type { Knex } from 'knex';

// password_resets: the single-use links of "forgot your password", mailed to the user's address.
// Only the SHA-256 of a link's token is kept; a link works once and for an hour.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('password_resets', (t) => {
    t.string('token_hash', 64).primary();
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['user_id'], 'password_resets_user');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_resets');
}
