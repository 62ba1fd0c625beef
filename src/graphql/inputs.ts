/** Drops null and undefined fields, so the domain schemas see absent fields rather than nulls. */
export function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
