// SQLite backups: a copy of the database file made through SQLite's online backup API while the
// service keeps writing (in this process or another), and a restore that copies a backup over
// the configured file the same way.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { CliFailure } from './failure.ts';

/** What this file uses of better-sqlite3 (it has no type package here). */
interface Connection {
  pragma(sql: string, options?: { simple: boolean }): unknown;
  prepare(sql: string): { pluck(): { get(): unknown } };
  backup(to: string, options: { progress: () => number }): Promise<unknown>;
  close(): void;
}
type Driver = new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => Connection;

const Database = createRequire(import.meta.url)('better-sqlite3') as Driver;

/** Every page in one step (the most better-sqlite3 accepts). */
const ALL_PAGES = 0x7fffffff;

/**
 * The backup API copies `step` pages at a time and starts over whenever another connection
 * commits between two steps: under a steady scan flood the default 100-page steps could restart
 * forever. One step copies every page inside one read transaction, so the copy is the database
 * as of one commit; in WAL mode writers go on meanwhile.
 */
export async function backupSqlite(path: string, to: string): Promise<void> {
  if (!existsSync(path)) throw new CliFailure(`There is no SQLite database at ${path}.`);
  const source = new Database(path, { fileMustExist: true });
  try {
    await source.backup(to, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  // The copy inherits WAL mode; a backup is one file, readable without its -wal and -shm.
  const copy = new Database(to);
  try {
    copy.pragma('journal_mode = DELETE');
    checkIntegrity(copy, to);
  } finally {
    copy.close();
  }
}

function checkIntegrity(db: Connection, file: string): void {
  const result = db.pragma('quick_check', { simple: true });
  if (result !== 'ok') throw new CliFailure(`${file} fails SQLite's integrity check: ${String(result)}`);
}

/** Tables in the database at `path` (none when there is no file). */
export function sqliteTableCount(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new Database(path, { fileMustExist: true });
  try {
    return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Copies the backup `from` over the database at `path`, replacing all of it. */
export async function restoreSqlite(from: string, path: string): Promise<void> {
  const backup = new Database(from, { readonly: true, fileMustExist: true });
  try {
    checkIntegrity(backup, from);
    mkdirSync(dirname(path), { recursive: true });
    await backup.backup(path, { progress: () => ALL_PAGES });
  } finally {
    backup.close();
  }
}
