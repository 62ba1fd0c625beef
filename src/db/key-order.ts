// Writers that lock several rows in one statement lock them in key order, so two concurrent
// batches over the same keys wait for each other instead of deadlocking (InnoDB, Galera).

/** Rows sorted by their key columns. */
export function inKeyOrder<T extends object>(rows: T[], key: string[]): T[] {
  const keyOf = (row: T) => key.map((k) => String((row as Record<string, unknown>)[k])).join('\u0000');
  return rows
    .map((row) => [keyOf(row), row] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}
