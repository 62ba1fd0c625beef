import type { Knex } from 'knex';
import { migrations } from '../../migrations/index.ts';
import { isSqlite } from './knex.ts';

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};

/**
 * Runs migrations with SQLite's foreign keys off, checking them once at the end. Knex changes a
 * SQLite table by copying it and dropping the original; with foreign keys on, that drop cascades
 * (dropping `codes` to add a column with a reference deleted every routing rule), and the
 * PRAGMA knex sends to prevent it is ignored inside the migration's transaction. So it is set
 * here, outside any transaction, as SQLite's own procedure for schema changes says. The pool has
 * one connection, so the setting holds for the migrations. MySQL needs none of this.
 */
async function withSqliteForeignKeysDeferred<T>(db: Knex, run: () => Promise<T>): Promise<T> {
  if (!isSqlite(db)) return run();
  await db.raw('PRAGMA foreign_keys = OFF');
  try {
    const result = await run();
    const violations: unknown[] = await db.raw('PRAGMA foreign_key_check');
    if (violations.length > 0)
      throw new Error(
        `Migrations left ${violations.length} foreign key violations: ${JSON.stringify(violations.slice(0, 5))}`,
      );
    return result;
  } finally {
    await db.raw('PRAGMA foreign_keys = ON');
  }
}

/** Applies every pending migration; returns the names it applied. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await withSqliteForeignKeysDeferred(db, () =>
    db.migrate.latest({ migrationSource: source }),
  )) as [number, string[]];
  return applied;
}

/** Applies the next pending migration only (the upgrade test walks the history one step at a time). */
export async function migrateUp(db: Knex): Promise<void> {
  await withSqliteForeignKeysDeferred(db, () => db.migrate.up({ migrationSource: source }));
}

export async function migrateRollbackAll(db: Knex): Promise<void> {
  await withSqliteForeignKeysDeferred(db, () => db.migrate.rollback({ migrationSource: source }, true));
}
