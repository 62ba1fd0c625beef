import type { Knex } from 'knex';

// A code's own title and free-text notes, so that people telling hundreds of codes apart need
// not read ids. Both optional: existing codes have none, and the dashboard shows the content
// where a code has no name.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.string('name', 200).nullable();
    t.text('notes').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('name');
    t.dropColumn('notes');
  });
}
