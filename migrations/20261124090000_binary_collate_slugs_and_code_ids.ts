import type { Knex } from 'knex';

// Slugs and code ids are base62: `hqRxDTM` and `HQrXdtm` are different. On MySQL/MariaDB these
// columns took the database's case-insensitive collation (utf8mb4_unicode_ci), so a code also
// answered at every case variant of its slug, a new random slug collided with any case variant
// of an old one, and codes created in the same millisecond (a bulk call) were listed in another
// order than on SQLite. A binary collation makes MariaDB compare as SQLite already does.
// A foreign key needs matching collations on both ends, so each key is dropped for the change
// and added back after it.
const KEYS = [
  { table: 'slugs', column: 'slug', nullable: false, referencedBy: { table: 'codes', column: 'slug', nullable: true, onDelete: null } },
  { table: 'codes', column: 'id', nullable: false, referencedBy: { table: 'routing_rules', column: 'code_id', nullable: false, onDelete: 'CASCADE' } },
] as const;

type Collation = 'utf8mb4_bin' | 'utf8mb4_unicode_ci';

const modify = (knex: Knex, table: string, column: string, nullable: boolean, collation: Collation) =>
  knex.raw(`ALTER TABLE ?? MODIFY ?? VARCHAR(32) CHARACTER SET utf8mb4 COLLATE ${collation} ${nullable ? 'NULL' : 'NOT NULL'}`, [table, column]);

async function setCollation(knex: Knex, collation: Collation): Promise<void> {
  if (knex.client.config.client === 'better-sqlite3') return; // SQLite compares text as binary
  for (const { table, column, nullable, referencedBy: by } of KEYS) {
    await knex.schema.alterTable(by.table, (t) => t.dropForeign([by.column]));
    await modify(knex, table, column, nullable, collation);
    await modify(knex, by.table, by.column, by.nullable, collation);
    await knex.schema.alterTable(by.table, (t) => {
      const key = t.foreign(by.column).references(column).inTable(table);
      if (by.onDelete) key.onDelete(by.onDelete);
    });
  }
}

export async function up(knex: Knex): Promise<void> {
  await setCollation(knex, 'utf8mb4_bin');
}

// Fails (duplicate key) once two slugs differ only in case, which is what going back would mean.
export async function down(knex: Knex): Promise<void> {
  await setCollation(knex, 'utf8mb4_unicode_ci');
}
