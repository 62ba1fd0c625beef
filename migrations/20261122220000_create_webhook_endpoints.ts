import type { Knex } from 'knex';

// Webhook endpoints. The signing secret is kept as is (it has to sign every delivery); during
// a rotation the previous one keeps signing beside it until previous_secret_expires_at.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.text('url').notNullable();
    t.string('description', 500).nullable();
    // JSON arrays: the event types, and the codes the endpoint is limited to (null: all codes).
    t.text('events').notNullable();
    t.text('code_ids').nullable();
    t.string('secret', 100).notNullable();
    t.string('previous_secret', 100).nullable();
    t.bigInteger('previous_secret_expires_at').nullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.string('disabled_reason', 500).nullable();
    t.bigInteger('disabled_at').nullable();
    // First failure since the last success; an endpoint failing for days gets disabled.
    t.bigInteger('failing_since').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // Listing (keyset by creation) and the outbox's "enabled endpoints of these accounts".
    t.index(['account_id', 'created_at', 'id'], 'webhook_endpoints_account_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_endpoints');
}
