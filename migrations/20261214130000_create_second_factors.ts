import type { Knex } from 'knex';

// The TOTP second factor: a user's authenticator secret (one a user; unconfirmed until a code from
// it was entered, and only then asked for at sign-in), the last time step whose code was used (a
// code is refused again within its window), the user's single-use recovery codes (only their
// SHA-256 kept) and the challenges of sign-ins whose password was right and whose code is awaited.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_totp', (t) => {
    t.string('user_id', 32).primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('secret', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('confirmed_at').nullable();
    t.bigInteger('last_used_step').nullable();
  });
  await knex.schema.createTable('recovery_codes', (t) => {
    t.string('code_hash', 64).primary();
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['user_id'], 'recovery_codes_user');
  });
  await knex.schema.createTable('sign_in_challenges', (t) => {
    t.string('token_hash', 64).primary();
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.integer('failures').notNullable().defaultTo(0);
    t.index(['user_id'], 'sign_in_challenges_user');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_in_challenges');
  await knex.schema.dropTable('recovery_codes');
  await knex.schema.dropTable('user_totp');
}
