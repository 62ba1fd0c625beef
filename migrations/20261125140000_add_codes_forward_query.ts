import type { Knex } from 'knex';

// UTM passthrough: a code with forward_query appends the scan URL's query string to the
// destination its scan goes to. Off for every code that exists (their scans go where they went).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.boolean('forward_query').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('forward_query');
  });
}
