// The few places where MySQL/MariaDB and SQLite differ, each behind one named helper.

/** True when the error is a unique-key violation, whichever driver raised it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number } | null;
  if (!e) return false;
  // mysql2: ER_DUP_ENTRY (1062); better-sqlite3: SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY.
  return (
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062 ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
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
