import type { Knex } from 'knex';

// What a verified own domain serves at /.well-known/ so that phones open an app for its links:
// - domains.apple_app_site_association: the apple-app-site-association file's JSON (iOS universal links);
// - domains.assetlinks: the assetlinks.json statements (Android App Links).
// JSON text, validated on the way in (domains/well-known.ts); null serves a 404.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('domains', (t) => {
    t.text('apple_app_site_association').nullable();
    t.text('assetlinks').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('domains', (t) => {
    t.dropColumn('assetlinks');
    t.dropColumn('apple_app_site_association');
  });
}
