import type { Knex } from 'knex';

// One delivery per event per endpoint: its state, the next attempt's time, and the claim of
// the worker sending it. While a worker holds it (status 'delivering') next_attempt_at is the
// end of its lease, so a crashed worker's delivery becomes due again by itself.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 32).primary();
    t.string('event_id', 32).notNullable().references('id').inTable('webhook_events').onDelete('CASCADE');
    t.string('endpoint_id', 32).notNullable().references('id').inTable('webhook_endpoints').onDelete('CASCADE');
    t.string('status', 16).notNullable(); // pending | delivering | succeeded | failed | paused
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at').nullable();
    t.string('locked_by', 100).nullable();
    t.bigInteger('last_attempt_at').nullable();
    t.integer('last_response_status').nullable();
    t.integer('last_duration_ms').nullable();
    t.string('last_error', 500).nullable();
    t.bigInteger('delivered_at').nullable();
    t.bigInteger('created_at').notNullable();
    // The workers' claim: due rows of a status, oldest first.
    t.index(['status', 'next_attempt_at'], 'webhook_deliveries_due_idx');
    // An endpoint's deliveries, newest first (keyset).
    t.index(['endpoint_id', 'created_at', 'id'], 'webhook_deliveries_endpoint_idx');
    t.index(['event_id'], 'webhook_deliveries_event_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
}
