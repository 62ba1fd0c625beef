// `cli backup --to <file>` and `cli restore --from <file>` on the database DATABASE_URL names.
// SQLite: the backup is a copy of the database file (backup-sqlite.ts); MySQL/MariaDB: an SQL dump
// (backup-mysql.ts). Both are taken while the service runs and are the database as of one
// moment. A restore replaces a database's content, so it refuses one that has tables unless
// told --force; it is meant for a stopped service (docs/operations.md, Backup and restore).
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupMysql, mysqlTableCount, mysqlTarget, restoreMysql } from './backup-mysql.ts';
import { backupSqlite, restoreSqlite, sqliteTableCount } from './backup-sqlite.ts';
import { CliFailure } from './failure.ts';

export const BACKUP_USAGE = 'cli backup --to <file> [--force]';
export const RESTORE_USAGE = 'cli restore --from <file> [--force]';

const SQLITE_HEADER = 'SQLite format 3\0';

/** `--to`/`--from` and --force, or a usage message. */
function fileOption(argv: string[], name: 'to' | 'from'): { file: string; force: boolean } | string {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { [name]: { type: 'string' }, force: { type: 'boolean', default: false } },
      strict: true,
    });
    const file = values[name];
    if (typeof file !== 'string' || file === '') return `needs --${name} <file>`;
    return { file: resolve(file), force: values.force === true };
  } catch (err) {
    return (err as Error).message;
  }
}

/** Runs `command` with its file and --force; answers the exit code (2: bad arguments, failures throw CliFailure). */
async function runFileCommand(
  argv: string[],
  [verb, name, usage]: [string, 'to' | 'from', string],
  command: (file: string, force: boolean) => Promise<void>,
): Promise<number> {
  const options = fileOption(argv, name);
  if (typeof options === 'string') {
    console.error(`${verb} ${options}\nUsage: ${usage}`);
    return 2;
  }
  await command(options.file, options.force);
  return 0;
}

const sqlitePath = (databaseUrl: string) => resolve(databaseUrl.slice('sqlite:'.length));

function describe(databaseUrl: string): string {
  return databaseUrl.startsWith('sqlite:') ? `sqlite:${sqlitePath(databaseUrl)}` : mysqlTarget(databaseUrl).shown;
}

export const backup = (argv: string[], databaseUrl: string) =>
  runFileCommand(argv, ['backup', 'to', BACKUP_USAGE], (file, force) => backupTo(file, force, databaseUrl));

export const restore = (argv: string[], databaseUrl: string) =>
  runFileCommand(argv, ['restore', 'from', RESTORE_USAGE], (file, force) => restoreFrom(file, force, databaseUrl));

async function backupTo(file: string, force: boolean, databaseUrl: string): Promise<void> {
  if (databaseUrl === 'sqlite::memory:') throw new CliFailure('An in-memory database (sqlite::memory:) has no backup.');
  if (existsSync(file) && !force) throw new CliFailure(`${file} exists: pass --force to overwrite it.`);
  // Written beside the target and renamed once complete: a failed backup leaves no file that looks whole.
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    if (databaseUrl.startsWith('sqlite:')) await backupSqlite(sqlitePath(databaseUrl), partial);
    else await backupMysql(databaseUrl, partial);
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  console.log(`Backed up ${describe(databaseUrl)} to ${file} (${statSync(file).size} bytes).`);
}

/** 'sqlite' for a SQLite file, 'mysql' for an SQL dump of mariadb-dump or mysqldump. */
function backupKind(file: string): 'sqlite' | 'mysql' {
  if (!existsSync(file)) throw new CliFailure(`There is no file ${file}.`);
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(64);
  const length = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = head.subarray(0, length).toString('latin1');
  if (text.startsWith(SQLITE_HEADER)) return 'sqlite';
  // The first line mariadb-dump writes (its sandbox-mode marker, or a comment) or mysqldump's.
  if (/^(\/\*M!999999\\- enable the sandbox mode \*\/|-- (MariaDB|MySQL) dump)/.test(text)) return 'mysql';
  throw new CliFailure(`${file} is neither a SQLite database nor a MySQL/MariaDB dump made by cli backup.`);
}

async function restoreFrom(file: string, force: boolean, databaseUrl: string): Promise<void> {
  const engine = databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'mysql';
  const kind = backupKind(file);
  if (kind !== engine)
    throw new CliFailure(
      `${file} is a ${kind === 'sqlite' ? 'SQLite' : 'MySQL/MariaDB'} backup, and DATABASE_URL names a ` +
        `${engine === 'sqlite' ? 'SQLite' : 'MySQL/MariaDB'} database: a backup restores into the engine it came from.`,
    );
  if (databaseUrl === 'sqlite::memory:') throw new CliFailure('Cannot restore into an in-memory database.');
  const tables =
    engine === 'sqlite' ? sqliteTableCount(sqlitePath(databaseUrl)) : ((await mysqlTableCount(databaseUrl)) ?? 0);
  if (tables > 0 && !force)
    throw new CliFailure(
      `${describe(databaseUrl)} is not empty (${tables} tables): restoring would replace its data. Restore into ` +
        'an empty database, or pass --force to replace it (stop the service first).',
    );
  if (engine === 'sqlite') await restoreSqlite(file, sqlitePath(databaseUrl));
  else await restoreMysql(file, databaseUrl, tables > 0);
  console.log(`Restored ${file} into ${describe(databaseUrl)}.`);
}
