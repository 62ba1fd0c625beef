import type { Knex } from 'knex';

// A url code's social preview (issue 36): `{ title, description, image_url }` as JSON text (codes/preview.ts),
// null for a code without. Read only with the code's row, never filtered on.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.text('preview').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('preview');
  });
}
