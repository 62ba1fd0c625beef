import type { Knex } from 'knex';

// Slugs are base62: `hqRxDTM` and `HQrXdtm` are different slugs. On MySQL/MariaDB the slug
// columns took the database's case-insensitive collation (utf8mb4_unicode_ci), so a code also
// answered at every case variant of its slug and a new random slug collided with any case
// variant of an old one. A binary collation makes MariaDB compare as SQLite already does.
// Both columns change together: codes.slug references slugs.slug, and a foreign key needs
// matching collations, so the key is dropped for the change and added back after it.
const SLUG_COLUMNS = [
  { table: 'slugs', nullability: 'NOT NULL' },
  { table: 'codes', nullability: 'NULL' },
] as const;

async function setSlugCollation(knex: Knex, collation: 'utf8mb4_bin' | 'utf8mb4_unicode_ci'): Promise<void> {
  if (knex.client.config.client === 'better-sqlite3') return; // SQLite compares text as binary
  await knex.schema.alterTable('codes', (t) => t.dropForeign(['slug']));
  for (const { table, nullability } of SLUG_COLUMNS) {
    await knex.raw(`ALTER TABLE ?? MODIFY ?? VARCHAR(32) CHARACTER SET utf8mb4 COLLATE ${collation} ${nullability}`, [table, 'slug']);
  }
  await knex.schema.alterTable('codes', (t) => t.foreign('slug').references('slug').inTable('slugs'));
}

export async function up(knex: Knex): Promise<void> {
  await setSlugCollation(knex, 'utf8mb4_bin');
}

// Fails (duplicate key) once two slugs differ only in case, which is what going back would mean.
export async function down(knex: Knex): Promise<void> {
  await setSlugCollation(knex, 'utf8mb4_unicode_ci');
}
