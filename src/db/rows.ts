// One date representation: the database stores instants as integer milliseconds since the
// epoch (BIGINT on MySQL, INTEGER on SQLite), the domain uses Date, the API ISO 8601 strings.
// Integers sort, compare and range-filter the same on both engines and carry no time zone.

export function toMillis(date: Date): number {
  return date.getTime();
}

/** mysql2 may hand BIGINT back as a string when it is large; both cases become a Date. */
export function fromMillis(value: number | string | bigint): Date {
  return new Date(Number(value));
}

export function fromMillisOrNull(value: number | string | bigint | null | undefined): Date | null {
  return value === null || value === undefined ? null : fromMillis(value);
}

/** JSON columns are TEXT on both engines; stores parse and stringify through these. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(value: string | null): T | null {
  return value === null ? null : (JSON.parse(value) as T);
}

/**
 * A row as the driver hands it back: the store that selected it knows its columns and converts
 * them with the helpers above, so this is the one place a row is left untyped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type DbRow = Record<string, any>;
