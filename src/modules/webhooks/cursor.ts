// Opaque keyset cursors for webhook lists (newest first): the shared cursor format of
// codes/cursor.ts, keyed by creation time and id.
import { decodeCursor as decode, encodeCursor as encode } from '../codes/index.ts';
import type { Position } from './store.ts';

const SORT = '-created_at';

export function encodeCursor(item: { createdAt: Date; id: string }): string {
  return encode({ sort: SORT, key: item.createdAt.getTime(), id: item.id });
}

/** Decodes a cursor of this list; anything else is a 422 on `cursor`. */
export function decodeCursor(cursor: string): Position {
  const { key, id } = decode(cursor, SORT);
  return { key, id };
}
