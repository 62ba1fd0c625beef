// The few places where MySQL/MariaDB and SQLite differ, each behind one named helper.
import type { Knex } from 'knex';
import { DomainError } from '../shared/errors.ts';
import { isSqlite, SQLITE_UNICODE_LOWER } from './knex.ts';
import { STATEMENT_TIMEOUT_CODE } from './statement-timeout.ts';

/** True when a driver's error has one of these codes or MySQL error numbers. */
function isDriverError(err: unknown, codes: readonly string[], errnos: readonly number[]): boolean {
  const e = err as { code?: string; errno?: number } | null;
  return (e?.code !== undefined && codes.includes(e.code)) || (e?.errno !== undefined && errnos.includes(e.errno));
}

/** True when the error is a unique-key violation, whichever driver raised it. */
export function isUniqueViolation(err: unknown): boolean {
  // mysql2: ER_DUP_ENTRY (1062); better-sqlite3: SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY.
  return isDriverError(err, ['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'], [1062]);
}

/** How long a client whose read was stopped is asked to wait: the load that slowed it may pass. */
const RETRY_AFTER_TIMEOUT_S = 5;

/**
 * What a request the database turned away is answered (REST and GraphQL), a 503 either way: a
 * transaction that lost to a concurrent one changed nothing and may be sent again; a read that
 * ran past its statement timeout (analytics-reader.ts) was stopped. Null for any other error.
 */
export function databaseRefusal(err: unknown): DomainError | null {
  if (isWriteConflict(err))
    return new DomainError(
      'unavailable',
      'The request lost to a concurrent change of the same data and changed nothing; send it again.',
      undefined,
      1,
    );
  if (isStatementTimeout(err))
    return new DomainError(
      'unavailable',
      'The query ran longer than the statement timeout allows (ANALYTICS_STATEMENT_TIMEOUT_MS) and was stopped, ' +
        `so that it would not hold the database. Retry in ${RETRY_AFTER_TIMEOUT_S} s, or ask for a shorter range.`,
      undefined,
      RETRY_AFTER_TIMEOUT_S,
    );
  return null;
}

/**
 * A statement stopped past its time: MariaDB's max_statement_time (ER_STATEMENT_TIMEOUT, 1969),
 * MySQL's max_execution_time (ER_QUERY_TIMEOUT, 3024), the SQLite read threads' own bound.
 */
export function isStatementTimeout(err: unknown): boolean {
  return isDriverError(err, ['ER_STATEMENT_TIMEOUT', 'ER_QUERY_TIMEOUT', STATEMENT_TIMEOUT_CODE], [1969, 3024]);
}

/**
 * A transaction that lost to a concurrent one and may simply be retried: InnoDB's deadlock and
 * lock wait timeout, which is also how Galera reports a certification conflict (a write set
 * another node committed first), and SQLite's busy database.
 */
export function isWriteConflict(err: unknown): boolean {
  // ER_LOCK_DEADLOCK (1213), ER_LOCK_WAIT_TIMEOUT (1205).
  // SQLITE_BUSY_SNAPSHOT: a transaction that read before another connection's commit may not write.
  return isDriverError(
    err,
    ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT'],
    [1213, 1205],
  );
}

/**
 * LIKE pattern for "contains", with the wildcard characters of the needle escaped.
 * Use with `whereRaw('col LIKE ? ESCAPE ?', [pattern, LIKE_ESCAPE])`: SQLite has no
 * default escape character, so it is always named.
 */
export function containsPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
export const LIKE_ESCAPE = '\\';

/**
 * `column` contains `needle`, ignoring case (Unicode lower-casing) but not accents, the same on
 * both engines: MariaDB's utf8mb4_unicode_ci would also fold accents (cafe = café, ss = ß), and
 * SQLite's LIKE folds ASCII letters only. So both sides are lower-cased and compared exactly.
 * The one known difference: MariaDB's LOWER and JavaScript's toLowerCase disagree on a few
 * special cases (a dotted capital I lowers to two code points in JavaScript).
 */
export function whereContainsIgnoringCase(
  db: Knex,
  builder: Knex.QueryBuilder,
  column: string,
  needle: string,
): Knex.QueryBuilder {
  const pattern = containsPattern(needle.toLowerCase());
  return isSqlite(db)
    ? builder.andWhereRaw(`${SQLITE_UNICODE_LOWER}(??) LIKE ? ESCAPE ?`, [column, pattern, LIKE_ESCAPE])
    : builder.andWhereRaw('LOWER(??) COLLATE utf8mb4_bin LIKE ? ESCAPE ?', [column, pattern, LIKE_ESCAPE]);
}

