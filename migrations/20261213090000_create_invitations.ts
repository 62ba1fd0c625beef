import type { Knex } from 'knex';

// invitations: a person asked to join a workspace with a role, by email (the link mailed) or by a
// link to copy. Only the SHA-256 of the link's token is kept. An invitation is pending until it
// is accepted (once), revoked or past its expiry.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    // Lower-cased; null: whoever holds the link.
    t.string('email', 191).nullable();
    t.string('role', 16).notNullable();
    t.string('token_hash', 64).notNullable().unique('invitations_token_hash_unique');
    t.string('invited_by', 32).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('accepted_at').nullable();
    t.string('accepted_by', 32).nullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['account_id', 'created_at'], 'invitations_account');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invitations');
}
