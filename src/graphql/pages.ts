// Shapes shared by the modules' GraphQL lists and lookups: a service page as a Relay
// connection (forward only), and "none with this id" as null.
import { DomainError } from '../shared/errors.ts';

/** Refuses backward pagination: the services' keyset cursors only go forward. */
export function forwardOnly(args: { last?: number | null; before?: string | null }): void {
  if (args.last != null || args.before != null)
    throw new DomainError('validation_failed', 'Only forward pagination (first, after) is supported.');
}

/** A service's page (data, next cursor, cursor of an item) as a connection. */
export function connectionOf<T>(
  page: { data: T[]; nextCursor: string | null; cursorOf(item: T): string },
  after: string | null | undefined,
) {
  const edges = page.data.map((node) => ({ node, cursor: page.cursorOf(node) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** The lookup's answer, or null when it is a 404 (another account's ids included). */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return null;
    throw err;
  }
}
