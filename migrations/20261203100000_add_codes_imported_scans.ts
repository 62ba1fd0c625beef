import type { Knex } from 'knex';

// Scans a code had at the service it was imported from (Bitly, Shlink, YOURLS, Kutt): one total,
// kept as history apart from the scans recorded here, which it never joins (no date, place or
// device to roll up). 0 for every code made here.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.bigInteger('imported_scans').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('imported_scans');
  });
}
