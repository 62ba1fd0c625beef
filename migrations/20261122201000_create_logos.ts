import type { Knex } from 'knex';

// Logos fetched once when a design gets a logo_url, keyed by the SHA-256 of their bytes so
// codes sharing a logo share one row. Rendering reads them from here, never from the network.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('logos', (t) => {
    t.string('id', 64).primary();
    t.string('content_type', 32).notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    // Base64 in a text column: portable across both engines; MEDIUMTEXT on MySQL holds 16 MiB.
    t.text('data_base64', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.alterTable('codes', (t) => {
    t.string('logo_id', 64).nullable().references('id').inTable('logos');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropForeign(['logo_id']);
    t.dropColumn('logo_id');
  });
  await knex.schema.dropTable('logos');
}
