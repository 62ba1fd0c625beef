import type { Knex } from 'knex';

// Idempotency-Key records (IETF draft): the first answer to a key is kept for 24 hours and
// replayed to a retry with the same body; the primary key makes concurrent twins collide.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('account_id', 32).notNullable();
    t.string('key', 191).notNullable();
    t.string('request_hash', 64).notNullable();
    t.string('state', 8).notNullable(); // running | done
    t.integer('response_status').nullable();
    t.text('response_body', 'mediumtext').nullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['account_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
