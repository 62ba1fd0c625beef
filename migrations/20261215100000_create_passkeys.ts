import type { Knex } from 'knex';

// Passkeys (WebAuthn credentials) of users, and the challenges of their ceremonies. A credential
// id may be up to 1,023 bytes, longer than an indexable varchar on MariaDB (191 characters of
// utf8mb4), so it is kept whole in a text column and found by its SHA-256 (unique). The public
// key is the COSE key the authenticator gave, base64url. Challenges live in a table rather than in
// memory or the session: passkey sign-in has no session yet, and every process of a cluster must
// find the challenge another one handed out; deleting its row is what uses it up (once).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('passkeys', (t) => {
    t.string('id', 32).primary();
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('credential_id_hash', 64).notNullable().unique('passkeys_credential_id_hash');
    t.text('credential_id').notNullable();
    t.text('public_key').notNullable();
    t.bigInteger('counter').notNullable().defaultTo(0);
    t.string('transports', 255).notNullable().defaultTo('[]');
    t.string('name', 100).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at').nullable();
    t.index(['user_id'], 'passkeys_user');
  });
  await knex.schema.createTable('passkey_challenges', (t) => {
    t.string('challenge_hash', 64).primary();
    t.string('purpose', 16).notNullable();
    t.string('user_id', 32).nullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at'], 'passkey_challenges_expires');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('passkey_challenges');
  await knex.schema.dropTable('passkeys');
}
