// Where analytics read: a Knex whose every statement is bounded by ANALYTICS_STATEMENT_TIMEOUT_MS,
// so that no analytics read holds the database for long, however much it asks (a year of raw
// scans, a slow plan). A statement past the bound fails; dialect.ts answers it with a 503.
// SQLite: read threads (read-thread.ts), which give a statement up past its time. MySQL/MariaDB:
// a side pool of its own, whose connections the server bounds (MariaDB's max_statement_time,
// MySQL's max_execution_time, which bounds SELECTs): analytics also take no connection that
// API writes wait for.
import type { Knex } from 'knex';
import { createReadThreads } from './read-thread.ts';
import { createSidePool, isSqlite, tellStatementsAs } from './knex.ts';

/** Connections of the MySQL reader: analytics calls run at most HEAVY_CALLS_PER_ACCOUNT per account. */
const MYSQL_READER_CONNECTIONS = 6;

/** What afterCreate uses of a mysql2 (callback) connection. */
interface MysqlConnection {
  query(sql: string, values: unknown[], done: (err: Error | null, rows?: Array<{ version: string }>) => void): void;
}

/** The session setting that bounds statements, in the server's own unit. */
function boundStatements(timeoutMs: number) {
  return (conn: MysqlConnection, done: (err: Error | null, conn: MysqlConnection) => void) => {
    conn.query('SELECT VERSION() AS version', [], (err, rows) => {
      if (err) return done(err, conn);
      const mariadb = /mariadb/i.test(rows?.[0]?.version ?? '');
      const [sql, value] = mariadb
        ? ['SET SESSION max_statement_time = ?', timeoutMs / 1000]
        : ['SET SESSION max_execution_time = ?', timeoutMs];
      conn.query(sql, [value], (setErr) => done(setErr, conn));
    });
  };
}

/** `statementTimeoutMs` 0 leaves statements unbounded. */
export function createAnalyticsReader(db: Knex, statementTimeoutMs: number): Knex {
  if (isSqlite(db)) return createReadThreads(db, statementTimeoutMs);
  const reader = createSidePool(
    db,
    MYSQL_READER_CONNECTIONS,
    statementTimeoutMs > 0 ? boundStatements(statementTimeoutMs) : undefined,
  );
  tellStatementsAs(db, reader);
  return reader;
}
