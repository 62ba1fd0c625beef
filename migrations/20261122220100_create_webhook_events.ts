import type { Knex } from 'knex';

// The outbox: one row per event, written in the transaction of the change (or scan batch)
// that caused it, and only when some endpoint wants it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_events', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    // The event's `data` as JSON; MEDIUMTEXT on MySQL, since a bulk event lists up to 10,000 codes.
    t.text('payload', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
    // Retention deletes old events in creation order.
    t.index(['created_at'], 'webhook_events_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_events');
}
