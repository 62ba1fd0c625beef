// Opaque keyset cursors: the sort key and id of the last item of a page. Keyset pagination
// never scans skipped rows and stays stable when rows are inserted between pages.
import { validationFailed } from '../../shared/errors.ts';
import type { CodeSort } from './schemas.ts';

/** The position of the last item of a page; raw scan export uses the same shape. */
export interface CursorPosition<S extends string = CodeSort> {
  sort: S;
  /** Sort key value in epoch milliseconds. */
  key: number;
  id: string;
}

export function encodeCursor<S extends string>(position: CursorPosition<S>): string {
  return Buffer.from(JSON.stringify([position.sort, position.key, position.id])).toString('base64url');
}

/** Decodes a cursor made for the same sort; anything else is a 422 on `cursor`. */
export function decodeCursor<S extends string>(cursor: string, sort: S): CursorPosition<S> {
  const invalid = () => validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [cursorSort, key, id] = parsed as unknown[];
  if (typeof key !== 'number' || !Number.isSafeInteger(key) || typeof id !== 'string' || id.length > 64)
    throw invalid();
  if (cursorSort !== sort) {
    throw validationFailed([
      { path: 'cursor', message: `was made for sort=${String(cursorSort)}; repeat that sort or start again` },
    ]);
  }
  return { sort, key, id };
}
