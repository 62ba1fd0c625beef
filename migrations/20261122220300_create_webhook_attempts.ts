import type { Knex } from 'knex';

// Every attempt of a delivery, for GET …/deliveries/:id: when, which worker, what came back.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id');
    t.string('delivery_id', 32).notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.string('worker', 100).notNullable();
    t.bigInteger('started_at').notNullable();
    t.integer('response_status').nullable();
    t.integer('duration_ms').notNullable();
    t.string('error', 500).nullable();
    t.index(['delivery_id', 'attempt'], 'webhook_attempts_delivery_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
}
