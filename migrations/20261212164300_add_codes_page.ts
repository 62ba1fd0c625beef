import type { Knex } from 'knex';

// A url code's hosted page (issue 36): codes.page, JSON text `{ kind, ... }` (codes/page.ts), null
// for a code that redirects. Read only with the code's row (never filtered on), like app_links.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.text('page').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('page');
  });
}
