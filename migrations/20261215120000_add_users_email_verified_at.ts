import type { Knex } from 'knex';

// Email verification: when a user proved they read mail at their address (users.email_verified_at,
// null while not), and the single-use links mailed to prove it (email_verifications: only the
// SHA-256 of a link's token, the address it was mailed to, 24 hours).
//
// Existing users start unverified, except those single sign-on made: their identity provider
// vouched for the email (it must say email_verified), and they are the only users without a
// password (setup and invitations always set one), so the data tells them apart. Their
// verification is dated at their creation, when the provider vouched.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('email_verified_at').nullable();
  });
  await knex('users')
    .whereNull('password_hash')
    .update({ email_verified_at: knex.raw('??', ['created_at']) });
  await knex.schema.createTable('email_verifications', (t) => {
    t.string('token_hash', 64).primary();
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    // Lower-cased: the link verifies this address only, should the user's change meanwhile.
    t.string('email', 191).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['user_id'], 'email_verifications_user');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_verifications');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
  });
}
