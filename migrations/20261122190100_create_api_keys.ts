import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('name', 191).notNullable();
    // The first characters of the key, kept so people can tell their keys apart.
    t.string('prefix', 32).notNullable();
    // SHA-256 of the whole key, hex. The key itself is never stored.
    t.string('secret_hash', 64).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at').nullable();
    t.bigInteger('expires_at').nullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}
