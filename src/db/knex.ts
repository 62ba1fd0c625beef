// Builds the Knex instance for either dialect from DATABASE_URL.
import { mkdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import knex, { type Knex } from 'knex';
import BetterSqlite3Dialect from 'knex/lib/dialects/better-sqlite3/index.js';
import { takeTurn } from '../shared/turns.ts';
import { patientLookup } from './patient-lookup.ts';

export type Db = Knex;

/** `sqlite:<path>` (`sqlite::memory:` too) or `mysql://user:pass@host:port/db`. */
export function createDb(databaseUrl: string): Knex {
  if (databaseUrl.startsWith('sqlite:')) return createSqlite(databaseUrl.slice('sqlite:'.length));
  if (databaseUrl.startsWith('mysql://')) return createMysql(databaseUrl);
  throw new Error(`Unsupported DATABASE_URL scheme: ${databaseUrl.split(':')[0]}`);
}

/**
 * Knex's own messages (a failed connection attempt, a deprecation) go to stderr: its default is
 * console.log, which would mix plain text into the JSON log on stdout and into what the CLI prints
 * for scripts to capture (the key of `keys create`).
 */
const toStderr = (message: unknown) => console.error(message);
const KNEX_LOG: Knex.Config['log'] = { warn: toStderr, error: toStderr, deprecate: toStderr, debug: toStderr };

/** The SQLite function that lower-cases as JavaScript does (search uses it: dialect.ts). */
export const SQLITE_UNICODE_LOWER = 'unicode_lower';

/** What afterCreate uses of a better-sqlite3 connection. */
interface SqliteConnection {
  pragma(sql: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

const BetterSqlite3Client = BetterSqlite3Dialect as new (config: Knex.Config) => {
  _query(connection: unknown, obj: unknown): Promise<unknown>;
};

/** A statement that writes: once one ran in a transaction, the transaction holds SQLite's write lock. */
const WRITES = /^\s*(insert|update|delete|replace)\b/i;

/**
 * better-sqlite3 runs each statement synchronously on the thread that answers scans, and Knex
 * chains a transaction's statements through promises, which never let I/O in: a bulk call's
 * transaction of 10,000 codes held the thread for seconds. Each statement here starts with a turn
 * check (shared/turns.ts), so such a chain lets waiting scans through every few milliseconds.
 * The one connection stays with the transaction meanwhile; other statements queue for it as
 * before. A subclass, since Knex makes a transaction's client from the client's class.
 * Inside a transaction it takes turns only once the transaction has written: before that, a turn
 * would widen the gap between its reads and its first write, and a commit by another process in
 * that gap makes SQLite refuse the write at once (SQLITE_BUSY, without waiting): two instances on
 * one file saw PATCH answer 503 that way.
 */
class TurnTakingSqliteClient extends BetterSqlite3Client {
  override async _query(connection: unknown, obj: unknown): Promise<unknown> {
    const conn = connection as SqliteTransactionState;
    if (!conn.inTransaction) wroteInTransaction.delete(conn);
    if (!conn.inTransaction || wroteInTransaction.has(conn)) await takeTurn();
    const result = await super._query(connection, obj);
    if (conn.inTransaction && WRITES.test((obj as { sql?: string }).sql ?? '')) wroteInTransaction.add(conn);
    return result;
  }
}

/** better-sqlite3's own flag: whether the connection is inside a transaction now. */
interface SqliteTransactionState {
  readonly inTransaction: boolean;
}
/** Connections whose current transaction has written (holds the write lock). */
const wroteInTransaction = new WeakSet<SqliteTransactionState>();

function createSqlite(path: string): Knex {
  const filename = path === ':memory:' ? path : resolve(path);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = knex({
    client: TurnTakingSqliteClient as unknown as typeof knex.Client,
    log: KNEX_LOG,
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and a single connection keeps
    // transactions from waiting on each other's file locks.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        // SQLite's lower() and LIKE fold ASCII letters only; search lower-cases as MariaDB does (dialect.ts).
        conn.function(SQLITE_UNICODE_LOWER, { deterministic: true }, (value: unknown) =>
          typeof value === 'string' ? value.toLowerCase() : value,
        );
        done(null, conn);
      },
    },
  });
  // Shipped migrations tell the dialect by this name.
  db.client.config.client = 'better-sqlite3';
  return db;
}

/** How long a MySQL pool keeps an unused connection; anything in between must allow longer. */
export const MYSQL_POOL_IDLE_MS = 10_000;

/** What a `mysql://user:pass@host:port/db` URL names (the pool's settings, the backup tools' arguments). */
export function mysqlConnectionOf(databaseUrl: string) {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined,
  };
}

/** The socket of a new MySQL connection, as mysql2 opens it but for the lookup of its host. */
function connectPatiently({
  config,
}: {
  config: { host: string; port: number; keepAliveInitialDelay?: number };
}): Socket {
  const socket = connect({ host: config.host, port: config.port, lookup: PATIENT_LOOKUP });
  socket.once('connect', () => socket.setKeepAlive(true, config.keepAliveInitialDelay ?? 0));
  return socket.setNoDelay(true);
}
const PATIENT_LOOKUP = patientLookup();

function createMysql(databaseUrl: string): Knex {
  return knex({
    client: 'mysql2',
    log: KNEX_LOG,
    connection: {
      ...mysqlConnectionOf(databaseUrl),
      timezone: 'Z',
      charset: 'utf8mb4',
      decimalNumbers: true,
      supportBigNumbers: true,
      // mysql2's own socket, but for the host's address: asked patiently (patient-lookup.ts).
      stream: connectPatiently,
    },
    // Idle connections close after 10 s: proxies and firewalls between us and the database cut
    // idle connections too (HAProxy's examples use 30 s), and a connection cut while the pool
    // hands it out fails its query. Closing well before them makes the pool's close the one that
    // happens.
    pool: { min: 0, max: 10, idleTimeoutMillis: MYSQL_POOL_IDLE_MS },
  });
}

/**
 * A second, small pool on the same MySQL database (on SQLite, `db` itself: one connection, one
 * transaction at a time). For reads that a transaction holding row locks waits for: from its own
 * pool they could wait for connections held by requests that wait on those locks.
 */
export function createSidePool(db: Knex, max = 2, afterCreate?: Knex.PoolConfig['afterCreate']): Knex {
  if (isSqlite(db)) return db;
  return knex({ ...db.client.config, pool: { min: 0, max, idleTimeoutMillis: MYSQL_POOL_IDLE_MS, afterCreate } });
}

/** The events a Knex tells its statements by. */
const QUERY_EVENTS = ['query', 'query-error', 'query-response'] as const;

/**
 * `other`'s statements told as `db`'s own: whoever watches db's statements (a query log, the
 * tests and benches that count them) sees a reader's too.
 */
export function tellStatementsAs(db: Knex, other: Knex): void {
  for (const event of QUERY_EVENTS) other.on(event, (...args: unknown[]) => db.emit(event, ...args));
}

/** By the driver, not the configured client: the read threads' client (read-thread.ts) is a subclass. */
export function isSqlite(db: Knex): boolean {
  return db.client.driverName === 'better-sqlite3';
}
