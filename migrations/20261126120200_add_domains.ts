import type { Knex } from 'knex';

// Accounts' own short domains. A code on a custom domain is scanned at
// https://<hostname>/<slug>, so slugs become unique per domain: `slugs` and `codes` gain a
// `domain` column (the hostname, or '' for the service's own domain: never NULL, so the unique
// keys work alike on both engines), slugs' key becomes (domain, slug) and codes' reference to it
// follows. Every existing slug and code is on the default domain ('') and keeps its scan URL.
// Slugs are reserved per hostname rather than per domain record: a printed code names the
// hostname, so a slug once used there is never handed out again there, even after the domain
// was removed and registered anew.
//
// Hostnames are ASCII (IDNs are stored as punycode): ascii_bin on MariaDB keeps the
// (domain, slug) keys small and compares them byte for byte, like SQLite.
const HOST = 253;
const HOST_COLLATION = 'ascii_bin';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('domains', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('hostname', HOST).collate(HOST_COLLATION).notNullable().unique();
    t.string('status', 16).notNullable();
    // The value of the TXT record that proves control: qr-verify=<token>.
    t.string('token', 64).notNullable();
    t.text('fallback_url').nullable();
    t.bigInteger('verified_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['account_id', 'created_at', 'id'], 'domains_account_created_idx');
  });
  await knex.schema.alterTable('codes', (t) => {
    t.dropForeign(['slug']);
  });
  await knex.schema.alterTable('slugs', (t) => {
    t.string('domain', HOST).collate(HOST_COLLATION).notNullable().defaultTo('');
  });
  await knex.schema.alterTable('slugs', (t) => {
    t.dropPrimary();
    t.primary(['domain', 'slug']);
  });
  await knex.schema.alterTable('codes', (t) => {
    t.string('domain', HOST).collate(HOST_COLLATION).notNullable().defaultTo('');
  });
  await knex.schema.alterTable('codes', (t) => {
    t.dropUnique(['slug']);
    t.unique(['domain', 'slug'], { indexName: 'codes_domain_slug_unique' });
    t.foreign(['domain', 'slug'], 'codes_domain_slug_foreign').references(['domain', 'slug']).inTable('slugs');
  });
}

// Fails (duplicate key) once one slug is used on two domains, which is what going back would mean.
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('codes', (t) => {
    t.dropForeign(['domain', 'slug'], 'codes_domain_slug_foreign');
  });
  await knex.schema.alterTable('codes', (t) => {
    t.dropUnique(['domain', 'slug'], 'codes_domain_slug_unique');
    t.unique(['slug']);
  });
  await knex.schema.alterTable('codes', (t) => {
    t.dropColumn('domain');
  });
  await knex.schema.alterTable('slugs', (t) => {
    t.dropPrimary();
    t.primary(['slug']);
  });
  await knex.schema.alterTable('slugs', (t) => {
    t.dropColumn('domain');
  });
  await knex.schema.alterTable('codes', (t) => {
    t.foreign('slug').references('slug').inTable('slugs');
  });
  await knex.schema.dropTable('domains');
}