/**
 * Rows per multi-row INSERT of scans (and of the visitor and rollup rows of a scan batch).
 * On MySQL bigger statements cost less Node CPU per row
 * (measured: 1000-row chunks about 40% less than 200-row ones). SQLite inserts run
 * synchronously on the event loop, so there small chunks keep the redirect's p99 low.
 */
export function scanInsertChunk(db: Knex): number {
  return isSqlite(db) ? 200 : 1000;
}

/** The would-be-inserted row's column in an upsert's merge: MySQL's VALUES(col), SQLite's `excluded.col`. */
const incomingOf = (db: Knex) =>
  isSqlite(db) ? (c: string) => db.raw('excluded.??', [c]) : (c: string) => db.raw('VALUES(??)', [c]);

/**
 * The `merge` of an upsert that adds the inserted counts to the existing row's, for counters:
 * `insert(rows).onConflict(key).merge(addOnConflict(db, ['scans']))`.
 */
export function addOnConflict(db: Knex, columns: string[]): Record<string, Knex.Raw> {
  return combinedOnConflict(db, columns, '+');
}

/** The `merge` of an upsert that sets the inserted bits in the existing value (bitwise OR). */
export function orOnConflict(db: Knex, columns: string[]): Record<string, Knex.Raw> {
  return combinedOnConflict(db, columns, '|');
}

function combinedOnConflict(db: Knex, columns: string[], operator: '+' | '|'): Record<string, Knex.Raw> {
  const incoming = incomingOf(db);
  return Object.fromEntries(columns.map((c) => [c, db.raw(`?? ${operator} ?`, [c, incoming(c)])]));
}

/** The `merge` of an upsert that keeps the larger of the existing and the inserted value. */
export function greatestOnConflict(db: Knex, columns: string[]): Record<string, Knex.Raw> {
  const incoming = incomingOf(db);
  // SQLite's two-argument max() is a scalar function, as GREATEST is elsewhere.
  const greatest = isSqlite(db) ? 'max(??, ?)' : 'GREATEST(??, ?)';
  return Object.fromEntries(columns.map((c) => [c, db.raw(greatest, [c, incoming(c)])]));
}

/**
 * Inserts `rows`, skipping those whose `key` is taken, and answers how many it inserted: MySQL's
 * affected rows of INSERT IGNORE, SQLite's changes of INSERT … ON CONFLICT DO NOTHING. Knex's
 * insert answers neither, so the statement runs as raw SQL.
 */
export async function insertIgnoringTaken(
  q: Knex | Knex.Transaction,
  table: string,
  key: string[],
  rows: object[],
): Promise<number> {
  const { sql, bindings } = q(table).insert(rows).onConflict(key).ignore().toSQL().toNative();
  const result = await q.raw(sql, bindings);
  if (isSqlite(q)) return (result as { changes: number }).changes;
  return (result as [{ affectedRows: number }])[0].affectedRows;
}

/**
 * Claims up to `limit` rows of `table` for one worker and returns their ids: `pick` adds the
 * WHERE and ORDER BY, `mark` is set on the claimed rows. Concurrent workers, in this process or
 * in others, never claim the same row. MySQL/MariaDB: SELECT … FOR UPDATE SKIP LOCKED, then the
 * UPDATE, in one transaction, so a worker skips rows another is claiming instead of waiting.
 * SQLite: one UPDATE … WHERE id IN (SELECT … LIMIT) RETURNING id; SQLite takes its single write
 * lock before the statement reads, so the statement is atomic across processes too.
 */
export async function claimRows(
  db: Knex,
  table: string,
  pick: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  limit: number,
  mark: Record<string, unknown>,
): Promise<string[]> {
  if (isSqlite(db)) {
    const rows: { id: string }[] = await db(table)
      .whereIn('id', pick(db(table).select('id')).limit(limit))
      .update(mark, ['id']);
    return rows.map((row) => row.id);
  }
  return db.transaction(async (trx) => {
    const rows: { id: string }[] = await pick(trx(table).select('id')).limit(limit).forUpdate().skipLocked();
    const ids = rows.map((row) => row.id);
    if (ids.length > 0) await trx(table).whereIn('id', ids).update(mark);
    return ids;
  });
}
