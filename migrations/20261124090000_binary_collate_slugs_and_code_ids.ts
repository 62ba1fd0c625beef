import type { Knex } from 'knex';

// Slugs and code ids are base62: `hqRxDTM` and `HQrXdtm` are different. On MySQL/MariaDB these
// columns took the database's case-insensitive collation (utf8mb4_unicode_ci), so a code also
// answered at every case variant of its slug, a new random slug collided with any case variant
// of an old one, and codes created in the same millisecond (a bulk call) were listed in another
// order than on SQLite. A binary collation makes MariaDB compare as SQLite already does.
// A foreign key needs matching collations on both ends, so each key is dropped for the change
// and added back after it. Slug columns also widen from 32 to 64 characters, for custom slugs
// (3-64 characters; random ones stay 7).
const KEYS = [
  {
    table: 'slugs',
    column: 'slug',
    length: 64,
    nullable: false,
    referencedBy: { table: 'codes', column: 'slug', nullable: true, onDelete: null },
  },
  {
    table: 'codes',
    column: 'id',
    length: 32,
    nullable: false,
    referencedBy: { table: 'routing_rules', column: 'code_id', nullable: false, onDelete: 'CASCADE' },
  },
] as const;

/** Before this migration every one of these columns was VARCHAR(32). */
const ORIGINAL_LENGTH = 32;

type Collation = 'utf8mb4_bin' | 'utf8mb4_unicode_ci';

const modify = (knex: Knex, table: string, column: string, length: number, nullable: boolean, collation: Collation) =>
  knex.raw(
    `ALTER TABLE ?? MODIFY ?? VARCHAR(${length}) CHARACTER SET utf8mb4 COLLATE ${collation} ` +
      `${nullable ? 'NULL' : 'NOT NULL'}`,
    [table, column],
  );

async function setCollation(
  knex: Knex,
  collation: Collation,
  lengthOf: (key: (typeof KEYS)[number]) => number,
): Promise<void> {
  // SQLite compares text as binary, and ignores VARCHAR lengths.
  if (knex.client.config.client === 'better-sqlite3') return;
  for (const key of KEYS) {
    const { table, column, nullable, referencedBy: by } = key;
    await knex.schema.alterTable(by.table, (t) => t.dropForeign([by.column]));
    await modify(knex, table, column, lengthOf(key), nullable, collation);
    await modify(knex, by.table, by.column, lengthOf(key), by.nullable, collation);
    await knex.schema.alterTable(by.table, (t) => {
      const key = t.foreign(by.column).references(column).inTable(table);
      if (by.onDelete) key.onDelete(by.onDelete);
    });
  }
}

export async function up(knex: Knex): Promise<void> {
  await setCollation(knex, 'utf8mb4_bin', (key) => key.length);
}

// Fails (duplicate key) once two slugs differ only in case, or (too long) once a slug has more
// than 32 characters, which is what going back would mean.
export async function down(knex: Knex): Promise<void> {
  await setCollation(knex, 'utf8mb4_unicode_ci', () => ORIGINAL_LENGTH);
}
