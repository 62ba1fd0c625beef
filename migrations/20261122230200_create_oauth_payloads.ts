import type { Knex } from 'knex';

// The OAuth server's own records (authorization codes, refresh tokens, grants, sessions,
// interactions), one row per model and id with the library's payload as JSON, so every
// process sees the same ones. The lookups the library makes besides by id get an index each.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_payloads', (t) => {
    t.string('model', 40).notNullable();
    t.string('id', 191).notNullable();
    t.text('payload').notNullable();
    t.string('grant_id', 191).nullable();
    t.string('uid', 191).nullable();
    t.string('user_code', 191).nullable();
    t.bigInteger('expires_at').nullable();
    t.bigInteger('consumed_at').nullable();
    t.primary(['model', 'id']);
    t.index(['grant_id'], 'oauth_payloads_grant_idx');
    t.index(['model', 'uid'], 'oauth_payloads_uid_idx');
    t.index(['model', 'user_code'], 'oauth_payloads_user_code_idx');
    t.index(['expires_at'], 'oauth_payloads_expires_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_payloads');
}
