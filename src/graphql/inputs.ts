/** Drops null and undefined fields, so the domain schemas see absent fields rather than nulls. */
export function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/**
 * A GraphQL input object in the shape the zod schemas take: camelCase names to snake_case
 * (`fgColor` -> `fg_color`), dates to ISO strings; absent fields and nulls dropped, except the
 * fields named in `nullClears`, where an explicit null means "remove" and is kept. One level:
 * nested objects are converted by the caller.
 */
export function snakeKeys(value: object, nullClears: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => v !== undefined && (v !== null || nullClears.includes(key)))
      .map(([key, v]) => [
        key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        v instanceof Date ? v.toISOString() : v,
      ]),
  );
}
