import type { Knex } from 'knex';

// App links and UTM fields on url codes (issue 36), each JSON text, null for a code without:
// - codes.app_links: `{ ios, android }`, each `{ link, store_url, open_custom_scheme }` or null
//   (codes/app-links.ts): where a scan from that OS goes when no routing rule matched.
// - codes.utm: `{ utm_source, ... }` (codes/utm.ts): merged into the destination at scan time.
// Both are read only with the code's row (never filtered on), so JSON text is enough.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.text('app_links').nullable();
    t.text('utm').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('utm');
    t.dropColumn('app_links');
  });
}
