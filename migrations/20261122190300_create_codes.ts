import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('codes', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('type', 16).notNullable();
    t.text('content').notNullable();
    // Only the design fields the client set, as JSON; defaults are applied when presenting,
    // so a later change (say, adding a logo) can still move an unset default.
    t.text('design').notNullable();
    t.boolean('routing_enabled').notNullable().defaultTo(false);
    // Null for static codes, whose image encodes their content directly and has no scan URL.
    t.string('slug', 32).nullable().unique().references('slug').inTable('slugs');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // Keyset pagination per sort order: (account, sort key, id) serves both directions.
    t.index(['account_id', 'created_at', 'id'], 'codes_account_created_idx');
    t.index(['account_id', 'updated_at', 'id'], 'codes_account_updated_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('codes');
}
