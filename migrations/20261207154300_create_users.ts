import type { Knex } from 'knex';

// People: users, their memberships of accounts (the workspaces, keeping `acct_…` ids), their
// server-side sessions, and the one-time setup tokens that create the first owner. Passkeys and
// second factors will sit in a `user_credentials` table of their own (one row a credential), so
// `users.password_hash` is only the password and may be null (a user who signs in otherwise).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.string('id', 32).primary();
    t.string('email', 191).notNullable();
    // Lower-cased: unique case-insensitively on both engines, whatever the column's collation.
    t.string('email_lower', 191).notNullable().unique('users_email_lower_unique');
    t.string('display_name', 100).notNullable();
    t.string('password_hash', 255).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('memberships', (t) => {
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    // The workspace a cookie request acts in without a Qr-Workspace header: the latest used.
    t.bigInteger('last_used_at').notNullable();
    t.primary(['user_id', 'account_id']);
    t.index(['account_id', 'created_at'], 'memberships_account_idx');
  });
  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 32).primary();
    // SHA-256 of the cookie's token: the token itself is never stored.
    t.string('token_hash', 64).notNullable().unique('sessions_token_hash_unique');
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_seen_at').notNullable();
    // The absolute end; the idle end is last_seen_at + SESSION_IDLE_DAYS.
    t.bigInteger('expires_at').notNullable();
    t.string('user_agent', 255).nullable();
    // The sign-in's address as the scans hash visitors (a daily-salted HMAC).
    t.string('address_hash', 64).nullable();
    t.index(['user_id', 'created_at'], 'sessions_user_idx');
  });
  await knex.schema.createTable('setup_tokens', (t) => {
    t.string('token_hash', 64).primary();
    // Set by the CLI: the email the new user must have, the account they join.
    t.string('email', 191).nullable();
    t.string('account_id', 32).nullable().references('id').inTable('accounts').onDelete('CASCADE');
    // The role the new user gets in that account (owner for the first run).
    t.string('role', 16).notNullable().defaultTo('owner');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('setup_tokens');
  await knex.schema.dropTable('sessions');
  await knex.schema.dropTable('memberships');
  await knex.schema.dropTable('users');
}
