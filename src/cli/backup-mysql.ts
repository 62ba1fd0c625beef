// MySQL/MariaDB backups through the server's own tools, found on PATH: mariadb-dump (or
// mysqldump) writes a consistent dump, and the mariadb (or mysql) client loads it back. The
// password goes to them in MYSQL_PWD, never on a command line that `ps` shows.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { createDb, mysqlConnectionOf } from '../db/knex.ts';
import { CliFailure } from './failure.ts';

interface Target {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** The URL without its password, for messages. */
  shown: string;
}

export function mysqlTarget(databaseUrl: string): Target {
  const { database, ...connection } = mysqlConnectionOf(databaseUrl);
  if (!database) throw new CliFailure('DATABASE_URL names no database (mysql://user@host:3306/<database>).');
  const shown = new URL(databaseUrl);
  shown.password = '';
  return { ...connection, database, shown: shown.toString() };
}

/** The first of `names` on PATH. */
function tool(names: string[]): string {
  const found = names.find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);
  if (!found)
    throw new CliFailure(`Neither ${names.join(' nor ')} is on PATH (Debian: apt-get install mariadb-client).`);
  return found;
}

/** Runs `command` with stdin or stdout on `file`; fails with its stderr when it exits non-zero. */
async function runWithFile(command: string, args: string[], target: Target, file: string, flags: 'r' | 'w') {
  const fd = openSync(file, flags);
  try {
    const child = spawn(command, args, {
      env: { ...process.env, MYSQL_PWD: target.password },
      stdio: flags === 'r' ? [fd, 'ignore', 'pipe'] : ['ignore', fd, 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const [code] = await once(child, 'close');
    if (code !== 0) throw new CliFailure(`${command} exited ${code}: ${stderr.trim()}`);
  } finally {
    closeSync(fd);
  }
}

const connectionArgs = (t: Target) => [`--host=${t.host}`, `--port=${t.port}`, `--user=${t.user}`];

/**
 * One transaction (--single-transaction: InnoDB's consistent snapshot, no table locks), so the
 * dump is the database as of one moment while the service writes; binary columns as hex, so the
 * file is plain text.
 */
export async function backupMysql(databaseUrl: string, to: string): Promise<void> {
  const target = mysqlTarget(databaseUrl);
  const args = [
    ...connectionArgs(target),
    '--single-transaction',
    '--skip-lock-tables',
    '--no-tablespaces',
    '--hex-blob',
    '--default-character-set=utf8mb4',
    target.database,
  ];
  await runWithFile(tool(['mariadb-dump', 'mysqldump']), args, target, to, 'w');
}

/** Tables in the target database, or null when the database does not exist. */
export async function mysqlTableCount(databaseUrl: string): Promise<number | null> {
  const target = mysqlTarget(databaseUrl);
  const server = serverOf(databaseUrl);
  try {
    const [schemas] = await server.raw('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [
      target.database,
    ]);
    if ((schemas as unknown[]).length === 0) return null;
    const [[row]] = await server.raw('SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = ?', [
      target.database,
    ]);
    return Number((row as { n: number }).n);
  } finally {
    await server.destroy();
  }
}

/** A connection to the server of `databaseUrl`, on no database. */
function serverOf(databaseUrl: string) {
  const url = new URL(databaseUrl);
  url.pathname = '/';
  return createDb(url.toString());
}

/**
 * Loads the dump into the database (created when missing); with `replace`, every table in it
 * is dropped first, so tables the dump lacks do not outlive the restore.
 */
export async function restoreMysql(from: string, databaseUrl: string, replace: boolean): Promise<void> {
  const target = mysqlTarget(databaseUrl);
  const server = serverOf(databaseUrl);
  try {
    await server.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [
      target.database,
    ]);
    if (replace) {
      const [rows] = await server.raw(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ?',
        [target.database],
      );
      const tables = (rows as { name: string }[]).map((row) => `${target.database}.${row.name}`);
      // One connection: the foreign key setting is the session's.
      if (tables.length > 0)
        await server.transaction(async (trx) => {
          await trx.raw('SET FOREIGN_KEY_CHECKS = 0');
          await trx.raw(`DROP TABLE ${tables.map(() => '??').join(', ')}`, tables);
        });
    }
  } finally {
    await server.destroy();
  }
  await runWithFile(tool(['mariadb', 'mysql']), [...connectionArgs(target), target.database], target, from, 'r');
}
